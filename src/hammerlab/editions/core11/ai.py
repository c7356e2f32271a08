"""A heuristic controller for core11's decisions: sensible, simple, documented.

What an attack is worth is the wounds its target is expected to lose, damage
beyond a model's wounds lost, by the exact odds (:mod:`shooting_worth`, on
:attr:`odds.KillOdds.mean_wounds_lost`): against models of one wound, the
models it is expected to destroy.

- ``mover``: the first unit offered (the scenario's order).
- ``move-type`` (:func:`_move_type`): an engaged unit remains stationary (it
  stays in the fight). An unengaged one weighs a normal move toward its
  closest enemy (``movement.move_toward``, where the move would take it)
  against remaining stationary: it moves when its shooting this turn is worth
  more from there (counted as having moved: [HEAVY]'s +1 and 10.07's
  "remained stationary" lost; the range, sight and cover from there), or
  when the move sets up a charge it would declare (eligible from there, by
  :func:`charge.eligible_to_charge`, and expecting to win the fight:
  :func:`_charge_margin`). When neither its shooting nor a charge is to be
  had, even after a normal move, it advances (it loses nothing: no charge,
  no Normal shooting worth anything). Otherwise, and where a normal move
  would not move it at all, it remains stationary.
- ``heading``: toward the closest enemy unit.
- ``shooter``: the first unit offered (the scenario's order); ``done`` only when
  it is the last choice left.
- ``shooting-type``: the type whose attacks are worth the most
  (:func:`shooting_worth.volley_worth`: each weapon the type lets a model
  select, at the eligible target where it does the most, with the type's own
  rules: Indirect shooting's unseen targets, cover and hit rolls that fail on
  1-5, or 1-3 when stationary and spotted); on a tie, Indirect shooting when
  the unit sees no enemy unit, otherwise the first type offered (10.02's
  order: normal, assault, close-quarters, indirect). Only Normal and Indirect
  shooting are ever offered together (the others need an advance or an
  engagement, which Normal and Indirect exclude).
- ``profile``: the profile whose models (those carrying it) are worth the
  most at their best eligible target (:func:`shooting_worth.best_worth`), under
  the shooting type (or reaction) being resolved (:attr:`Core11Game.attacking`);
  ``target``: the eligible target at which the weapon's models are worth the
  most (:func:`shooting_worth.battery_worth`: the models in range and sight,
  or in a fight within engagement range); ties go to the first (closest).
- ``reaction``: a reactive shooting (once per turn) is used when the bearer's
  weapons can take something off the attacking unit (:func:`shooting_worth.volley_worth`
  of the shots it would fire back), and kept for a later enemy when they cannot;
  a redirection is used when the attacking unit is expected to take more off the
  bearer than off the other targets it would select instead
  (:func:`redirect_pays`).
- ``sidearms`` ([CLOSE-QUARTERS] weapons or the others, 04.01.02): the set worth
  more, each of its weapons at its best eligible target (a weapon that reaches
  no enemy is worth nothing), for the models of the kind that choose.
- ``lethal-hits``: wound automatically unless a rolled wound is worth more
  (:attr:`AttackProfile.lethal_pays`, against the weapon's target).
- ``charger``: the unit that expects to win its fight by the most, judged by
  :func:`melee_share` (the share of the enemy's wounds its melee attacks take
  on average, exactly by ``odds.py``, with [LANCE] as after a charge) against
  the closest enemy unit, compared with the share that enemy takes back;
  ``done`` when no unit expects to win.
- ``charge-target``: the closest unit. ``fighter``: the first unit offered;
  ``fight-type``: the first offered (normal before overrun).
- ``melee-weapon``: the weapon worth the most for the models that choose, at
  the enemy unit it is engaged with where it does the most.
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
from hammerlab.editions.core11.attacks import LETHAL, Battery
from hammerlab.editions.core11.charge import CHARGE, eligible_to_charge
from hammerlab.editions.core11.fire_control import FireControl
from hammerlab.editions.core11.melee import MELEE, MELEE_WEAPON
from hammerlab.editions.core11.movement import ADVANCE, NORMAL, REMAIN, move_toward
from hammerlab.editions.core11.odds import kill_odds
from hammerlab.editions.core11.overwatch import OVERWATCH
from hammerlab.editions.core11.positions import engaged_with, sees, unit_distance
from hammerlab.editions.core11.profiles import (
    carried_weapons,
    estimated_defence,
    unit_defence,
    unit_movement,
)
from hammerlab.editions.core11.rolls import Situation, attack_profile
from hammerlab.editions.core11.shooting import SHOOTING, SHOOTING_TYPES
from hammerlab.editions.core11.shooting_worth import (
    battery_worth,
    best_worths,
    group_worths,
    volley_worth,
)
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.core11.volley import SIDEARMS, armed
from hammerlab.editions.core11.weapons import WeaponError, WeaponProfile, read_weapon
from hammerlab.editions.core11.windows import CHARGE_DECLARED
from hammerlab.editions.schedule import still_to_play
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.decisions import Decision
from hammerlab.engine.memo import decision_scope
from hammerlab.engine.moves import centre_of, shifted_copy
from hammerlab.engine.units import Model, Unit

NORMAL_SHOOTING = SHOOTING_TYPES[0].control
INDIRECT_SHOOTING = SHOOTING_TYPES[3].control


WEIGHING = frozenset(
    ("move-type", "shooting-type", REACTION, "profile", "target", MELEE_WEAPON, "charger", SIDEARMS)
)
"""The decisions the AI answers by weighing attacks (:mod:`shooting_worth`, :func:`melee_share`)."""


class Core11AI:
    """Answers core11 decisions by the rules of thumb in the module docstring."""

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """The index of the chosen answer; what a decision that weighs attacks reads is
        worked out once for it (:func:`memo.decision_scope`: the sight lines every
        weapon reads, :func:`positions.sightlines`)."""
        if decision.kind not in WEIGHING:
            return self._choose(battle, decision)
        with decision_scope():
            return self._choose(battle, decision)

    def _choose(self, battle: Battle, decision: Decision[Any]) -> int:
        if decision.kind == "move-type":
            return _move_type(battle, decision)
        if decision.kind == "heading":
            return _closest(battle, decision)
        if decision.kind == "shooting-type":
            return self._shooting_type(battle, decision)
        if decision.kind == REACTION:
            return _reaction(battle, decision)
        if decision.kind == "profile":
            return _best_profile(battle, decision)
        if decision.kind == "target":
            return _best_target(battle, decision)
        if decision.kind == MELEE_WEAPON:
            return _best_melee_weapon(battle, decision)
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
        best = _best([volley_worth(game, unit, c.value.control) for c in decision.choices])
        if len(best) > 1 and "indirect" in labels and labels.index("indirect") in best:
            blind = not any(
                sees(battle, m, enemy)
                for enemy in battle.enemies_of(unit)
                for m in unit.alive_models
            )
            if blind:
                return labels.index("indirect")
        return best[0]


def _game(battle: Battle) -> Core11Game:
    """The core11 state of ``battle``."""
    game = battle.state
    assert isinstance(game, Core11Game), "core11 battle not started"
    return game


TIE = 1e-9
"""Worths closer than this are equal: the same expectation reached by different sums
(six Frag attacks or two Krak attacks, each 10/9 of a Boy) differs in its last bits,
which must not decide."""


def _best(scores: list[float]) -> list[int]:
    """The indices of the highest scores (within :data:`TIE`), in order."""
    top = max(scores)
    return [i for i, score in enumerate(scores) if score >= top - TIE]


def _first_best(scores: list[float]) -> int:
    """The index of the highest score, the first on a tie."""
    return _best(scores)[0]


def _reaction(battle: Battle, decision: Decision[Any]) -> int:
    """``use`` (0) or ``decline`` (1) a reactive shooting or a redirection, as the
    module docstring says."""
    game = _game(battle)
    bearer = battle.unit(decision.context.unit)
    enemy = battle.unit(decision.context.attacker)
    if decision.context.why == REDIRECTION:
        use = redirect_pays(game, bearer, enemy)
    else:
        use = volley_worth(game, bearer, return_fire_control(enemy.id)) > TIE
    return 0 if use else 1


def redirect_pays(game: Core11Game, bearer: Unit, enemy: Unit) -> bool:
    """Whether making ``enemy`` select a new target saves wounds: for each of its
    weapon groups that could attack ``bearer`` (its Normal shooting: the reaction
    is not told the type), the most it takes off ``bearer`` less the most it would
    take off another target, summed, is more than 0. A group with no other target
    does nothing after the redirection."""
    at = group_worths(game, enemy, NORMAL_SHOOTING, lambda t: t.id == bearer.id)
    elsewhere = group_worths(game, enemy, NORMAL_SHOOTING, lambda t: t.id != bearer.id)
    return sum(a - e for a, e in zip(at, elsewhere, strict=True) if a > 0) > TIE


def _move_type(battle: Battle, decision: Decision[Any]) -> int:
    """Remain stationary, make a normal move or advance, as the module docstring says."""
    labels = decision.labels()
    unit = battle.unit(decision.context.unit)
    enemies = battle.enemies_of(unit)
    if NORMAL not in labels or not enemies:
        return labels.index(REMAIN)
    game = _game(battle)
    foe = _nearest(unit, enemies)
    step = move_toward(game, unit, centre_of(foe), unit_movement(unit))
    if step == (0.0, 0.0):  # a normal move of 0": nothing gained, the stationary lost
        return labels.index(REMAIN)
    there = shifted_copy(unit, step)
    there.status.moved = True
    here_worth, there_worth = _shooting_to_come(game, unit), _shooting_to_come(game, there)
    if there_worth > here_worth + TIE or _charge_to_set_up(game, there, foe):
        return labels.index(NORMAL)
    if there_worth <= TIE and ADVANCE in labels:
        return labels.index(ADVANCE)
    return labels.index(REMAIN)


def _shooting_to_come(game: Core11Game, unit: Unit) -> float:
    """What ``unit``'s shooting this turn is worth where it stands, as it stands (moved
    or not): its Normal shooting or, with an [INDIRECT FIRE] weapon, its Indirect
    shooting, whichever is worth more; 0 when the turn plays no Shooting phase
    after this one."""
    if not still_to_play(game.battle, SHOOTING.name):
        return 0.0
    types = [NORMAL_SHOOTING]
    if any(p.has("INDIRECT FIRE") for p in _profiles(unit) if not p.melee):
        types.append(INDIRECT_SHOOTING)
    return max(volley_worth(game, unit, control) for control in types)


def _charge_to_set_up(game: Core11Game, unit: Unit, foe: Unit) -> bool:
    """Whether ``unit``, standing where it is, will be eligible to declare a charge
    this turn (:func:`charge.eligible_to_charge`, a Charge phase still to play) and
    would declare one at ``foe`` (:func:`_charge_margin`)."""
    return (
        still_to_play(game.battle, CHARGE.name)
        and eligible_to_charge(game, unit)
        and _charge_margin(game.battle, unit, foe) > TIE
    )


def melee_share(battle: Battle, attacker: Unit, defender: Unit, charged: bool) -> float:
    """The share of ``defender``'s wounds that ``attacker``'s melee attacks take on
    average: each model's best melee weapon (the one that takes the most off
    ``defender`` alone), the models of one weapon attacking together, excess
    damage lost (:func:`odds.kill_odds`)."""
    wounds = sum(m.wounds_left for m in defender.alive_models)
    if not wounds:
        return 0.0
    fnp = _game(battle).feel_no_pain.get(defender.id)
    models = len(defender.alive_models)
    situation = Situation(charged=charged, target_models=models)
    defence = estimated_defence(defender)

    def lost(profile: WeaponProfile, count: int) -> float:
        return kill_odds(profile, count, defence, models, situation, fnp).mean_wounds_lost

    wielded: dict[WeaponProfile, int] = {}
    for model in attacker.alive_models:
        melee = [p for p in _readable(model.weapons) if p.melee]
        if melee:
            best = max(melee, key=lambda p: lost(p, 1))
            wielded[best] = wielded.get(best, 0) + 1
    return sum(lost(profile, count) for profile, count in wielded.items()) / wounds


def _charge_margin(battle: Battle, unit: Unit, foe: Unit) -> float:
    """How one-sided a fight of ``unit`` charging ``foe`` is expected to be in its favour:
    the share of ``foe``'s wounds it takes less the share ``foe`` takes back."""
    return melee_share(battle, unit, foe, True) - melee_share(battle, foe, unit, False)


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
        margin = _charge_margin(battle, unit, _nearest(unit, enemies))
        if margin > best_margin + TIE:
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


