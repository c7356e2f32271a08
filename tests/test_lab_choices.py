"""The lab reports how often the players chose what a rule change offers (issue 9)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hammerlab.analysis.choices import (
    ChoiceTally,
    Declining,
    RuleChoice,
    declines,
    names_rule,
    never_chosen,
    rule_choices,
)
from hammerlab.analysis.lab import arms, compare
from hammerlab.editions.plugins import load_plugin_file
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision
from hammerlab.io.scenario import load_scenario

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SUPPRESS = EXAMPLES / "guard_suppress_terminators.toml"
RUINS = EXAMPLES / "marines_vs_orks_ruins.toml"


class Second:
    """Always the second choice."""

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        return 1


def test_a_tally_counts_every_choice_offered_and_the_one_taken() -> None:
    tally = ChoiceTally(Second())
    decision = Decision("action", "A", "?", tuple(Choice(x, x) for x in ("shoot", "run", "hold")))
    assert tally.choose(None, decision) == 1  # type: ignore[arg-type]
    assert tally.choose(None, decision) == 1  # type: ignore[arg-type]
    assert tally.counts() == {
        "action: hold": (2, 0),
        "action: run": (2, 2),
        "action: shoot": (2, 0),
    }


def test_a_label_borne_by_two_choices_is_offered_once_a_decision() -> None:
    # Two targets of one name (two squads called alike), asked twice, with another
    # decision between: each label counts once per decision that offers it; the
    # one taken counts per time taken, of the kind it was taken in.
    tally = ChoiceTally(Second())
    twice = Decision("target", "A", "?", tuple(Choice(x, i) for i, x in enumerate("aab")))
    other = Decision("action", "A", "?", tuple(Choice(x, x) for x in ("a", "hold")))
    for decision in (twice, other, twice):
        tally.choose(None, decision)  # type: ignore[arg-type]
    assert tally.counts() == {
        "action: a": (1, 0),
        "action: hold": (1, 1),
        "target: a": (2, 2),
        "target: b": (2, 0),
    }


class Preferring:
    """The first choice whose label comes first in ``order``."""

    def __init__(self, *order: str) -> None:
        self.order = order

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        labels = decision.labels()
        return min(range(len(labels)), key=lambda i: self.order.index(labels[i]))


def test_declining_asks_again_without_the_declined_choice() -> None:
    decision = Decision(
        "action", "A", "?", tuple(Choice(x, x) for x in ("shoot", "suppressive fire", "hold"))
    )
    inner = Preferring("suppressive fire", "hold", "shoot")
    # The inner player suppresses; declining it, its next preference, "hold" (index
    # 2 of the whole decision, though 1 of the decision it was asked again).
    assert Declining(inner, "action: suppressive fire").choose(None, decision) == 2  # type: ignore[arg-type]
    # Another choice declined, or the same label of another kind: its own answer.
    assert Declining(inner, "action: hold").choose(None, decision) == 1  # type: ignore[arg-type]
    assert Declining(inner, "weapon: suppressive fire").choose(None, decision) == 1  # type: ignore[arg-type]
    # Nothing else offered: the declined choice all the same.
    alone = Decision("action", "A", "?", (Choice("suppressive fire", "suppressive fire"),))
    assert Declining(inner, "action: suppressive fire").choose(None, alone) == 0  # type: ignore[arg-type]


class Refusing:
    """A player that cannot answer a decision without its first choice (as an AI
    handler that looks its pick up by label would fail)."""

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        assert decision.labels()[0] == "Fiery Charge", "asked again"
        return 0


def test_declining_one_of_two_takes_the_other_unasked() -> None:
    decision = Decision(
        "fiery_charge", "A", "?", tuple(Choice(x, x) for x in ("Fiery Charge", "no Fiery Charge"))
    )
    assert Declining(Refusing(), "fiery_charge: Fiery Charge").choose(None, decision) == 1  # type: ignore[arg-type]


def test_the_choices_listed_are_those_named_after_a_rule_of_the_experiment() -> None:
    # "fiery_charge: ..." names fiery_charge (the decision's kind) and "action:
    # suppressive fire" suppressive_fire (the label): both listed, with both arms'
    # counts, though the second was offered alike in both. "melee_weapon: Big choppa",
    # offered in one arm only (the battles parted ways), names neither: left out.
    baseline = {"action: suppressive fire": (5, 2), "melee_weapon: Big choppa": (1, 1)}
    variant = {"action: suppressive fire": (5, 2), "fiery_charge: Fiery Charge": (4, 1)}
    assert rule_choices(baseline, variant, {"fiery_charge", "suppressive_fire"}) == (
        RuleChoice("action: suppressive fire", 5, 2, 5, 2),
        RuleChoice("fiery_charge: Fiery Charge", 0, 0, 4, 1),
    )
    assert rule_choices(baseline, variant, set()) == ()


@pytest.mark.parametrize(
    ("choice", "rule", "named"),
    [
        ("fiery_charge: no Fiery Charge", "fiery_charge", True),
        ("reaction: Return Fire!", "return_fire", True),
        ("charge_reaction: Fire Overwatch", "overwatch", True),
        ("reaction: Dive for Cover", "dive_for_cover", True),
        ("final_shot: Final Shot", "final_shot", True),
        ("action: suppressive fire", "suppressive_pinning", False),
        ("action: shoot", "suppressive_fire", False),
        ("charge_reaction: Fire Overwatch", "fire", True),  # whole words, in a row
        ("reaction: Return Fire!", "fire_return", False),
        ("weapon: Shoota", "shoot", False),  # a word, not a part of one
        # A kind names the rule whose whole name it is, not every rule whose name
        # begins it (a rules writer's review, session 24).
        ("dread_roar: Roar", "dread_roar", True),
        ("dread_roar: no Roar", "dread", False),
        ("charge_reaction: Hold", "charge", False),
    ],
)
def test_a_choice_names_a_rule_by_its_words(choice: str, rule: str, named: bool) -> None:
    assert names_rule(choice, rule) is named


def test_the_lab_reports_how_often_suppressive_fire_was_chosen() -> None:
    # Seed 000: Suppressive Fire is an action a unit may take instead of
    # shooting; with the rule off it is never offered, with it on every Guard
    # squad choosing its action is offered it.
    spec = load_scenario(SUPPRESS)
    report = compare(spec, str(SUPPRESS), arms(spec, ["suppressive_fire"]), runs=3)
    rows = {c.choice: c for c in report.choices}
    suppress = rows["action: suppressive fire"]
    assert (suppress.baseline_offered, suppress.baseline_chosen) == (0, 0)
    assert suppress.variant_offered > 0
    assert 0 <= suppress.variant_chosen <= suppress.variant_offered
    assert report.to_dict()["rule_choices"][0]["choice"] == "action: suppressive fire"


def test_a_rule_that_is_never_offered_reports_no_choice() -> None:
    # Fiery Charge is offered after a charge; the ruins scenario has no
    # assault phase, so the rule offers nothing and the report lists nothing.
    spec = load_scenario(RUINS)
    report = compare(spec, str(RUINS), arms(spec, ["fiery_charge"]), runs=2)
    assert report.choices == ()


# --- a decline never taken is not a rule never used (user review, thirteenth session) ---

FIERY = EXAMPLES / "lab_fiery_charge_boyz.toml"
NEVER = "; where it is what the rule offers, the rule never came into play"


@pytest.mark.parametrize(
    ("choice", "declining"),
    [
        ("final_shot: No", True),
        ("fiery_charge: no Fiery Charge", True),
        ("jink: no jink", True),
        ("charge_reaction: no reaction", True),
        ("lethal: decline", True),
        ("final_shot: Final Shot", False),
        ("fiery_charge: Fiery Charge", False),
        ("action: suppressive fire", False),
        ("deploy: North edge", False),  # "north" is not "no"
        ("weapon: stop", False),
    ],
)
def test_a_decline_is_a_label_that_begins_with_no(choice: str, declining: bool) -> None:
    assert declines(choice) is declining


def test_a_decline_never_taken_where_the_rule_s_choice_was_taken_gets_no_warning() -> None:
    # The review's lone lascannon: Final Shot offered 55 times and taken 55 times,
    # so its "No" was never taken; the rule came into play every time.
    assert never_chosen({"final_shot: Final Shot": (55, 55), "final_shot: No": (55, 0)}, "x") == []
    taken = {"fiery_charge: Fiery Charge": (58, 58), "fiery_charge: no Fiery Charge": (58, 0)}
    assert never_chosen(taken, "in neither arm") == []


def test_a_rule_s_choice_never_taken_is_still_warned_of() -> None:
    # The AI always declined: the rule never came into play, whatever the decline's counts.
    declined = {"fiery_charge: Fiery Charge": (58, 0), "fiery_charge: no Fiery Charge": (58, 58)}
    assert never_chosen(declined, "in neither arm") == [
        f"warning: fiery_charge: Fiery Charge was offered 58 times and chosen in neither arm{NEVER}"
    ]
    # Two rules' choices of one decision kind: one taken does not excuse the other,
    # which is no decline.
    reactions = {"reaction: Return Fire!": (10, 4), "reaction: Dive for Cover": (10, 0)}
    assert never_chosen(reactions, "at no point") == [
        f"warning: reaction: Dive for Cover was offered 10 times and chosen at no point{NEVER}"
    ]
    # A decline never taken whose decision's other choice was not taken either (or
    # is not counted) says nothing of the rule's use: it is warned of as before.
    assert never_chosen({"final_shot: No": (3, 0)}, "x") == [
        f"warning: final_shot: No was offered 3 times and chosen x{NEVER}"
    ]
    # Another kind's choice taken does not excuse a decline either.
    other = {"final_blow: Final Blow": (2, 2), "final_shot: No": (3, 0)}
    assert never_chosen(other, "x") == [
        f"warning: final_shot: No was offered 3 times and chosen x{NEVER}"
    ]


def test_the_lab_does_not_warn_when_fiery_charge_was_taken_every_time_it_was_offered() -> None:
    # The review: `lab examples/lab_fiery_charge_boyz.toml --rule fiery_charge` showed
    # "Fiery Charge chosen 58 of 58", then warned that "no Fiery Charge" was chosen
    # in neither arm and that the rule never came into play.
    spec = load_scenario(FIERY)
    report = compare(spec, str(FIERY), arms(spec, ["fiery_charge"]), runs=3)
    rows = {c.choice: c for c in report.choices}
    fiery, declined = rows["fiery_charge: Fiery Charge"], rows["fiery_charge: no Fiery Charge"]
    assert fiery.variant_offered > 0 and fiery.variant_chosen == fiery.variant_offered
    assert (declined.variant_offered, declined.variant_chosen) == (fiery.variant_offered, 0)
    assert report.unused == ()
    assert not [w for w in report.to_dict()["warnings"] if NEVER in w]


# --- the rules the experiment gives, not the file's (a rules writer's review, session 21) ---

STEADY_AIM = EXAMPLES / "rules" / "steady_aim.py"


def test_a_rule_only_the_scenario_file_sets_is_neither_listed_nor_warned_of() -> None:
    # The Guard example's [rules] switch Suppressive Fire on, and no side takes it
    # there (docs/lab/README.md, study 1). Comparing a plug-in that offers no choice
    # (steady_aim re-rolls To Hit 1s) listed "action: suppressive fire, chosen 0 of
    # 15" and warned that "the rule never came into play", though neither --rule nor
    # --set named it: a sweep of the same plug-in lists nothing (its axes' rules).
    load_plugin_file(STEADY_AIM)  # its rule known to arms(), as --plugin makes it
    spec = load_scenario(SUPPRESS)
    plugins = [str(STEADY_AIM)]
    report = compare(spec, str(SUPPRESS), arms(spec, ["steady_aim"]), 3, plugins=plugins)
    assert report.choices == () and report.unused == ()
    assert report.to_dict()["warnings"] == []
    # Given to --set, the same rule is the experiment's: its choice is listed, and
    # warned of, still never taken.
    experiment = arms(spec, ["steady_aim"], ["suppressive_fire=on"])
    report = compare(spec, str(SUPPRESS), experiment, 3, plugins=plugins)
    assert [c.choice for c in report.choices] == ["action: suppressive fire"]
    assert report.unused and "action: suppressive fire" in report.unused[0]


# --- a rule's name is whole: not the start of another's (a rules writer's review, s24) ---

DREAD = """from hammerlab.editions.waffle.points import END_OF_TURN, LEADERSHIP
from hammerlab.engine.decisions import Choice, Decision
from hammerlab.engine.rules import Parameter, RuleOption

