"""The core11 AI takes a shooting type, a reactive shooting and a redirection on
their merits: the wounds each is expected to take off, by hand below (damage
beyond a model's wounds is lost: ten shots at five one-wound models take five
at most).

Every weapon is a test gun with no keyword but those named; no terrain gives
cover but the wall, which blocks sight. 11th-edition chart: a hit on BS or
better; S vs T wounds on 2+ (S >= 2T), 3+ (S > T), 4+ (S = T), 5+ (S < T),
6+ (S <= T/2); an AP 0 attack is saved on Sv or better.
"""

from __future__ import annotations

from math import comb
from typing import Any

import pytest
from core11_kit import battle, game, gun, place, sheet

from hammerlab.editions.core11.abilities import (
    REACTIVE_SHOOTING,
    REDIRECTION,
    return_fire_control,
)
from hammerlab.editions.core11.ai import Core11AI, redirect_pays
from hammerlab.editions.core11.shooting import SHOOTING_TYPES, eligible_types
from hammerlab.editions.core11.shooting_worth import volley_worth
from hammerlab.engine.battlefield import TerrainArea
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.units import Unit

NORMAL, INDIRECT = SHOOTING_TYPES[0].control, SHOOTING_TYPES[3].control
MORTAR = gun("mortar", 48, "4", bs=4, strength=5, keywords=["INDIRECT FIRE"])
WALL = TerrainArea(
    "Wall", ((30.0, 0.0), (31.0, 0.0), (31.0, 20.0), (30.0, 20.0)), blocks_sight=True
)


def _capped(attacks: int, p: float, models: int) -> float:
    """The expected models of one wound slain by ``attacks`` attacks that each slay
    one with chance ``p``, at most ``models``: Σ min(k, models) C(n, k) p^k (1-p)^(n-k)."""
    return sum(
        min(k, models) * comb(attacks, k) * p**k * (1 - p) ** (attacks - k)
        for k in range(attacks + 1)
    )


def _mortar_facing(crowd_in_sight: bool) -> tuple[Any, Unit]:
    """A stationary mortar at (10, 10) (1 model, A4 BS4+ S5 AP0 D1, [INDIRECT FIRE]);
    a tank (T10 Sv3+ W10) in the open at (10, 30); a crowd (five T3 Sv6+ W1 models)
    hidden behind the wall (x 30 to 31, y 0 to 20) at (40, 10), or in the open at
    (20, 30)."""
    mortar = place("m", sheet("Mortar", 1, [MORTAR]), "A", (10, 10))
    tank = place("t", sheet("Tank", 1, toughness=10, save=3, wounds=10, keywords=["VEHICLE"]),
                 "B", (10, 30))  # fmt: skip
    crowd_at = (20, 30) if crowd_in_sight else (40, 10)
    crowd = place("c", sheet("Crowd", 5, toughness=3, save=6), "B", crowd_at)
    return game(battle([mortar, tank, crowd], terrain=[WALL])), mortar


def _type_choice(played: Any, unit: Unit) -> str:
    types = eligible_types(played, unit)
    decision = Decision(
        "shooting-type", "A", "type?", tuple(Choice(t.name, t) for t in types),
        DecisionContext(unit=unit.id),
    )  # fmt: skip
    return decision.choices[Core11AI().choose(played.battle, decision)].label


def test_indirect_shooting_at_a_hidden_crowd_beats_normal_shooting_at_a_tank() -> None:
    played, mortar = _mortar_facing(crowd_in_sight=False)
    # Normal: only the tank is seen. Hit 4+ (1/2), S5 vs T10 wounds on 6+ (1/6),
    # Sv3+ fails 1/3: 4 x 1/36 = 1/9.
    assert volley_worth(played, mortar, NORMAL) == pytest.approx(1 / 9)
    # Indirect at the crowd, seen by no unit of A's: "An unmodified hit roll of 1-5
    # fails" (1/6 hit), S5 vs T3 wounds on 3+ (2/3), Sv6+ fails 5/6 (cover worsens
    # the BS, which a 6 beats anyway): 4 x 10/108 = 10/27. At the tank it does less
    # (at most 4 x 1/2 x 1/6 x 1/3), so the crowd is the weapon's target.
    assert volley_worth(played, mortar, INDIRECT) == pytest.approx(10 / 27)
    # The mortar sees the tank, so "indirect only when blind" took Normal shooting.
    assert _type_choice(played, mortar) == "indirect"


