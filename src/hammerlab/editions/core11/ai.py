"""A heuristic controller for core11's decisions: sensible, simple, documented.

- ``mover``: the first unit offered (the scenario's order).
- ``move-type``: an engaged unit remains stationary (it stays in the fight);
  an unengaged one makes a normal move, or an advance move when no enemy
  would be in range of its longest ranged weapon even after a normal move
  (M + range) and it has ranged weapons to close in with.
- ``heading``: toward the closest enemy unit.
- ``shooter``: the first unit offered (the scenario's order); ``done`` only when
  it is the last choice left.
- ``shooting-type``: the type whose attacks are expected to do the most damage
  (:func:`shooting_worth.volley_worth`: each weapon the type lets a model
  select, at the eligible target where it does the most, with the type's own
  rules: Indirect shooting's unseen targets, cover and hit rolls that fail on
  1-5, or 1-3 when stationary and spotted); on a tie, Indirect shooting when
  the unit sees no enemy unit, otherwise the first type offered (10.02's
  order: normal, assault, close-quarters, indirect). Only Normal and Indirect
  shooting are ever offered together (the others need an advance or an
  engagement, which Normal and Indirect exclude).
- ``profile`` and ``target``: the choice with the highest expected damage,
  computed exactly by ``odds.py`` against the closest enemy (for a profile)
  or against each target (for a target); ties go to the first (closest).
- ``reaction``: a reactive shooting (once per turn) is used when the bearer's
  weapons can do the attacking unit some damage (:func:`shooting_worth.volley_worth`
  of the shots it would fire back), and kept for a later enemy when they cannot;
  a redirection is used when the attacking unit is expected to do more damage
  to the bearer than to the other targets it would select instead
  (:func:`redirect_pays`).
- ``sidearms`` ([CLOSE-QUARTERS] weapons or the others, 04.01.02): the set
  with the higher expected damage against the closest enemy.
- ``lethal-hits``: wound automatically unless a rolled wound is worth more
  (:attr:`AttackProfile.lethal_pays`, against the weapon's target).
- ``charger``: the unit that expects to win its fight by the most, judged by
  :func:`melee_share` (the share of the enemy's wounds its melee attacks take
  on average, exactly by ``odds.py``, with [LANCE] as after a charge) against
  the closest enemy unit, compared with the share that enemy takes back;
  ``done`` when no unit expects to win.
- ``charge-target``: the closest unit. ``fighter``: the first unit offered;
  ``fight-type``: the first offered (normal before overrun).
- ``melee-weapon``: the weapon with the highest expected damage against the
  closest enemy (as ``profile``).
- ``pile-in``, ``consolidate`` (moves toward the enemy): always ``use``.
- ``overwatch`` (Fire Overwatch, 1CP, once per turn): ``use`` against a unit
  that declares a charge, where the shots may stop the charge; ``decline``
  against a unit that only moved, keeping the command point for a charge,
  unless the turn plays no Charge phase after this one (the scenario's plan:
  :func:`schedule.still_to_play`), when there is no charge to keep it for.
- ``allocate`` and ``mortal-wound`` (losing a model of one's own): the most
  common kind of model left in the unit, the one with fewest wounds on a tie —
  the rank and file before a sergeant. ``precision``: the first CHARACTER offered.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hammerlab.editions.core11.abilities import REACTION, REDIRECTION, return_fire_control
from hammerlab.editions.core11.attacks import LETHAL
from hammerlab.editions.core11.charge import CHARGE
from hammerlab.editions.core11.melee import MELEE_WEAPON
from hammerlab.editions.core11.movement import ADVANCE, NORMAL, REMAIN
from hammerlab.editions.core11.odds import expected_damage
from hammerlab.editions.core11.overwatch import OVERWATCH
from hammerlab.editions.core11.positions import sees, unit_distance
from hammerlab.editions.core11.profiles import (
    DefenceStats,
    carried_weapons,
    unit_defence,
    unit_movement,
)
from hammerlab.editions.core11.rolls import Situation, attack_profile, plain_situation
from hammerlab.editions.core11.shooting import SHOOTING_TYPES
from hammerlab.editions.core11.shooting_worth import group_worths, volley_worth
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.core11.volley import SIDEARMS
from hammerlab.editions.core11.weapons import WeaponError, WeaponProfile, read_weapon
from hammerlab.editions.core11.windows import CHARGE_DECLARED
from hammerlab.editions.schedule import still_to_play
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.decisions import Decision
from hammerlab.engine.units import Model, Unit


class Core11AI:
    """Answers core11 decisions by the rules of thumb in the module docstring."""

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """The index of the chosen answer."""
        if decision.kind == "move-type":
            return _move_type(battle, decision)
        if decision.kind == "heading":
            return _closest(battle, decision)
        if decision.kind == "shooting-type":
            return self._shooting_type(battle, decision)
        if decision.kind == REACTION:
            return _reaction(battle, decision)
        if decision.kind in ("profile", "target", MELEE_WEAPON):
            return self._best_damage(battle, decision)
        if decision.kind == "charger":
            return _charger(battle, decision)
        if decision.kind == "charge-target":
            return _closest(battle, decision)
        if decision.kind == OVERWATCH:
            charge_to_come = still_to_play(battle, CHARGE.name)
            return 0 if decision.context.why == CHARGE_DECLARED or not charge_to_come else 1
        if decision.kind == SIDEARMS:
            return _best_sidearms(battle, decision)
        if decision.kind == LETHAL:
            return _lethal(battle, decision)
        if decision.kind in ("allocate", "mortal-wound"):
            return _most_expendable(battle, decision)
        return 0

    def _shooting_type(self, battle: Battle, decision: Decision[Any]) -> int:
        if len(decision.choices) == 1:
            return 0  # nothing to weigh: most units are eligible for one type only
        labels = decision.labels()
        unit = battle.unit(decision.context.unit)
        game = _game(battle)
        worths = [volley_worth(game, unit, c.value.control) for c in decision.choices]
        best = max(worths)
        if (
            worths.count(best) > 1
            and "indirect" in labels
            and worths[labels.index("indirect")] == best
        ):
            blind = not any(
                sees(battle, m, enemy)
                for enemy in battle.enemies_of(unit)
                for m in unit.alive_models
            )
            if blind:
                return labels.index("indirect")
        return worths.index(best)

    def _best_damage(self, battle: Battle, decision: Decision[Any]) -> int:
        unit = battle.unit(decision.context.unit)
        enemies = battle.enemies_of(unit)
        if not enemies:
            return 0
        values = [str(c.value) for c in decision.choices]
        if decision.kind == "target":
            profile = _profile(unit, decision.context.weapon)
            scores = [_score(profile, _aim(battle, battle.unit(value))) for value in values]
        else:
            aim = _aim(battle, _nearest(unit, enemies))
            scores = [_score(_profile(unit, value), aim) for value in values]
        return max(range(len(scores)), key=lambda i: (scores[i], -i))


def _game(battle: Battle) -> Core11Game:
    """The core11 state of ``battle``."""
    game = battle.state
    assert isinstance(game, Core11Game), "core11 battle not started"
    return game


def _reaction(battle: Battle, decision: Decision[Any]) -> int:
    """``use`` (0) or ``decline`` (1) a reactive shooting or a redirection, as the
    module docstring says."""
    game = _game(battle)
    bearer = battle.unit(decision.context.unit)
    enemy = battle.unit(decision.context.attacker)
    if decision.context.why == REDIRECTION:
        use = redirect_pays(game, bearer, enemy)
    else:
        use = volley_worth(game, bearer, return_fire_control(enemy.id)) > 0
    return 0 if use else 1


def redirect_pays(game: Core11Game, bearer: Unit, enemy: Unit) -> bool:
    """Whether making ``enemy`` select a new target saves damage: for each of its
    weapon groups that could attack ``bearer`` (its Normal shooting: the reaction
    is not told the type), the most it does to ``bearer`` less the most it would
    do to another target, summed, is more than 0. A group with no other target
    does nothing after the redirection."""
    normal = SHOOTING_TYPES[0].control
    at = group_worths(game, enemy, normal, lambda t: t.id == bearer.id)
    elsewhere = group_worths(game, enemy, normal, lambda t: t.id != bearer.id)
    return sum(a - e for a, e in zip(at, elsewhere, strict=True) if a > 0) > 0


def _move_type(battle: Battle, decision: Decision[Any]) -> int:
    """Remain stationary when engaged; otherwise normal, or advance when even M + the
    longest range would leave every enemy out of reach."""
    labels = decision.labels()
    unit = battle.unit(decision.context.unit)
    if NORMAL not in labels:
        return labels.index(REMAIN)
    ranges = [p.range for p in _profiles(unit) if not p.melee]
    nearest = min((unit_distance(unit, e) for e in battle.enemies_of(unit)), default=0.0)
    far = bool(ranges) and nearest > unit_movement(unit) + max(ranges)
    return labels.index(ADVANCE if far and ADVANCE in labels else NORMAL)


def melee_share(battle: Battle, attacker: Unit, defender: Unit, charged: bool) -> float:
    """The share of ``defender``'s wounds that ``attacker``'s melee attacks take on
    average: each model's best melee weapon, by :func:`odds.expected_damage`."""
    wounds = sum(m.wounds_left for m in defender.alive_models)
    if not wounds:
        return 0.0
    game = battle.state
    fnp = game.feel_no_pain.get(defender.id) if isinstance(game, Core11Game) else None
    situation = Situation(charged=charged, target_models=len(defender.alive_models))
    defence = unit_defence(defender)
    damage = 0.0
    for model in attacker.alive_models:
        melee = [p for p in _model_profiles(model) if p.melee]
        damage += max((expected_damage(p, defence, situation, fnp) for p in melee), default=0.0)
    return damage / wounds


