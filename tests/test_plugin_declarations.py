"""A rules writer's declaration mistakes are refused where they are made: a plug-in
with one does not load, and says in one line which file, line and field is wrong
(docs/plugins.md, "Errors"); built-in rules get the same checks."""

from __future__ import annotations

import collections.abc
import json
import typing
from pathlib import Path

import pytest

from cli_kit import one_line, run
from hammerlab.editions import get_ruleset, plugins, ruleset_names
from hammerlab.engine.rules import (
    DeclarationError,
    HookPoint,
    HookPointError,
    Hooks,
    Parameter,
    RuleOption,
    RuleSettingError,
    RuleSettings,
    install_rules,
    resolve_settings,
)
from hammerlab.errors import InputError
from hammerlab.io.scenario import load_scenario

SCENARIO = Path(__file__).resolve().parents[1] / "examples" / "guard_suppress_terminators.toml"


@pytest.mark.parametrize(
    ("declare", "message"),
    [
        (lambda: Parameter("n", 0, "s", "q", minimum=1, maximum=10),
         "Parameter('n').default: 0 is below its minimum 1"),
        (lambda: Parameter("n", 11, "s", "q", minimum=1, maximum=10),
         "Parameter('n').default: 11 is above its maximum 10"),
        (lambda: Parameter("t", "Pistol", "s", "q", choices=("Heavy", "Salvo")),
         "Parameter('t').default: 'Pistol' is not one of its choices: Heavy, Salvo"),
        (lambda: Parameter("n", 1, "s", "q", minimum=5, maximum=2),
         "Parameter('n').minimum: 5 is above the maximum 2"),
        (lambda: Parameter("t", "a", "s", "q", minimum=1),
         "Parameter('t').minimum: bounds are for int and float parameters, not str"),
        (lambda: Parameter("n", 1, "s", "q", choices=("1", "2")),
         "Parameter('n').choices: choices are for str parameters, not int"),
        (lambda: Parameter("n", None, "s", "q"),  # type: ignore[arg-type]
         "Parameter('n').default: None: a default is a bool, int, float or str"),
        (lambda: Parameter("min.wounds", 1, "s", "q"),
         "Parameter.name: 'min.wounds': a name is letters, digits and _ (no dot, no space)"),
        (lambda: RuleOption("my rule", "s", "q"),
         "RuleOption.name: 'my rule': a name is letters, digits and _ (no dot, no space)"),
        (lambda: RuleOption("r", "s", "q", parameters=(Parameter("n", 1, "s", "q"),) * 2),
         "RuleOption('r').parameters: two parameters named 'n'"),
        (lambda: RuleOption("r", "s", "q", parameters=("n",)),  # type: ignore[arg-type]
         "RuleOption('r').parameters: 'n' is not a Parameter"),
        # a plug-in author's review: refused only when played, before
        (lambda: RuleOption("r", "s", "q", install="install"),  # type: ignore[arg-type]
         "RuleOption('r').install: 'install' is not a function (install(hooks, settings))"),
    ],
)  # fmt: skip
def test_a_declaration_mistake_is_refused_where_it_is_made(declare: object, message: str) -> None:
    with pytest.raises(DeclarationError) as refused:
        declare()  # type: ignore[operator]
    assert str(refused.value) == message


def test_every_built_in_rule_passes_the_checks() -> None:
    # They were made when their editions were imported; made again, they pass.
    for name in ("waffle", "core11"):
        ruleset = get_ruleset(name)
        for option in ruleset.options:
            RuleOption(option.name, option.summary, option.quote, parameters=option.parameters)
        for parameter in ruleset.parameters:
            Parameter(parameter.name, parameter.default, "s", "q", parameter.minimum,
                      parameter.maximum, parameter.choices)  # fmt: skip


PLUGIN = """from hammerlab.engine.rules import Parameter, RuleOption
RULESET = "waffle"
MIN = Parameter("min_wounds", {default}, "s", "q", minimum=1, maximum=10)
KIND = Parameter("weapon_type", "Heavy", "s", "q", choices=("Heavy", "Salvo"))


def install(hooks, settings):
    settings.{reader}("{name}.{read}")


RULES = (
    RuleOption(
        "{name}", "s", "q",
        parameters=({parameters}),
        install=install,
    ),
)
"""


