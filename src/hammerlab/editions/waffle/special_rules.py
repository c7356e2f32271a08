"""Unit special rules of the 6th/7th-edition base rules that the engine resolves.

Only these are implemented, and those of :data:`NO_EFFECT_RULES` cannot
change anything hammerlab plays; :func:`unsupported_unit_rules` reports any
other rule a datasheet names, so an imported unit is never silently wrong.
The rule texts quoted here are the 7th-edition rulebook's (as the
BattleScribe 7th-edition data in ``tests/data/bsdata-7e`` also gives them).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import Final, Protocol

from hammerlab.editions.waffle.melee_grenades import GRENADE_ATTACK
from hammerlab.editions.waffle.profiles import StrengthSpec, WeaponProfile, single_hit, stats_of
from hammerlab.editions.waffle.strength import hit_strength
from hammerlab.editions.waffle.weapon_rules import smashing, with_rules
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Datasheet, Profile
from hammerlab.engine.units import Model, Unit
from hammerlab.io.bounds import ROLL_RULE

UNIT_RULES: Final[dict[str, str]] = {
    "Feel No Pain": "roll a D6 (5+, or the value given) to ignore each unsaved wound; "
    "not against Instant Death",
    "Reanimation Protocols": "as Feel No Pain (5+), and against Instant Death on a 6+",
    "Eternal Warrior": "immune to Instant Death",
    "Relentless": "Heavy, Salvo and Ordnance weapons fire as if stationary; may charge after",
    "Slow and Purposeful": "as Relentless, but cannot Run",
    "Fearless": "automatically passes Morale checks and Pinning, Fear and Regroup tests; "
    "cannot Go to Ground",
    "Stubborn": "ignores negative Leadership modifiers on Morale checks",
    "And They Shall Know No Fear": "automatically passes Fear and Regroup tests; "
    "after a Regroup it moves, shoots (or Runs) and charges normally",
    "Fleet": "may re-roll the Run distance",
    "Tank Hunters": "re-rolls failed armour penetration rolls (armour.armour_attack); "
    "glancing hits are not re-rolled",
    "Independent Character": "a Character (challenges); cannot make a Final Shot or Final "
    "Blow; its unit Regroups below 25% as if at 25%; joining another unit is not "
    "implemented (PARTLY_PLAYED)",
    "Shock Troops": "ignores Suppressive Fire (optional sub-rule of the proposed rule)",
    "Furious Charge": "+1 Strength in close combat on a turn it charged (and for the hits "
    "of its Sweeping Advance, which count as charging)",
    "Rage": "+2 Attacks instead of +1 on a turn it charged (+1 after a Fiery Charge)",
    "Stealth": "cover saves 1 better (6+ in the open), at best 2+; "
    "Stealth (terrain type) is not implemented",
    "Shrouded": "cover saves 2 better (5+ in the open), at best 2+",
    "Preferred Enemy": "re-rolls To Hit and To Wound rolls of 1, shooting and in close "
    "combat; Preferred Enemy (a type of foe) is not implemented",
    "Hatred": "re-rolls failed To Hit rolls in close combat in the first round of each "
    "combat (hatred.py); Hatred (X) only against the foe X (a Faction or a unit)",
    "Ancient Doom": "Hatred against units with a Daemon of Slaanesh (hatred.hates); Fear "
    "tests at -1 Ld against them (fear.ancient_doom_penalty)",
    "Counter-attack": "+1 Attack for its models with the rule until the end of the phase "
    "when charged while not locked in combat",
    "Move Through Cover": "rolls 3D6 (highest) through difficult terrain; not slowed charging "
    "through it; passes Dangerous Terrain tests",
    "Fear": "enemies in base contact take a Fear test (Ld) at the start of the Fight sub-phase; "
    "failing, they fight at WS 1",
    "Hammer of Wrath": "one automatic hit at its unmodified Strength, AP-, at Initiative 10 "
    "after charging into base contact",
    "Supporting Fire": 'may fire Overwatch at a unit charging a friend within 6" '
    "(with the Fire Overwatch reaction)",
    "Terminator Armour": "may not make Sweeping Advances (its 2+ save and 5+ invulnerable "
    "save are the profile's; its Bulky, Deep Strike and Relentless are rules of their own)",
    "Assault Grenades": "counts as equipped with assault grenades: not slowed to Initiative 1 "
    "charging through difficult terrain (difficult_charge.py)",
    "Hit and Run": "may leave a combat at the end of an Assault phase: Initiative test, "
    '3D6" away; the enemy consolidates',
    "Hit & Run": "as Hit and Run",
    "Deep Strike": 'may start in reserve (scenario: reserve = "deep_strike"): Reserve Rolls, '
    "scatter, Deep Strike Mishaps; may not charge the turn it arrives (deep_strike.py)",
    "Outflank": 'may start in reserve (scenario: reserve = "outflank") and come on from '
    "the table edge to its player's left or right, by a D6 (outflank.py)",
    "Scout": 'may redeploy 6" (12" if not Infantry, Artillery, Walker or Monstrous Creature) '
    'before the first turn, more than 12" from enemies; no charge in turn 1 (scout.py)',
    "Infiltrate": 'may set up before the first turn (scenario: infiltrate = true) more than 18" '
    'from enemies, or 12" out of their sight; no charge in its first turn (infiltrate.py)',
    "Battle Focus": "may Run after shooting in the same Shooting phase",
    "Precision Shots": "its 6s To Hit with a shooting weapon (not Snap Shots) wound a "
    "model of the firer's choice in range and sight",
    "Monster Hunter": "re-rolls failed To Wound rolls against Monstrous Creatures",
    "Smash": "close combat attacks at AP2 (unless AP1); may make one Smash Attack at double "
    "Strength instead",
    "Fleshbane": "its close combat attacks always wound on 2+",
    "Poisoned": "its close combat attacks wound on the value given (4+), or better by the chart",
    "Rending": "its close combat To Wound rolls of 6 wound whatever the Toughness, at AP2",
    "Shred": "re-rolls failed To Wound rolls in close combat",
    "Concussive": "its close combat attacks are Concussive",
    "Bulky": "counts as two models for Transport Capacity (transports.places_of)",
    "Very Bulky": "counts as three models for Transport Capacity (transports.places_of)",
    "Extremely Bulky": "counts as five models for Transport Capacity (transports.places_of)",
    "Transport Capacity": "how many models a Transport carries (transports.capacity_of)",
    "Immobile": "cannot move once it has entered play; a vehicle counts as Immobilised "
    "(vehicles.held_still, vehicles.is_immobilised)",
    "Jink": "may Jink when targeted: 4+ cover save, then Snap Shots (rules/jink.py)",
    "Multi-tracker": "fires one more weapon in a shooting attack (firepower.weapons_per_phase); "
    "a vehicle already fires every weapon",
    "Power from Pain": "the game turn's rules of the 7th-edition table: Feel No Pain (6+) in "
    "turn 2, Feel No Pain from 3, Furious Charge from 4, Fearless from 5, Rage from 6 "
    "(power_from_pain.py)",
    "The Aegis": "re-rolls Deny the Witch results of 1 (psychic_rules.aegis_rerolls)",
    "Crusader": "rolls one more die for its Run distance and keeps the highest; "
    "+D3 to its Sweeping Advance total",
    "Champion of Chaos": "must issue and accept challenges; slaying an enemy Character in one, "
    "a D66 on the Chaos Boon table (challenges.py, chaos_boons.py; Spawnhood and Dark "
    "Apotheosis: chaos_forms.py)",
    "Random Attacks": "its Attacks are a D6 rolled at the beginning of each Assault phase "
    "(random_attacks.py)",
}
"""Rule name → what it does in hammerlab."""

NO_EFFECT_RULES: Final[dict[str, str]] = {
    "Night Vision": "ignores the effects of Night Fighting, which hammerlab does not play",
    "Blacksun Filter": "gives Night Vision (7th-edition Codex: Tau Empire): Night Fighting, "
    "which hammerlab does not play",
    "Flak Armour": "a 5+ armour save: the model's Save characteristic, as the catalogues print it",
    "Carapace Armour": "a 4+ armour save: the model's Save characteristic",
    "Power Armour": "a 3+ armour save: the model's Save characteristic",
    "Purity of Spirit": "Perils of the Warp only on two or more 6s (Grey Knights), which is "
    "hammerlab's only Perils rule (psychic.manifest); the powers a psyker knows are the data's",
}
"""Rules whose effect cannot arise in hammerlab (rule name → why), so they are
not reported as not implemented."""

PARTLY_PLAYED: Final[dict[str, str]] = {
    "Independent Character": "joining another unit is not implemented: a library or "
    "catalogue Independent Character always fights as a unit of its own (a scenario may "
    "write one into an inline unit instead: docs/scenarios.md)",
}
"""Rules hammerlab plays in part (rule name → what it does not play), which
``hammerlab show`` notes (:func:`partly_played`); a battle's warnings do not, the
rule's effects being played."""


