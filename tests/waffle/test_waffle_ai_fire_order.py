"""The order a unit fires its weapons in (``shooting_plans.weapon_first``,
``expected.first_then_rest``), and the log's word for a weapon the casualties left
with nothing to fire at (``events.WeaponLeftUnfired``).

Seed 000, step 3: "Every model that wishes to shoot must be within range of at least
one visible model in the target unit", asked as each weapon is selected, after the
casualties of those before it (step 6 removes "the closest model" first). The
reviewer's case (session 23): a heavy bolter fired first slew the one Guardsman within
the boltguns' 24", and the eight boltguns never fired.

Every test below stands one heavy bolter Marine and four boltgun Marines in a row at
y = 10 (x = 30 to 38) on an open table, against Guardsmen (T4, 5+). Bases are 1" across,
so a gap is the centres' distance less 1". By hand: a boltgun beyond 12" fires one shot,
BS4 hits on 3+ (2/3), S4 wounds T4 on 4+ (1/2), AP5 leaves a 5+ no save: 1/3 of a
Guardsman per boltgun, 4/3 for four. The heavy bolter: 3 shots x 2/3 x (S5 on T4: 3+,
2/3), AP4, no save: 4/3 for its one model.
"""

from __future__ import annotations

import itertools
import random

import pytest
from conftest import (
    BOLT_PISTOL,
    BOLTGUN,
    FLAMER,
    FRAG_MISSILE,
    GUARD,
    HEAVY_BOLTER,
    LASCANNON,
    LASGUN,
    MARINE,
    MORTAR,
    STORM_BOLTER,
    TROOPER,
    A,
    B,
    Placed,
    all_dice_used,
    box,
    make_battle,
    make_unit,
    of_kind,
    profile,
    row,
    squad,
)

from hammerlab.editions.waffle import shooting_plans
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.attacks import firing_models
from hammerlab.editions.waffle.expected import even_either_way, first_then_rest
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.shooting import shooting_attack, weapon_choices
from hammerlab.editions.waffle.shooting_plans import ORDER_TIE, weapon_first
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Decision, DecisionContext
from hammerlab.engine.memo import decision_scope
from hammerlab.engine.units import Unit

THIRDS = 4 / 3
"""Expected Guardsmen slain by the heavy bolter, and by the four boltguns (module doc)."""


def marines(sidearm: bool = False) -> Unit:
    """The heavy bolter at (30, 10), boltguns at x = 32 to 38 (with bolt pistols)."""
    guns = [BOLTGUN, BOLT_PISTOL] if sidearm else [BOLTGUN]
    return make_unit(
        "m",
        A,
        [Placed(MARINE, [HEAVY_BOLTER], (30.0, 10.0))]
        + [Placed(MARINE, guns, at) for at in row(32.0, 10.0, 4)],
    )


def column_at_the_edge() -> Unit:
    """One Guardsman at (34, 33): 22" to 22.4" from every Marine (within 24"); four
    more at y = 38, 27" or more from every Marine (beyond 24", within 36")."""
    return make_unit(
        "g",
        B,
        [Placed(GUARD, [], (34.0, 33.0))] + [Placed(GUARD, [], at) for at in row(30.0, 38.0, 4)],
    )


def first_choice(battle: Battle) -> str:
    """The AI's first weapon for the Marines at the Guardsmen."""
    decision = Decision(
        kind="weapon",
        player=A,
        prompt="Select a weapon",
        choices=weapon_choices(("Heavy bolter", "Boltgun")),
        context=DecisionContext(unit="m", target="g"),
    )
    return decision.labels()[WaffleAI().choose(battle, decision)]


def test_a_volley_then_the_rest_is_read_off_the_target_it_leaves() -> None:
    # The heavy bolter first: 4/3 slain, then none of the boltguns fires (with one
    # Guardsman slain, or two, the nearest left is 27" away): 4/3 in all. The boltguns
    # first: 4/3, and the heavy bolter reaches the rest (36"): 8/3.
    shooter, target = marines(), column_at_the_edge()
    battle = make_battle(shooter, target)
    with decision_scope():
        hb_first = first_then_rest(
            battle, shooter, target, "Heavy bolter", ["Boltgun"], FireOrders()
        )
        boltguns_first = first_then_rest(
            battle, shooter, target, "Boltgun", ["Heavy bolter"], FireOrders()
        )
    assert hb_first == pytest.approx(THIRDS)
    assert boltguns_first == pytest.approx(2 * THIRDS)