def _readable(weapons: Iterable[Weapon]) -> list[WeaponProfile]:
    """The profiles of ``weapons`` that core11 can read."""
    found = []
    for weapon in weapons:
        try:
            found.append(read_weapon(weapon))
        except WeaponError:
            continue
    return found


def _control(game: Core11Game, decision: Decision[Any]) -> FireControl:
    """The limits the decision's attacks are made under: those of the volley or fight
    being resolved (:attr:`Core11Game.attacking`); asked outside one (a test's
    question), Normal shooting, or melee for a melee weapon."""
    if game.attacking is not None:
        return game.attacking
    return MELEE if decision.kind == MELEE_WEAPON else NORMAL_SHOOTING


def _deciding(battle: Battle, decision: Decision[Any]) -> tuple[Core11Game, Unit, list[Model]]:
    """The game, the unit deciding and its models alive the decision is for."""
    unit = battle.unit(decision.context.unit)
    ids = set(decision.context.models)
    return _game(battle), unit, [m for m in unit.alive_models if m.id in ids]


def _battery(models: list[Model], name: str) -> Battery | None:
    """The models of ``models`` carrying the weapon called ``name``, firing it (``None``
    when none does or core11 cannot read it)."""
    carriers = [m for m in models if m.weapon(name) is not None]
    weapon = carriers[0].weapon(name) if carriers else None
    if weapon is None:
        return None
    try:
        return Battery(weapon, read_weapon(weapon), carriers)
    except WeaponError:
        return None