def partly_played(rules: tuple[str, ...]) -> list[str]:
    """What of ``rules`` hammerlab does not play, for those it plays in part
    (:data:`PARTLY_PLAYED`, names compared as :func:`_base` reads them):
    ``Independent Character: joining another unit is ...``, once each."""
    return list(
        dict.fromkeys(
            f"{name}: {limit}"
            for rule in rules
            for name, limit in PARTLY_PLAYED.items()
            if _base(rule) == name.lower()
        )
    )


QUALIFIED_NOT_IMPLEMENTED: Final[frozenset[str]] = frozenset({"stealth", "preferred enemy"})
"""Rules implemented only in their plain form: ``Stealth (Ruins)`` (only in
that kind of terrain) and ``Preferred Enemy (Orks)`` (only against that foe)
are reported as not implemented; ``Hatred (Orks)`` is played
(:func:`hatred.is_named_foe`)."""


@lru_cache(maxsize=4096)
def _base(rule: str) -> str:
    """``rule`` as rules are compared: its name without any ``(X+)``, in lower case
    (cached: the same few names are read on every blow an estimate weighs)."""
    return rule.split(" (", maxsplit=1)[0].strip().lower()


_KNOWN = {name.lower() for name in (*UNIT_RULES, *NO_EFFECT_RULES)}


