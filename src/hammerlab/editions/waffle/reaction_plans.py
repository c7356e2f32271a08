"""What the Waffle AI weighs a reaction by: falling back from a charge against staying
(:func:`charge_reaction_costs`), and diving for cover against the enemy's shooting
(:func:`dive_bounds`), each in models, with the unit's next turn read in ever closer
bounds so that a reaction a bound decides never works out that turn's charges."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from hammerlab.editions.waffle.expected import PLAIN_ORDERS, expected_attack, melee_exchange
from hammerlab.editions.waffle.morale import acts_normally_on_regrouping
from hammerlab.editions.waffle.plans import (
    caught_chance,
    charge_chance,
    chased_chance,
    exposure,
    leadership_pass_chance,
    next_turn_parts,
    off_table_chance,
)
from hammerlab.editions.waffle.shooting import targets_for
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.victory_worth import model_worth
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit


@dataclass(frozen=True)
class ChargeReactionCosts:
    """Expected models a charged unit loses by staying or by falling back, each
    worth what the victory condition gives for it (:func:`victory_worth.model_worth`)."""

    stay: float
    flee: float
    off_table: float
    """Chance a Fall Back roll from here takes it off its own table edge."""
    could_hold: bool
    """Whether it is expected to have models left after the fight if it stays."""


def charge_reaction_costs(
    battle: Battle, unit: Unit, charger: Unit, overwatch: float
) -> ChargeReactionCosts:
    """Staying against falling back, in models the unit expects to lose (each
    model, its own or the charger's, worth what the victory condition gives
    for it: :func:`victory_worth.model_worth`).

    Staying: if the charge reaches (:func:`plans.charge_chance`), the fight's
    net losses (:func:`expected.melee_exchange`) and, when it loses the
    fight, the chance it breaks (a Morale check at minus the difference)
    times its survivors lost off its table edge by the Fall Back that
    follows; plus, if the charge fails, the enemy's shooting next turn
    (:func:`plans.exposure`: a unit locked in combat cannot be shot); less
    what its Overwatch (``overwatch``) kills. Falling back: the chance the
    roll takes it off its table edge times its models, the fight if the
    charger still catches it (:func:`plans.caught_chance`) or brings it next
    turn, which the Fall Back only postpones (:func:`plans.chased_chance`),
    the enemy's shooting next turn unless it is caught now (fleeing takes it
    out of no one's sight: its distance is not counted), and its next turn
    (a fleeing unit snap-fires and cannot charge), which And They Shall Know
    No Fear keeps. Neither costs more than the unit's models (the terms
    overlap: models shot are not fought).
    """
    *_, costs = charge_reaction_bounds(battle, unit, charger, overwatch)
    return costs


def charge_reaction_bounds(
    battle: Battle, unit: Unit, charger: Unit, overwatch: float
) -> Iterator[ChargeReactionCosts]:
    """:func:`charge_reaction_costs` with the cost of falling back in ever closer lower
    bounds, the last exact (staying, the edge and whether it could hold are
    exact in each).

    Falling back costs the unit its next turn (:func:`plans.next_turn_value`,
    the most of :func:`plans.next_turn_parts`): each part, cheapest first,
    raises the bound, and the last bound counts the most of them, so a
    reaction decided by a bound (staying costs no more than fleeing already
    does) never works out the charges of the unit's next turn.
    """
    models = len(unit.alive_models)
    own, theirs = model_worth(battle, unit), model_worth(battle, charger)
    cap = models * own
    reach = charge_chance(battle, charger, unit)
    lost, killed = melee_exchange(battle, charger, unit)
    off = off_table_chance(battle, unit)
    margin = lost - killed
    broken = 1 - leadership_pass_chance(battle, unit, round(margin)) if margin > 0 else 0.0
    net = lost * own - killed * theirs
    shot = exposure(battle, unit) * own
    stay = reach * (net + broken * off * max(0.0, models - lost) * own) + (1 - reach) * shot
    stay -= overwatch * theirs
    caught = caught_chance(battle, charger, unit)
    flee = off * cap + (caught + chased_chance(battle, charger, unit)) * net
    flee += (1 - off - caught) * shot
    if acts_normally_on_regrouping(unit):
        yield ChargeReactionCosts(min(stay, cap), min(flee, cap), off, lost < models)
        return
    bound = float("-inf")
    for part in next_turn_parts(battle, unit):
        bound = max(bound, flee + (1 - off) * part)
        yield ChargeReactionCosts(min(stay, cap), min(bound, cap), off, lost < models)


def dive_gain(battle: Battle, unit: Unit, attacker: Unit) -> float:
    """Models going to ground saves from the enemy units still to shoot this phase
    (each worth what the victory condition gives for it: :func:`victory_worth.model_worth`).

    Each enemy unit that may still shoot and could target ``unit`` counts
    with what it would kill as things are, less what it would kill were the
    unit gone to ground (:func:`visibility.cover_save`: +1 cover, 6+ with
    none). A Fearless unit does not Go to Ground (docs/rules/waffle.md), so it
    saves nothing.

    Whether an enemy unit could target ``unit`` (:func:`shooting.targets_for`, which
    works out its volleys at every unit it might target) is asked only where going to
    ground changes what it would kill: one that saves nothing adds nothing either way.
    """
    if unit.has_rule("Fearless"):
        return 0.0
    gain = 0.0
    for enemy in battle.units_of(attacker.player):
        status = st(battle, enemy)
        if enemy is attacker or status.has_shot or status.ran or status.locked_in_combat:
            continue
        exposed = expected_attack(battle, enemy, unit, PLAIN_ORDERS)
        saved = exposed - expected_attack(battle, enemy, unit, PLAIN_ORDERS, gone_to_ground=True)
        if saved != 0 and unit in targets_for(battle, enemy, PLAIN_ORDERS):
            gain += saved
    return gain * model_worth(battle, unit)


def dive_bounds(battle: Battle, unit: Unit, attacker: Unit) -> Iterator[float]:
    """What Dive for Cover is worth, in ever closer upper bounds, the last exact.

    The worth is :func:`dive_gain` less what the unit's next turn is worth
    (:func:`plans.next_turn_value`, never negative), or the gain alone when
    there is nothing to gain. The gain is the first bound; each part of the
    next turn (:func:`plans.next_turn_parts`, cheapest first) lowers it, and
    the last bound is the gain less the most of the parts: the exact worth.
    A reaction that is decided by a bound stops there and never works out
    the charges of the unit's next turn.
    """
    gain = dive_gain(battle, unit, attacker)
    yield gain
    if gain <= 0:
        return
    bound = gain
    for part in next_turn_parts(battle, unit):
        bound = min(bound, gain - part)
        yield bound
