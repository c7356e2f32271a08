"""The Waffle Edition's heuristic AI: sensible defaults, documented.

- Shooter: the unit with the most expected casualties to cause first.
- Action: shoot when any target can be hurt; Suppressive Fire (when the option
  is on) against a target it would hardly kill but could break (expected
  casualties under one model, 4+ models); otherwise Run toward the enemy if
  it can, else hold.
- Target: the one with the most expected casualties. A unit locked in combat
  (option ``shooting_into_combat``) only when the expected enemy casualties
  are at least 4 times the expected casualties the rolls of 1-2 would cause
  to the least exposed of its own engaged units; it is then worth the
  difference, so a free target is usually preferred.
- Melee stray (which engaged unit the 1-2s hit): its own unit that would
  lose the fewest models, or the other player's unit that would lose the most.
- Weapon: the one with the most expected casualties per firing model first, so
  special weapons fire before a model's pistol could take their turn.
- Aim (blast/template): the target model with the most enemy models and the
  fewest friends around it.
- Final Shot: always.
- Reaction to Shooting: Return Fire! if it can hurt the attacker, else Dive
  for Cover if it can run, else none.
- Mover: units in the order offered.
- Move: advance, except when diving for cover (nearest cover), and in the
  movement phase a unit whose Heavy/Salvo/Ordnance weapons can already hurt
  an enemy holds still (unless Relentless), keeping its full fire.
- Charger: the unit with the best melee edge over a target it may charge
  (``expected_melee`` of its models with the charge bonus minus what the
  target would strike back); none when no edge is positive.
- Charge target: the target with the best melee edge.
- Reaction to Charge: Fall Back when it would clearly lose the fight (the
  charger's expected casualties at least 1 and more than three times its own),
  else Fire Overwatch when it can shoot, else none.
- Fiery Charge: when its expected casualties exceed those of the bonus
  Attacks its engaged models would lose.
- Melee weapon: the one with the most expected unsaved wounds (Attacks, with
  the second-weapon bonus, times ``blow_value``) against the best enemy unit
  in base contact; the Initiative an Unwieldy weapon costs is not weighed.
- Melee target (several enemy units within reach): the weakest, i.e. the one
  with the most expected unsaved wounds per blow; on a tie the one with the
  fewest models left.
- Final Blow: always.
- Sweeping Advance: always. A unit is only offered one when every enemy it
  was locked with fell back or died, so it has nothing to stay for, and a
  Waffle Sweeping Advance risks nothing: it only adds hits.
- Move when consolidating: advance (toward the nearest enemy, 1" short).
"""

from __future__ import annotations

from typing import Any

from hammerlab.editions.waffle.assault_results import SWEEP
from hammerlab.editions.waffle.attacks import melee_stray_units, ranged_weapons
from hammerlab.editions.waffle.charge import END_CHARGES, NO_REACTION, charge_targets
from hammerlab.editions.waffle.combat import engaged_models, foes_in_contact
from hammerlab.editions.waffle.estimate import (
    expected_attack,
    expected_casualties,
    expected_per_model,
    p_at_least,
    p_hit,
)
from hammerlab.editions.waffle.fight import AUTOMATIC, attacks_of, melee_options
from hammerlab.editions.waffle.orders import FireOrders, orders_against
from hammerlab.editions.waffle.profiles import WeaponProfile, stats_of, weapon_of
from hammerlab.editions.waffle.rules.fiery_charge import FIERY, FIERY_ORDERS, NO_FIERY
from hammerlab.editions.waffle.rules.reactions import DIVE, FALL_BACK, OVERWATCH, RETURN_FIRE
from hammerlab.editions.waffle.rules.suppressive_fire import SUPPRESS
from hammerlab.editions.waffle.shooting import (
    HOLD,
    RUN,
    SHOOT,
    is_vehicle,
    may_target,
    targets_for,
)
from hammerlab.editions.waffle.special_rules import close_combat_strength, relentless
from hammerlab.editions.waffle.tables import (
    melee_cell,
    overwhelming,
    snap_shot_bs,
    to_wound_target,
)
from hammerlab.editions.waffle.wounds import majority, majority_toughness, typical_profile
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Decision
from hammerlab.engine.geometry import centre_distance
from hammerlab.engine.units import Model, Unit