def unsupported_unit_rules(rules: tuple[str, ...]) -> list[str]:
    """Rules in ``rules`` that hammerlab does not implement (a qualified form of
    a rule of :data:`QUALIFIED_NOT_IMPLEMENTED` included)."""
    return [r for r in rules if _base(r) not in _KNOWN or _qualified_only(r)]


def _qualified_only(rule: str) -> bool:
    return _base(rule) in QUALIFIED_NOT_IMPLEMENTED and rule.strip().lower() != _base(rule)


TYPE_RULES: Final[dict[str, tuple[str, ...]]] = {
    "Monstrous Creature": ("Fear", "Hammer of Wrath", "Move Through Cover", "Relentless", "Smash"),
    "Gargantuan Creature": (
        "Fear",
        "Fearless",
        "Feel No Pain",
        "Hammer of Wrath",
        "Move Through Cover",
        "Relentless",
        "Smash",
    ),
    "Bike": ("Hammer of Wrath", "Relentless"),
    "Jump": ("Bulky", "Deep Strike"),
}
"""Special rules a model has by its unit type, 7th edition (as remembered; the
6th edition's lists are the same). Monstrous Creatures: "Monstrous Creatures
have the Fear, Hammer of Wrath, Move Through Cover, Relentless and Smash special
rules" (a Flying Monstrous Creature is one). Bikes and Jetbikes have "the Hammer
of Wrath, Jink, Relentless and Very Bulky special rules": Jink is given by type
where it is played (:func:`rules.jink.may_jink`), and Very Bulky matters only
aboard a transport, which a Bike may not board. Jump units: "Bulky, Deep
Strike" (their Hammer of Wrath and re-rolled charge when they use their jump
packs to charge are not played). Gargantuan Creatures (Flying ones too): the
game system's rule text (``Warhammer40K.gst``, rule "Gargantuan Creature"):
"Gargantuan Creatures and Flying Gargantuan Creatures have the following Special
Rules: Fear, Fearless, Feel No Pain, Hammer of Wrath, Move Through Cover,
Relentless, Smash, Strikedown, Vector Strike (Flying Gargantuan Creatures Only)",
less the two hammerlab does not play (:func:`gargantuan_not_played`). Other unit
types' rules are not given: a datasheet must name them (docs/rules/waffle.md,
interpretation 18)."""


