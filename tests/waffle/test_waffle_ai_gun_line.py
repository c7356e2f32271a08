"""A gun line holds only when a move costs its shooting more than it brings
(``move_plans.holds_for_its_guns``, docs/ai.md "The gun line weighs the move");
with the lever ``weighs_the_move`` off it holds whenever a Heavy weapon reaches
a target, as before.

Hand values: BS3 hits on 4+ (1/2); Waffle's Snap Shots halve BS, "always round
down to a minimum of BS 1" (seed 000), so BS1 hits on 6+ (1/6). The 6th/7th
edition to-wound chart: S3 v T3 4+ (1/2), S5 v T3 2+ (5/6), S3 v T4 5+ (1/3),
S5 v T4 3+ (2/3). A lasgun is Rapid Fire 24" (two shots within 12"), a heavy
bolter Heavy 3 (Snap Shots after moving), a mortar Heavy 1 Blast (no Snap
Shots at all). Troopers and Brutes have no save; a 4+ cover save, where the
line of fire crosses the wall, saves half. Bases are 1" across, so two models
whose centres are ``d`` apart stand ``d - 1`` apart.

The squad stands in a row from x 30 to 48 (its centre at x 39), the enemy in a
row from x 39 on: an advance heads for the closest enemy model, the first of
the closest pairs (the Guardsman at x 38 and the enemy at x 39), so it moves
the squad 6" straight up. A Guardsman ``dx`` to the side of the enemy's first
model and ``dy`` below its row stands sqrt(dx² + dy²) - 1 from it.
"""

from __future__ import annotations

import pytest
from conftest import (
    BRUTE,
    GUARD,
    HEAVY_BOLTER,
    LASGUN,
    MORTAR,
    TROOPER,
    WALKER,
    A,
    B,
    Placed,
    box,
    make_battle,
    make_unit,
    row,
    squad,
)
from test_waffle_ai_victory_worth import move_intent

from hammerlab.editions.schedule import Schedule, record_schedule
from hammerlab.editions.waffle import move_plans
from hammerlab.editions.waffle.ai import WaffleAI
from hammerlab.editions.waffle.charge import charge_distance
from hammerlab.editions.waffle.move_plans import (
    BestVolley,
    best_target,
    charge_threat,
    expected_advance,
    holds_for_its_guns,
    next_volley_kept,
    shifted_copy,
)
from hammerlab.editions.waffle.movement import advance_shift
from hammerlab.editions.waffle.plans import counter_charge_chance
from hammerlab.engine.battle import Battle
from hammerlab.engine.battlefield import TerrainArea
from hammerlab.engine.units import Unit

NO_CHARGES = ("movement", "shooting")
WHOLE_TURN = ("movement", "shooting", "assault")
UNWEIGHED = WaffleAI(escapes_only=False, weighs_the_move=False)


def _weighed(battle: Battle) -> str:
    """The squad's move, the heuristic's default (the lever on)."""
    return move_intent(battle, "g")


WALL = box("Wall", 20, 11, 60, 12, cover_save=4)
"""Just in front of the squad's row (y 10), across the whole table's middle."""


def _infantry_squad() -> Unit:
    """A heavy bolter and nine lasguns, in a row at y 10."""
    points = row(30, 10, 10)
    return make_unit(
        "g",
        A,
        [Placed(GUARD, [HEAVY_BOLTER], points[0])]
        + [Placed(GUARD, [LASGUN], p) for p in points[1:]],
    )


def _facing(enemy: Unit, phases: tuple[str, ...], terrain: tuple[TerrainArea, ...] = ()) -> Battle:
    battle = make_battle(_infantry_squad(), enemy, seed=1, terrain=terrain)
    battle.phase = "movement"
    record_schedule(battle, Schedule(1, phases, ("A", "B")))
    return battle


def _advanced(battle: Battle, unit: Unit, moved: bool = True) -> Unit:
    """A copy of ``unit`` where its advance would leave it, counted as having moved
    (this turn's volley) or not (next turn, standing there)."""
    copied = shifted_copy(unit, advance_shift(battle, unit, 6.0))
    copied.status.moved = moved
    return copied