def _plugin(tmp_path: Path, name: str, **changes: str) -> Path:
    fields = {"default": "1", "reader": "integer", "read": "min_wounds", "parameters": "MIN, KIND"}
    path = tmp_path / f"{name}.py"
    path.write_text(PLUGIN.format(name=name, **{**fields, **changes}), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("name", "changes", "line", "problem"),
    [
        ("two_params", {"parameters": "MIN, KIND, MIN"}, 12,
         "RuleOption('two_params').parameters: two parameters named 'min_wounds'"),
        ("default_out", {"default": "0"}, 3,
         "Parameter('min_wounds').default: 0 is below its minimum 1"),
    ],
)  # fmt: skip
def test_a_plug_in_declaring_wrongly_does_not_load_and_names_file_line_and_field(
    name: str, changes: dict[str, str], line: int, problem: str, tmp_path: Path
) -> None:
    path = _plugin(tmp_path, name, **changes)
    code, _, err = run("rulesets", "--plugin", str(path))
    assert one_line(code, err, 1) == f"error: {path}:{line}: {problem}"
    assert name not in {o.name for o in get_ruleset("waffle").options}


def test_a_typed_reader_on_another_type_names_the_parameter_and_the_reader() -> None:
    settings = RuleSettings(values={"r.kind": "Heavy", "r.n": 2, "r.on": True})
    expected = {
        ("integer", "r.kind"): "r.kind is a parameter of type str (text): read it with "
        "settings.text('r.kind'), not settings.integer",
        ("flag", "r.n"): "r.n is a parameter of type int (a whole number): read it with "
        "settings.integer('r.n'), not settings.flag",
        ("number", "r.on"): "r.on is a parameter of type bool (on or off): read it with "
        "settings.flag('r.on'), not settings.number",
        ("text", "r.n"): "r.n is a parameter of type int (a whole number): read it with "
        "settings.integer('r.n'), not settings.text",
    }
    for (reader, name), message in expected.items():
        with pytest.raises(RuleSettingError) as refused:
            getattr(settings, reader)(name)
        assert str(refused.value) == message
    assert settings.number("r.n") == 2.0  # a whole number is a number


def test_a_plug_in_misreading_its_setting_is_one_line_naming_it(tmp_path: Path) -> None:
    path = _plugin(tmp_path, "misread", read="weapon_type")
    code, _, err = run("battle", str(SCENARIO), "--plugin", str(path), "--rule", "misread=on")
    assert one_line(code, err, 1) == (
        f"error: {path}: RULES[misread]: misread.weapon_type is a parameter of type str "
        "(text): read it with settings.text('misread.weapon_type'), not settings.integer"
    )


def test_a_built_in_rule_misreading_its_setting_is_not_blamed_on_a_file() -> None:
    def install(hooks: Hooks, settings: RuleSettings) -> None:
        settings.flag("inner.n")

    option = RuleOption("inner", "s", "q", parameters=(Parameter("n", 1, "s", "q"),),
                        install=install)  # fmt: skip
    settings = resolve_settings([option], [], {"inner": True})
    with pytest.raises(RuleSettingError, match=r"not settings\.flag$"):
        install_rules(Hooks(), [option], settings)


def test_a_plug_in_s_syntax_error_is_one_readable_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("RULESET = 'waffle'\n\ndef install(hooks, settings)\n    pass\n", "utf-8")
    code, _, err = run("rulesets", "--plugin", str(path))
    assert one_line(code, err, 1) == f"error: {path}:3: expected ':'"


def test_a_misspelt_ruleset_is_refused_naming_the_known_ones(tmp_path: Path) -> None:
    path = _plugin(tmp_path, "misspelt")
    path.write_text(path.read_text().replace('"waffle"', '"waffel"'), encoding="utf-8")
    code, _, err = run("rulesets", "--plugin", str(path))
    known = ", ".join(ruleset_names())
    assert one_line(code, err, 1) == (
        f"error: {path}: RULESET: unknown ruleset 'waffel'; known: {known}"
    )
    assert "misspelt" not in {o.name for o in get_ruleset("waffle").options}