def gargantuan_not_played(unit_type: str) -> str | None:
    """What of a Gargantuan Creature's rules hammerlab does not play, for ``show`` and a
    battle's warnings (``WaffleRuleset.validate_datasheet``); ``None`` for another
    unit type. It plays the Monstrous Creature rules, all its weapons fired, and the
    rules its type gives (:data:`TYPE_RULES`); not Strikedown nor a Flying one's Vector
    Strike (the type's other rules), nor the game system's Stomp and Unstoppable, nor
    firing at more than one target."""
    lowered = unit_type.lower()
    if "gargantuan" not in lowered:
        return None
    rules = "Strikedown and Vector Strike" if "flying" in lowered else "Strikedown"
    return (
        f"Gargantuan Creature: its {rules} (its unit type's rules), Stomp and Unstoppable "
        "(Warhammer40K.gst) are not played, nor its firing at more than one target"
    )


def type_rules(profile: Profile) -> tuple[str, ...]:
    """The special rules ``profile``'s unit type gives (:data:`TYPE_RULES`)."""
    return _type_rules(profile.unit_type)


@lru_cache(maxsize=256)
def _type_rules(unit_type: str) -> tuple[str, ...]:
    lowered = unit_type.lower()
    return tuple(r for kind, rules in TYPE_RULES.items() if kind.lower() in lowered for r in rules)


class _Rulebearer(Protocol):
    """A model, or a datasheet entry of models: its own rules and its profile."""

    @property
    def rules(self) -> tuple[str, ...]: ...

    @property
    def profile(self) -> Profile: ...


def own_rules(bearer: _Rulebearer) -> tuple[str, ...]:
    """The rules a model (or each model of a datasheet entry) has itself: those
    named for it and those of its unit type (:data:`TYPE_RULES`)."""
    return (*bearer.rules, *type_rules(bearer.profile))


def model_has(unit: Unit, model: Model, rule: str) -> bool:
    """Whether ``model`` benefits from ``rule``: its own, its unit's, or its unit
    type's (:func:`own_rules`)."""
    return _has(unit.rules, model.rules, model.profile.unit_type, rule)


@lru_cache(maxsize=4096)
def _has(unit_rules: tuple[str, ...], rules: tuple[str, ...], unit_type: str, rule: str) -> bool:
    """:func:`model_has` of a model with ``rules`` and ``unit_type`` in a unit with
    ``unit_rules``; cached: every volley asks it of every model that fires (Precision
    Shots, Sniper), and joining the three and reading them anew cost twice the look-up."""
    return names_rule((*unit_rules, *rules, *_type_rules(unit_type)), rule)


def unit_has(unit: Unit, rule: str) -> bool:
    """Whether ``unit`` has ``rule`` where a rule of a unit "that contains at least
    one model with this special rule" counts: the unit's, or a model's alive, its
    own or its unit type's (:data:`TYPE_RULES`)."""
    return unit.has_rule(rule) or any(
        names_rule(type_rules(m.profile), rule) for m in unit.alive_models
    )


def names_rule(rules: Iterable[str], rule: str) -> bool:
    """Whether ``rules`` name ``rule`` (ignoring any ``(X+)`` suffix)."""
    return rule.lower() in _bases(rules if isinstance(rules, tuple) else tuple(rules))


@lru_cache(maxsize=4096)
def _bases(rules: tuple[str, ...]) -> frozenset[str]:
    """Each of ``rules`` as :func:`names_rule` compares it (:func:`_base`); cached:
    the same few tuples of rules are asked about on every estimate."""
    return frozenset(_base(r) for r in rules)


