"""One unit shoots (Making Attacks, 04): weapons, targets, timing windows, attacks.

The sequence, and the windows it opens for triggered rules (``windows.py``):

1. Each weapon the shooting type allows is grouped with the models carrying
   it; for a weapon with several profiles the player picks one.
2. The player selects a target for each weapon among the eligible units.
3. :data:`SELECTED_AS_TARGET` opens for each unit selected, then
   :data:`TARGET_ELIGIBILITY`; a unit a rule made no longer eligible is
   replaced by a new target the player selects (and the windows open for the
   new target), until every target stands: targets are now final.
4. Weapon by weapon, the attacks are resolved (``attacks.py``); the first
   time the unit attacks a target, :data:`RANGED_ATTACK` opens for it.
5. Hazardous tests are taken; then :data:`AFTER_ATTACKS` opens, naming the
   units attacked.

Nothing here knows any ability: reactive shooting and redirection only listen
to the windows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from hammerlab.editions.core11.attacks import (
    Battery,
    expected_wounds_lost,
    resolve_battery,
    situations_along,
    take_hazardous_tests,
    unresolved,
)
from hammerlab.editions.core11.events import TargetSelected
from hammerlab.editions.core11.fire_control import FireControl
from hammerlab.editions.core11.positions import Sightlines, sightlines
from hammerlab.editions.core11.profiles import is_monster_or_vehicle, unit_keywords
from hammerlab.editions.core11.rolls import hit_terms
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.core11.weapons import WeaponError, WeaponProfile, read_weapon
from hammerlab.editions.core11.windows import (
    AFTER_ATTACKS,
    RANGED_ATTACK,
    SELECTED_AS_TARGET,
    TARGET_ELIGIBILITY,
)
from hammerlab.engine.datasheet import Weapon
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.timing import Occasion
from hammerlab.engine.units import Model, Unit


def fire(game: Core11Game, unit: Unit, control: FireControl) -> list[str]:
    """``unit`` shoots under ``control``; returns the ids of the units it attacked."""
    with game.attacks_under(control):
        return _fire(game, unit, control)


def _fire(game: Core11Game, unit: Unit, control: FireControl) -> list[str]:
    """:func:`fire`, its decisions asked while :attr:`Core11Game.attacking` is ``control``."""
    batteries = _batteries(game, unit, control)
    if not batteries:
        game.battle.say("shooting", f"  {unit.label} has no weapon it can fire: no attacks")
    _select_targets(game, unit, control, batteries)
    attacked: list[str] = []
    for battery in batteries:
        if battery.target is None:
            continue
        target = game.battle.unit(battery.target)
        if target.destroyed:
            unresolved(game, unit, battery, target, "target_gone", control.melee)
            continue
        if battery.target not in attacked:
            attacked.append(battery.target)
            game.board.open(Occasion(RANGED_ATTACK, actor=unit.id, subject=battery.target))
        firing = attackers(game, unit, battery.models, battery, target, control)
        resolve_battery(game, unit, battery, firing, control)
    take_hazardous_tests(game, unit, batteries)
    game.board.open(Occasion(AFTER_ATTACKS, actor=unit.id, related=tuple(attacked)))
    return attacked


def readable(game: Core11Game, weapon: Weapon) -> WeaponProfile | None:
    """``weapon``'s profile; what core11 cannot use is reported once in the log."""
    try:
        profile = read_weapon(weapon)
    except WeaponError as error:
        _report(game, str(error), "it cannot be fired")
        return None
    for keyword in profile.unknown:
        _report(game, f"weapon {weapon.name}: keyword {keyword}", "not implemented, no effect")
    return profile


def _quietly_read(weapon: Weapon) -> WeaponProfile | None:
    """``weapon``'s profile, ``None`` where core11 cannot read it, reporting nothing."""
    try:
        return read_weapon(weapon)
    except WeaponError:
        return None


def _report(game: Core11Game, what: str, consequence: str) -> None:
    if what not in game.reported:
        game.reported.add(what)
        game.battle.say("rules", f"note: {what}: {consequence}")


def by_weapon(carried: Armed) -> dict[str, dict[str, Battery]]:
    """The weapons ``carried`` (:func:`armed`) grouped by weapon (a profile's ``group``),
    then one :class:`Battery` per profile of it, with the models that carry it (a model
    with two of a weapon fires both, so it is listed twice)."""
    groups: dict[str, dict[str, Battery]] = {}
    for model, weapons in carried:
        for weapon, profile in weapons:
            variants = groups.setdefault(profile.group, {})
            battery = variants.get(profile.name)
            if battery is None:
                battery = variants[profile.name] = Battery(weapon, profile, [])
            battery.models.append(model)
    return groups


