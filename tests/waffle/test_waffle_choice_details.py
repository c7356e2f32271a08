"""What a person is told of each choice of a decision that places a unit or a marker.

A player found the Deep Strike prompt unusable: 115 bare coordinates, nothing to
choose by, and a ``choice [1/2/.../115]`` line wrapped over five lines. Each
choice now keeps its label (the answer's name in the log, a replay and the lab's
tallies) and the decision describes it (``Decision.describe``), which the prompt
shows after the label.

Expected texts are worked out by hand from the positions set here: bases of
25.4 mm (radius 0.5"), distances base to base, a Deep Strike's scatter 2D6" in
one of 36 directions 2 times in 3, and a blast marker of 3" over the bases its
circle reaches.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any

import pytest
from conftest import (
    FRAG_MISSILE,
    GUARD,
    LASGUN,
    MARINE,
    STORM_BOLTER,
    A,
    B,
    all_dice_used,
    asked,
    box,
    make_battle,
    row,
    squad,
)
from rich.console import Console

from hammerlab.analysis.choices import ChoiceTally
from hammerlab.cli.prompt import PromptController, choice_line, choice_lines
from hammerlab.editions.waffle.choice_details import describe_shift
from hammerlab.editions.waffle.deep_strike import (
    DESCRIBED_DIRECTIONS,
    arrive_from_reserves,
    mishap_chance,
)
from hammerlab.editions.waffle.markers import describe_aim
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.reserves import set_reserves
from hammerlab.engine.battle import Battle
from hammerlab.engine.controllers import FirstChoiceController, ScriptedController
from hammerlab.engine.decisions import Choice, Decision

TWO_D6 = {total: 6 - abs(total - 7) for total in range(2, 13)}
"""Ways out of 36 of each 2D6 total."""


def _lone_deep_striker(terrain: tuple[Any, ...] = (), then: tuple[int, ...] = ()) -> Battle:
    """A's lone Marine (``Lone [lone]``) in reserve to Deep Strike, turn 2, aiming at
    (6, 24) and landing there on a HIT (then the dice ``then``); B's two Guardsmen at
    (60, 44) and (62, 44)."""
    lone = squad("lone", A, MARINE, [STORM_BOLTER], [(0.0, 0.0)], rules=["Deep Strike"])
    battle = make_battle(
        lone,
        squad("guard", B, GUARD, [LASGUN], row(60, 44, 2)),
        dice=[3, 1, *then],  # Reserve Roll 3: arrives; scatter die 1: a HIT
        script_a=[("deep_strike", "(6.0, 24.0)")],
        terrain=terrain,
    )
    battle.active_player = A
    set_reserves(battle, {"lone": "deep_strike"}, 5)
    battle.turn = 2
    return battle


def test_the_chance_of_a_mishap_near_the_edge_worked_out_by_hand() -> None:
    """Aimed at (6, 24), a base of radius 0.5 leaves the table when 6 + d cos a < 0.5.

    Over the 36 directions (every 10 degrees) the arrow points where the 2D6 total
    d takes it off: d = 6: cos a < -0.917, 5 directions (160-200); 7: < -0.786, 7
    (150-210); 8: < -0.688, 9; 9: < -0.611, 11; 10: < -0.55, 11; 11: < -0.5, 11
    (at 120 degrees the base touches the edge: on the table); 12: < -0.458, 13.
    Ways: 5*5 + 7*6 + 9*5 + 11*4 + 11*3 + 11*2 + 13*1 = 224 of 36 * 36, and it
    scatters 2 times in 3: 224/1296 * 2/3 = 448/3888 (11.5%).
    """
    battle = _lone_deep_striker()
    arrive_from_reserves(battle, A)  # it lands on the HIT; nothing else of A's is on the table
    unit = battle.unit("lone")
    chance = mishap_chance(battle, unit, (6.0, 24.0), DESCRIBED_DIRECTIONS)
    assert chance == pytest.approx(float(Fraction(448, 3888)))
    # and the same count by the rule's own sum, direction by direction
    by_rule = Fraction(0)
    for step in range(36):
        cos = math.cos(math.radians(10 * step))
        for total, ways in TWO_D6.items():
            if 6 + total * cos < 0.5 - 1e-9:
                by_rule += Fraction(ways, 36) * Fraction(1, 36) * Fraction(2, 3)
    assert by_rule == Fraction(448, 3888)


def test_each_deep_strike_point_says_the_nearest_enemy_its_terrain_and_its_mishap_chance() -> None:
    # The Guardsmen nearest (6, 24): (60, 44), hypot(54, 20) = 57.585 between centres,
    # less two radii of 0.5: 56.6". The point lies in the Crater.
    crater = box("Crater", 4, 20, 8, 28, cover_save=5, dangerous=True)
    battle = _lone_deep_striker((crater,), then=(4,))  # its Dangerous Terrain test: 4
    arrive_from_reserves(battle, A)
    decision = asked(battle, A, "deep_strike")[0]
    lines = choice_lines(decision)
    index = decision.labels().index("(6.0, 24.0)")
    assert lines[index] == (
        f'{index + 1}. (6.0, 24.0): 56.6" from Guard [guard], '
        "in Crater (5+ cover, dangerous), mishap 12%"
    )
    assert 'scatters 2D6" unless the scatter die shows a HIT' in decision.prompt
    assert all_dice_used(battle)


def test_the_labels_stay_coordinates_so_logs_replays_and_tallies_name_the_same_answers() -> None:
    battle = _lone_deep_striker()
    scripted = battle.controllers[A]
    assert isinstance(scripted, ScriptedController)
    tally = ChoiceTally(scripted)
    battle.controllers[A] = tally
    arrive_from_reserves(battle, A)
    decision = scripted.asked[0]
    assert all(re.fullmatch(r"\(\d+\.\d, \d+\.\d\)", label) for label in decision.labels())
    assert tally.counts()["deep_strike: (6.0, 24.0)"] == (1, 1)
    made = [e for e in battle.log.of_kind("decision") if e.decision == "deep_strike"]
    assert [e.answer for e in made] == ["(6.0, 24.0)"]


def test_a_misplaced_unit_lands_without_scatter_so_no_mishap_chance_is_given() -> None:
    # Aimed at (6, 24), the arrow at 180 degrees and 2D6 = 12: off the table; the
    # Mishap roll 2: Misplaced, and B places the unit.
    battle = make_battle(
        squad("term", A, MARINE, [STORM_BOLTER], row(10, 10, 3), rules=["Deep Strike"]),
        squad("guard", B, GUARD, [LASGUN], row(30, 40, 5)),
        dice=[3, 6, 6, 6, 2],
        directions=[180.0],
        script_a=[("deep_strike", "(6.0, 24.0)")],
        script_b=[("deep_strike", "(36.0, 24.0)")],
    )
    battle.active_player = A
    set_reserves(battle, {"term": "deep_strike"}, 5)
    battle.turn = 2
    arrive_from_reserves(battle, A)
    misplaced = asked(battle, B, "deep_strike")[0]
    assert "scatters" not in misplaced.prompt
    assert not any("mishap" in detail for detail in misplaced.details())
    assert all(" from Guard [guard]" in detail for detail in misplaced.details())


def test_each_blast_aim_says_where_the_model_stands_and_whom_the_marker_covers() -> None:
    # Guardsmen 1.5" apart along y = 30 from x = 20; a Marine of A's at (23, 31.8).
    # A 3" marker (radius 1.5) covers a base (radius 0.5) whose centre is under 2":
    # on the middle Guardsman (23, 30) the two beside it (1.5") and the Marine
    # (1.8"), not the two at 3"; on the end one (20, 30), itself and its neighbour.
    # The firer at (10, 10): hypot(13, 20) = 23.85 between centres, 22.9" base to base.
    devs = squad("devs", A, MARINE, [FRAG_MISSILE], [(10.0, 10.0)], name="Devastators")
    near = squad("near", A, MARINE, [STORM_BOLTER], [(23.0, 31.8)], name="Scouts")
    guard = squad("guard", B, GUARD, [LASGUN], row(20, 30, 5, pitch=1.5))
    battle = make_battle(devs, near, guard)
    describe = describe_aim(battle, devs, devs.models[0], weapon_of(FRAG_MISSILE))
    assert describe(guard.models[2]) == (
        '(23.0, 30.0), 22.9" away; covers 3 of Guard [guard], 1 of your Scouts [near]'
    )
    end = math.hypot(10, 20) - 1.0
    assert describe(guard.models[0]) == f'(20.0, 30.0), {end:.1f}" away; covers 2 of Guard [guard]'


def test_a_scout_shift_says_where_the_unit_would_stand_and_how_far_from_the_enemy() -> None:
    # A Marine at (10, 10) shifted (0, +6): at (10, 16), 14" from the Guardsman at
    # (10, 30) between centres, 13" base to base. Staying (no shift) adds nothing.
    scout = squad("scout", A, MARINE, [STORM_BOLTER], [(10.0, 10.0)])
    battle = make_battle(scout, squad("guard", B, GUARD, [LASGUN], [(10.0, 30.0)]))
    describe = describe_shift(battle, scout, where=True)
    assert describe((0.0, 6.0)) == 'to (10.0, 16.0), 13.0" from Guard [guard]'
    assert describe(None) == ""


def test_the_choice_line_gives_the_range_of_numbers_not_every_number() -> None:
    assert choice_line(115) == "choice [1-115]"
    assert choice_line(2) == "choice [1-2]"
    assert choice_line(1) == "choice [1]"


def test_the_prompt_shows_each_choice_with_its_detail_and_reads_a_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    decision: Decision[int] = Decision(
        kind="pick",
        player="Alice",
        prompt="Which one?",
        choices=tuple(Choice(f"({n}.0, 0.0)", n) for n in range(12)),
        describe=lambda n: f"{n} inches" if n else "",
    )
    console = Console(record=True, width=200, force_terminal=False)
    monkeypatch.setattr("builtins.input", lambda *_: "3")
    battle = make_battle(fallback=FirstChoiceController())
    assert PromptController(console).choose(battle, decision) == 2
    shown = console.export_text().splitlines()
    assert shown[:4] == ["Alice: Which one?", "  1. (0.0, 0.0)", "  2. (1.0, 0.0): 1 inches",
                         "  3. (2.0, 0.0): 2 inches"]  # fmt: skip
    assert shown[-1].startswith("choice [1-12] (1): ")


def test_a_decision_without_a_description_has_empty_details() -> None:
    decision = Decision(kind="pick", player="Alice", prompt="?", choices=(Choice("a", 1),))
    assert decision.details() == [""]
    assert choice_lines(decision) == ["1. a"]