def test_the_ai_fires_first_the_guns_the_first_kill_would_put_out_of_range() -> None:
    # Per firing model the heavy bolter is worth 4/3 and a boltgun 1/3, so the AI fired
    # the heavy bolter first; its expected kill is the one Guardsman the boltguns reach.
    battle = make_battle(marines(), column_at_the_edge())
    assert first_choice(battle) == "Boltgun"


def test_with_every_target_in_reach_the_most_per_firing_model_still_goes_first() -> None:
    # Five Guardsmen 15" off: whoever is slain first, every gun still reaches the rest,
    # beyond the boltguns' half range: either order is worth 8/3, and the heavy bolter
    # (4/3 a model) goes first, as before.
    battle = make_battle(marines(), squad("g", B, GUARD, [], row(30.0, 26.0, 5)))
    assert first_choice(battle) == "Heavy bolter"


def test_a_weapon_the_casualties_left_out_of_range_is_logged_unfired() -> None:
    # The heavy bolter fired first, as a player may: to-hit 6, 1, 1 (one hit on 3+),
    # to-wound 6 (3+), AP4 against 5+: no save. The Guardsman at (34, 33) is the closest
    # and is removed; the boltguns' nearest target is now (32, 38) from (32, 10): 28"
    # between centres, a 27" gap, beyond their 24", and their models have fired nothing.
    shooter, target = marines(), column_at_the_edge()
    battle = make_battle(shooter, target, dice=[6, 1, 1, 6], script_a=[("weapon", "Heavy bolter")])
    shooting_attack(battle, shooter, target, FireOrders())
    assert all_dice_used(battle)
    assert len(target.alive_models) == 4
    [unfired] = of_kind(battle, "unfired")
    assert (unfired.unit, unfired.weapon, unfired.target) == ("M [m]", "Boltgun", "G [g]")
    assert unfired.weapon_range == 24
    assert unfired.nearest == pytest.approx(27.0)
    assert unfired.text == (
        '  M [m] cannot fire Boltgun: no model of G [g] is within 24" any more '
        '(the nearest is 27.0" away)'
    )


def test_a_weapon_its_models_have_no_shot_left_for_is_not_logged_unfired() -> None:
    # Marines 10" from the Guardsmen with boltguns and bolt pistols: once the boltguns
    # fire (Rapid Fire within 12": two shots each, eight to-hit 1s) the pistols are not
    # offered, their models having fired their one weapon; the heavy bolter's three
    # shots miss too. No range was lost, so no word of it.
    shooter = marines(sidearm=True)
    target = squad("g", B, GUARD, [], row(30.0, 21.0, 5))
    battle = make_battle(
        shooter,
        target,
        dice=[1] * 8 + [1, 1, 1],
        script_a=[("weapon", "Boltgun"), ("weapon", "Heavy bolter")],
    )
    shooting_attack(battle, shooter, target, FireOrders())
    assert all_dice_used(battle)
    assert of_kind(battle, "unfired") == []


def test_the_rest_is_counted_for_the_models_the_first_weapon_left_a_shot() -> None:
    # Four Marines with boltguns and bolt pistols: two 10" from five Guardsmen (Rapid
    # Fire's two shots, the pistol in range), two 19" off (one boltgun shot, the pistol
    # out of range). Bolt pistols first: the near two fire them, 2 x 1/3; then only the
    # far two may fire their boltguns, 2 x 1/3: 4/3 in all (averaged over all four
    # boltguns, 6 shots / 4, the far two were credited 1/2 each: 5/3). Boltguns first:
    # 6 shots x 1/3 = 2, and no model has a shot left for its pistol.
    near, far = row(30.0, 10.0, 2), row(30.0, 1.0, 2)
    shooter = squad("m", A, MARINE, [BOLTGUN, BOLT_PISTOL], near + far)
    target = squad("g", B, GUARD, [], row(30.0, 21.0, 5))
    battle = make_battle(shooter, target)
    with decision_scope():
        pistols_first = first_then_rest(
            battle, shooter, target, "Bolt pistol", ["Boltgun"], FireOrders()
        )
        boltguns_first = first_then_rest(
            battle, shooter, target, "Boltgun", ["Bolt pistol"], FireOrders()
        )
    assert pistols_first == pytest.approx(4 / 3)
    assert boltguns_first == pytest.approx(2.0)


