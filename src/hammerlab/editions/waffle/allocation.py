"""Seed 000, step 6: "Allocate Wounds & Remove Casualties", with the multiple-save rule."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hammerlab.editions.waffle.challenges import ExcessWoundsCounted
from hammerlab.editions.waffle.characteristics import armour_save, invulnerable_save
from hammerlab.editions.waffle.concussive import concuss
from hammerlab.editions.waffle.events import (
    NoSave,
    RemainingWoundsLost,
    SaveTaken,
    WaffleWoundsLost,
)
from hammerlab.editions.waffle.orders import FireOrders, VolleyResult, WoundRoll
from hammerlab.editions.waffle.points import (
    WOUNDS_LEFT,
    WOUNDS_WOULD_BE_LOST,
    WoundLoss,
    WoundsCount,
)
from hammerlab.editions.waffle.precision_shots import precision_target
from hammerlab.editions.waffle.profiles import WeaponProfile
from hammerlab.editions.waffle.special_rules import (
    ignore_wound_roll,
    model_has,
    names_rule,
)
from hammerlab.editions.waffle.state import remove_casualty, st
from hammerlab.editions.waffle.toughness import toughness
from hammerlab.editions.waffle.visibility import cover_save, screening, seen_among
from hammerlab.editions.waffle.weapon_rules import ap2_rule
from hammerlab.engine.battle import Battle
from hammerlab.engine.geometry import Bases, Placed, Vec, closest
from hammerlab.engine.units import Model, Unit


def allocate_wounds(
    battle: Battle,
    shooter: Unit,
    victim: Unit,
    wounds: list[WoundRoll],
    profile: WeaponProfile,
    orders: FireOrders,
    result: VolleyResult,
    firers: list[Model],
    *,
    melee: bool = False,
    only: Model | None = None,
    spare: frozenset[str] = frozenset(),
    overkill: bool = False,
    closest_to: Sequence[Model] | None = None,
    marker: Vec | None = None,
) -> None:
    """Seed 000, step 6: each wound goes to the closest model, which saves or suffers.

    "Any Wounds caused by the firing unit must now be allocated, one at a time,
    to the closest model in the target unit. … If a model is reduced to 0
    Wounds, it is removed as a casualty. Wounds are then allocated to the next
    closest model." Closest to ``closest_to``: a shooting attack passes its whole
    firing unit (6th edition: "the enemy model closest to the firing unit"), so a
    weapon carried by one model at the back sends its wounds where the unit's
    others do; by default, and where the firing unit has no model left (its own
    scattered Blast slew it), closest to ``firers``, the models the wounds come
    from (a blow's strikers, an explosion's hull), measured where they stood. A
    Barrage weapon's wounds go to the models closest to the centre of its blast
    marker (``marker``: :func:`shot_origin`), whence cover is judged too.
    Only models the firers can see may be chosen (6th/7th-edition "out of
    sight"), except for Blast and Template hits, which struck the models under
    them. Rules may count a model's wounds otherwise while wounds are allocated
    (:data:`points.WOUNDS_LEFT`) and replace a loss of wounds
    (:data:`points.WOUNDS_WOULD_BE_LOST`): that is how Suppressive Fire removes
    nothing; a loss so replaced is not suffered, so the weapon's rules (Concussive,
    Pinning: :func:`suffered`) take no effect either.

    The wound of a Precision Shot goes to a model of the firer's choice
    (:func:`precision_shots.precision_target`).

    In close combat (``melee``) every model may be chosen, the closest to the
    attacking models first, and no cover save is taken (6th/7th edition);
    ``only`` sends every wound to that one model (a Sweeping Advance's randomly
    distributed hit), the wounds being lost once it is dead; no wound goes to the
    models ``spare`` names (those fighting a challenge: ``challenges.py``).
    With ``overkill`` (the blows of a challenge), the wounds left once ``only`` is
    slain still count toward the combat result (:func:`excess_wounds`).
    """
    scatter = profile.template or profile.blast is not None
    origin = shot_origin(profile, marker)
    # Nobody moves while wounds are allocated: the victim's models are ranked by
    # distance, and the firers' sight of them found, once (the closest of a pool
    # is the first of it in that ranking, the earliest on a tie, as nearest finds).
    ranked: list[Model] = []
    ranking: dict[int, int] = {}  # each model's place in ranked, by its id
    sighted: set[int] | None = None
    # The bases that may give cover (visibility.screening), found once for the volley:
    # its wounds come from one unit, and only the victim's models fall meanwhile.
    screens: Bases | None = None
    covered = not melee and not profile.ignores_cover
    # A wound saved, or ignored (Feel No Pain), changes no model: the next wound finds
    # the models standing, the pool and the nearest as they were, so they are read again
    # only after a wound lost; but where a rule counts wounds left its own way
    # (points.WOUNDS_LEFT), its count may change with any wound (a plug-in may count a
    # model spent once a save of it held), so they are read again at every wound.
    alive: list[Model] = []
    nearest: Model | None = None
    counted = bool(battle.hooks.get(WOUNDS_LEFT))
    for index, wound in enumerate(wounds):
        if nearest is None or counted:
            alive = standing(battle, victim.models, orders, spare)
            if only is not None:
                pool = [m for m in alive if m is only]
            elif scatter or melee:
                pool = alive
            else:
                if sighted is None:
                    sighted = {id(m) for m in seen_among(battle, firers, victim.models)}
                pool = [m for m in alive if id(m) in sighted]  # those some firer sees
            if not pool and overkill and only is not None:
                rest = wounds[index:]
                result.unsaved[victim.id] += excess_wounds(battle, victim, only, rest, profile)
                return
            if not pool:
                why = "none_in_sight" if alive and only is None else "no_model_left"
                battle.emit(RemainingWoundsLost(victim.label, why))
                return
            if not ranking:
                ranked = closest(wounds_from(origin, closest_to or firers), victim.models)
                ranking = {id(m): place for place, m in enumerate(ranked)}
            # The pool's least place, read in C (no key function called a model): each
            # model has a place of its own, so the nearest is the one ranked there.
            nearest = ranked[min(map(ranking.__getitem__, map(id, pool)))]
        model = nearest
        if wound.precision:
            model = precision_target(battle, shooter, wound, profile, model, alive)
        if covered and screens is None:
            screens = screening(battle, wound.source, victim)
        if save_taken(battle, victim, model, wound, profile, not melee, origin, screens):
            continue
        left = wounds_left(battle, model, orders)
        lost, instant = _wounds_lost(battle, victim, model, wound, profile, left)
        if not lost:
            continue
        nearest = None  # a wound lost (or counted by a rule instead): read them again
        result.unsaved[victim.id] += 1
        loss = WoundLoss(shooter, victim, model, lost, left, orders, result)
        if any(replace(battle, loss) for replace in battle.hooks.get(WOUNDS_WOULD_BE_LOST)):
            continue
        suffered(battle, victim, model, profile, result)
        model.wounds_left = left - lost
        battle.emit(
            WaffleWoundsLost(  # unit, model, lost, left, instant_death: no keywords (docs/scale.md)
                victim.label,
                model.id,
                lost,
                max(0, model.wounds_left),
                instant,
            )
        )
        if model.wounds_left <= 0:
            cause = f"{profile.name} from {shooter.label}"
            remove_casualty(battle, victim, model, cause, counted=orders.counts_for_morale)
            result.casualties[victim.id] += 1


def suffered(
    battle: Battle, victim: Unit, model: Model, profile: WeaponProfile, result: VolleyResult
) -> None:
    """What the weapon's rules do to a model that suffers an unsaved Wound of it: one
    neither saved, nor discounted by Feel No Pain (7th edition: "the unsaved Wound is
    discounted - treat it as having been saved"), nor taken by a rule that replaces the
    loss (:data:`points.WOUNDS_WOULD_BE_LOST`: Suppressive Fire, seed 000: "do not
    remove any models or reduce any wounds as a result of this shooting").

    Concussive (7th edition): "A model that suffers one or more unsaved Wounds from a
    weapon with this special rule is reduced to Initiative 1"; Pinning: "If a
    non-vehicle unit suffers one or more unsaved Wounds from a weapon with the Pinning
    special rule, it must take a Leadership test" (after the shooting: ``result``).
    """
    if profile.has_rule("Concussive"):
        concuss(battle, model)
    if profile.has_rule("Pinning"):
        result.pinning.add(victim.id)


def shot_origin(profile: WeaponProfile, marker: Vec | None) -> Vec | None:
    """Where a shot of ``profile`` counts as coming from for Wound allocation and cover
    saves, when not from the firing models: the centre of a Barrage weapon's blast marker
    (``marker``, where it came to rest); ``None`` for any other weapon (the firers).

    6th/7th edition, Barrage (as remembered; the seeds leave the base rule in force):
    "always assume the shot is coming from the centre of the blast marker" for Wound
    allocation and cover saves, not from the firing model. The shared 7th-edition game
    system file quotes it (``Warhammer40K.gst``, the Destroyer rule): "For determining
    Wound allocation, always assume the shot is coming from the centre of the marker,
    in the same manner as a Barrage weapon." The 5th-edition Barrage rule said it of
    cover: "always assume the shot is coming from the centre of the marker, instead of
    from the firing model." A plain Blast's wounds go to the models closest to the
    firing unit (seed 000, step 6), wherever its marker landed.
    """
    return marker if profile.barrage else None


@dataclass(frozen=True)
class MarkerCentre:
    """A marker's centre as a place wounds are measured from: a point, with no base."""

    position: Vec
    radius: float = 0.0


def wounds_from(origin: Vec | None, firers: Sequence[Placed]) -> Sequence[Placed]:
    """What a wound goes to the closest model of: the point it counts as coming from
    (``origin``, the answer of :func:`shot_origin`: a Barrage marker's centre), or else
    ``firers``."""
    return firers if origin is None else (MarkerCentre(origin),)


def excess_wounds(
    battle: Battle, victim: Unit, slain: Model, wounds: list[WoundRoll], profile: WeaponProfile
) -> int:
    """How many of the wounds left over on a Character slain in a challenge count
    toward the combat result: each takes the slain model's save, as if it were
    still there (armour or invulnerable; no cover in close combat), and counts if
    failed; none is taken off any model (:class:`challenges.ExcessWoundsCounted`).

    7th edition (as the 6th edition, p. 65): "Unsaved Wounds caused in a
    challenge count towards the assault result, alongside any unsaved Wounds
    caused by the rest of the character's units"; the wounds beyond the slain
    model's last are lost (they strike no other model), but they were caused in
    the challenge, so their unsaved ones count (an interpretation; Feel No Pain,
    which a slain model cannot roll, is not taken).
    """
    unsaved = sum(
        not save_taken(battle, victim, slain, wound, profile, cover=False) for wound in wounds
    )
    battle.emit(ExcessWoundsCounted(victim.label, slain.id, len(wounds), unsaved))
    return unsaved


def standing(
    battle: Battle, models: list[Model], orders: FireOrders, spare: frozenset[str]
) -> list[Model]:
    """The ``models`` with wounds left (:func:`wounds_left`) that ``spare`` does not name:
    those a wound may go to. Asked before every wound, of every model: where no rule
    counts wounds otherwise, their own are read without asking the rules each time;
    where some rule does, its handlers are looked up once for all the models."""
    counts = battle.hooks.get(WOUNDS_LEFT)
    if not counts:
        return [m for m in models if m.wounds_left > 0 and m.id not in spare]
    return [m for m in models if m.id not in spare and _left(battle, m, orders, counts) > 0]


def wounds_left(battle: Battle, model: Model, orders: FireOrders) -> int:
    """The wounds ``model`` counts as having while wounds of ``orders`` are allocated:
    its own, unless a rule says otherwise (:data:`points.WOUNDS_LEFT`)."""
    return _left(battle, model, orders, battle.hooks.get(WOUNDS_LEFT))


def _left(battle: Battle, model: Model, orders: FireOrders, counts: Sequence[WoundsCount]) -> int:
    """:func:`wounds_left` with the rules' handlers (``counts``) already looked up."""
    for count in counts:
        counted = count(battle, model, orders)
        if counted is not None:
            return counted
    return model.wounds_left


def save_taken(
    battle: Battle,
    victim: Unit,
    model: Model,
    wound: WoundRoll,
    profile: WeaponProfile,
    cover: bool = True,
    origin: Vec | None = None,
    screens: Bases | None = None,
) -> bool:
    """Seed 000, Models with more than One Save: each type of save once.

    A model "can use each type of save (armor, invulnerable and cover) once
    to avoid harm … if a model has multiple saves of the same type then it
    uses the best among them." Without ``cover`` (close combat, 6th/7th
    edition) no cover save is taken; with an ``origin`` (a Barrage marker's centre:
    :func:`shot_origin`) cover is judged from there rather than from the wound's
    firer; ``screens``: the bases that may give cover from intervening models, where
    the volley has found them (:func:`visibility.screening`). A model with Cosmic
    Fate re-rolls a failed armour save once (:data:`COSMIC_FATE`).
    """
    in_cover = None
    if cover and not profile.ignores_cover:
        down = st(battle, victim).gone_to_ground
        in_cover = cover_save(
            battle, wound.source, victim, model, down, from_point=origin, screens=screens
        )
    armour = armour_save(battle, victim, model)
    invulnerable = invulnerable_save(battle, victim, model)
    saves = saves_against(wound.ap, armour, invulnerable, in_cover)
    if not saves:
        rend = ap2_rule(profile) if wound.ap != profile.ap else ""
        battle.emit(NoSave(victim.label, model.id, wound.ap, armour, rend))
    for name, needed in saves:
        if _save_roll(battle, victim, model, name, needed, f"{name} save {needed}+"):
            return True
        if name == "armour" and names_rule(model.rules, COSMIC_FATE):
            why = f"{COSMIC_FATE}: re-roll of armour save {needed}+"
            if _save_roll(battle, victim, model, name, needed, why):
                return True
    return False


COSMIC_FATE = "Cosmic Fate"
"""The Chaos Boon (``chaos_boons.py``): "Re-roll failed armour saves" (the model's own)."""


def _save_roll(
    battle: Battle, victim: Unit, model: Model, name: str, needed: int, why: str
) -> bool:
    """One save roll of ``model`` (a :class:`SaveTaken` event): whether it saved."""
    roll = battle.dice.d6(f"{why} ({model.id})")
    saved = roll >= needed
    battle.emit(  # unit, model, save, needed, roll, saved: no keywords (docs/scale.md)
        SaveTaken(victim.label, model.id, name, needed, roll, saved)
    )
    return saved


def saves_against(
    ap: int | None, armour: int | None, invulnerable: int | None, cover: int | None
) -> list[tuple[str, int]]:
    """The saves a model takes against a wound of ``ap``, in order: (kind, D6 needed).

    Seed 000, Models with more than One Save: "can use each type of save
    (armor, invulnerable and cover) once". The armour save counts unless the
    AP is as good as it or better (6th/7th edition); ``cover`` is the best
    cover save the model has, if any.
    """
    saves: list[tuple[str, int]] = []
    if armour is not None and (ap is None or ap > armour):
        saves.append(("armour", armour))
    if invulnerable is not None:
        saves.append(("invulnerable", invulnerable))
    if cover is not None:
        saves.append(("cover", cover))
    return saves


def instant_death(strength: int, toughness: int, profile: WeaponProfile, immune: bool) -> bool:
    """Instant Death (6th/7th edition): Strength at least double the Toughness,
    or an Instant Death weapon; ``immune`` (Eternal Warrior) cancels it."""
    return (strength >= 2 * toughness or profile.has_rule("Instant Death")) and not immune


def _wounds_lost(
    battle: Battle,
    victim: Unit,
    model: Model,
    wound: WoundRoll,
    profile: WeaponProfile,
    wounds_left: int,
) -> tuple[int, bool]:
    """Wounds an unsaved wound takes: all of them on Instant Death, else one; and
    whether it inflicts Instant Death (:func:`instant_death`: what the wound's
    :class:`events.WoundsLost` records, a model with one Wound left included).

    Instant Death (6th/7th edition): Strength at least double the model's
    Toughness, or an Instant Death weapon; Eternal Warrior is immune. Feel No
    Pain may ignore the wound unless it inflicts Instant Death; Reanimation
    Protocols may, at 6+ (:func:`special_rules.ignore_wound_roll`).
    """
    eternal = model_has(victim, model, "Eternal Warrior")
    instant = instant_death(wound.strength, toughness(battle, victim, model), profile, eternal)
    if feel_no_pain_ignores(battle, victim, model, instant):
        return 0, instant
    return (wounds_left if instant and wounds_left > 1 else 1), instant


def feel_no_pain_ignores(battle: Battle, victim: Unit, model: Model, instant: bool = False) -> bool:
    """Whether ``model``'s roll to discount a Wound (Feel No Pain, Reanimation
    Protocols: :func:`special_rules.ignore_wound_roll`), if it has one, ignores it;
    ``instant``: the Wound inflicts Instant Death.

    7th edition: "this is not a saving throw and so can be used against attacks
    that state that 'no saves of any kind are allowed', for example those
    inflicted by Perils of the Warp" (the BattleScribe data's rule text).
    """
    ignore = ignore_wound_roll((*model.rules, *victim.rules), instant)
    if ignore is None:
        return False
    rule, needed = ignore
    roll = battle.dice.d6(f"{rule} {needed}+ ({model.id})")
    ignored = roll >= needed
    battle.emit(
        SaveTaken(
            unit=victim.label,
            model=model.id,
            save=rule,
            needed=needed,
            roll=roll,
            saved=ignored,
        )
    )
    return ignored