IGNORE_WOUND: Final[dict[str, tuple[int, int | None]]] = {
    "feel no pain": (5, None),
    "reanimation protocols": (5, 1),
}
"""Rules that roll a D6 to discount an unsaved Wound: rule → (the roll unless a
number is given, the penalty against Instant Death or ``None`` where it cannot be
used against it).

7th edition, Feel No Pain: "On a 5+, the unsaved Wound is discounted … If a unit
has the Feel No Pain special rule with a number in brackets afterwards … the
number in brackets is the D6 result needed … Feel No Pain saves may not be taken
… against unsaved Wounds that have the Instant Death special rule."
Reanimation Protocols (7th-edition Codex: Necrons, 2015): the same roll, 5+,
that may be taken against Instant Death at a -1 penalty (6+). Not quoted from the
book, which is not in the shared data: the 1d4chan summary of the rule ("On a d6
roll of 5+ (suffering a -1 penalty if against ID), your guy negates the wound")."""


def ignore_wound_roll(rules: Iterable[str], instant: bool = False) -> tuple[str, int] | None:
    """The best roll ``rules`` give to discount an unsaved Wound (the rule's name and
    the D6 needed), against Instant Death when ``instant``; ``None`` if none may."""
    best: tuple[str, int] | None = None
    for rule in rules:
        entry = IGNORE_WOUND.get(_base(rule))
        if entry is None:
            continue
        default, penalty = entry
        if instant and penalty is None:
            continue
        match = ROLL_RULE.fullmatch(rule.strip())  # its bounds held at load: roll_problem
        needed = (int(match["value"]) if match else default) + (penalty or 0) * instant
        if needed <= 6 and (best is None or needed < best[1]):
            best = (rule.split(" (", maxsplit=1)[0].strip(), needed)
    return best


def feel_no_pain(unit: Unit, model: Model, instant: bool = False) -> int | None:
    """The roll ``model`` needs to discount an unsaved Wound (Feel No Pain, 5+ unless
    stated, or Reanimation Protocols: :data:`IGNORE_WOUND`), if it may."""
    return feel_no_pain_in((*model.rules, *unit.rules), instant)


def feel_no_pain_in(rules: Iterable[str], instant: bool = False) -> int | None:
    """The roll ``rules`` give to discount an unsaved Wound (against Instant Death
    when ``instant``), if they give one (:func:`ignore_wound_roll`)."""
    found = ignore_wound_roll(rules, instant)
    return None if found is None else found[1]


def is_independent_character(unit: Unit, model: Model) -> bool:
    """Independent Characters: by rule, or by a unit type naming them."""
    return model_has(unit, model, "Independent Character") or (
        "independent character" in model.profile.unit_type.lower()
    )


def close_combat_strength(
    battle: Battle, unit: Unit, model: Model, weapon: WeaponProfile, charging: bool
) -> int:
    """The Strength of ``model``'s blows with ``weapon``, Furious Charge included, as
    the rules installed change it (:func:`strength.hit_strength`).

    6th/7th-edition Furious Charge: +1 Strength on a turn the unit charged.
    Multipliers apply before additions (a Strength 4 model with a ``x2``
    weapon strikes at 9), and a weapon of fixed Strength ignores the bonus,
    which raises the model's own Strength. At most 10.
    """
    strength = weapon.strength.resolve(stats_of(model.profile).s)
    if charging and weapon.strength.mode != "fixed" and model_has(unit, model, "Furious Charge"):
        strength += 1
    return hit_strength(battle, unit, model, weapon, min(10, strength))


def relentless(unit: Unit) -> bool:
    """Relentless, or Slow and Purposeful (which counts as Relentless): Heavy,
    Salvo and Ordnance weapons fire as if stationary, and the unit may charge
    after firing them."""
    return unit_has(unit, "Relentless") or unit.has_rule("Slow and Purposeful")