def test_a_squad_advances_where_a_move_doubles_its_lasguns() -> None:
    # Ten Troopers 17" up (16" to 18.2" away, all in range). Held: the heavy
    # bolter 3 x 1/2 x 5/6 = 1.25, the lasguns 9 x 1/2 x 1/2 = 2.25. Advanced
    # 6" (11" below them): the heavy bolter's Snap Shots 3 x 1/6 x 5/6 = 5/12;
    # the lasgun at x 32 is sqrt(49 + 121) - 1 = 12.04" away, one shot, the
    # other eight within 12" (x 34: sqrt(25 + 121) - 1 = 11.08"), two shots
    # each: 17 x 1/4.
    battle = _facing(squad("t", B, TROOPER, [], row(39, 27, 10)), NO_CHARGES)
    gunners = battle.unit("g")
    assert advance_shift(battle, gunners, 6.0) == pytest.approx((0.0, 6.0))
    assert best_target(battle, gunners).value == pytest.approx(1.25 + 2.25)
    assert best_target(battle, _advanced(battle, gunners)).value == pytest.approx(5 / 12 + 17 / 4)
    assert not holds_for_its_guns(battle, gunners, True)
    assert _weighed(battle) == "advance"
    assert holds_for_its_guns(battle, gunners, False)  # the lever off: the heavy bolter reaches
    assert move_intent(battle, "g", UNWEIGHED) == "hold"


def test_a_squad_holds_where_a_move_only_costs_its_heavy_bolter() -> None:
    # Ten Troopers 23" up (22" to 23.7" away): held 3.5 as above; advanced 6",
    # 16" or more away, the lasguns still fire once each, 2.25, and the heavy
    # bolter 5/12.
    battle = _facing(squad("t", B, TROOPER, [], row(39, 33, 10)), NO_CHARGES)
    gunners = battle.unit("g")
    assert best_target(battle, _advanced(battle, gunners)).value == pytest.approx(5 / 12 + 2.25)
    assert holds_for_its_guns(battle, gunners, True)
    assert _weighed(battle) == "hold"


def test_behind_its_own_wall_the_same_squad_advances_to_fire_past_it() -> None:
    # The same Troopers 23" up, the squad just behind a wall that gives 4+
    # cover to a target seen across it. Held, every shot crosses the wall:
    # 3.5 x 1/2 = 1.75. Advanced 6", the squad stands past the wall: 2.25 +
    # 5/12 in the open, more than held, so it advances.
    battle = _facing(squad("t", B, TROOPER, [], row(39, 33, 10)), NO_CHARGES, (WALL,))
    gunners = battle.unit("g")
    assert best_target(battle, gunners).value == pytest.approx(1.75)
    assert best_target(battle, _advanced(battle, gunners)).value == pytest.approx(5 / 12 + 2.25)
    assert _weighed(battle) == "advance"


def test_mortars_hold_since_a_blast_fires_nothing_after_a_move() -> None:
    # Three mortars 16" or more from ten Troopers: a move would leave them no Snap
    # Shots to fire (Blast), whatever it brings nearer.
    mortars = squad("g", A, GUARD, [MORTAR], row(30, 10, 3))
    battle = make_battle(mortars, squad("t", B, TROOPER, [], row(39, 27, 10)), seed=1)
    battle.phase = "movement"
    record_schedule(battle, Schedule(1, NO_CHARGES, ("A", "B")))
    assert best_target(battle, mortars).value > 0
    assert best_target(battle, _advanced(battle, mortars)).value == 0.0
    assert _weighed(battle) == "hold"