@pytest.mark.parametrize(
    "command",
    [
        ["battle", str(SCENARIO), "--rule", "elsewhere_battle=on"],
        ["lab", str(SCENARIO), "--rule", "elsewhere_lab", "--runs", "2"],
        ["sweep", str(SCENARIO), "--vary", "elsewhere_sweep=on,off", "--runs", "2"],
        ["balance", str(SCENARIO), "--vary", "elsewhere_balance.min_wounds=1..3",
         "--target", "win_rate=0.5"],
    ],
)  # fmt: skip
def test_a_plug_in_for_another_ruleset_than_the_scenario_s_is_said(
    command: list[str], tmp_path: Path
) -> None:
    path = _plugin(tmp_path, f"elsewhere_{command[0]}")
    path.write_text(path.read_text().replace('"waffle"', '"core11"'), encoding="utf-8")
    code, _, err = run(*command, "--plugin", str(path))
    assert load_scenario(SCENARIO).ruleset == "waffle"
    assert one_line(code, err, 1) == (
        f"error: {path}: the plug-in is for core11; this scenario plays waffle"
    )


def test_an_unknown_rule_asks_whether_a_plug_in_was_meant_when_none_is_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(plugins, "_LOADED_FILES", {})  # as in a fresh process
    rules = tmp_path / "with_rules.toml"
    text = SCENARIO.read_text(encoding="utf-8")
    rules.write_text(text.replace("[rules]\n", '[rules]\n"nowhere.min_wounds" = 2\n'), "utf-8")
    hint = " (a plug-in's rule? add --plugin FILE)"
    for command, status in (
        (["battle", str(SCENARIO), "--rule", "nowhere=on"], 2),
        (["lab", str(SCENARIO), "--rule", "nowhere"], 2),
        (["sweep", str(SCENARIO), "--vary", "nowhere=on,off"], 2),
        (["battle", str(rules)], 1),
    ):
        code, _, err = run(*command)
        line = one_line(code, err, status)
        assert "unknown rule" in line and "'nowhere'" in line and line.endswith(hint), line
    path = _plugin(tmp_path, "somewhere")  # a plug-in given: the rule is not its
    code, _, err = run("battle", str(SCENARIO), "--plugin", str(path), "--rule", "nowhere=on")
    assert not one_line(code, err, 2).endswith(hint)


def test_one_rule_without_the_tuple_s_comma_is_said(tmp_path: Path) -> None:
    path = _plugin(tmp_path, "lone")
    path.write_text(path.read_text().replace("),\n)", ")\n)"), "utf-8")  # (RuleOption(...))
    code, _, err = run("rulesets", "--plugin", str(path))
    assert one_line(code, err, 1) == (
        f"error: {path}: RULES: a tuple of rules; one rule needs the comma: "
        "RULES = (RuleOption(...),)"
    )


def test_a_plug_in_whose_install_raises_stops_lab_and_sweep_with_one_line(
    tmp_path: Path,
) -> None:
    # A plug-in author's review: the lab and the sweep let the exception out as a
    # hundred-line traceback with no error line; battle said it in one.
    path = _plugin(tmp_path, "boom", read="min_wounds")
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            'settings.integer("boom.min_wounds")', 'raise RuntimeError("install boom")'
        ),
        encoding="utf-8",
    )
    line = f"error: {path}: RULES[boom]: its install failed: RuntimeError: install boom"
    for command in (
        ["lab", str(SCENARIO), "--rule", "boom", "--runs", "2"],
        ["sweep", str(SCENARIO), "--vary", "boom.min_wounds=1,2", "--runs", "2"],
    ):
        code, out, err = run(*command, "--plugin", str(path))
        assert code == 1 and out == ""
        assert err.splitlines()[0] == line
        assert "install boom" in err.splitlines()[-1]  # then where it failed