def _gun_line(battle: Battle, unit: Unit) -> bool:
    """Whether moving would cost the unit its heavy weapons' full fire at a target in range."""
    if relentless(unit):
        return False
    heavy = [
        w
        for w in ranged_weapons(unit)
        if any(
            (weapon := m.weapon(w)) is not None and weapon_of(weapon).is_heavy_like
            for m in unit.alive_models
        )
    ]
    return any(
        expected_casualties(battle, unit, enemy, w, FireOrders()) > 0
        for enemy in battle.enemies_of(unit)
        for w in heavy
    )


MELEE_RISK_RATIO = 4.0
"""Expected enemy casualties wanted per expected friendly one to shoot into a melee."""
STRAY_CHANCE = 1 / 3
"""Seed 001: a To Hit roll of 1 or 2 into a melee hits another unit of the combat."""


def target_value(battle: Battle, unit: Unit, enemy: Unit) -> float:
    """What shooting ``enemy`` is worth: expected casualties, net of friendly fire.

    A unit locked in combat is worth -1 (never preferred) unless the rules let
    it be targeted (:func:`shooting.may_target`: the option
    ``shooting_into_combat``) and the expected enemy casualties are at least
    :data:`MELEE_RISK_RATIO` times the expected friendly ones.
    """
    if not enemy.status.locked_in_combat:
        return expected_attack(battle, unit, enemy, FireOrders())
    if not may_target(battle, unit, enemy):
        return -1.0
    orders = orders_against(enemy, FireOrders())
    gain = expected_attack(battle, unit, enemy, orders)
    risk = stray_risk(battle, unit, enemy, orders)
    return gain - risk if gain > 0 and gain >= MELEE_RISK_RATIO * risk else -1.0


def best_target_value(battle: Battle, unit: Unit) -> float:
    """The best :func:`target_value` among the enemy units (0 when none is worth shooting)."""
    return max([0.0, *(target_value(battle, unit, e) for e in battle.enemies_of(unit))])


def stray_risk(battle: Battle, unit: Unit, enemy: Unit, orders: FireOrders) -> float:
    """Expected casualties of ``unit``'s own side from its rolls of 1-2 into ``enemy``'s melee.

    The shooter sends them to its least exposed engaged unit. A unit shot with
    Snap Shots hits with chance ``p``; a stray happens with chance 1/3, so the
    friendly casualties are those of snap-shooting that unit scaled by
    (1/3)/``p`` (BS: the unit's most common). Strays hitting another player's
    unit cost nothing.
    """
    friends = [u for u in melee_stray_units(battle, unit, enemy) if u.player == unit.player]
    if not friends or unit.destroyed:
        return 0.0
    bs = stats_of(typical_profile(unit)).bs
    scale = STRAY_CHANCE / p_hit(snap_shot_bs(bs))
    return scale * min(expected_attack(battle, unit, f, orders) for f in friends)


def expected_melee(models: list[Model], defender: Unit, bonus: int) -> float:
    """Expected casualties ``models`` cause ``defender`` in one round of close combat.

    Each model's Attacks (plus ``bonus``: the charge bonus) hit on the seed's
    WS-vs-WS chart, wound by its Strength against the defender's majority
    Toughness and must beat the defender's best save (armour or invulnerable;
    melee AP is not counted). A rough average for ranking choices.
    """
    if defender.destroyed:
        return 0.0
    typical = stats_of(typical_profile(defender))
    toughness = majority_toughness(defender)
    unsaved = 1 - p_at_least(min(typical.sv or 7, typical.invulnerable or 7))
    total = 0.0
    for model in models:
        stats = stats_of(model.profile)
        cell = melee_cell(stats.ws, typical.ws)
        hit = 1.0 if cell == "A" else p_at_least(int(cell[0]))
        wound = p_at_least(to_wound_target(stats.s, toughness) or 7)
        slain = 1.0 if stats.s >= 2 * typical.t else 1.0 / max(1, typical.w)
        total += (stats.a + bonus) * hit * wound * unsaved * slain
    return min(total, float(len(defender.alive_models)))