def test_a_move_that_loses_this_turn_s_volley_and_keeps_no_more_asks_nothing_further(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The mortars above, with two turns to play: a move loses this turn's volley (0
    # against more than 0 held) and the copy standing there keeps a next volley worth
    # no more than that loss. The unit's own next volley kept, never below 0, can only
    # lower the gain further: it holds, and that volley (the charges it weighs) is not
    # worked out.
    mortars = squad("g", A, GUARD, [MORTAR], row(30, 10, 3))
    battle = make_battle(mortars, squad("t", B, TROOPER, [], row(39, 27, 10)), seed=1)
    battle.phase = "movement"
    record_schedule(battle, Schedule(2, WHOLE_TURN, ("A", "B")))
    held = best_target(battle, mortars).value
    standing = _advanced(battle, mortars, moved=False)
    assert held > 0
    assert best_target(battle, _advanced(battle, mortars)).value == 0.0
    assert next_volley_kept(battle, standing) <= held
    asked: list[Unit] = []

    def kept(battle: Battle, unit: Unit, thinned: Unit | None = None) -> float:
        asked.append(unit)
        return next_volley_kept(battle, unit, thinned)

    monkeypatch.setattr(move_plans, "next_volley_kept", kept)
    assert holds_for_its_guns(battle, mortars, True)
    assert len(asked) == 1 and asked[0] is not mortars


def test_a_squad_holds_out_of_the_charge_its_move_would_walk_into() -> None:
    # Ten Brutes 18.5" up (17.53" to 19.57" away). Held: the lasguns
    # 9 x 1/2 x 1/3 = 1.5, the heavy bolter 3 x 1/2 x 2/3 = 1. Advanced 6"
    # (12.5" below them): the lasguns at x 32 and 34 (13.33", 12.46") fire
    # once, the other seven (x 36: 11.86") twice, 16 x 1/6, and the Snap Shots
    # 3 x 1/6 x 2/3 = 1/3: a gain of half a Brute. But the Brutes move 6" and
    # charge 2D6: from 17.53" they need 12 (1/36), from 11.54" 6 or more
    # (26/36), and their charge is a fight the squad loses. In its first
    # round the Guardsmen (the tests' profile: WS4, T4, I4) strike first, 10 x
    # 1/2 x 1/3 = 1.67 Brutes, and the 8.33 left strike back with the charge's
    # extra Attack, 8.33 x 4 x 1/2 (WS4 v WS4) x 2/3 (S5 v T4) x 2/3 (the 5+
    # save) = 7.41 Guardsmen. Without an Assault phase to come the move is
    # worth its shooting, and the squad advances.
    brutes = squad("b", B, BRUTE, [], row(39, 28.5, 10))
    battle = _facing(brutes, WHOLE_TURN)
    gunners = battle.unit("g")
    advanced = _advanced(battle, gunners)
    assert best_target(battle, gunners).value == pytest.approx(1.5 + 1.0)
    assert best_target(battle, advanced).value == pytest.approx(16 / 6 + 1 / 3)
    assert counter_charge_chance(battle, brutes, gunners) == pytest.approx(1 / 36)
    standing = _advanced(battle, gunners, moved=False)
    assert counter_charge_chance(battle, brutes, standing) == pytest.approx(26 / 36)
    assert charge_threat(battle, standing) - charge_threat(battle, gunners) > 0.5
    assert _weighed(battle) == "hold"
    record_schedule(battle, Schedule(1, NO_CHARGES, ("A", "B")))
    assert _weighed(battle) == "advance"


def test_next_turn_s_volley_is_read_with_the_enemy_a_move_nearer() -> None:
    # The Troopers 23" up (22.02" from the nearest Guardsman), a second turn to
    # come and no Assault phase: next turn they stand a 6" move nearer, 16.02"
    # (one lasgun shot each), and no charge can lock the squad: the whole
    # volley, 1.25 + 2.25, is kept. In the side's last turn, nothing.
    battle = _facing(squad("t", B, TROOPER, [], row(39, 33, 10)), NO_CHARGES)
    record_schedule(battle, Schedule(2, NO_CHARGES, ("A", "B")))
    gunners = battle.unit("g")
    assert next_volley_kept(battle, gunners) == pytest.approx(3.5)
    record_schedule(battle, Schedule(1, NO_CHARGES, ("A", "B")))
    assert next_volley_kept(battle, gunners) == 0.0


def test_within_a_charge_certain_to_reach_no_volley_is_kept_nor_worked_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Ten Brutes 8" up, a second turn to come with an Assault phase: from the
    # Guardsman at x 40 the Brute at x 39 is sqrt(1 + 8²) - 1 = 7.06" off, 1.06"
    # after their 6" move, and 2D6 never rolls below 2: the charge reaches
    # (chance 1), the squad is locked in combat and fires nothing next turn,
    # whatever its volley would be, which is then not worked out.
    brutes = squad("b", B, BRUTE, [], row(39, 18, 10))
    battle = _facing(brutes, WHOLE_TURN)
    record_schedule(battle, Schedule(2, WHOLE_TURN, ("A", "B")))
    gunners = battle.unit("g")
    assert charge_distance(brutes, gunners) == pytest.approx(7.06, abs=0.01)
    assert counter_charge_chance(battle, brutes, gunners) == 1.0

    def no_volley(*_args: object) -> float:
        raise AssertionError("no volley is worked out")

    monkeypatch.setattr(move_plans, "fire_from", no_volley)
    assert next_volley_kept(battle, gunners) == 0.0


def test_a_unit_that_moved_this_turn_fires_next_turn_s_heavy_weapons_in_full() -> None:
    # The Troopers 23" up as above, a second turn to come. The squad has moved
    # this turn (it disembarked, say): next turn, holding, its heavy bolter fires
    # at BS3, not as Snap Shots, so the volley kept is 1.25 + 2.25 as for a squad
    # that has not moved (with the move counted, 5/12 + 2.25).
    battle = _facing(squad("t", B, TROOPER, [], row(39, 33, 10)), NO_CHARGES)
    record_schedule(battle, Schedule(2, NO_CHARGES, ("A", "B")))
    gunners = battle.unit("g")
    gunners.status.moved = True
    assert next_volley_kept(battle, gunners) == pytest.approx(3.5)
    assert gunners.status.moved  # the battle's own unit is untouched


def test_next_turn_s_volley_at_an_enemy_that_will_not_move_is_read_where_it_stands() -> None:
    # Ten Troopers 24.6" up, no Movement phase to come. The nearest pair (the
    # Guardsman at x 38, the Trooper at x 39) is sqrt(1 + 24.6²) - 1 = 23.62"
    # apart, but the lasguns at x 32 and x 34 are sqrt(49 + 24.6²) - 1 = 24.58"
    # and sqrt(25 + 24.6²) - 1 = 24.10" from the nearest Trooper: out of their
    # 24" range. Read where they stand: the heavy bolter 3 x 1/2 x 5/6 = 1.25 and
    # seven lasguns 7 x 1/2 x 1/2 = 1.75 (all nine counted at 23.62": 2.25).
    no_moves = ("shooting",)
    battle = _facing(squad("t", B, TROOPER, [], row(39, 34.6, 10)), no_moves)
    record_schedule(battle, Schedule(2, no_moves, ("A", "B")))
    gunners = battle.unit("g")
    assert charge_distance(battle.unit("t"), gunners) == pytest.approx(23.62, abs=0.01)
    assert next_volley_kept(battle, gunners) == pytest.approx(1.25 + 1.75)


def test_what_a_volley_kills_is_taken_from_the_front_and_the_charge_grows_longer() -> None:
    # Ten Brutes in a file straight up from the squad's centre, the first 18.5"
    # up: 17.53" from the nearest Guardsman (sqrt(1 + 18.5²) - 1). A volley
    # expected to kill 2.4 takes the two nearest; the next stands 22.5" up,
    # sqrt(1 + 22.5²) - 1 = 21.52" off.
    brutes = squad("b", B, BRUTE, [], [(39, 28.5 + 2 * k) for k in range(10)])
    battle = _facing(brutes, WHOLE_TURN)
    gunners = battle.unit("g")
    assert charge_distance(brutes, gunners) == pytest.approx(17.53, abs=0.01)
    thinned = BestVolley(brutes, 2.4, 2.4).thinned(gunners)
    assert thinned is not None and thinned is not brutes
    assert [m.id for m in thinned.alive_models] == [f"b.{n}" for n in range(3, 11)]
    assert charge_distance(thinned, gunners) == pytest.approx(21.52, abs=0.01)
    assert len(brutes.alive_models) == 10  # the battle's own unit is untouched


def test_an_advance_across_difficult_terrain_is_expected_to_go_the_highest_of_2d6() -> None:
    # The mean of the highest of two D6: 1 - (k-1)²/36 summed over k = 1..6,
    # (36 + 35 + 32 + 27 + 20 + 11)/36 = 161/36 (4.47"); in the open the whole 6".
    troopers = squad("t", B, TROOPER, [], row(39, 27, 10))
    open_field = _facing(troopers, NO_CHARGES)
    assert expected_advance(open_field, open_field.unit("g")) == 6.0
    woods = box("Woods", 20, 14, 60, 18, difficult=True)
    wooded = _facing(squad("t", B, TROOPER, [], row(39, 27, 10)), NO_CHARGES, (woods,))
    assert expected_advance(wooded, wooded.unit("g")) == pytest.approx(161 / 36)


def test_a_vehicle_keeps_the_gun_line_as_it_was() -> None:
    # A Walker fires at full BS after moving (7th edition, Combat Speed), and its
    # hull's facing is state the copies would write: with a heavy bolter in reach
    # of the Troopers 16" off it holds, though a move would double its lasgun.
    walker = make_unit("w", A, [Placed(WALKER, [HEAVY_BOLTER, LASGUN], (39, 10))])
    battle = make_battle(walker, squad("t", B, TROOPER, [], row(39, 27, 10)), seed=1)
    battle.phase = "movement"
    record_schedule(battle, Schedule(1, NO_CHARGES, ("A", "B")))
    assert holds_for_its_guns(battle, walker, True)
    assert move_intent(battle, "w") == "hold"