def test_a_plug_in_given_twice_is_recorded_once(tmp_path: Path) -> None:
    # A plug-in author's review: given as x.py and ./x.py it was loaded once but named
    # twice in the engine version, so its battles were stored apart.
    path = _plugin(tmp_path, "twice")
    again = tmp_path / "." / path.name
    code, out, err = run(
        "lab", str(SCENARIO), "--rule", "twice", "--runs", "2", "--json",
        "--plugin", str(path), "--plugin", str(again),
    )  # fmt: skip
    assert code == 0, err
    document = json.loads(out)
    assert [p["path"] for p in document["plugins"]] == [str(path.resolve())]
    assert document["engine_version"].count("twice.py@") == 1


ON_WAFFLE_POINT = """from hammerlab.editions.waffle.points import ARMOUR_SAVE
from hammerlab.engine.rules import Parameter, RuleOption
RULESET = "{ruleset}"
BONUS = Parameter("bonus", {default}, "s", "q", minimum=0, maximum=3)
def install(hooks, settings):
    if settings.integer("{name}.bonus"):
        hooks.add(ARMOUR_SAVE, lambda battle, unit, model, save: save)
RULES = (RuleOption("{name}", "s", "q", parameters=(BONUS,), install=install),)
"""
"""A rule that puts a handler on the Waffle Edition's ARMOUR_SAVE point unless its
``bonus`` is 0: with ``{default}`` 0, only a battle that sets it places one."""


def _on_waffle_point(tmp_path: Path, name: str, ruleset: str, default: int) -> Path:
    path = tmp_path / f"{name}.py"
    text = ON_WAFFLE_POINT.format(ruleset=ruleset, name=name, default=default)
    path.write_text(text, encoding="utf-8")
    return path


def _waffle_point_refused(path: Path, name: str) -> str:
    """docs/plugins.md, "Core Rules (11th edition)": the file, the rule, the point and
    the ruleset, in one line."""
    return (
        f"error: {path}: RULES[{name}]: installs a handler on waffle's hook point "
        "'armour save', which core11 does not have (docs/plugins.md lists each ruleset's points)"
    )


def test_a_core11_plug_in_on_a_waffle_hook_point_is_refused_when_it_loads(
    tmp_path: Path,
) -> None:
    # A tool builder's review: core11 calls no hook point, so the handler was never
    # called and the plug-in loaded without a word.
    path = _on_waffle_point(tmp_path, "c11_armour", "core11", 1)
    code, out, err = run("rulesets", "--plugin", str(path))
    assert one_line(code, err, 1) == _waffle_point_refused(path, "c11_armour") and out == ""
    assert "c11_armour" not in {o.name for o in get_ruleset("core11").options}
    # The same rule for waffle, whose point it is, loads.
    waffle = _on_waffle_point(tmp_path, "w_armour", "waffle", 1)
    assert run("rulesets", "--plugin", str(waffle))[0] == 0


def test_a_waffle_point_placed_only_under_a_setting_is_refused_when_a_battle_installs_it(
    tmp_path: Path,
) -> None:
    path = _on_waffle_point(tmp_path, "c11_later", "core11", 0)  # loads: no handler at 0
    scenario = SCENARIO.parent / "core11_normal_shooting.toml"
    assert load_scenario(scenario).ruleset == "core11"
    code, out, err = run(
        "battle", str(scenario), "--plugin", str(path), "--rule", "c11_later.bonus=2"
    )
    assert one_line(code, err, 1) == _waffle_point_refused(path, "c11_later") and out == ""


ON_LEADERSHIP = """from hammerlab.editions.waffle.points import LEADERSHIP
from hammerlab.engine.rules import RuleOption


def grit(battle, unit):
    return 10


def steady(battle, unit, ld, bonus=1):
    return ld + bonus


def install(hooks, settings):
    hooks.add(LEADERSHIP, {handler})


RULESET = "waffle"
RULES = (RuleOption("{name}", "s", "q", install=install),)
"""
"""A plug-in whose rule puts ``handler`` on ``LEADERSHIP``, whose handlers docs/plugins.md
gives as ``(battle, unit, ld) -> int``: three arguments."""


def _on_leadership(tmp_path: Path, name: str, handler: str) -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(ON_LEADERSHIP.format(name=name, handler=handler), encoding="utf-8")
    return path


