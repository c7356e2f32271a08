"""What a unit's shooting is expected to do: the worth the core11 AI weighs its
shooting type, its reactive shooting and a redirection by.

Every part is the rules' own: the weapons a shooting type lets each model
select (:meth:`FireControl.weapon_allowed`), the targets each weapon may
select and the models that may attack them (:func:`volley.eligible_targets`,
:func:`volley.attackers`: range, sight, engagement, 10.07's unseen targets),
each attack's situation (:func:`attacks.situations_for`: half range, cover,
[HEAVY], 10.07's hit rolls and spotting), and the exact odds' expected damage
of one model's attacks (:func:`odds.expected_damage`). A weapon group fires
the profile and the target where it does the most, as the AI picks them.

Not counted: a model carrying both [CLOSE-QUARTERS] and other ranged weapons
counts both sets, where 04.01.02 lets it fire one (the same for every shooting
type it could choose between, which share the models' weapons); damage beyond
a target's wounds is not taken off; and a weapon's worth is its damage alone,
whatever the target.
"""

from __future__ import annotations

from collections.abc import Callable

from hammerlab.editions.core11.attacks import Battery, situations_for
from hammerlab.editions.core11.fire_control import FireControl
from hammerlab.editions.core11.odds import expected_damage
from hammerlab.editions.core11.profiles import unit_defence
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.core11.volley import armed, attackers, eligible_targets
from hammerlab.engine.units import Unit

TargetFilter = Callable[[Unit], bool]
"""Which of a weapon's eligible targets count."""


def volley_worth(
    game: Core11Game, unit: Unit, control: FireControl, among: TargetFilter = lambda _: True
) -> float:
    """Expected damage of ``unit`` shooting under ``control``: each of its weapon
    groups at the eligible target of ``among`` where it does the most, summed."""
    return sum(group_worths(game, unit, control, among))


def group_worths(
    game: Core11Game, unit: Unit, control: FireControl, among: TargetFilter = lambda _: True
) -> list[float]:
    """For each weapon group ``unit`` may fire under ``control``, the most expected
    damage one of its profiles does at one of the eligible targets ``among`` keeps
    (0 where none is), in the order the groups are first carried."""
    worths = []
    for variants in _weapon_groups(game, unit, control):
        worths.append(
            max(
                (
                    battery_worth(game, unit, battery, target, control)
                    for battery in variants
                    for target in eligible_targets(game, unit, battery, control)
                    if among(target)
                ),
                default=0.0,
            )
        )
    return worths


def battery_worth(
    game: Core11Game, unit: Unit, battery: Battery, target: Unit, control: FireControl
) -> float:
    """Expected damage of ``battery``'s models that may attack ``target`` (each in
    its own situation) under ``control``."""
    firing = attackers(game, unit, battery.models, battery, target, control)
    if not firing:
        return 0.0
    situations = situations_for(
        game, unit, firing, battery.profile, target, control, len(target.alive_models)
    )
    defence = unit_defence(target)
    fnp = game.feel_no_pain.get(target.id)
    return sum(expected_damage(battery.profile, defence, s, fnp) for s in situations)


def _weapon_groups(game: Core11Game, unit: Unit, control: FireControl) -> list[list[Battery]]:
    """The weapons ``unit``'s models alive may select under ``control``
    (:func:`volley.armed`, read quietly: an estimate writes nothing in the log),
    grouped as ``volley`` groups them (by weapon), one :class:`Battery` per profile
    of a group (a weapon of several profiles fires one of them)."""
    groups: dict[str, dict[str, Battery]] = {}
    for model, carried in armed(game, unit, control, quiet=True):
        for weapon, profile in carried:
            variants = groups.setdefault(profile.group, {})
            battery = variants.setdefault(profile.name, Battery(weapon, profile, []))
            battery.models.append(model)  # a model with two of a weapon fires both
    return [list(variants.values()) for variants in groups.values()]