def melee_edge(charger: Unit, target: Unit) -> float:
    """What a charge is worth: expected casualties dealt (with the charge bonus) minus taken."""
    return expected_melee(charger.alive_models, target, 1) - expected_melee(
        target.alive_models, charger, 0
    )


def blow_value(unit: Unit, model: Model, weapon: WeaponProfile, target: Unit) -> float:
    """Expected unsaved wounds of one blow of ``model`` with ``weapon`` on ``target``.

    The seed's WS chart against the target's majority WS; To Wound with the
    blow's Strength (Furious Charge included) against its majority Toughness;
    then the best save of its most common model that the weapon's AP leaves
    (armour or invulnerable).
    """
    if target.destroyed:
        return 0.0
    typical = stats_of(typical_profile(target))
    cell = melee_cell(stats_of(model.profile).ws, majority(target, lambda s: s.ws))
    hit = 1.0 if cell == AUTOMATIC else p_at_least(int(cell.rstrip("+")))
    strength = close_combat_strength(unit, model, weapon, unit.status.charged)
    toughness = majority_toughness(target)
    needed = to_wound_target(strength, toughness) or 7
    wound = 1.0 if overwhelming(strength, toughness) else p_at_least(needed)
    saves = [typical.invulnerable or 7]
    if typical.sv is not None and (weapon.ap is None or weapon.ap > typical.sv):
        saves.append(typical.sv)
    return hit * wound * (1 - p_at_least(min(saves)))


def _asked_model(battle: Battle, decision: Decision[Any]) -> tuple[Unit, Model]:
    """The unit of a melee decision and the first of the models it is about."""
    unit = battle.unit(decision.context["unit"])
    first = decision.context["models"].split(",")[0]
    return unit, next(m for m in unit.models if m.id == first)


def _breakable_target(battle: Battle, unit: Unit) -> bool:
    """A target worth Suppressive Fire: not a vehicle, four or more models."""
    return any(
        len(t.alive_models) >= 4 and not is_vehicle(t)
        for t in targets_for(battle, unit, FireOrders())
    )