def _charger(battle: Battle, decision: Decision[Any]) -> int:
    """The unit whose expected fight against its closest enemy is the most one-sided in
    its favour; ``done`` (the last choice) when none is in its favour."""
    best, best_margin = len(decision.choices) - 1, 0.0
    for index, choice in enumerate(decision.choices):
        unit = choice.value
        if not isinstance(unit, Unit):
            continue
        enemies = battle.enemies_of(unit)
        if not enemies:
            continue
        foe = _nearest(unit, enemies)
        margin = melee_share(battle, unit, foe, True) - melee_share(battle, foe, unit, False)
        if margin > best_margin:
            best, best_margin = index, margin
    return best


def _nearest(unit: Unit, enemies: list[Unit]) -> Unit:
    """The closest of ``enemies`` to ``unit`` (the first on a tie, as a stable sort's first)."""
    return min(enemies, key=lambda e: unit_distance(unit, e))


def _closest(battle: Battle, decision: Decision[Any]) -> int:
    """The choice whose unit is closest to the deciding unit (the first on a tie)."""
    unit = battle.unit(decision.context.unit)
    gaps = [unit_distance(unit, c.value) for c in decision.choices]
    return min(range(len(gaps)), key=lambda i: (gaps[i], i))


def _profiles(unit: Unit) -> list[WeaponProfile]:
    """The readable weapon profiles of the unit's models alive (each weapon once)."""
    return _readable(carried_weapons(unit))