def _batteries(game: Core11Game, unit: Unit, control: FireControl) -> list[Battery]:
    """Group the weapons the unit may fire by weapon; pick a profile where there are
    several, and one of them has an eligible target (:func:`_aimed`)."""
    groups = by_weapon(_sidearms(game, unit, control, armed(game, unit, control)))
    batteries = []
    for group, variants in groups.items():
        names = list(variants)
        chosen = names[0]
        if len(names) > 1 and _aimed(game, unit, control, variants.values()):
            chosen = game.battle.decide(
                Decision(
                    "profile",
                    unit.player,
                    f"{unit.label}: which profile of {group} fires?",
                    tuple(Choice(n, n) for n in names),
                    DecisionContext(
                        unit=unit.id,
                        weapon=group,
                        models=tuple(
                            dict.fromkeys(m.id for b in variants.values() for m in b.models)
                        ),
                    ),
                )
            )
        batteries.append(variants[chosen])
    return batteries


def _aimed(
    game: Core11Game, unit: Unit, control: FireControl, batteries: Iterable[Battery]
) -> bool:
    """Whether one of ``batteries`` (the answers of a weapon question: a profile, or a
    model's [CLOSE-QUARTERS] weapons or its others) has an eligible target now
    (:func:`eligible_targets`). A question none of whose answers has one is not asked:
    each answer makes no attacks alike (10.02 FAQ: "it just makes no attacks"), and
    the first is taken, as the AI and a person's default would take it."""
    drawn = target_lines(game, unit, control)
    return any(eligible_targets(game, unit, battery, control, drawn) for battery in batteries)


Carried = list[tuple[Weapon, WeaponProfile]]
"""Ranged weapons of a model, each with its profile."""
Armed = list[tuple[Model, Carried]]
"""Each model alive of a unit with the ranged weapons it may fire."""


def armed(game: Core11Game, unit: Unit, control: FireControl, quiet: bool = False) -> Armed:
    """Each model alive with the ranged weapons the shooting type lets it select, less
    the [ONE SHOT] weapons it has fired; ``quiet``: without reporting in the log what
    core11 cannot use (an estimate of the AI's, which must not write the game's log).

    Models of one kind (the same profile keywords and the same weapons, as one
    datasheet entry makes them) may select the same weapons: those are read once
    per kind, for its first model (where :func:`readable` reports a weapon it cannot
    use, as it would reading every model), and models of a kind share one list
    unless [ONE SHOT] weapons they fired take some out."""
    kinds: dict[tuple[int, int], Carried] = {}
    spent = game.one_shot_spent
    armed: Armed = []
    for model in unit.alive_models:
        kind = (id(model.profile.keywords), id(model.weapons))  # objects alive throughout
        if kind not in kinds:
            kinds[kind] = _selectable(game, unit, model, control, quiet)
        carried = kinds[kind]
        if spent:
            carried = [(w, p) for w, p in carried if (model.id, p.group) not in spent]
        armed.append((model, carried))
    return armed


def _selectable(
    game: Core11Game, unit: Unit, model: Model, control: FireControl, quiet: bool
) -> Carried:
    """The ranged weapons of ``model`` that the shooting type lets it select."""
    big = is_monster_or_vehicle(model, unit)
    selectable: Carried = []
    for weapon in model.weapons:
        profile = _quietly_read(weapon) if quiet else readable(game, weapon)
        if profile is not None and not profile.melee and control.weapon_allowed(big, profile):
            selectable.append((weapon, profile))
    return selectable


SIDEARMS = "sidearms"
"""The decision of a model that has [CLOSE-QUARTERS] weapons and other ranged weapons."""


