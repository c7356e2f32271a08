"""Odds questions in the two forms users ask them: from the unit library, or plain numbers."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from hammerlab.editions.core11.dice_expr import DiceExpr, DiceExpressionError
from hammerlab.editions.core11.odds import KillOdds, kill_odds
from hammerlab.editions.core11.profiles import DefenceStats, defence_of
from hammerlab.editions.core11.rolls import Situation
from hammerlab.editions.core11.weapons import (
    FLAGS,
    VALUED,
    WeaponError,
    WeaponProfile,
    parse_keyword,
    read_weapon,
)
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Weapon
from hammerlab.errors import (
    ProfileError,
    QuestionError,
    firing_within,
    known_situations,
    question_bounds,
)

SITUATIONS: dict[str, str] = {
    "half-range": "the target is within half range ([RAPID FIRE], [MELTA])",
    "cover": "the target has the benefit of cover (13.08: BS worsened by 1)",
    "stationary": "the attacking unit remained stationary ([HEAVY]; 10.07)",
    "short-move": 'no attacking model moved more than 3" ([HEAVY], not 10.07)',
    "charged": "the attacking unit charged this turn ([LANCE])",
    "indirect": "an [INDIRECT FIRE] weapon in Indirect shooting (10.07)",
    "spotted": "with indirect: the target is visible to a friendly unit (10.07)",
    "close-quarters": "a MONSTER/VEHICLE in Close-quarters shooting at a unit it is engaged "
    "with (10.06: -1 to hit unless a [CLOSE-QUARTERS] weapon)",
    "engaged-target": "the target is an engaged MONSTER/VEHICLE unit (17.03: -1 to hit)",
}
"""Facts of the moment an odds question may state, by name."""

MAX_MODELS = 100
MAX_WOUNDS = 60
MAX_TOTAL_ATTACKS = 1_000
"""The most attacks a question's firing models may make together (each at its weapon's
highest A): a bound per weapon (20 dice plus 200) let 100 firing models ask 32,000
attacks, 85 s of CPU for one answer (a hostile-input review)."""


def _check_volume(view: WeaponProfile, firing: int) -> None:
    """Refuse a question whose firing models could make more than
    :data:`MAX_TOTAL_ATTACKS` attacks together: it would not answer quickly."""
    most = firing * view.attacks.high
    if most > MAX_TOTAL_ATTACKS:
        raise QuestionError(
            f"{firing} firing models of up to {view.attacks.high} attacks each make up to "
            f"{most:,} attacks; the odds answer at most {MAX_TOTAL_ATTACKS:,} at once"
        )


@dataclass(frozen=True)
class Answer:
    """The odds, with a one-line description of the question and any notes."""

    odds: KillOdds
    description: str
    notes: tuple[str, ...] = ()


def situation_of(
    names: Iterable[str],
    target_models: int,
    weapon: WeaponProfile,
    attacker: frozenset[str] | None = None,
    target: frozenset[str] | None = None,
) -> Situation:
    """A :class:`Situation` from situation names (see :data:`SITUATIONS`), for ``weapon``
    fired by a unit with the keywords ``attacker`` at one with the keywords ``target``
    (``None``: not known; a question given as numbers knows no attacker's, and its
    target's are those given with ``--target-keyword``, none if none is).

    A situation the weapon cannot be in is refused with the reason: Indirect
    shooting without [INDIRECT FIRE] (10.07: "Has one or more [INDIRECT FIRE]
    weapons"), a [BLAST] weapon at an engaged unit (10.06: "it still cannot
    target a unit your unit is engaged with"; 17.03: "excluding attacks made with
    [BLAST] weapons"); Close-quarters and Indirect shooting at once (10.06 is
    "Engaged", 10.07 "Unengaged": a unit makes one shooting type); a weapon
    without [CLOSE-QUARTERS] in Close-quarters shooting by a unit known to be no
    MONSTER or VEHICLE (10.06: "You can only select [CLOSE-QUARTERS] weapons");
    an engaged target known to be no MONSTER or VEHICLE (17.03 is about "enemy
    MONSTER/VEHICLE units"; an engaged unit of another kind cannot be targeted,
    04.02). [HEAVY]'s bonus is lost only where the attacking unit is engaged
    (Close-quarters shooting), not where its target is.
    """
    chosen = known_situations(names, SITUATIONS)
    if "indirect" in chosen and not weapon.has("INDIRECT FIRE"):
        raise QuestionError(
            "situation 'indirect': 10.07 Indirect shooting needs an [INDIRECT FIRE] weapon"
        )
    engaged = {"close-quarters", "engaged-target"} & chosen
    if engaged and weapon.has("BLAST"):
        raise QuestionError(
            f"situation {sorted(engaged)[0]!r}: a [BLAST] weapon cannot target an engaged unit"
        )
    if {"close-quarters", "indirect"} <= chosen:
        raise QuestionError(
            "situations 'close-quarters' and 'indirect': 10.06 is shooting by an engaged "
            "unit, 10.07 by an unengaged one; a unit makes one shooting type"
        )
    big = {"MONSTER", "VEHICLE"}
    if (
        "close-quarters" in chosen
        and attacker is not None
        and not attacker & big
        and not weapon.has("CLOSE-QUARTERS")
    ):
        raise QuestionError(
            "situation 'close-quarters': 10.06 \"Non-MONSTER/Non-VEHICLE Models: You can "
            f'only select [CLOSE-QUARTERS] weapons", and {weapon.name} is not one'
        )
    if "engaged-target" in chosen and target is not None and not target & big:
        raise QuestionError(
            "situation 'engaged-target': 17.03's -1 is for an engaged MONSTER or VEHICLE "
            "target (give --target-keyword MONSTER or VEHICLE); an engaged unit of another "
            "kind cannot be targeted (04.02)"
        )
    close = weapon.has("CLOSE-QUARTERS") and "close-quarters" in chosen
    return Situation(
        half_range="half-range" in chosen,
        cover="cover" in chosen,
        stationary="stationary" in chosen,
        heavy_steady=bool({"stationary", "short-move"} & chosen) and "close-quarters" not in chosen,
        charged="charged" in chosen,
        indirect="indirect" in chosen,
        spotted="spotted" in chosen,
        close_quarters_penalty="close-quarters" in chosen and not close,
        engaged_target_penalty="engaged-target" in chosen and not close,
        target_models=target_models,
    )


def _refuse_target(weapon: WeaponProfile, name: str, keywords: Iterable[str]) -> None:
    """A weapon limited to some targets ("can only target MONSTER or VEHICLE units")
    cannot be asked about another target."""
    if not weapon.may_target(keywords):
        limits = ", ".join(k.text for k in weapon.keywords if k.name == "TARGETS")
        raise QuestionError(f"{weapon.name} cannot target {name}: {limits}")


def _dice(flag: str, name: str, text: str) -> str:
    """``text``, the dice of ``name`` given by ``flag``, if it reads as dice of at least 1
    (refused here, naming the flag, not as the weapon's A or D: a user review read
    "weapon 'weapon': A must be at least 1" under a form with no weapon so named)."""
    try:
        expression = DiceExpr.parse(text)
    except DiceExpressionError as error:
        raise QuestionError(str(error), flag) from None
    if expression.low < 1:
        raise QuestionError(f"{name} must be at least 1, not {text.strip()}", flag)
    return text.strip().upper()


def plain_answer(
    *,
    attacks: str,
    skill: int,
    strength: int,
    ap: int,
    damage: str,
    keywords: Iterable[str],
    toughness: int,
    save: int,
    wounds: int,
    models: int,
    firing_models: int,
    invulnerable: int | None,
    feel_no_pain: int | None,
    target_keywords: Iterable[str],
    situation: Iterable[str],
) -> Answer:
    """Odds for a weapon and a target given as numbers (BS and saves as N of N+).

    ``attacks`` is the A of one model's weapon; ``firing_models`` models fire it,
    so that [RAPID FIRE] and [BLAST] add their attacks per model."""
    if ap > 0:
        raise QuestionError(f"write AP as a datasheet does (-{ap}), not {ap}", "--ap")
    written = tuple(keywords)
    unknown = [k for k in written if parse_keyword(k) is None]
    if unknown:
        raise QuestionError(keyword_problem(unknown[0]), "--keyword")
    weapon = Weapon(
        name="weapon",
        characteristics={
            "Range": '24"',
            "A": _dice("--attacks", "attacks", attacks),
            "BS": f"{question_bounds('--bs', 'BS', skill, 2, 6)}+",
            "S": str(question_bounds("--strength", "strength", strength, 1, 30)),
            "AP": str(question_bounds("--ap", "AP", ap, -6, 0)),
            "D": _dice("--damage", "damage", damage),
        },
        keywords=written,
    )
    target = DefenceStats(
        toughness=question_bounds("--toughness", "toughness", toughness, 1, 30),
        save=question_bounds("--save", "save", save, 2, 7),
        wounds=question_bounds("--wounds", "wounds", wounds, 1, MAX_WOUNDS),
        invulnerable=(
            None
            if invulnerable is None
            else question_bounds("--invulnerable", "invulnerable", invulnerable, 2, 6)
        ),
        keywords=frozenset(k.strip().upper() for k in target_keywords),
    )
    fnp = (
        None
        if feel_no_pain is None
        else question_bounds("--feel-no-pain", "feel no pain", feel_no_pain, 2, 6)
    )
    models = question_bounds("--target-models", "target models", models, 1, MAX_MODELS)
    firing = question_bounds("--models", "firing models", firing_models, 1, MAX_MODELS)
    view = read_weapon(weapon)
    _check_volume(view, firing)
    _refuse_target(view, "the target", target.keywords)
    asked = situation_of(situation, models, view, target=target.keywords)
    odds = kill_odds(view, firing, target, models, asked, fnp)
    shown = "".join(f" [{k.upper()}]" for k in written)
    return Answer(
        odds,
        f"{firing}x A {attacks} BS {skill}+ S{strength} AP{ap} D {damage}{shown} at "
        f"{models}x {_defence_line(target, fnp, target_keywords)}{_situations(situation)}",
        odds.choices,
    )


def _defence_line(target: DefenceStats, fnp: int | None, keywords: Iterable[str]) -> str:
    """The target as asked, every characteristic that changes the odds: ``T10 Sv2+ Inv
    4+ W12 FNP 6+ (VEHICLE)`` (a review, s23 core11 2: with or without ``--invulnerable
    4``, ``--feel-no-pain 6`` or ``--target-keyword INFANTRY``, which [ANTI-INFANTRY]
    reads, two questions with different answers printed the same line)."""
    inv = "" if target.invulnerable is None else f" Inv {target.invulnerable}+"
    pain = "" if fnp is None else f" FNP {fnp}+"
    named = ", ".join(dict.fromkeys(k.strip().upper() for k in keywords if k.strip()))
    kinds = f" ({named})" if named else ""
    return f"T{target.toughness} Sv{target.save}+{inv} W{target.wounds}{pain}{kinds}"


EXAMPLE_VALUES = {"RAPID FIRE": "1", "SUSTAINED HITS": "1", "MELTA": "2", "BLAST": "2"}
"""A value each keyword of :data:`weapons.VALUED` may take, for an error's example."""


def keyword_problem(text: str) -> str:
    """Why ``--keyword`` ``text`` is no keyword :func:`weapons.parse_keyword` reads, with
    the spelling that works: a keyword written with other hyphens or spaces
    (``lethal-hits``: ``LETHAL HITS``), one of :data:`weapons.VALUED` without its X
    (``needs a number: e.g. SUSTAINED HITS 1``), ``ANTI-K`` without its Y+; any other
    is not implemented (a review, s23: "sustained hits" was "not implemented", though
    [SUSTAINED HITS X] is)."""
    words = re.split(r"[\s-]+", text.strip().upper())
    for name in (*FLAGS, *VALUED):
        parts = re.split(r"[\s-]+", name)
        if words[: len(parts)] != parts:
            continue
        rest = words[len(parts) :]
        spelt = " ".join([name, *rest])
        if parse_keyword(spelt) is not None:
            return f"{text!r} is written {spelt!r}"
        if name in VALUED:
            what = f"a number or dice, not {' '.join(rest)!r}" if rest else "a number"
            return f"{text!r} needs {what}: e.g. {name} {EXAMPLE_VALUES[name]}"
    if words[0] == "ANTI" and len(words) > 1:
        roll = words[2].rstrip("+") if len(words) > 2 else ""
        spelt = f"ANTI-{words[1]} {roll}+"
        if roll and parse_keyword(spelt) is not None:
            return f"{text!r} is written {spelt!r}"
        what = "a roll from 2+ to 6+" if roll else "a roll"
        return f"{text!r} needs {what}: e.g. ANTI-{words[1]} 4+"
    return f"keyword not implemented: {text!r}"


def _situations(names: Iterable[str]) -> str:
    """``; stationary, indirect`` after a question's line, where situations are given."""
    given = list(dict.fromkeys(names))
    return f"; {', '.join(given)}" if given else ""


def find_weapon(sheet: Datasheet, name: str, profile: str | None) -> Weapon:
    """The ranged weapon profile of ``sheet`` called ``name`` (and ``profile``).

    ``profile`` is the profile's own name (``Focused Fire``) or its full name as
    ``hammerlab show`` prints it (``Bolt Rifle (Focused Fire)``); a profile the
    weapon does not have is answered with the ones it has."""
    wanted = name.strip().lower()
    weapons = sheet.weapons()
    if profile is None:
        found = [w for w in weapons if w.name.lower() == wanted]
        found = found or [w for w in weapons if w.get("Weapon").lower() == wanted]
    else:
        asked = profile.strip().lower()
        group = [w for w in weapons if wanted in (w.name.lower(), w.get("Weapon").lower())]
        found = [w for w in group if w.name.lower() in (f"{wanted} ({asked})", asked)]
        if group and not found:
            profiles = [w for w in group if w.name.lower() != wanted]
            if not profiles:
                raise QuestionError(f"{name} has one profile: leave it out", "--profile")
            raise QuestionError(
                f"{name} has profiles {_profile_names(profiles, name)}: give one of them, "
                f"or the full name as `show` prints it ({profiles[0].name!r})",
                "--profile",
            )
    if not found:
        known = ", ".join(w.name for w in weapons)
        asked_for = f"{name!r}" + (f" with profile {profile!r}" if profile else "")
        problem = f"{sheet.name} has no weapon {asked_for}; it has: {known}"
        raise QuestionError(problem, "--weapon")
    if len(found) > 1:
        # A weapon may name a ranged and a melee profile alike but for case (the
        # Norn Assimilator's Toxinjector Harpoon): the odds ask about the ranged one.
        found = [w for w in found if not is_melee(w)] or found
    if len(found) > 1:
        raise QuestionError(
            f"{name} has profiles {_profile_names(found, name)}: choose one", "--profile"
        )
    if is_melee(found[0]):
        problem = f"{found[0].name} is a melee weapon; core11 odds cover ranged ones"
        raise QuestionError(problem, "--weapon")
    return found[0]


def _profile_names(profiles: list[Weapon], name: str) -> str:
    """The profiles' own names (``Focused Fire, Saturation`` of ``Bolt Rifle``)."""
    return ", ".join(w.name[len(name) :].strip(" ()") for w in profiles)


def is_melee(weapon: Weapon) -> bool:
    """Whether ``weapon`` is a melee weapon (Range "Melee"), which the odds refuse."""
    return weapon.get("Range").strip().lower() == "melee"


def odds_target(target: Datasheet, models: int | None) -> ModelEntry:
    """What the library odds fire at, as one entry of identical models: ``models``
    (by default as many as the unit has) of its most numerous kind of model (the
    first of those tied). The engine check (``analysis.odds_check``) sets up these
    models, so that it tests the odds' arithmetic, not this simplification."""
    return replace(_typical(target), count=models or target.model_count)


def _typical(sheet: Datasheet) -> ModelEntry:
    """The unit's most numerous kind of model (the first of those tied)."""
    return max(sheet.entries, key=lambda e: e.count)


def _target_defence(sheet: Datasheet) -> tuple[DefenceStats, list[str]]:
    """The defence of the target's most numerous kind of model, and a note if others differ."""
    typical = _typical(sheet)
    entries = [typical, *(e for e in sheet.entries if e is not typical)]
    try:
        stats = [defence_of(e.profile) for e in entries]
    except ProfileError as error:
        raise QuestionError(str(error)) from None
    keywords = frozenset(k.upper() for k in sheet.keywords) | stats[0].keywords
    first = stats[0]
    chosen = DefenceStats(
        first.toughness,
        first.save,
        first.wounds,
        first.invulnerable,
        first.ranged_invulnerable,
        keywords,
    )
    notes = []
    if any(
        (s.toughness, s.save, s.wounds, s.best_ranged_invulnerable)
        != (first.toughness, first.save, first.wounds, first.best_ranged_invulnerable)
        for s in stats
    ):
        notes.append(
            f"{sheet.name} mixes profiles; every model is treated as {entries[0].profile.name}"
        )
    return chosen, notes


def library_answer(
    attacker: Datasheet,
    weapon_name: str,
    profile: str | None,
    target: Datasheet,
    firing_models: int | None,
    target_models: int | None,
    situation: Iterable[str],
    target_feel_no_pain: int | None,
) -> Answer:
    """Odds for a weapon of a library unit against a library unit (whose Feel No
    Pain, from its abilities, is ``target_feel_no_pain``)."""
    weapon = find_weapon(attacker, weapon_name, profile)
    try:
        view = read_weapon(weapon)
    except WeaponError as error:
        raise QuestionError(str(error)) from None

    # A model that carries the weapon twice (two bolt pistols) fires it twice, as in a battle.
    def copies(entry: ModelEntry) -> int:
        return sum(w.name == weapon.name for w in entry.weapons)

    carriers = sum(entry.count * copies(entry) for entry in attacker.entries)
    firing = question_bounds(
        "--models",
        "firing models",
        firing_models if firing_models is not None else carriers,
        1,
        MAX_MODELS,
    )
    larger = firing_within(attacker, firing, copies, f"copies of {weapon.name}")
    _check_volume(view, firing)
    defence, notes = _target_defence(target)
    notes += [larger] if larger else []
    _refuse_target(view, target.name, defence.keywords)
    wanted = target.model_count if target_models is None else target_models
    models = question_bounds("--target-models", "target models", wanted, 1, MAX_MODELS)
    question_bounds(None, "target wounds", defence.wounds, 1, MAX_WOUNDS)
    notes += [f"{weapon.name}: keyword not implemented, ignored: {k}" for k in view.unknown]
    keywords = frozenset(  # its models' and its datasheet's (profiles.model_keywords)
        k.upper()
        for kinds in (attacker.keywords, *(e.profile.keywords for e in attacker.entries))
        for k in kinds
    )
    asked = situation_of(situation, models, view, keywords, defence.keywords)
    odds = kill_odds(view, firing, defence, models, asked, target_feel_no_pain)
    return Answer(
        odds,
        f"{firing}x {weapon.name} ({attacker.name}) at {models}x {target.name}"
        f"{_situations(situation)}",
        (*notes, *odds.choices),
    )