WRONG_SHAPES = [
    ("grit", "installs grit(battle, unit) on waffle's hook point 'leadership', which "
     "calls handler(battle, unit, ld): a handler there takes 3 arguments"),
    ("10", "installs 10 on waffle's hook point 'leadership', which is not a function: "
     "the point calls handler(battle, unit, ld)"),
]  # fmt: skip


@pytest.mark.parametrize(("handler", "problem"), WRONG_SHAPES)
def test_a_handler_of_the_wrong_shape_is_refused_when_the_plug_in_loads(
    handler: str, problem: str, tmp_path: Path
) -> None:
    # A lead of session 21: a handler taking two arguments on a three-argument point
    # loaded, and the battle stopped mid-game with a TypeError and its traceback.
    name = f"shape_{handler.replace('1', 'n')}"
    path = _on_leadership(tmp_path, name, handler)
    code, out, err = run("battle", str(SCENARIO), "--plugin", str(path), "--rule", name)
    assert one_line(code, err, 1) == f"error: {path}: RULES[{name}]: {problem}" and out == ""
    assert name not in {o.name for o in get_ruleset("waffle").options}


@pytest.mark.parametrize(("handler", "problem"), WRONG_SHAPES)
def test_the_library_s_load_of_a_handler_of_the_wrong_shape_says_the_same(
    handler: str, problem: str, tmp_path: Path
) -> None:
    name = f"lib_{handler.replace('1', 'n')}"
    path = _on_leadership(tmp_path, name, handler)
    with pytest.raises(InputError) as refused:
        plugins.load_plugin_file(path)
    assert str(refused.value) == f"{path}: RULES[{name}]: {problem}"


def test_a_handler_that_takes_what_the_point_gives_loads(tmp_path: Path) -> None:
    # steady(battle, unit, ld, bonus=1): three arguments, a fourth with a default.
    path = _on_leadership(tmp_path, "steady_lead", "steady")
    assert plugins.load_plugin_file(path).rules == ("steady_lead",)


def test_each_waffle_point_s_arguments_are_those_of_its_handler_type() -> None:
    # What a point checks a handler against (HookPoint.takes) is as long as the
    # argument list of the Callable type its name is annotated with; a point whose
    # handlers are objects (a Protocol: a reaction, a shooting action, a watcher)
    # checks nothing this way.
    from hammerlab.editions.waffle import points, strength, toughness
    from hammerlab.editions.waffle.rules import suppressive_fire

    counted = 0
    for module in (points, strength, toughness, suppressive_fire):
        for name, hint in typing.get_type_hints(module).items():
            if typing.get_origin(hint) is not HookPoint:
                continue
            (handler,) = typing.get_args(hint)
            point = getattr(module, name)
            if typing.get_origin(handler) is collections.abc.Callable:
                arguments, _ = typing.get_args(handler)
                assert point.takes is not None and len(point.takes) == len(arguments), name
                counted += 1
            else:
                assert point.takes is None, name
    assert counted == 27  # the 33 points less the 6 whose handlers are objects


def test_a_handler_s_shape_is_read_once_per_code_and_a_wrong_one_is_still_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every battle installs its rules anew, most handlers closures made afresh of one
    # code; reading each one's signature cost a tenth of a steady Guard battle (session
    # 22, cProfile). A shape found to fit is remembered by its code; one that does not
    # fit is refused every time.
    import inspect

    from hammerlab.editions.waffle.points import LEADERSHIP
    from hammerlab.engine import rules as rules_module

    read: list[object] = []
    real = inspect.signature

    def counted(handler: typing.Any) -> inspect.Signature:
        read.append(handler)
        return real(handler)

    monkeypatch.setattr(rules_module.inspect, "signature", counted)

    def steadier(bonus: int) -> collections.abc.Callable[[object, object, int], int]:
        def handler(battle: object, unit: object, ld: int) -> int:
            return ld + bonus

        return handler

    def wrong(battle: object, unit: object) -> int:
        return 0

    for bonus in (1, 2, 3):
        Hooks("waffle").add(LEADERSHIP, steadier(bonus))
    assert len(read) == 1  # three closures of one code: its signature read once
    for _ in range(2):
        with pytest.raises(HookPointError, match="a handler there takes 3 arguments"):
            Hooks("waffle").add(LEADERSHIP, wrong)  # type: ignore[arg-type]
