"""The core11 AI weighs what its attacks take off, how far its weapons reach, and
whether a move gains anything (a referee's review, twenty-first session: every
worth by hand below).

11th-edition chart: a hit on BS or better; S vs T wounds on 2+ (S >= 2T), 3+
(S > T), 4+ (S = T), 5+ (S < T), 6+ (S <= T/2); AP worsens the save; damage
beyond a model's wounds is lost. Library units: Intercessor Squad (T5 Sv3+ W2;
the Sergeant carries the Grenade Launcher), Boyz (T5 Sv5+: Boys of 1 wound and
a Nob).
"""

from __future__ import annotations

from math import comb

import pytest
from core11_kit import battle, game, gun, library_unit, place, sheet

from hammerlab.editions.core11.ai import Core11AI
from hammerlab.editions.core11.attacks import Battery
from hammerlab.editions.core11.shooting import SHOOTING_TYPES
from hammerlab.editions.core11.shooting_worth import best_worth
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.core11.weapons import read_weapon
from hammerlab.engine.battle import Battle
from hammerlab.engine.battlefield import TerrainArea
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.units import Model, Unit

NORMAL = SHOOTING_TYPES[0].control


def _pick(
    fight: Battle, kind: str, unit: Unit, names: list[str], weapon: str = "",
    models: tuple[str, ...] = (),
) -> str:  # fmt: skip
    """What the AI answers ``kind`` for ``unit`` among ``names``."""
    context = DecisionContext(unit=unit.id, weapon=weapon, models=models)
    decision = Decision(kind, unit.player, "?", tuple(Choice(n, n) for n in names), context)
    return decision.labels()[Core11AI().choose(fight, decision)]


def _worth(fight: Battle, unit: Unit, models: list[Model], name: str) -> float:
    """:func:`shooting_worth.best_worth` of ``models`` firing the weapon ``name``."""
    weapon = models[0].weapon(name)
    assert weapon is not None and isinstance(fight.state, Core11Game)
    return best_worth(fight.state, unit, Battery(weapon, read_weapon(weapon), models), NORMAL)


def _marines_and_boyz(boyz: int) -> tuple[Battle, Unit]:
    """Intercessors in a line from (10, 10), ``boyz`` Boyz from (10, 25): about 13.7"
    apart (15" less two 32 mm bases), beyond half the 24" range, in the open."""
    marines = library_unit("i", "Intercessor Squad", "A", (10, 10))
    orks = library_unit("b", "Boyz", "B", (10, 25), size=boyz)
    fight = battle([marines, orks])
    game(fight)
    return fight, marines


def test_frag_beats_krak_at_boyz_of_one_wound() -> None:
    fight, marines = _marines_and_boyz(5)
    [sergeant] = [m for m in marines.models if m.weapon("Grenade Launcher (Krak)")]
    # Frag: A4 + [BLAST 1] (one per five models: +1) = 5 attacks, hit 3+ (2/3), S4 vs
    # T5 wounds on 5+ (1/3), AP-1 makes Sv5+ a 6+ (fails 5/6): each slays a Boy with
    # 5/27; five attacks at five models: 25/27.
    assert _worth(fight, marines, [sergeant], "Grenade Launcher (Frag)") == pytest.approx(25 / 27)
    # Krak: 1 attack, 2/3 x 5/6 (S10 vs T5: 2+) x 1 (AP-2: no save of 5+) = 5/9 slays
    # one Boy; the rest of its D3 is lost (it was counted as 2 on average: 10/9).
    assert _worth(fight, marines, [sergeant], "Grenade Launcher (Krak)") == pytest.approx(5 / 9)
    names = ["Grenade Launcher (Frag)", "Grenade Launcher (Krak)"]
    chosen = _pick(fight, "profile", marines, names, weapon="Grenade Launcher",
                   models=(sergeant.id,))  # fmt: skip
    assert chosen == "Grenade Launcher (Frag)"


