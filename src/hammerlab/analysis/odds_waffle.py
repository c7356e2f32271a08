"""The Waffle Edition's exact odds behind the edition-neutral interface (``analysis.odds``).

Turns a question into what :mod:`hammerlab.editions.waffle.odds` computes: a
:class:`~hammerlab.editions.waffle.odds.Volley` (the weapon, read by the same
``weapon_of`` the battle uses, and the firers' BS) and a
:class:`~hammerlab.editions.waffle.odds.Defence` (the target as identical
models). A quick odds question is a battle in the open with every firer in
range and sight of every target model, and the default rule options (no
proposed rule).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from functools import partial

from hammerlab.analysis.odds import (
    LibraryQuestion,
    OddsResult,
    PlainQuestion,
    QuestionError,
    refuse_unused,
    register_calculator,
    register_engine_check,
)
from hammerlab.editions import get_ruleset, resolve_read
from hammerlab.editions.distributions import mean
from hammerlab.editions.waffle.armour import armour_attack
from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.firepower import firing_quota
from hammerlab.editions.waffle.flyers import SKYFIRE, snap_against
from hammerlab.editions.waffle.odds import (
    Defence,
    Firing,
    Volley,
    hit_distribution,
    shooting_odds,
    volley,
)
from hammerlab.editions.waffle.odds_vehicles import VehicleTarget, vehicle_odds
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.parameters import (
    OVERWHELMING_STRENGTH,
    SNAP_SHOT_DIVISOR,
    SNAP_SHOT_MINIMUM,
)
from hammerlab.editions.waffle.profiles import (
    BASE_TYPES,
    MARKERS,
    WEAPON_RULES,
    WeaponProfile,
    blast_name,
    stats_of,
    weapon_of,
)
from hammerlab.editions.waffle.snap_shots import moving_changes_weapons
from hammerlab.editions.waffle.special_rules import (
    cover_bonus,
    ignore_wound_roll,
    names_rule,
    own_rules,
    unsupported_unit_rules,
)
from hammerlab.editions.waffle.vehicles import (
    FRONT,
    IMMOBILE,
    REAR,
    SIDE,
    VehicleProfile,
    vehicle_of,
)
from hammerlab.editions.waffle.visibility import counted_cover
from hammerlab.editions.waffle.wounds import majority_value, most_common_profile
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Weapon
from hammerlab.engine.rules import RuleSettingError
from hammerlab.engine.units import Unit
from hammerlab.errors import (
    ProfileError,
    firing_within,
    known_situations,
    question_bounds,
    similar_names,
)
from hammerlab.io.battlescribe.gear import why_dropped
from hammerlab.io.bounds import MAX_WEAPON_SHOTS, MAX_WOUNDS, shots_problem

SITUATIONS: dict[str, str] = {
    "snap": "the models fire Snap Shots (Return Fire!, Overwatch, gone to ground, falling back)",
    "half-range": "the target is within half range: Rapid Fire weapons fire twice their shots",
    "moved": "the firing unit moved: Heavy and Ordnance weapons fire Snap Shots, "
    "Salvo weapons the lower number (a vehicle's fire at full BS: it moved at Combat Speed)",
    "relentless": "the firing unit is Relentless (or Slow and Purposeful): moving changes nothing",
    "gone-to-ground": "the target has gone to ground: its cover save is 1 better, 6+ with none",
    "eternal-warrior": "the target models are Eternal Warriors: no Instant Death",
    "preferred-enemy": "the target is the firers' Preferred Enemy: rolls of 1 To Hit and To "
    "Wound are re-rolled",
    "monster-hunter": "the firers are Monster Hunters and the target a Monstrous Creature: "
    "failed To Wound rolls are re-rolled",
    "side-armour": "a vehicle target: the firers stand in its Side arc (else its Front)",
    "rear-armour": "a vehicle target: the firers stand in its Rear arc (else its Front)",
}
"""Facts of the moment a Waffle odds question may state, by name."""

MAX_MODELS = 100
MAX_HITS = 200
MAX_SHOTS = MAX_MODELS * MAX_WEAPON_SHOTS
"""The most shots in all one question may roll To Hit: 100 models with the most
shots a weapon fires a model (``io.bounds.MAX_WEAPON_SHOTS``, 50: a weapon with
more is refused as a datasheet's is). The exact calculation grows faster than the
shots (5,000 take about 0.25 s, 100,000 more than minutes), so a larger question
is refused at once. The target's W is bounded as a datasheet's
(``io.bounds.MAX_WOUNDS``, 20)."""


class WaffleCalculator:
    """The Waffle Edition's exact odds (``hammerlab.editions.waffle.odds``)."""

    @property
    def situations(self) -> Mapping[str, str]:
        """See :data:`SITUATIONS`."""
        return SITUATIONS

    @property
    def plain_required(self) -> tuple[tuple[str, ...], ...]:
        """The BS, unless the hits are given (the shots are 1 a model unless said)."""
        return (("skill", "hits"),)

    @property
    def skill_is_roll(self) -> bool:
        """No: BS is the 6th/7th-edition characteristic (BS 4 hits on 3+)."""
        return False

    def plain(self, question: PlainQuestion) -> OddsResult:
        """Odds for numbers: ``firing_models`` models with the same BS fire one weapon."""
        refuse_unused("waffle", question, ("damage", "target_keywords"))
        if question.hits is not None:
            given = [
                name
                for name, value in (
                    ("--shots", question.attacks),
                    ("--bs", question.skill),
                    ("--models", None if question.firing_models == 1 else question.firing_models),
                )
                if value is not None
            ]
            if given:
                raise QuestionError(f"not used with --hits: {_HITS_GIVEN}", given[0])
        facts = _facts(question.situation)
        _facing(facts, None)  # the plain form's target (T, W, Sv) is no vehicle
        weapon = _plain_weapon(question)
        if weapon.unsupported_rules():
            raise QuestionError(_keyword_problem(weapon.unsupported_rules()[0]), "--keyword")
        firing = question_bounds("--models", "firing models", question.firing_models, 1, MAX_MODELS)
        strength = question_bounds("--strength", "strength", question.strength, 1, 10)
        if question.hits is not None:
            skills, shots = [], weapon.name
        elif question.skill is None:
            raise QuestionError(
                "Waffle odds need the BS (or the hits of a template or blast: --hits)", "--bs"
            )
        else:
            skill = question_bounds("--bs", "BS", question.skill, 1, 10)
            skills, shots = [skill] * firing, f"{firing}x {weapon.name} BS{skill}"
        fired = _volley(weapon, strength, skills, facts, question.hits, question.rules)
        target = _defence(
            toughness=question.toughness,
            wounds=question.wounds,
            models=question.target_models,
            save=question.save,
            invulnerable=question.invulnerable,
            cover=question.cover,
            feel_no_pain=question.feel_no_pain,
            facts=facts,
        )
        return _result(fired, target, f"{shots} at {_target_text(target)}", _shots_taken(question))

    def library(self, question: LibraryQuestion) -> OddsResult:
        """Odds for a weapon of a built-in Waffle unit against another built-in unit.

        The firers are the models carrying the weapon, each with its BS; the
        target is its most common model, at the unit's majority Toughness.
        """
        if question.hits is not None and question.firing_models is not None:
            raise QuestionError(f"not used with --hits: {_HITS_GIVEN}", "--models")
        facts = _facts(question.situation)
        rules = get_ruleset("waffle")
        attacker = question.find(rules, question.attacker)
        target = question.find(rules, question.target)
        found = _find_weapon(attacker, question.weapon, question.profile)
        weapon = weapon_of(found)
        if not weapon.is_ranged:
            problem = f"{weapon.name} is a melee weapon; Waffle odds cover shooting"
            raise QuestionError(problem, "--weapon")
        carriers = [e for e in attacker.entries if any(w.name == found.name for w in e.weapons)]
        notes = [
            f"{weapon.name}: rule not resolved, ignored: {r}" for r in weapon.unsupported_rules()
        ]
        skills, strength = _firers(attacker, carriers, weapon, question.firing_models, notes)
        if _has_rule(attacker, carriers, "Relentless", "Slow and Purposeful"):
            facts = facts | {"relentless"}
            if "moved" in facts:
                notes.append(f"{attacker.name} is Relentless: moving changes none of its weapons")
        facts |= _re_rolls(attacker, target, question.target_models, facts, notes)
        facts |= _snap_at(weapon, target, facts, notes)
        vehicle = all(vehicle_of(e.profile) is not None for e in attacker.entries)
        fired = _volley(weapon, strength, skills, facts, question.hits, question.rules, vehicle)
        if _is_vehicle(target):
            tank_hunters = _has_rule(attacker, carriers, "Tank Hunters")
            if tank_hunters:
                notes.append(
                    f"{attacker.name} has Tank Hunters: failed armour penetration rolls "
                    "are re-rolled"
                )
            return _vehicle_result(
                fired, target, attacker.name, question.cover, facts, tank_hunters, notes
            )
        _facing(facts, None, target.name)
        given = question.target_models  # 0 is no default: it is refused below
        if given is None and target.model_count > MAX_MODELS:
            raise QuestionError(
                f"{target.name} has {target.model_count} models; the odds fire at 1 to "
                f"{MAX_MODELS} of them: give how many",
                "--target-models",
            )
        models = (
            target.model_count
            if given is None
            else question_bounds("--target-models", "target models", given, 1, MAX_MODELS)
        )
        defence = _library_defence(target, models, question.cover, facts, notes)
        firers = "" if question.hits is not None else f"{len(skills)}x "
        cover = "" if defence.cover is None else f" in cover {defence.cover}+"
        text = f"{firers}{weapon.name} ({attacker.name}) at {models}x {target.name}{cover}"
        return _result(fired, defence, text, notes)

    def weapon_fit(self, weapon: Weapon) -> str:
        """A melee weapon is refused ("... is a melee weapon"); a Blast or Template one
        needs the hits (the models under the marker: ``--hits``); a profile that cannot
        be read is left for the odds to say why."""
        try:
            profile = weapon_of(weapon)
        except ProfileError:
            return "ok"
        if not profile.is_ranged:
            return "melee"
        return "hits" if profile.blast or profile.template else "ok"


def _shots_taken(question: PlainQuestion) -> list[str]:
    """A note where the plain form took the shots a model fires without being told
    them: 1, the shots of a weapon whose Type gives none (``Assault``, ``Heavy``), when
    neither the shots nor the hits are given and the Type names no number (a plain
    Rapid Fire weapon's are the rules': 1, 2 within half range)."""
    kind = (question.weapon_type or "Assault").split(",")[0]
    if question.attacks is not None or question.hits is not None or re.search(r"\d", kind):
        return []
    if kind.strip().lower() == "rapid fire":
        return []
    return [f"the shots were not given: each model fires 1 ({kind.strip()} 1)"]


_HITS_GIVEN = (
    "the hits are given, so no shot is rolled To Hit (give --hits, or the shots and the BS)"
)


def _facts(names: Iterable[str]) -> frozenset[str]:
    return frozenset(known_situations(names, SITUATIONS))


ARMOUR_FACTS = {"side-armour": SIDE, "rear-armour": REAR}
"""The situations naming the arc of a vehicle target the firers stand in, and its facing."""


def _facing(facts: frozenset[str], vehicle: VehicleProfile | None, target: str = "") -> str:
    """The facing of ``vehicle`` the firers strike: Front, unless ``side-armour`` or
    ``rear-armour`` is given. Either is a vehicle's fact: at a target that is no vehicle
    (``None``; ``target``: its name, none for the plain form's numbers), or the two
    together (the firers stand in one arc), the question is refused."""
    asked = [fact for fact in ARMOUR_FACTS if fact in facts]
    if asked and vehicle is None:
        what = f"{target} is not a vehicle" if target else "the plain form's target is no vehicle"
        raise QuestionError(f"{asked[0]}: {what} (it has no armour facings)", "--situation")
    if len(asked) > 1:
        raise QuestionError(
            "side-armour and rear-armour: the firers stand in one arc of the vehicle; "
            "give one of them",
            "--situation",
        )
    return ARMOUR_FACTS[asked[0]] if asked else FRONT


def _rule_text(keyword: str) -> str:
    """A keyword as the books write the rule: ``poisoned 4+`` → ``poisoned (4+)``
    (``poisoned 99+`` → ``poisoned (99+)``, which the weapon reader refuses)."""
    match = re.fullmatch(r"(.*?)\s*\(?\s*(\d+)\s*\+?\s*\)?", keyword.strip())
    return f"{match.group(1)} ({match.group(2)}+)" if match else keyword.strip()


_MARKER_TYPES = frozenset(marker.lower() for marker in MARKERS)
"""A ``--type`` that is a marker alone (``Blast``): it takes ``--hits``, not shots."""


def _plain_weapon(question: PlainQuestion) -> WeaponProfile:
    """The weapon of a plain question, read as a datasheet's weapon would be."""
    kind, *rules = [t.strip() for t in (question.weapon_type or "Assault").split(",")]
    for keyword in question.keywords:
        _refuse_type_keyword(keyword)
    if question.attacks is not None:
        negative = re.fullmatch(r"-\s*\d+", question.attacks.strip())
        if negative:  # a number, out of range: said as the weapon reader says 0 shots
            raise QuestionError(f"{shots_problem(-int(negative.group()[1:]))}", "--shots")
        if not re.fullmatch(r"\d+(/\d+)?", question.attacks.strip()):
            problem = f"shots must be a number (Salvo: 2/4), not {question.attacks!r}"
            raise QuestionError(problem, "--shots")
        if re.search(r"\d", kind):
            raise QuestionError(f"give the shots once, not also in the type {kind!r}", "--shots")
        if kind.lower() in _MARKER_TYPES:  # "Blast 2" would be no weapon type at all
            under = "template" if kind.lower() == "template" else "marker"
            problem = f"a {kind} weapon hits the models under its {under}: give --hits"
            raise QuestionError(f"{problem} (how many), not --shots", "--shots")
        kind = f"{kind} {question.attacks.strip()}"
    ap = question.ap.strip()
    try:
        weapon = weapon_of(
            Weapon(
                name=kind,
                characteristics={
                    "Range": "24",
                    "S": str(question.strength),
                    "AP": ap or "-",
                    "Type": ", ".join([kind, *rules]),
                },
                keywords=tuple(_rule_text(k) for k in question.keywords),
            )
        )
    except ProfileError as error:  # the bounds of a datasheet's weapon (``io.bounds``)
        shots = "--shots" if question.attacks is not None else "--type"
        flag = {"S": "--strength", "AP": "--ap", "keywords": "--keyword"}.get(error.key, shots)
        problem = str(error).removeprefix(f"weapon {kind}: ")
        raise QuestionError(problem, flag) from None
    if not weapon.is_ranged:
        raise QuestionError("a melee weapon: Waffle odds cover shooting", "--type")
    pair = question.attacks is not None and "/" in question.attacks
    if pair and weapon.base_type != "Salvo":  # a review: "Assault 2/4" fired 2, "/4" dropped
        given = question.attacks.strip() if question.attacks else ""
        problem = (
            f"{given} is a Salvo weapon's shots (the first after moving); "
            f"{weapon.base_type} weapons fire one number: give --type Salvo, or one number"
        )
        raise QuestionError(problem, "--shots")
    return replace(weapon, name=_type_text(weapon))


def _refuse_type_keyword(keyword: str) -> None:
    """Refuse a ``--keyword`` that is a weapon type (``rapid fire``, ``heavy 2``),
    pointing to ``--type``, which takes it: as a special rule it was "keyword not
    implemented" (a review, s23), though the odds fire every type but Melee. A
    marker (``blast``) is read as a keyword as it is in a type's rules."""
    written = " ".join(keyword.split())
    head = re.fullmatch(r"(.*?)\s*(\d+(?:/\d+)?)?", written)
    name = (head.group(1) if head else written).replace("-", " ").lower()
    kind = next((k for k in BASE_TYPES if k.lower() == name and k != "Melee"), None)
    if kind is None:
        return
    number = f" {head.group(2)}" if head and head.group(2) else ""
    raise QuestionError(f"{written!r} is a weapon type: give --type {kind + number!r}", "--keyword")


def _keyword_problem(rule: str) -> str:
    """Why the weapon reader resolves no rule ``rule`` (a ``--keyword``): written with
    other hyphens or spaces than a rule it resolves (``twin linked``: ``Twin-linked``),
    or not implemented, with the rule it may have meant."""

    def squashed(text: str) -> str:
        return re.sub(r"[\s-]+", "", text).lower()

    name, _, rest = rule.partition(" (")
    spelt = next((r for r in WEAPON_RULES if squashed(r) == squashed(name)), None)
    if spelt is not None:
        return f"{rule!r} is written {spelt + (' (' + rest if rest else '')!r}"
    near = similar_names(name, list(WEAPON_RULES), most=1)
    meant = f" (did you mean {near[0]!r}?)" if near else ""
    return f"keyword not implemented: {rule!r}{meant}"


def _type_text(weapon: WeaponProfile) -> str:
    """The weapon's Type as the books print it, without its special rules."""
    if weapon.base_type == "Rapid Fire":  # Rapid Fire 1 is written plain
        kind = "Rapid Fire" if weapon.shots == 1 else f"Rapid Fire {weapon.shots}"
    elif weapon.base_type == "Salvo":
        kind = f"Salvo {weapon.salvo_moving_shots}/{weapon.shots}"
    else:
        kind = f"{weapon.base_type} {weapon.shots}"
    marker = (
        "Template"
        if weapon.template
        else None
        if weapon.blast is None
        else blast_name(weapon.blast)
    )
    return f"{kind}, {marker}" if marker else kind


ODDS_PARAMETERS = (SNAP_SHOT_DIVISOR, SNAP_SHOT_MINIMUM, OVERWHELMING_STRENGTH)
"""The ruleset parameters the Waffle odds read (``--rule NAME=VALUE``)."""


def _volley(
    weapon: WeaponProfile,
    strength: int,
    skills: list[int],
    facts: frozenset[str],
    hits: int | None,
    rules: tuple[tuple[str, str], ...] = (),
    vehicle: bool = False,
) -> Volley:
    """The volley the firers roll (:func:`odds.volley`); ``vehicle``: they are a
    vehicle unit, whose moving changes none of its weapons
    (:func:`snap_shots.moving_changes_weapons`, as the battle asks it)."""
    try:
        settings = resolve_read("waffle", ODDS_PARAMETERS, dict(rules), "the odds")
    except RuleSettingError as error:
        raise QuestionError(str(error), "--rule") from None
    firing = Firing(
        snap="snap" in facts,
        half_range="half-range" in facts,
        moved="moved" in facts and moving_changes_weapons("relentless" in facts, vehicle),
        snap_divisor=settings.integer(SNAP_SHOT_DIVISOR.name),
        snap_minimum=settings.integer(SNAP_SHOT_MINIMUM.name),
        overwhelming_at=settings.integer(OVERWHELMING_STRENGTH.name),
    )
    given = None if hits is None else question_bounds("--hits", "hits", hits, 0, MAX_HITS)
    fired = replace(
        volley(weapon, strength, skills, firing, given),
        hit_ones="preferred-enemy" in facts,
        wound_ones="preferred-enemy" in facts,
        failed_wounds="monster-hunter" in facts,
    )
    shots = sum(n for n, _ in fired.shots)
    if shots > MAX_SHOTS:
        raise QuestionError(
            f"{shots} shots in all: exact odds go up to {MAX_SHOTS} shots "
            "(ask with fewer firing models or fewer shots)"
        )
    if fired.fires and hits is None and (weapon.blast or weapon.template):
        marker = "Template" if weapon.template else "Blast"
        raise QuestionError(
            f"{weapon.name} is a {marker} weapon: give the number of hits "
            "(the models under the marker)",
            "--hits",
        )
    return fired


def _defence(
    *,
    toughness: int,
    wounds: int,
    models: int,
    save: int | None,
    invulnerable: int | None,
    cover: int | None,
    feel_no_pain: int | None,
    facts: frozenset[str],
    cover_rules: int = 0,
) -> Defence:
    """The target of a question; ``cover_rules``: how much better its unit's own rules
    make its cover saves (:func:`special_rules.cover_bonus`: Stealth, Shrouded), counted
    with gone to ground as a battle counts them (:func:`visibility.counted_cover`)."""

    def roll(flag: str, name: str, value: int | None) -> int | None:
        return None if value is None else question_bounds(flag, name, value, 2, 6)

    in_cover = roll("--cover", "cover save", cover)
    return Defence(
        toughness=question_bounds("--toughness", "toughness", toughness, 1, 10),
        wounds=question_bounds("--wounds", "wounds", wounds, 1, MAX_WOUNDS),
        models=question_bounds("--target-models", "target models", models, 1, MAX_MODELS),
        save=roll("--save", "save", save),
        invulnerable=roll("--invulnerable", "invulnerable save", invulnerable),
        cover=counted_cover(in_cover, "gone-to-ground" in facts, cover_rules),
        feel_no_pain=roll("--feel-no-pain", "Feel No Pain", feel_no_pain),
        eternal_warrior="eternal-warrior" in facts,
    )


def _find_weapon(sheet: Datasheet, name: str, profile: str | None) -> Weapon:
    """The weapon of ``sheet`` called ``name`` (``Missile launcher`` + profile ``frag``)."""
    wanted = name.strip().lower()
    if profile:
        wanted = f"{wanted} ({profile.strip().lower()})"
    found = [w for w in sheet.weapons() if w.name.lower() == wanted]
    if not found:
        known = ", ".join(w.name for w in sheet.weapons())
        dropped = why_dropped(sheet, wanted)
        why = f": the import dropped it ({dropped})" if dropped else ""
        problem = f"{sheet.name} has no weapon {wanted!r}{why}; it has: {known}"
        raise QuestionError(problem, "--weapon")
    return found[0]


def _firers(
    sheet: Datasheet,
    carriers: list[ModelEntry],
    weapon: WeaponProfile,
    firing: int | None,
    notes: list[str],
) -> tuple[list[int], int]:
    """The BS of each volley fired, and the weapon's Strength in the firers' hands.

    A model carrying the weapon more than once fires as many of them as its quota
    allows, as in a battle (:func:`firepower.firing_quota`: a vehicle all its weapons, a
    Monstrous Creature two, any other model one, a Multi-tracker one more): a Land
    Raider's two lascannons are two volleys, a Deff Dread's two big shootas six shots.
    ``firing`` models (``--models``) fire as many volleys each as most carriers do."""
    volleys = [_volleys(sheet, e, weapon.name) for e in carriers for _ in range(e.count)]
    bs = [stats_of(e.profile).bs for e in carriers for _ in range(e.count)]
    skills = [skill for skill, each in zip(bs, volleys, strict=True) for _ in range(each)]
    strengths = {weapon.strength.resolve(stats_of(e.profile).s) for e in carriers}
    typical = stats_of(most_common_profile(e.profile for e in carriers for _ in range(e.count)))
    strength = weapon.strength.resolve(typical.s)
    if len(strengths) > 1:
        notes.append(f"{weapon.name} has Strength {sorted(strengths)}: every hit is S{strength}")
    if firing is not None:
        if len(set(bs)) > 1:
            notes.append(f"{firing} firing models, each at BS{majority_value(bs)}")
        models = question_bounds("--models", "firing models", firing, 1, MAX_MODELS)
        carries = partial(_carries, weapon.name)
        larger = firing_within(sheet, models, carries, f"models carrying {weapon.name}")
        notes += [larger] if larger else []
        skills = [majority_value(bs)] * (models * majority_value(volleys))
    return skills, strength


def _carries(name: str, entry: ModelEntry) -> int:
    """1 if the models of ``entry`` carry the weapon ``name``, else 0."""
    return int(any(w.name == name for w in entry.weapons))


def _volleys(sheet: Datasheet, entry: ModelEntry, name: str) -> int:
    """How many of its weapons called ``name`` a model of ``entry`` fires in a shooting
    attack: as many as it carries, within its quota (:func:`firepower.firing_quota`)."""
    carried = sum(w.name == name for w in entry.weapons)
    extra = int(_has_rule(sheet, [entry], "Multi-tracker"))
    return min(carried, firing_quota(entry.profile, len(entry.weapons), extra))


def _has_rule(sheet: Datasheet, entries: list[ModelEntry], *names: str) -> bool:
    rules = (*sheet.rules, *(r for e in entries for r in own_rules(e)))
    return any(names_rule(rules, n) for n in names)


def _re_rolls(
    attacker: Datasheet,
    target: Datasheet,
    models: int | None,
    facts: frozenset[str],
    notes: list[str],
) -> frozenset[str]:
    """The re-rolls the attacker's own rules give at ``target``, as facts: Preferred
    Enemy (a unit with it re-rolls 1s To Hit and To Wound at every foe,
    :func:`special_rules.preferred_enemy`) and Monster Hunter (failed To Wound rolls
    at a Monstrous Creature, :func:`special_rules.monster_hunter`), each named in a
    note. The target is the models the odds fire at (:func:`odds_target`); a
    ``monster-hunter`` fact at anything else is refused, as the rule cannot apply."""
    monstrous = not _is_vehicle(target) and stats_of(odds_target(target, models).profile).has_type(
        "Monstrous Creature"
    )
    if "monster-hunter" in facts and not monstrous:
        raise QuestionError(
            f"monster-hunter: {target.name} is not a Monstrous Creature, "
            "so Monster Hunter re-rolls nothing",
            "--situation",
        )
    found: set[str] = set()
    if attacker.has_rule("Preferred Enemy"):
        found.add("preferred-enemy")
        notes.append(
            f"{attacker.name} has Preferred Enemy: rolls of 1 To Hit and To Wound are re-rolled"
        )
    if monstrous and attacker.has_rule("Monster Hunter"):
        found.add("monster-hunter")
        notes.append(
            f"{attacker.name} has Monster Hunter: failed To Wound rolls at {target.name} "
            "are re-rolled"
        )
    return frozenset(found)


def _snap_at(
    weapon: WeaponProfile, target: Datasheet, facts: frozenset[str], notes: list[str]
) -> frozenset[str]:
    """``snap`` where the battle's own rule fires ``weapon`` at ``target`` as Snap Shots
    only (:func:`flyers.snap_against`: every Flyer is Zooming, docs/rules/waffle.md,
    *Vehicles*; a Skyfire weapon at anything but a Flyer or Skimmer), with a note
    saying why; before session 23 the odds fired at full BS at a Zooming Flyer, and
    fired Blasts at it, as no battle does."""
    if "snap" in facts or not snap_against(tuple(e.profile for e in target.entries), weapon):
        return frozenset()
    if weapon.has_rule(SKYFIRE):
        notes.append(
            f"{weapon.name} has Skyfire: it fires only Snap Shots at {target.name}, "
            "neither a Flyer nor a Skimmer"
        )
    else:
        notes.append(f"{target.name} is a Zooming Flyer: it can only be hit by Snap Shots")
    return frozenset({"snap"})


def _is_vehicle(target: Datasheet) -> bool:
    """Whether the odds are a vehicle's (the unit's first model is one)."""
    return vehicle_of(target.entries[0].profile) is not None


def odds_target(target: Datasheet, models: int | None) -> ModelEntry:
    """What the library odds fire at, as one entry of identical models: a vehicle
    unit's first model alone, or else ``models`` (by default as many as the unit
    has) of the unit's most common profile. The engine check
    (``analysis.odds_check``) sets up these models, so that it tests the odds'
    arithmetic, not this simplification of a mixed unit."""
    if _is_vehicle(target):
        return replace(target.entries[0], count=1)
    typical = most_common_profile(e.profile for e in target.entries for _ in range(e.count))
    entry = next(e for e in target.entries if e.profile == typical)
    return replace(entry, count=models or target.model_count)


def _library_defence(
    target: Datasheet, models: int, cover: int | None, facts: frozenset[str], notes: list[str]
) -> Defence:
    """The target as identical models of its most common profile, at its majority Toughness."""
    profiles = [e.profile for e in target.entries for _ in range(e.count)]
    entry = odds_target(target, models)
    typical = entry.profile
    stats = stats_of(typical)
    toughness = majority_value(stats_of(p).t for p in profiles)
    if any(
        (s.t, s.sv, s.invulnerable, s.w) != (stats.t, stats.sv, stats.invulnerable, stats.w)
        for s in map(stats_of, profiles)
    ):
        notes.append(
            f"{target.name} mixes profiles; every model is treated as {typical.name}"
            f" at the majority Toughness {toughness}"
        )
    rules = (*target.rules, *entry.rules)
    notes += [
        f"{target.name}: rule not resolved, ignored: {r}" for r in unsupported_unit_rules(rules)
    ]
    ignored, against_death = ignore_wound_roll(rules), ignore_wound_roll(rules, instant=True)
    eternal = names_rule(rules, "Eternal Warrior")
    defence = _defence(
        toughness=toughness,
        wounds=stats.w,
        models=models,
        save=stats.sv,
        invulnerable=stats.invulnerable,
        cover=cover,
        feel_no_pain=None if ignored is None else ignored[1],
        facts=facts | ({"eternal-warrior"} if eternal else set()),
        cover_rules=cover_bonus(target),
    )
    notes += _target_rules(target, ignored, against_death, eternal)
    death = None if against_death is None else against_death[1]
    return replace(defence, against_instant_death=death)


def _target_rules(
    target: Datasheet,
    ignored: tuple[str, int] | None,
    against_death: tuple[str, int] | None,
    eternal: bool,
) -> list[str]:
    """A note for each rule of the target's datasheet that the odds apply: Stealth and
    Shrouded (:func:`special_rules.cover_bonus`), the roll that discounts an unsaved
    wound (``ignored``, and ``against_death`` against Instant Death:
    :func:`special_rules.ignore_wound_roll`) and Eternal Warrior, so that a number
    never changes without a reason shown (a review: Genestealers' Stealth was missing
    from the odds, and nothing said which of its rules they read)."""
    notes = _cover_rules(target)
    if ignored is not None:
        name, needed = ignored
        death = "" if against_death is None else f", {against_death[1]}+ against Instant Death"
        notes.append(
            f"{target.name} has {name}: an unsaved wound is discounted on {needed}+{death}"
        )
    if eternal:
        notes.append(f"{target.name} has Eternal Warrior: no Instant Death")
    return notes


def _cover_rules(target: Datasheet) -> list[str]:
    """A note naming the target's Stealth or Shrouded, if it has either (at a vehicle
    too: :func:`visibility.cover_save` counts them at every target)."""
    bonus = cover_bonus(target)
    if not bonus:
        return []
    named = " and ".join(r for r in ("Stealth", "Shrouded") if target.has_rule(r))
    in_open = counted_cover(None, False, bonus)
    better = f"its cover saves are {bonus} better, {in_open}+ in the open"
    return [f"{target.name} has {named}: {better}"]


def _target_text(target: Defence) -> str:
    save = "-" if target.save is None else f"{target.save}+"
    extra = [
        f"{label} {value}+"
        for label, value in (
            ("inv", target.invulnerable),
            ("cover", target.cover),
            ("FNP", target.feel_no_pain),
        )
        if value is not None
    ]
    return " ".join([f"{target.models}x T{target.toughness} Sv{save} W{target.wounds}", *extra])


def _result(fired: Volley, target: Defence, text: str, notes: list[str]) -> OddsResult:
    weapon = fired.weapon
    ap = "-" if weapon.ap is None else str(weapon.ap)
    rules = "".join(f", {r}" for r in weapon.rules)
    given = "" if fired.hits is None else f", {fired.hits} hits"
    question = (
        f"{text} (S{fired.strength} AP{ap}{rules}{_snapped(fired)}{_re_rolled(fired)}{given})"
    )
    odds = shooting_odds(fired, target)
    return OddsResult(
        edition="waffle",
        question=question,
        models_killed=odds.models_killed,
        unsaved_wounds=odds.unsaved_wounds,
        means={
            "shots": odds.mean_shots,
            "hits": odds.mean_hits,
            "wounds": odds.mean_wounds,
            "unsaved_wounds": odds.mean_unsaved,
        },
        notes=_not_fired(fired, notes),
    )


def _snapped(fired: Volley) -> str:
    """Snap Shots, as the question's text names them."""
    return ", Snap Shots" if fired.snap else ""


def _not_fired(fired: Volley, notes: list[str]) -> tuple[str, ...]:
    """The notes, and one where the weapon cannot fire the Snap Shots it must."""
    if fired.fires:
        return tuple(notes)
    return (*notes, f"{fired.weapon.name} cannot be fired as Snap Shots: it does not fire")


def _re_rolled(fired: Volley) -> str:
    """The attackers' re-rolls, as the question's text names them."""
    return ", Preferred Enemy" * fired.hit_ones + ", Monster Hunter" * fired.failed_wounds


VEHICLE_CHANCES = {
    "glancing": "at least one glancing hit (not saved)",
    "penetrating": "at least one penetrating hit (not saved)",
    "wrecked": "the vehicle wrecked",
    "explodes": "the vehicle exploding",
}
"""What each chance of a volley at a vehicle is the chance of
(:class:`~hammerlab.editions.waffle.odds_vehicles.VehicleOdds`): a hit after the vehicle
is destroyed is not rolled, so ``glancing`` may be less than one minus the chance of no
glancing hit from every shot; ``wrecked`` and ``explodes`` together are the chance of the
vehicle destroyed."""


def _vehicle_result(
    fired: Volley,
    target: Datasheet,
    attacker: str,
    cover: int | None,
    facts: frozenset[str],
    tank_hunters: bool,
    notes: list[str],
) -> OddsResult:
    """Odds at one vehicle of ``target`` (its first model) from the facing the facts
    name (Front unless ``side-armour`` or ``rear-armour``): armour penetration
    (Melta within ``half-range``), Hull Points lost, Wrecked and Explodes!. A vehicle
    with the rule Immobile counts as Immobilised (``vehicles.is_immobilised``: another
    Immobilised result takes a Hull Point)."""
    entry = target.entries[0]
    vehicle = vehicle_of(entry.profile)
    assert vehicle is not None
    facing = _facing(facts, vehicle)
    given = None if cover is None else question_bounds("--cover", "cover save", cover, 2, 6)
    in_cover = counted_cover(given, False, cover_bonus(target))
    notes = [*notes, *_cover_rules(target)]
    aim = VehicleTarget(
        armour=vehicle.armour(facing),
        hull_points=vehicle.hull_points,
        open_topped=vehicle.has_type("Open-topped"),
        weapons=len(entry.weapons),
        invulnerable=entry.profile.invulnerable,
        cover=in_cover,
        immobilised=names_rule((*target.rules, *entry.rules), IMMOBILE),
        super_heavy=vehicle.super_heavy,
    )
    weapon = fired.weapon
    attack = armour_attack(
        weapon, fired.strength, half_range="half-range" in facts, tank_hunters=tank_hunters
    )
    odds = vehicle_odds(fired, attack, aim)
    if sum(e.count for e in target.entries) > 1:
        notes = [*notes, f"{target.name}: the odds are for one of its vehicles"]
    firers = f"{sum(n for n, _ in fired.shots)} shots of " if fired.shots else ""
    ap = "-" if weapon.ap is None else str(weapon.ap)
    question = (
        f"{firers}{weapon.name} ({attacker}) at {entry.profile.name} {facing} AV{aim.armour} "
        f"HP{aim.hull_points} (S{fired.strength} AP{ap}{''.join(f', {r}' for r in weapon.rules)}"
        f"{_snapped(fired)}{_re_rolled(fired)})"
    )
    hits = hit_distribution(fired)
    return OddsResult(
        edition="waffle",
        question=question,
        models_killed=(1.0 - odds.destroyed, odds.destroyed),
        unsaved_wounds=odds.hull_points_lost,
        means={
            "hits": mean(hits),
            "hull_points_lost": sum(i * p for i, p in enumerate(odds.hull_points_lost)),
        },
        notes=_not_fired(fired, notes),
        chances={
            "glancing": odds.glancing,
            "penetrating": odds.penetrating,
            "wrecked": odds.wrecked,
            "explodes": odds.explodes,
        },
        chance_names=VEHICLE_CHANCES,
    )


class WaffleEngineCheck:
    """The engine check of the Waffle Edition's odds (``analysis.odds_check``): the
    table sets up half range or not, and firers that moved or not; the weapon fires
    by ``attacks.fire_weapon``."""

    @property
    def situations(self) -> frozenset[str]:
        """``half-range`` and ``moved``."""
        return frozenset({"half-range", "moved"})

    def odds_target(self, sheet: Datasheet, models: int | None) -> ModelEntry:
        """:func:`odds_target`."""
        return odds_target(sheet, models)

    def weapon_range(self, weapon: Weapon) -> float:
        """The weapon's Range; a template has none, and the check needs one."""
        reach = weapon_of(weapon).range
        if reach is None:
            raise QuestionError(f"{weapon.name} has no range (a template): the check needs one")
        return reach

    def moved(self, situations: frozenset[str]) -> bool:
        """Moved when the question says the firers ``moved``."""
        return "moved" in situations

    def volley(
        self, battle: Battle, shooters: Unit, target: Unit, weapon: Weapon
    ) -> Callable[[], None]:
        """``attacks.fire_weapon`` with no orders given."""

        def fire() -> None:
            fire_weapon(battle, shooters, target, weapon.name, FireOrders())

        return fire


register_calculator("waffle", WaffleCalculator)
register_engine_check("waffle", WaffleEngineCheck)