def _sidearms(
    game: Core11Game,
    unit: Unit,
    control: FireControl,
    armed: Armed,
) -> Armed:
    """04.01.02 Sidearms and [CLOSE-QUARTERS]: "When using another shooting type, for
    each model in that unit (excluding MONSTER/VEHICLE models), you can only select
    one of the following to make attacks with: One or more of its [CLOSE-QUARTERS]
    weapons. One or more of its other ranged weapons."

    Models of one kind carrying the same weapons choose alike (one decision for
    them); the other ranged weapons are offered first.
    """
    if control.close_quarters:
        return armed
    split: dict[int, tuple[Carried, Carried, tuple[str, ...]]] = {}
    alike: dict[tuple[str, tuple[str, ...]], tuple[Carried, Carried, list[Model]]] = {}
    for model, carried in armed:
        if id(carried) not in split:  # models of one kind share a list (:func:`_armed`)
            split[id(carried)] = _close_and_other(carried)
        close, other, names = split[id(carried)]
        if close and other and not is_monster_or_vehicle(model, unit):
            alike.setdefault((model.name, names), (close, other, []))[2].append(model)
    chose_close: dict[str, bool] = {}
    for close, other, models in alike.values():
        either = [Battery(w, p, models) for w, p in (*other, *close)]
        if not _aimed(game, unit, control, either):  # its other weapons, unasked
            chose_close.update((m.id, False) for m in models)
            continue
        chosen: bool = game.battle.decide(
            Decision(
                SIDEARMS,
                unit.player,
                f"{unit.label}: {models[0].name} fires its close-quarters weapons or the others?",
                (
                    Choice(", ".join(dict.fromkeys(w.name for w, _ in other)), False),
                    Choice(", ".join(dict.fromkeys(w.name for w, _ in close)), True),
                ),
                DecisionContext(unit=unit.id, models=tuple(m.id for m in models)),
            )
        )
        chose_close.update((m.id, chosen) for m in models)
    kept: Armed = []
    for model, carried in armed:
        if model.id not in chose_close:
            kept.append((model, carried))
            continue
        close, other, _ = split[id(carried)]
        kept.append((model, close if chose_close[model.id] else other))
    return kept


def _close_and_other(carried: Carried) -> tuple[Carried, Carried, tuple[str, ...]]:
    """``carried``'s [CLOSE-QUARTERS] weapons, its other ranged weapons, and the names
    of all of them (with a model's name, what makes models choose alike)."""
    close = [(w, p) for w, p in carried if p.has("CLOSE-QUARTERS")]
    other = [(w, p) for w, p in carried if not p.has("CLOSE-QUARTERS")]
    return close, other, tuple([w.name for w, _ in carried])


def attackers(
    game: Core11Game,
    unit: Unit,
    models: list[Model],
    battery: Battery,
    target: Unit,
    control: FireControl,
) -> list[Model]:
    """The models of ``models`` that may attack ``target`` with the battery's weapon:
    alive, in range, able to see it (unless 10.07 lets it fire unseen), and allowed
    by the shooting type (the units' engagement, the same for every model, asked
    once for them all). Read off the unit's :func:`positions.sightlines` to the
    target, drawn once for all its weapons."""
    return _attackers(sightlines(game.battle, unit, target), models, battery.profile, control)


def _attackers(
    lines: Sightlines, models: list[Model], profile: WeaponProfile, control: FireControl
) -> list[Model]:
    """:func:`attackers`, read off the unit's ``lines`` to the target."""
    closest, reach = lines.closest, profile.range
    ready = [m for m in models if m.wounds_left > 0 and closest[id(m)] <= reach]
    if ready and control.needs_sight(profile):
        sight = lines.sight
        ready = [m for m in ready if sight[id(m)]]
    if not ready:
        return []
    allowed = [  # all that differs from model to model is whether it is a MONSTER/VEHICLE
        control.target_allowed(big, profile, lines.engaged, lines.target_engaged, lines.target_big)
        for big in (False, True)
    ]
    big = lines.big
    return [m for m in ready if allowed[big[id(m)]]]


def eligible_targets(
    game: Core11Game,
    unit: Unit,
    battery: Battery,
    control: FireControl,
    drawn: list[Sightlines] | None = None,
) -> list[Unit]:
    """Units the battery may target now, closest first; among ``drawn``
    (:func:`target_lines`, drawn once for several batteries) where it is given."""
    if drawn is None:
        drawn = target_lines(game, unit, control)
    return [lines.target for lines, _ in aims(game, unit, battery, control, drawn)]


def target_lines(game: Core11Game, unit: Unit, control: FireControl) -> list[Sightlines]:
    """The unit's :func:`positions.sightlines` to each enemy unit it may select as a
    target under ``control`` as far as the two units go (the one a reactive shooting
    must target; none a rule barred it from): drawn once for all its weapons."""
    candidates = game.battle.enemies_of(unit)
    if control.only_target is not None:
        candidates = [u for u in candidates if u.id == control.only_target]
    barred = game.barred
    return [
        sightlines(game.battle, unit, target)
        for target in candidates
        if (unit.id, target.id) not in barred
    ]


