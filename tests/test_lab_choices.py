"""The lab reports how often the players chose what a rule change offers (issue 9)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hammerlab.analysis.choices import ChoiceTally, Declining, RuleChoice, rule_choices
from hammerlab.analysis.lab import arms, compare
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


def test_only_choices_offered_in_one_arm_are_the_rule_s() -> None:
    # "x: a" is offered in both arms (a choice of the rules both play with);
    # "y: b" only without the change, "z: c" only with it.
    baseline = {"x: a": (3, 1), "y: b": (2, 0)}
    variant = {"x: a": (5, 2), "z: c": (4, 1)}
    assert rule_choices(baseline, variant) == (
        RuleChoice("y: b", 2, 0, 0, 0),
        RuleChoice("z: c", 0, 0, 4, 1),
    )


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