def cover_bonus(unit: Unit | Datasheet) -> int:
    """How much better Stealth and Shrouded make ``unit``'s cover saves (a unit on
    the table, or a datasheet's at full strength: the exact odds' target).

    7th edition, Stealth: "A unit that contains at least one model with this
    special rule counts its cover saves as being 1 point better than normal.
    Note that this means that a model with the Stealth special rule always has
    a cover save of at least 6+, even if it is in the open." Shrouded: "…
    counts its cover save as being 2 points better than normal … always has a
    cover save of at least 5+, even if it's in the open." Both: "Cover save
    bonuses from the Shrouded and Stealth special rules are cumulative (to a
    maximum of a 2+ cover save)" (:func:`visibility.improved_cover`).
    """
    return int(unit.has_rule("Stealth")) + 2 * int(unit.has_rule("Shrouded"))


def preferred_enemy(unit: Unit) -> bool:
    """7th edition, Preferred Enemy: "If the special rule does not specify a type
    of foe, then everyone is a Preferred Enemy of the unit. A unit that contains
    at least one model with this special rule re-rolls failed To Hit and To
    Wound rolls of 1 if attacking its Preferred Enemy. This applies both to
    shooting and close combat attacks." Only the plain form is implemented."""
    return unit.has_rule("Preferred Enemy")


def counter_attack_bonus(unit: Unit, model: Model, charged_unlocked: bool) -> int:
    """The Attack ``model`` gains from Counter-attack.

    6th/7th edition (automatic; 5th edition's Leadership test is gone): "If a
    unit contains at least one model with this special rule, and that unit is
    charged, every model with the Counter-attack special rule in the unit gets
    +1 Attack until the end of the phase. If, when charged, the unit was
    already locked in combat, the Counter-attack special rule has no effect."
    ``charged_unlocked``: the unit was charged this phase while not locked in
    combat (``WaffleStatus.charged_unlocked``).
    """
    return int(charged_unlocked and model_has(unit, model, "Counter-attack"))


def monster_hunter(unit: Unit, victim: Unit) -> bool:
    """7th edition, Monster Hunter: "A unit that contains at least one model with this
    special rule re-rolls all failed To Wound rolls against Monstrous Creatures."
    ``victim`` is a Monstrous Creature when most of its models are."""
    if not unit.has_rule("Monster Hunter") or victim.destroyed:
        return False
    monstrous = [stats_of(m.profile).has_type("Monstrous Creature") for m in victim.alive_models]
    return 2 * sum(monstrous) > len(monstrous)


MELEE_MODEL_RULES: Final[tuple[str, ...]] = (
    "Fleshbane",
    "Poisoned",
    "Rending",
    "Shred",
    "Concussive",
    "Instant Death",
)
"""Weapon rules a model may have itself, for its close combat attacks. 7th edition,
e.g. Fleshbane: "If a model has this special rule, or is attacking with a Melee
weapon that has this special rule, they always Wound on a 2+ in close combat"
(Poisoned, Rending and Shred are worded alike). Concussive is worded for weapons
only; a model the data gives it (Chaplain Cassius, whose crozius has it) strikes
with it in close combat (an interpretation). Instant Death: the Chaos Boon
Lifetaker, "Melee attacks have instant death" (``chaos_boons.py``)."""


def close_combat_weapon(unit: Unit, model: Model, weapon: WeaponProfile) -> WeaponProfile:
    """``weapon`` as ``model`` strikes with it: with the :data:`MELEE_MODEL_RULES`
    the model has, and at AP2 (unless AP1) with Smash (:func:`weapon_rules.smashing`).
    The fight (:func:`fight.strike`) and the AI (:func:`expected.blow_value`) both
    strike through this."""
    own = tuple(r for r in (*model.rules, *unit.rules) if _base(r) in _MELEE_MODEL_RULES)
    armed = with_rules(weapon, own)
    return smashing(armed) if model_has(unit, model, "Smash") else armed


_MELEE_MODEL_RULES = {r.lower() for r in MELEE_MODEL_RULES}

SMASH_ATTACK: Final = single_hit("Smash Attack", StrengthSpec(2, "times"), rules=("Smash Attack",))
"""7th edition, Smash: "when it makes its close combat attacks, it can choose
instead to make a single Smash Attack. If it does so, roll To Hit as normal, but
resolve the Attack at double the model's Strength (to a maximum of 10)". Its AP2
is Smash's own (:func:`close_combat_weapon`); it carries no weapon's rules."""