PENALTY = Parameter("penalty", 1, "Leadership lost", "House rule", minimum=0, maximum=5)


def install(hooks, settings):
    penalty = settings.integer("dread.penalty")
    hooks.add(LEADERSHIP, lambda battle, unit, ld: max(2, ld - penalty))


def install_roar(hooks, settings):
    def roar(battle, player):
        battle.decide(Decision(kind="dread_roar", player=player, prompt="Roar?",
                               choices=(Choice("Roar", True), Choice("no Roar", False))))

    hooks.add(END_OF_TURN, roar)


RULESET = "waffle"
RULES = (
    RuleOption("dread", "Leadership lost", "House rule", parameters=(PENALTY,), install=install),
    RuleOption("dread_roar", "A roar", "House rule", install=install_roar),
)
"""


def test_a_rule_whose_name_begins_another_s_does_not_claim_its_choices(tmp_path: Path) -> None:
    # The file's [rules] switch dread_roar on; the experiment concerns dread alone, so
    # dread_roar's choices (kind dread_roar) are neither listed nor warned of, in the
    # lab, the sweep or results (docs/plugins.md: "a rule only the scenario file's
    # [rules] switch on is not listed"). Given to --set, they are.
    import json

    from cli_kit import run

    plugin = tmp_path / "dread.py"
    plugin.write_text(DREAD, "utf-8")
    scenario = tmp_path / "roar.toml"
    matchup = EXAMPLES / "matchups" / "boyz_vs_tactical.toml"
    scenario.write_text(matchup.read_text("utf-8") + "\n[rules]\ndread_roar = true\n", "utf-8")
    given = (str(scenario), "--plugin", str(plugin), "--runs", "2", "--json")
    code, out, err = run("lab", *given, "--rule", "dread.penalty=3")
    assert code == 0, err
    lab = json.loads(out)
    assert lab["rule_choices"] == []
    assert not [w for w in lab["warnings"] if "dread" in w]
    code, out, err = run("lab", *given, "--rule", "dread.penalty=3", "--set", "dread_roar=on")
    assert code == 0, err
    listed = {c["choice"] for c in json.loads(out)["rule_choices"]}
    assert listed == {"dread_roar: Roar", "dread_roar: no Roar"}
    store = tmp_path / "runs"
    code, out, err = run("sweep", *given, "--vary", "dread.penalty=1,3", "--out", str(store))
    assert code == 0, err
    assert [p["rule_choices"] for p in json.loads(out)["points"]] == [[], []]
    code, out, err = run("results", str(store), "--json")
    assert code == 0, err
    assert [p["rule_choices"] for p in json.loads(out)["points"]] == [[], []]