WEAPONS = [HEAVY_BOLTER, BOLTGUN, LASGUN, STORM_BOLTER, LASCANNON, FLAMER, FRAG_MISSILE, MORTAR]
"""Weapons a random shooter's models carry, one each (or a boltgun and a bolt pistol)."""
TARGETS = [GUARD, MARINE, TROOPER, profile("Ogryn", t=5, w=3, sv="5+"), profile("Hero", inv=4)]


def _random_pair_cases(rng: random.Random) -> tuple[Battle, Unit, Unit]:
    """Three to six shooters spread over the south half, each with a random weapon (one
    in four a boltgun and a bolt pistol), against one to three models of a random
    profile anywhere north of them, some in a ruin (a 4+ cover save)."""
    shooters = [
        Placed(
            MARINE,
            [BOLTGUN, BOLT_PISTOL] if rng.random() < 0.25 else [rng.choice(WEAPONS)],
            (rng.uniform(10, 60), rng.uniform(2, 12)),
        )
        for _ in range(rng.randint(3, 6))
    ]
    kind = rng.choice(TARGETS)
    targets = [
        Placed(kind, [], (rng.uniform(10, 60), rng.uniform(16, 46)))
        for _ in range(1 if rng.random() < 0.7 else rng.randint(2, 3))
    ]
    ruin = box("ruin", 20, 14, 40, 30, cover_save=4)
    unit, target = make_unit("m", A, shooters), make_unit("g", B, targets)
    return make_battle(unit, target, terrain=[ruin]), unit, target


def test_a_pair_even_either_way_is_estimated_alike_by_first_then_rest_itself() -> None:
    # expected.even_either_way: a target of one model, neither weapon's firing models
    # carrying the other (a Marine with a boltgun and a bolt pistol, in range of the
    # target with its boltgun, has no shot left for the pistol). Then a then b is
    # a + (1 - a) b, which reads b, not the copy left (its docstring): the estimator
    # itself gives both orders alike, rounding aside, whatever the range, sight, cover,
    # Blast or Barrage. The pairs it does not call even (two or three target models; a
    # firing model carrying both) are weighed, and among them the orders differ (so the
    # condition is not idle).
    rng = random.Random(24)
    even = differing = 0
    for _ in range(150):
        battle, unit, target = _random_pair_cases(rng)
        names = sorted({w.name for m in unit.models for w in m.weapons})
        with decision_scope():
            for one, other in itertools.combinations(names, 2):
                orders = FireOrders()
                ab = first_then_rest(battle, unit, target, one, [other], orders)
                ba = first_then_rest(battle, unit, target, other, [one], orders)
                shared = any(
                    m.weapon(second) is not None
                    for first, second in ((one, other), (other, one))
                    for m in firing_models(battle, unit, target, first, orders)
                )
                is_even = even_either_way(battle, unit, target, one, other, orders)
                assert is_even == (len(target.models) == 1 and not shared)
                if is_even:
                    even += 1
                    assert ab == pytest.approx(ba, abs=1e-12)
                elif abs(ab - ba) > ORDER_TIE:
                    differing += 1
    assert even > 300 and differing > 20


def test_a_pair_even_either_way_is_not_weighed_and_any_other_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # shooting_plans.weapon_first asks first_then_rest of the heavy bolter and the boltguns at two
    # Guardsmen 15" off, not at one (the pair is even: the heavy bolter, the most per
    # firing model, goes first); at one Guardsman it asks of the boltguns and the bolt
    # pistols the same Marines carry (a Marine firing one has no shot left for the other).
    weighed: list[tuple[str, str]] = []

    def counted(*args: object) -> float:
        weighed.append((str(args[3]), str(args[4])))
        return first_then_rest(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(shooting_plans, "first_then_rest", counted)
    cases = [
        (2, ["Heavy bolter", "Boltgun"], ("Boltgun", "['Heavy bolter']")),
        (1, ["Heavy bolter", "Boltgun"], None),
        (1, ["Boltgun", "Bolt pistol"], ("Bolt pistol", "['Boltgun']")),
    ]
    for guardsmen, names, asked in cases:
        weighed.clear()
        shooter = marines(sidearm=True)
        target = squad("g", B, GUARD, [], row(30.0, 26.0, guardsmen))
        battle = make_battle(shooter, target)
        with decision_scope():
            chosen = weapon_first(battle, shooter, target, names, [1.0, 0.5], FireOrders())
        assert chosen == names[0]
        assert (asked in weighed) if asked is not None else weighed == []