def test_saturation_beats_focused_fire_at_boyz_of_one_wound() -> None:
    fight, marines = _marines_and_boyz(10)
    squad = marines.alive_models
    # Focused Fire (A1 S5 AP-1 D2 [HEAVY]), stationary: hit 3+ +1 = 2+ (5/6), S5 vs T5
    # 4+ (1/2), Sv5+ at AP-1 fails 5/6: 25/72 a Boy each, five attacks: 125/72; its
    # second point of damage is lost (it was counted: 250/72 for the squad).
    assert _worth(fight, marines, squad, "Bolt Rifle (Focused Fire)") == pytest.approx(125 / 72)
    # Saturation (A2 S5 AP-1 D1): 2/3 x 1/2 x 5/6 = 5/18 each, ten attacks: 25/9.
    assert _worth(fight, marines, squad, "Bolt Rifle (Saturation)") == pytest.approx(25 / 9)
    names = ["Bolt Rifle (Focused Fire)", "Bolt Rifle (Saturation)"]
    chosen = _pick(fight, "profile", marines, names, weapon="Bolt Rifle",
                   models=tuple(m.id for m in squad))  # fmt: skip
    assert chosen == "Bolt Rifle (Saturation)"


def test_sidearms_that_cannot_reach_are_worth_nothing() -> None:
    pistol = gun("pistol", 12, "3", keywords=["CLOSE-QUARTERS"])
    rifle = gun("rifle", 24, "1")
    squad = place("a", sheet("Squad", 2, [pistol, rifle]), "A", (10, 10))
    foes = place("b", sheet("Foes", 5), "B", (10, 25))  # about 13.7" away
    fight = battle([squad, foes])
    game(fight)
    models = squad.alive_models
    # The pistols (A3, 12") reach no enemy: no attack. The rifles (A1, 24"): two
    # attacks, 2/3 hit x 1/2 wound (S4 vs T4) x 1/3 unsaved (Sv3+) = 1/9 each: 2/9.
    assert _worth(fight, squad, models, "pistol") == 0.0
    assert _worth(fight, squad, models, "rifle") == pytest.approx(2 / 9)
    decision = Decision(
        "sidearms", "A", "?", (Choice("rifle", False), Choice("pistol", True)),
        DecisionContext(unit="a", models=tuple(m.id for m in models)),
    )  # fmt: skip
    assert Core11AI().choose(fight, decision) == 0  # the rifles (they once took the pistols)
    foes.models[0].position = (10, 20)  # now 8.7" away: three pistol attacks beat one rifle
    assert Core11AI().choose(fight, decision) == 1


MOVE_TYPES = ["remain stationary", "normal", "advance"]


def test_a_mortar_remains_stationary_where_a_move_loses_10_07s_better_hit_rolls() -> None:
    """A mortar (A4 BS4+ S5 [INDIRECT FIRE]) at (10, 10) behind a wall (x 30-31, y 0-20)
    that hides five T3 Sv6+ models at (40, 10) from it, whom a friendly unit at
    (40, 30) sees. Remaining stationary, its Indirect shooting hits on 5+ (cover
    worsens BS 4+ to 5+; 10.07: "an unmodified hit roll of 1-3 fails" when stationary
    and spotted): 4 x 1/3 x 2/3 (S5 vs T3) x 5/6 = 20/27. After a normal move (6"
    east, still behind the wall): only a 6 hits (1-5 fail): 10/27. It remains."""
    wall = TerrainArea(
        "Wall", ((30.0, 0.0), (31.0, 0.0), (31.0, 20.0), (30.0, 20.0)), blocks_sight=True
    )
    mortar = gun("mortar", 48, "4", bs=4, strength=5, keywords=["INDIRECT FIRE"])
    unit = place("m", sheet("Mortar", 1, [mortar]), "A", (10, 10))
    spotter = place("s", sheet("Spotter"), "A", (40, 30))
    crowd = place("c", sheet("Crowd", 5, toughness=3, save=6), "B", (40, 10))
    fight = battle([unit, spotter, crowd], terrain=[wall])
    game(fight)
    assert _pick(fight, "move-type", unit, MOVE_TYPES) == "remain stationary"