def smash_options(unit: Unit | None, model: Model) -> list[WeaponProfile]:
    """The Smash Attack, for a model with Smash (as one more weapon to choose)."""
    has = model_has(unit, model, "Smash") if unit else names_rule(own_rules(model), "Smash")
    return [SMASH_ATTACK] if has else []


def single_attack(weapon: WeaponProfile) -> bool:
    """Whether ``weapon`` strikes one Attack whatever the model's Attacks (a Smash
    Attack; a krak grenade or melta bomb, :data:`melee_grenades.GRENADE_ATTACK`)."""
    return weapon.has_rule("Smash Attack") or weapon.has_rule(GRENADE_ATTACK)


DIFFICULT_TERRAIN_DICE: Final = 2
"""6th/7th edition: a unit moving through difficult terrain rolls 2D6 and moves the highest."""


def move_through_cover(unit: Unit) -> bool:
    """7th edition, Move Through Cover: "A unit that contains at least one model with
    this special rule rolls an extra D6 when rolling to move through difficult terrain
    and is not slowed by charging through difficult terrain." """
    return unit_has(unit, "Move Through Cover")


def difficult_terrain_dice(unit: Unit) -> int:
    """D6 a unit rolls to move through difficult terrain (the highest counts): 2, or
    3 with Move Through Cover ("the unit rolls 3D6 and picks the highest roll")."""
    return DIFFICULT_TERRAIN_DICE + int(move_through_cover(unit))


def passes_dangerous_terrain(unit: Unit, model: Model) -> bool:
    """7th edition, Move Through Cover: "a model with the Move Through Cover special
    rule automatically passes Dangerous Terrain tests"."""
    return model_has(unit, model, "Move Through Cover")


NO_SWEEP: Final = ("Terminator Armour", "Immobile")
"""Rules that bar a Sweeping Advance: Terminator Armour ("models in Terminator Armour
have the Bulky, Deep Strike, and Relentless special rules, and may not make Sweeping
Advances", the wargear's text in the shared data's Space Marines catalogue); Immobile,
whose unit "cannot move once it has entered play" (``vehicles.IMMOBILE``)."""


def sweep_bar(unit: Unit) -> str | None:
    """The rule of :data:`NO_SWEEP` that bars ``unit`` from a Sweeping Advance (its own,
    or a model's alive), ``None`` where it may make one."""
    return next((rule for rule in NO_SWEEP if unit_has(unit, rule)), None)


def crusader(unit: Unit) -> bool:
    """7th edition, Crusader (Warhammer40K.gst): "A unit that contains at least one
    model with this special rule rolls an extra dice when making Run moves, using
    highest result rolled. In addition, a unit that contains at least one model
    with this rule adds D3 to its Sweeping Advance totals (roll each time)."
    (``movement.run``, ``assault_results._sweep_roll``; the Chaos Boon Unholy
    Crusader gives it.)"""
    return unit.has_rule("Crusader")


def battle_focus(unit: Unit) -> bool:
    """Battle Focus (7th-edition Codex: Craftworlds; paraphrased, the codex is not in
    the shared data): a unit with it may both shoot and Run in the same Shooting
    phase. hammerlab offers the Run after the shooting attack
    (:func:`shooting.run_after_shooting`): shoot, then Run."""
    return unit.has_rule("Battle Focus")


def multi_tracker_weapons(unit: Unit, model: Model) -> int:
    """The extra weapon a Multi-tracker lets ``model`` fire in a shooting attack.

    Codex: Tau Empire (6th edition, kept by the 7th-edition codex; quoted from a
    rules discussion, the codex is not in the shared data): "A model with a
    multi-tracker can fire an additional weapon in each Shooting phase." A
    vehicle fires every weapon already (:func:`firepower.weapons_per_phase`), so
    there it changes nothing."""
    return int(model_has(unit, model, "Multi-tracker"))