def _model_profiles(model: Model) -> list[WeaponProfile]:
    """The readable weapon profiles of ``model``."""
    return _readable(model.weapons)


def _readable(weapons: Iterable[Weapon]) -> list[WeaponProfile]:
    """The profiles of ``weapons`` that core11 can read."""
    found = []
    for weapon in weapons:
        try:
            found.append(read_weapon(weapon))
        except WeaponError:
            continue
    return found


def _best_sidearms(battle: Battle, decision: Decision[Any]) -> int:
    """The weapon set (the choice's label lists its weapons) that does more damage."""
    unit = battle.unit(decision.context.unit)
    enemies = battle.enemies_of(unit)
    if not enemies:
        return 0
    aim = _aim(battle, _nearest(unit, enemies))
    scores = [
        sum(_score(_profile(unit, name), aim) for name in choice.label.split(", "))
        for choice in decision.choices
    ]
    return max(range(len(scores)), key=lambda i: (scores[i], -i))


def _lethal(battle: Battle, decision: Decision[Any]) -> int:
    """``wound automatically`` (listed first) unless rolling is worth more."""
    unit = battle.unit(decision.context.unit)
    profile = _profile(unit, decision.context.weapon)
    target = battle.unit(decision.context.target)
    if profile is None:
        return 0
    attack = attack_profile(profile, unit_defence(target), Situation())
    return 0 if attack.lethal_pays else 1


def _most_expendable(battle: Battle, decision: Decision[Any]) -> int:
    """The choice whose model is of the most common kind in its unit (fewest wounds on a tie)."""
    unit = battle.unit(decision.context.unit)
    models: list[Model] = [c.value for c in decision.choices]
    kinds: dict[str, int] = {}  # models alive of each kind, counted once for every choice
    for model in unit.alive_models:
        kinds[model.name] = kinds.get(model.name, 0) + 1

    def rank(i: int) -> tuple[int, int, int]:
        return (-kinds.get(models[i].name, 0), models[i].wounds_left, i)

    return min(range(len(models)), key=rank)


def _profile(unit: Unit, name: str) -> WeaponProfile | None:
    """The profile of the unit's weapon called ``name``."""
    for model in unit.alive_models:
        for weapon in model.weapons:
            if weapon.name == name:
                try:
                    return read_weapon(weapon)
                except WeaponError:
                    return None
    return None


Aim = tuple[DefenceStats, Situation, int | None]
"""What a score reads of its target: its defence, the situation and its Feel No Pain."""


def _aim(battle: Battle, target: Unit) -> Aim | None:
    """What :func:`_score` reads of ``target`` (``None``: it is destroyed), read once
    for all the weapons a decision weighs against it."""
    if target.destroyed:
        return None
    situation = plain_situation(len(target.alive_models))
    game = battle.state
    fnp = game.feel_no_pain.get(target.id) if isinstance(game, Core11Game) else None
    return unit_defence(target), situation, fnp


def _score(profile: WeaponProfile | None, aim: Aim | None) -> float:
    """Expected damage of one model firing ``profile`` at the target of ``aim``."""
    if profile is None or aim is None:
        return 0.0
    return expected_damage(profile, *aim)
