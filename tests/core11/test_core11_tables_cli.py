"""``hammerlab tables`` for the 11th edition: its wound roll table, and the ruleset
named as ``units``, ``show`` and ``odds`` take it (``--ruleset``/``-r``) or as the
argument it always took.

Expected cells come from the rule as docs/rules/core11.md writes it ("S ≥ 2T 2+,
S > T 3+, S = T 4+, S < T 5+, S ≤ T/2 6+"), worked out below without the engine,
and a few read off by hand.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from hammerlab.cli.app import app


def by_the_doc(strength: int, toughness: int) -> str:
    """The roll docs/rules/core11.md gives, the doubled cases before the others."""
    if strength >= 2 * toughness:
        return "2+"
    if 2 * strength <= toughness:
        return "6+"
    if strength > toughness:
        return "3+"
    return "4+" if strength == toughness else "5+"


def test_the_core11_wound_roll_table_is_the_rule_for_every_strength_and_toughness() -> None:
    result = CliRunner().invoke(app, ["tables", "--ruleset", "core11", "--json"])
    assert result.exit_code == 0, result.output
    table = json.loads(result.stdout)["wound_roll"]
    scale = [str(n) for n in range(1, 13)]
    assert list(table) == scale and all(list(row) == scale for row in table.values())
    assert table == {s: {t: by_the_doc(int(s), int(t)) for t in scale} for s in scale}
    # By hand: S4 v T4 4+; S8 v T4 2+; S5 v T4 3+; S4 v T5 5+; S4 v T8 6+; S3 v T6 6+.
    cells = [table["4"]["4"], table["8"]["4"], table["5"]["4"], table["4"]["5"]]
    assert [*cells, table["4"]["8"], table["3"]["6"]] == ["4+", "2+", "3+", "5+", "6+", "6+"]


@pytest.mark.parametrize("edition", ["core11", "waffle"])
def test_the_ruleset_option_its_short_form_and_the_argument_give_the_same_tables(
    edition: str,
) -> None:
    outputs = {
        tuple(args): CliRunner().invoke(app, ["tables", *args])
        for args in ([edition], ["--ruleset", edition], ["-r", edition], [edition, "-r", edition])
    }
    assert all(r.exit_code == 0 for r in outputs.values())
    assert len({r.stdout for r in outputs.values()}) == 1
    text = outputs[(edition,)].stdout
    title = "Wound roll (Strength down" if edition == "core11" else "Melee To Hit"
    assert title in text


def test_the_tables_without_a_ruleset_are_the_waffle_edition_s() -> None:
    plain = CliRunner().invoke(app, ["tables"]).stdout
    assert plain == CliRunner().invoke(app, ["tables", "-r", "waffle"]).stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (
            ["core11", "-r", "waffle"],
            "error: --ruleset: 'waffle' differs from the RULESET argument 'core11'; name it once",
        ),
        (
            ["-r", "core11", "--rule", "overwhelming_strength=9"],
            "error: --rule: the core11 wound roll table reads no rule or parameter",
        ),
    ],
)
def test_a_ruleset_named_twice_or_a_rule_core11_does_not_read_is_one_usage_line(
    args: list[str], said: str
) -> None:
    result = CliRunner().invoke(app, ["tables", *args])
    assert result.exit_code == 2 and not result.stdout
    assert result.stderr == said + "\n"


def test_an_unknown_ruleset_names_those_with_tables() -> None:
    result = CliRunner().invoke(app, ["tables", "-r", "eldar"])
    assert result.exit_code == 1
    assert result.stderr == "error: no tables for 'eldar'; known: waffle, core11\n"