class WaffleAI:
    """Heuristic controller for every Waffle Edition decision."""

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """The index of the heuristic's preferred choice."""
        handler = getattr(self, f"_{decision.kind}", None)
        if handler is None:
            return 0
        index: int = handler(battle, decision)
        return index

    def _shooter(self, battle: Battle, decision: Decision[Any]) -> int:
        def value(unit: Unit | None) -> float:
            if unit is None:
                return -1.0
            return best_target_value(battle, unit)

        values = [value(c.value) for c in decision.choices]
        return values.index(max(values))

    def _action(self, battle: Battle, decision: Decision[Any]) -> int:
        labels = decision.labels()
        unit = battle.unit(decision.context["unit"])
        if SHOOT in labels:
            best = best_target_value(battle, unit)
            if SUPPRESS in labels and best < 1.0 and _breakable_target(battle, unit):
                return labels.index(SUPPRESS)
            if best > 0:
                return labels.index(SHOOT)
        return labels.index(RUN) if RUN in labels else labels.index(HOLD)

    def _target(self, battle: Battle, decision: Decision[Any]) -> int:
        unit = battle.unit(decision.context["unit"])
        values = [target_value(battle, unit, c.value) for c in decision.choices]
        return values.index(max(values))

    def _melee_stray(self, battle: Battle, decision: Decision[Any]) -> int:
        unit = battle.unit(decision.context["unit"])
        weapon = decision.context["weapon"]

        def value(victim: Unit) -> float:
            orders = orders_against(victim, FireOrders())
            harm = expected_casualties(battle, unit, victim, weapon, orders)
            return -harm if victim.player == unit.player else harm

        values = [value(c.value) for c in decision.choices]
        return values.index(max(values))

    def _weapon(self, battle: Battle, decision: Decision[Any]) -> int:
        unit = battle.unit(decision.context["unit"])
        target = battle.unit(decision.context["target"])
        orders = orders_against(target, FireOrders())
        values = [
            expected_per_model(battle, unit, target, c.value, orders) if c.value else -1.0
            for c in decision.choices
        ]
        return values.index(max(values))

    def _aim(self, battle: Battle, decision: Decision[Any]) -> int:
        unit = battle.unit(decision.context["unit"])
        friends = [m for u in battle.units_of(unit.player) for m in u.alive_models]
        foes = [m for e in battle.enemies_of(unit) for m in e.alive_models]

        def crowd(model: Model) -> float:
            near = [f for f in foes if centre_distance(f.position, model.position) <= 2.5]
            risk = [f for f in friends if centre_distance(f.position, model.position) <= 3.5]
            return len(near) - 2.0 * len(risk)

        values = [crowd(c.value) for c in decision.choices]
        return values.index(max(values))

    def _final_shot(self, battle: Battle, decision: Decision[Any]) -> int:
        return 0

    def _reaction(self, battle: Battle, decision: Decision[Any]) -> int:
        labels = decision.labels()
        unit = battle.unit(decision.context["unit"])
        attacker = battle.unit(decision.context["attacker"])
        snap = FireOrders(snap=True, purpose="return fire")
        if RETURN_FIRE in labels and expected_attack(battle, unit, attacker, snap) > 0.05:
            return labels.index(RETURN_FIRE)
        if DIVE in labels:
            return labels.index(DIVE)
        return len(labels) - 1

    def _mover(self, battle: Battle, decision: Decision[Any]) -> int:
        return 0

    def _move(self, battle: Battle, decision: Decision[Any]) -> int:
        labels = decision.labels()
        if "dives" in decision.context.get("why", ""):
            return labels.index("take cover")
        unit = battle.unit(decision.context["unit"])
        if decision.context.get("phase") == "movement" and _gun_line(battle, unit):
            return labels.index("hold")
        return labels.index("advance")

    def _charger(self, battle: Battle, decision: Decision[Any]) -> int:
        def value(unit: Unit | None) -> float:
            if unit is None:
                return 0.0
            return max((melee_edge(unit, t) for t in charge_targets(battle, unit)), default=0.0)

        values = [value(c.value) for c in decision.choices]
        best = max(values)
        return values.index(best) if best > 0 else decision.labels().index(END_CHARGES)

    def _charge_target(self, battle: Battle, decision: Decision[Any]) -> int:
        unit = battle.unit(decision.context["unit"])
        values = [melee_edge(unit, c.value) for c in decision.choices]
        return values.index(max(values))

    def _charge_reaction(self, battle: Battle, decision: Decision[Any]) -> int:
        labels = decision.labels()
        unit = battle.unit(decision.context["unit"])
        charger = battle.unit(decision.context["attacker"])
        incoming = expected_melee(charger.alive_models, unit, 1)
        if incoming >= 1.0 and incoming > 3 * expected_melee(unit.alive_models, charger, 0):
            return labels.index(FALL_BACK)
        return labels.index(OVERWATCH if OVERWATCH in labels else NO_REACTION)

    def _fiery_charge(self, battle: Battle, decision: Decision[Any]) -> int:
        unit = battle.unit(decision.context["unit"])
        target = battle.unit(decision.context["target"])
        engaged = engaged_models(battle, unit)
        lost = expected_melee(engaged, target, 1) - expected_melee(engaged, target, 0)
        gain = expected_attack(battle, unit, target, FIERY_ORDERS)
        return decision.labels().index(FIERY if gain > lost else NO_FIERY)

    def _melee_weapon(self, battle: Battle, decision: Decision[Any]) -> int:
        unit, model = _asked_model(battle, decision)
        foes = foes_in_contact(battle, unit) or battle.enemies_of(unit)

        def value(weapon: WeaponProfile) -> float:
            best = max((blow_value(unit, model, weapon, f) for f in foes), default=0.0)
            return attacks_of(battle, unit, model, weapon) * best

        values = [value(c.value) for c in decision.choices]
        return values.index(max(values))

    def _melee_target(self, battle: Battle, decision: Decision[Any]) -> int:
        unit, model = _asked_model(battle, decision)
        weapon = next(w for w in melee_options(model) if w.name == decision.context["weapon"])
        values = [
            (blow_value(unit, model, weapon, c.value), -len(c.value.alive_models))
            for c in decision.choices
        ]
        return values.index(max(values))

    def _final_blow(self, battle: Battle, decision: Decision[Any]) -> int:
        return 0

    def _sweeping_advance(self, battle: Battle, decision: Decision[Any]) -> int:
        return decision.labels().index(SWEEP)