def aims(
    game: Core11Game,
    unit: Unit,
    battery: Battery,
    control: FireControl,
    drawn: list[Sightlines],
) -> list[tuple[Sightlines, list[Model]]]:
    """The units of ``drawn`` (:func:`target_lines`) the battery may target now, closest
    first, each as the unit's :func:`positions.sightlines` to it, with the battery's
    models that may attack it (:func:`attackers`, asked once for both)."""
    profile = battery.profile
    eligible = []
    for lines in drawn:
        target = lines.target  # its keywords read only where a TARGETS rule limits it
        if profile.has("TARGETS") and not profile.may_target(unit_keywords(target)):
            continue
        limit = game.target_limits.get(target.id)
        if limit is not None and lines.nearest > limit:  # unit_distance, read already
            continue
        firing = _attackers(lines, battery.models, profile, control)
        if firing:
            eligible.append((lines, firing))
    eligible.sort(key=lambda aim: aim[0].nearest)  # unit_distance; the first of a tie first
    return eligible


def describe_aims(
    game: Core11Game,
    unit: Unit,
    battery: Battery,
    control: FireControl,
    options: list[tuple[Sightlines, list[Model]]],
) -> Callable[[str], str]:
    """What a person choosing the battery's target is told of each (by id), from its
    :func:`aims`: how far it stands (:func:`positions.unit_distance`), whether it is
    engaged with the shooting unit, the models that may attack it, the wounds they
    are expected to take off it (:func:`attacks.expected_wounds_lost`, the AI's own
    estimate), and the rules that change their hit rolls (:func:`rolls.hit_terms`:
    cover, 10.06's -1, 10.07's unmodified 1-5...)."""
    found = {lines.target.id: (lines, firing) for lines, firing in options}

    def describe(target_id: str) -> str:
        lines, firing = found[target_id]
        profile = battery.profile
        parts = [f'{lines.nearest:.1f}" away']
        if lines.engaged:
            parts.append(f"engaged with {unit.label}")
        parts.append(f"{len(firing)} models attack" if len(firing) > 1 else "1 model attacks")
        lost = expected_wounds_lost(game, unit, lines, profile, firing, control)
        parts.append(f"about {lost:.2f} wounds expected lost")
        models = lines.target_models
        situations = situations_along(game, unit, lines, firing, profile, control, models)
        reasons = dict.fromkeys(
            why
            for s in dict.fromkeys(situations)
            for why in hit_terms(profile, lines.defence, s).reasons
        )
        if reasons:
            parts.append(f"hit rolls: {'; '.join(reasons)}")
        return "; ".join(parts)

    return describe


def _select_targets(
    game: Core11Game, unit: Unit, control: FireControl, batteries: list[Battery]
) -> None:
    """Steps 2–3: select targets, open the windows, replace targets made ineligible."""
    announced: set[str] = set()
    pending = list(batteries)
    while pending:
        fresh: list[str] = []
        drawn = target_lines(game, unit, control)  # the table stands still while they select
        for battery in pending:
            options = aims(game, unit, battery, control, drawn)
            if not options:
                battery.target = None
                game.battle.say("shooting", f"  {battery.weapon.name}: no eligible target")
                continue
            battery.target = game.choose(
                Decision(
                    "target",
                    unit.player,
                    f"{unit.label}: target for {battery.weapon.name}?",
                    tuple(Choice(lines.target.label, lines.target.id) for lines, _ in options),
                    DecisionContext(
                        unit=unit.id,
                        weapon=battery.weapon.name,
                        models=tuple(m.id for m in battery.models),
                    ),
                    describe=describe_aims(game, unit, battery, control, options),
                )
            )
            target = game.battle.unit(str(battery.target))
            battery.target_models = len(target.alive_models)
            game.battle.emit(TargetSelected(unit.label, battery.weapon.name, target.label))
            if target.id not in announced and target.id not in fresh:
                fresh.append(target.id)
        announced.update(fresh)
        for window in (SELECTED_AS_TARGET, TARGET_ELIGIBILITY):
            for target_id in fresh:
                game.board.open(Occasion(window, actor=unit.id, subject=target_id))
        pending = [b for b in batteries if b.target and (unit.id, b.target) in game.barred]
