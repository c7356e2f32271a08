"""The Movement phase, 09.00–09.07, with hand-measured distances and scripted dice.

Every unit here is one model on a 32 mm base (radius 32 / 25.4 / 2 = 0.63"),
M 6", on the 72" x 48" table; player A's edge is south (y = 0).
"""

from __future__ import annotations

import pytest
from core11_kit import battle, events, game, gun, place, script, sheet

from hammerlab.editions.core11.ai import Core11AI
from hammerlab.editions.core11.events import MoveTypeSelected
from hammerlab.editions.core11.movement import MOVEMENT, move_with
from hammerlab.editions.core11.positions import is_engaged
from hammerlab.editions.core11.ruleset import Core11Ruleset
from hammerlab.editions.core11.shooting import eligible_to_shoot
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.units import Unit
from phase_kit import run_phase

RADII = 2 * 32 / 25.4 / 2
"""Two 32 mm bases: the centre distance minus this is the base-to-base gap."""


MOVE_A = ("mover", "Squad [a]")


def _pair(a_at: tuple[float, float], b_at: tuple[float, float]) -> tuple[Unit, Unit]:
    return place("a", sheet("Squad", weapons=[gun()]), "A", a_at), place(
        "b", sheet("Foes"), "B", b_at
    )


def test_09_05_normal_move_goes_m_inches_toward_the_chosen_enemy() -> None:
    a, b = _pair((10, 10), (10, 40))
    fight = battle([a, b], controllers={"A": script(MOVE_A, ("move-type", "normal"))})
    game(fight)
    run_phase(fight, MOVEMENT, "A")
    assert a.models[0].position == pytest.approx((10, 16))
    assert a.status.moved and not a.status.advanced
    assert [(e.move_type, e.distance) for e in events(fight, MoveTypeSelected)] == [("normal", 6.0)]


def test_09_05_after_moving_the_unit_must_be_unengaged() -> None:
    """Centres 8" apart, gap 8 - 1.26 = 6.74"; the move must leave more than 2", so at
    most 4.74"; in steps of 6/40 = 0.15" that is 31 steps, 4.65"."""
    a, b = _pair((10, 10), (10, 18))
    fight = battle([a, b], controllers={"A": script(MOVE_A, ("move-type", "normal"))})
    game(fight)
    run_phase(fight, MOVEMENT, "A")
    assert a.models[0].position == pytest.approx((10, 14.65))
    assert not is_engaged(fight, a)


def test_09_06_advance_adds_a_d6_and_bars_charges_until_the_end_of_the_turn() -> None:
    a, b = _pair((10, 10), (10, 40))
    fight = battle([a, b], dice=[4])
    state = game(fight)
    fight.controllers["A"] = script(("move-type", "advance"))
    move_with(state, a)
    assert a.models[0].position == pytest.approx((10, 20))
    assert a.status.advanced and a.status.moved
    assert "a" in state.no_charge


def test_09_07_fall_back_is_the_only_move_besides_remaining_for_an_engaged_unit() -> None:
    """Gap 1.5 - 1.26 = 0.24" (engaged); the unit falls back 6" toward its own edge."""
    a, b = _pair((10, 10), (10, 11.5))
    fight = battle([a, b])
    state = game(fight)
    controller = script(("move-type", "fall back"))
    fight.controllers["A"] = controller
    move_with(state, a)
    assert controller.asked[0].labels() == ["remain stationary", "fall back"]
    assert a.models[0].position == pytest.approx((10, 4))
    assert not is_engaged(fight, a)
    assert not eligible_to_shoot(state, a)
    assert "a" in state.no_charge


def test_09_07_no_fall_back_without_a_route_that_ends_unengaged() -> None:
    """Against its own edge, boxed in by the enemy: only remaining stationary is offered."""
    a = place("a", sheet("Squad"), "A", (10, 0.7))
    b = place("b", sheet("Foes"), "B", (10, 2.2))
    fight = battle([a, b])
    state = game(fight)
    move_with(state, a)
    assert [e.move_type for e in events(fight, MoveTypeSelected)] == ["remain stationary"]
    assert a.models[0].position == pytest.approx((10, 0.7))


def test_09_02_01_units_not_selected_remain_stationary_and_scenario_flags_give_way() -> None:
    a, b = _pair((10, 10), (10, 40))
    a.status.advanced = a.status.moved = True
    fight = battle([a, b], controllers={"A": script(("mover", "done"))})
    game(fight)
    run_phase(fight, MOVEMENT, "A")
    assert [e.text for e in events(fight, MoveTypeSelected)] == ["Squad [a] remains stationary"]
    assert not a.status.advanced and not a.status.moved


def test_ai_moves_toward_the_closest_enemy_and_advances_when_out_of_reach() -> None:
    a = place("a", sheet("Squad", weapons=[gun(range_=12)]), "A", (10, 5))
    near = place("n", sheet("Near"), "B", (40, 30))
    far = place("f", sheet("Far"), "B", (12, 35))
    fight = battle([a, near, far])
    game(fight)
    ai = Core11AI()
    heading = Decision(
        "heading", "A", "?", (Choice("Near", near), Choice("Far", far)), DecisionContext(unit="a")
    )
    assert ai.choose(fight, heading) == 1
    kinds = Decision(
        "move-type",
        "A",
        "?",
        tuple(Choice(n, n) for n in ("remain stationary", "normal", "advance")),
        DecisionContext(unit="a"),
    )
    assert kinds.labels()[ai.choose(fight, kinds)] == "advance"
    far.models[0].position = (12, 20)
    assert kinds.labels()[ai.choose(fight, kinds)] == "normal"


def test_the_ruleset_lists_the_five_phases_in_turn_order() -> None:
    """07.02: "2. Command Phase [...] 3. Movement Phase [...] 4. Shooting Phase [...]
    5. Charge Phase [...] 6. Fight Phase"."""
    assert Core11Ruleset.phases == ("command", "movement", "shooting", "charge", "fight")
    assert [p.name for p in Core11Ruleset().flow().phases] == list(Core11Ruleset.phases)