def test_a_heavy_gun_in_half_range_remains_stationary_and_one_out_of_range_moves() -> None:
    """A [HEAVY] gun (A2 24") 10" from its target: stationary it hits on 2+ (3+ and
    [HEAVY]'s +1); a move gains no range (it is in range already, and no rule of
    this gun reads half range) and loses the +1. At 26" it is out of range, and a
    normal move brings it within 24": it moves."""
    heavy = gun("cannon", 24, "2", keywords=["HEAVY"])
    unit = place("a", sheet("Gunners", 1, [heavy]), "A", (10, 10))
    target = place("b", sheet("Foes", 1), "B", (10, 10 + 10 + 1.26))
    fight = battle([unit, target])
    game(fight)
    assert _pick(fight, "move-type", unit, MOVE_TYPES) == "remain stationary"
    target.models[0].position = (10, 10 + 26 + 1.26)
    assert _pick(fight, "move-type", unit, MOVE_TYPES) == "normal"


def test_no_normal_move_of_0_inches() -> None:
    """Bases 2.05" apart: the smallest step toward the enemy (1/40 of the way to its
    centre) ends within 2", so a normal move would move 0": the unit remains
    stationary. So does a unit with no enemy left."""
    unit = place("a", sheet("Squad", 1), "A", (10, 10))
    enemy = place("b", sheet("Foes", 1), "B", (10, 10 + 2.05 + 1.26))
    fight = battle([unit, enemy])
    game(fight)
    assert _pick(fight, "move-type", unit, MOVE_TYPES) == "remain stationary"
    alone = battle([place("c", sheet("Squad", 1), "A", (10, 10))])
    game(alone)
    assert _pick(alone, "move-type", alone.unit("c"), MOVE_TYPES) == "remain stationary"


CLAWS = Weapon("claws", {"Range": "Melee", "A": "3", "WS": "3+", "S": "4", "AP": "0", "D": "1"})


def test_a_melee_unit_advances_where_no_charge_is_possible_this_turn() -> None:
    """Stealers (claws only) 20" from an enemy: a normal move leaves them 14" away, out
    of 11.02's 12", so no charge this turn: advancing (09.06: no charge after it) costs
    nothing, and they advance. From 15" a normal move leaves them 9" away, eligible to
    declare a charge they expect to win (the enemy has no melee weapon): they make
    it."""
    stealers = place("s", sheet("Stealers", 1, [CLAWS]), "A", (10, 10))
    enemy = place("b", sheet("Gunline", 1, [gun()]), "B", (10, 10 + 20 + 1.26))
    fight = battle([stealers, enemy])
    game(fight)
    assert _pick(fight, "move-type", stealers, MOVE_TYPES) == "advance"
    enemy.models[0].position = (10, 10 + 15 + 1.26)
    assert _pick(fight, "move-type", stealers, MOVE_TYPES) == "normal"


def test_the_worth_of_a_long_volley_is_capped_at_the_models_there_are() -> None:
    """Five rifles (A2 24") at two T4 Sv6+ models of 1 wound, 13.7" away: ten attacks,
    each slaying one with 2/3 x 1/2 x 5/6 = 5/18, no more than two slain."""
    rifles = place("a", sheet("Rifles", 5, [gun("rifle", 24, "2")]), "A", (10, 10))
    pair = place("b", sheet("Pair", 2, save=6), "B", (10, 25))
    fight = battle([rifles, pair])
    game(fight)
    p = 5 / 18
    capped = sum(min(k, 2) * comb(10, k) * p**k * (1 - p) ** (10 - k) for k in range(11))
    assert capped < 10 * p
    assert _worth(fight, rifles, rifles.alive_models, "rifle") == pytest.approx(capped)