def test_normal_shooting_at_a_crowd_in_the_open_beats_indirect_shooting() -> None:
    played, mortar = _mortar_facing(crowd_in_sight=True)
    # Normal at the crowd: 1/2 x 2/3 x 5/6 a shot, 4 shots: 10/9.
    assert volley_worth(played, mortar, NORMAL) == pytest.approx(10 / 9)
    assert volley_worth(played, mortar, INDIRECT) < 10 / 9  # its hit rolls fail on 1-3 at best
    assert _type_choice(played, mortar) == "normal"


def _reaction(played: Any, why: str, bearer: str, attacker: str) -> str:
    decision = Decision(
        "reaction", "B", "use it?", (Choice("use", True), Choice("decline", False)),
        DecisionContext(unit=bearer, attacker=attacker, what="a reaction", why=why),
    )  # fmt: skip
    return decision.choices[Core11AI().choose(played.battle, decision)].label


@pytest.mark.parametrize(("gap", "expected"), [(10, "use"), (20, "decline")])
def test_a_reactive_shooting_is_kept_when_the_bearer_cannot_reach_the_attacker(
    gap: int, expected: str
) -> None:
    shooters = place("a", sheet("Gunline", 5, [gun("rifle", 24, "2")]), "A", (30, 10))
    bearer = place("r", sheet("Rider", 1, [gun("carbine", 12, "2")]), "B", (30, 10 + gap))
    played = game(battle([shooters, bearer]))
    # In reach (10" centre to centre, under 12"): 2 shots, hit 3+ (2/3), S4 vs T4
    # (1/2), Sv3+ fails 1/3: 2/9. Out of reach: nothing, so it is kept for later.
    worth = volley_worth(played, bearer, return_fire_control("a"))
    assert worth == pytest.approx(2 / 9 if gap == 10 else 0.0)
    assert _reaction(played, REACTIVE_SHOOTING, "r", "a") == expected


@pytest.mark.parametrize(
    ("other", "expected"),
    [({"save": 6}, "decline"), ({"save": 2, "toughness": 8}, "use")],
)
def test_a_redirection_is_used_only_when_the_attack_would_do_less_elsewhere(
    other: dict[str, int], expected: str
) -> None:
    shooters = place("a", sheet("Gunline", 5, [gun("rifle", 24, "2")]), "A", (30, 10))
    screen = place("x", sheet("Screen", 5), "B", (30, 20))
    far = place("y", sheet("Other", 5, **other), "B", (16, 18))
    played = game(battle([shooters, screen, far]))
    # Ten rifle shots, hit 3+ (2/3), at units of five one-wound models (no more than
    # five slain). At the screen (T4 Sv3+): each slays with 2/3 x 1/2 x 1/3 = 1/9,
    # about 10/9 in all. At a T4 Sv6+ unit: 2/3 x 1/2 x 5/6 = 5/18 each, about 25/9,
    # more, so redirecting costs; at a T8 Sv2+ one: 2/3 x 1/6 x 1/6 = 1/54 each,
    # about 5/27, less, so it pays.
    assert redirect_pays(played, screen, shooters) == (expected == "use")
    at_screen = volley_worth(played, shooters, NORMAL, lambda t: t.id == "x")
    assert at_screen == pytest.approx(_capped(10, 1 / 9, 5))
    assert at_screen < 10 / 9  # a sixth wound or more would find no model left
    assert _reaction(played, REDIRECTION, "x", "a") == expected