def _best_profile(battle: Battle, decision: Decision[Any]) -> int:
    """The profile whose models do the most at their best eligible target."""
    game, unit, models = _deciding(battle, decision)
    control = _control(game, decision)
    batteries = [_battery(models, str(c.value)) for c in decision.choices]
    worths = iter(best_worths(game, unit, [b for b in batteries if b is not None], control))
    return _first_best([0.0 if b is None else next(worths) for b in batteries])


def _best_target(battle: Battle, decision: Decision[Any]) -> int:
    """The target the weapon's models do the most at (the first, closest, on a tie)."""
    game, unit, models = _deciding(battle, decision)
    battery = _battery(models, decision.context.weapon)
    if battery is None:
        return 0
    control = _control(game, decision)
    return _first_best(
        [
            battery_worth(game, unit, battery, battle.unit(str(c.value)), control)
            for c in decision.choices
        ]
    )


def _best_melee_weapon(battle: Battle, decision: Decision[Any]) -> int:
    """The melee weapon that does the most at the enemy unit it is engaged with where it
    does the most."""
    game, unit, models = _deciding(battle, decision)
    foes = engaged_with(battle, unit)
    scores = []
    for choice in decision.choices:
        battery = _battery(models, str(choice.value))
        scores.append(
            0.0
            if battery is None
            else max((battery_worth(game, unit, battery, f, MELEE) for f in foes), default=0.0)
        )
    return _first_best(scores)


def _best_sidearms(battle: Battle, decision: Decision[Any]) -> int:
    """The weapon set (its [CLOSE-QUARTERS] weapons, or the others) worth more: each of
    its weapon groups by its best profile at its best eligible target, summed."""
    game, unit, models = _deciding(battle, decision)
    control = _control(game, decision)
    first = models[0] if models else None
    carried = next((c for m, c in armed(game, unit, control, quiet=True) if m is first), [])
    scores = []
    for choice in decision.choices:
        batteries = [
            Battery(weapon, profile, [m for m in models if m.weapon(weapon.name) is not None])
            for weapon, profile in carried
            if profile.has("CLOSE-QUARTERS") == bool(choice.value)
        ]
        groups: dict[str, float] = {}
        for battery, worth in zip(
            batteries, best_worths(game, unit, batteries, control), strict=True
        ):
            group = battery.profile.group
            groups[group] = max(groups.get(group, 0.0), worth)
        scores.append(sum(groups.values()))
    return _first_best(scores)


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
    battery = _battery(unit.alive_models, name)
    return None if battery is None else battery.profile
