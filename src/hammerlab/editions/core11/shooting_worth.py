"""What a unit's attacks are expected to do: the worth the core11 AI weighs its
shooting type, its weapon profiles, sidearms and targets, its reactive shooting,
a redirection and its move by.

The worth is the wounds the target unit is expected to lose: the exact odds'
casualty distribution (:attr:`odds.KillOdds.mean_wounds_lost`), in which
damage beyond a model's wounds is lost, as the battle loses it
(:func:`attacks.inflict`). Against models of one wound it is the models
destroyed: a Krak grenade's D3 kills one Boy at most, as a Frag grenade's
hit does.

Every part is the rules' own: the weapons a shooting type lets each model
select (:meth:`FireControl.weapon_allowed`), the targets each weapon may
select and the models that may attack them (:func:`volley.eligible_targets`,
:func:`volley.attackers`: range, sight, engagement, 10.07's unseen targets; in
a fight, :func:`melee.may_fight`: engagement range), each attack's situation
(:func:`attacks.situations_for`: half range, cover, [HEAVY], 10.07's hit
rolls and spotting), and the exact odds of the models in one situation
attacking together (:func:`odds.kill_odds`: :func:`attacks.expected_wounds_lost`,
which a person choosing a target is told too). A weapon group fires the profile
and the target where it does the most, as the AI picks them. All of them read
the unit's lines to each target (:func:`positions.sightlines`: each model's
distance, sight and cover, drawn once for all the weapons weighed, and kept
while the two units stand still).

Not counted: a model carrying both [CLOSE-QUARTERS] and other ranged weapons
counts both sets, where 04.01.02 lets it fire one (the same for every shooting
type it could choose between, which share the models' weapons); each weapon
group, and each situation within one, is weighed against the whole target
unit, as if no other attack took a model first (the sum may exceed what the
unit has); a model that has lost wounds is counted as unhurt, and every
model as one of the unit's most numerous kind (:func:`profiles.estimated_defence`);
and a wound's worth is the same whatever the target.
"""

from __future__ import annotations

from collections.abc import Callable

from hammerlab.editions.core11.attacks import Battery, expected_wounds_lost
from hammerlab.editions.core11.fire_control import FireControl
from hammerlab.editions.core11.melee import may_fight
from hammerlab.editions.core11.positions import Sightlines, sightlines
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.core11.volley import aims, armed, attackers, by_weapon, target_lines
from hammerlab.engine.units import Unit

TargetFilter = Callable[[Unit], bool]
"""Which of a weapon's eligible targets count."""


def volley_worth(
    game: Core11Game, unit: Unit, control: FireControl, among: TargetFilter = lambda _: True
) -> float:
    """Expected wounds ``unit``'s shooting under ``control`` takes off: each of its
    weapon groups at the eligible target of ``among`` where it does the most, summed."""
    return sum(group_worths(game, unit, control, among))


def group_worths(
    game: Core11Game, unit: Unit, control: FireControl, among: TargetFilter = lambda _: True
) -> list[float]:
    """For each weapon group ``unit`` may fire under ``control``, the most one of its
    profiles takes off one of the eligible targets ``among`` keeps (0 where none is),
    in the order the groups are first carried."""
    drawn = [lines for lines in target_lines(game, unit, control) if among(lines.target)]
    return [
        max((_best(game, unit, battery, control, drawn) for battery in variants), default=0.0)
        for variants in _weapon_groups(game, unit, control)
    ]


def best_worth(
    game: Core11Game,
    unit: Unit,
    battery: Battery,
    control: FireControl,
    among: TargetFilter = lambda _: True,
) -> float:
    """The most ``battery`` takes off one of its eligible targets that ``among`` keeps
    (0 where none is: a weapon out of range or sight of every enemy makes no attacks)."""
    return best_worths(game, unit, [battery], control, among)[0]


def best_worths(
    game: Core11Game,
    unit: Unit,
    batteries: list[Battery],
    control: FireControl,
    among: TargetFilter = lambda _: True,
) -> list[float]:
    """:func:`best_worth` of each of ``batteries``, the unit's lines to its targets
    drawn once for them all (:func:`volley.target_lines`)."""
    drawn = [lines for lines in target_lines(game, unit, control) if among(lines.target)]
    return [_best(game, unit, battery, control, drawn) for battery in batteries]


def _best(
    game: Core11Game, unit: Unit, battery: Battery, control: FireControl, drawn: list[Sightlines]
) -> float:
    """:func:`best_worth` among the targets ``drawn``."""
    return max(
        (
            expected_wounds_lost(game, unit, lines, battery.profile, firing, control)
            for lines, firing in aims(game, unit, battery, control, drawn)
        ),
        default=0.0,
    )


def battery_worth(
    game: Core11Game, unit: Unit, battery: Battery, target: Unit, control: FireControl
) -> float:
    """Expected wounds ``target`` loses to the models of ``battery`` that may attack it
    under ``control`` (in a fight, those within engagement range of it): the models in
    one situation attack together, excess damage lost (:func:`odds.kill_odds`)."""
    if control.melee:
        firing = [m for m in battery.models if may_fight(m, target)]
    else:
        firing = attackers(game, unit, battery.models, battery, target, control)
    lines = sightlines(game.battle, unit, target)
    return expected_wounds_lost(game, unit, lines, battery.profile, firing, control)


def eligible_lines(game: Core11Game, unit: Unit, control: FireControl) -> list[Sightlines]:
    """The unit's lines (:func:`positions.sightlines`) to each enemy unit that one of
    the weapons its models may select under ``control`` may target now (any profile of
    any weapon group: :func:`volley.aims`), closest first; none: shooting so, the unit
    would make no attacks (10.02 FAQ)."""
    drawn = target_lines(game, unit, control)
    found = {
        id(lines): lines
        for variants in _weapon_groups(game, unit, control)
        for battery in variants
        for lines, _ in aims(game, unit, battery, control, drawn)
    }
    return sorted(found.values(), key=lambda lines: lines.nearest)


def _weapon_groups(game: Core11Game, unit: Unit, control: FireControl) -> list[list[Battery]]:
    """The weapons ``unit``'s models alive may select under ``control``
    (:func:`volley.armed`, read quietly: an estimate writes nothing in the log),
    grouped as ``volley`` groups them (by weapon), one :class:`Battery` per profile
    of a group (a weapon of several profiles fires one of them)."""
    grouped = by_weapon(armed(game, unit, control, quiet=True))
    return [list(variants.values()) for variants in grouped.values()]
