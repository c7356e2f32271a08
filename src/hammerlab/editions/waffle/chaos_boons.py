"""The Chaos Boon table (Codex: Chaos Space Marines), as data: what a Champion
of Chaos gains when it slays an enemy Character in a challenge.

The codex is not in the shared data. The table is the 6th-edition codex's
(2012), which the 7th-edition codex kept (its worked example, "a D66 roll of
35 - your champion would now benefit from the Mechanoid Chaos Boon", matches
it): ranges and effects as a 2012 transcription of the codex's pages gives them
(astropate.blogspot.com, "Immagini Codex Chaos Space Marines e Regole"), the
boons' names as a VASSAL module's Chaos Boon button writes them (both found
with the search tool; docs/rules/waffle.md cites them). The 7th-edition rule:
"This boon lasts for the rest of the game … If a boon is rolled that the
character already has, the roll has no effect."

Each boon is a :class:`Boon` row: its D66 results, its name, and an effect
(:data:`EFFECTS`) with its parameters. Spawnhood and Dark Apotheosis turn the
champion into a new unit (``chaos_forms.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import ClassVar, Final

from hammerlab.editions.waffle.chaos_forms import FORMS, new_form_spot, new_model, transform
from hammerlab.editions.waffle.melee_grenades import is_melee_grenade
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.engine.battle import Battle
from hammerlab.engine.events import Event
from hammerlab.engine.units import Model, Unit

NAME: Final = "chaos boons"
CHARACTERISTIC_MAX: Final = 10
"""6th/7th edition: no characteristic may be raised above 10."""
BEST_SAVE: Final = 2
"""6th/7th edition: no armour save is better than 2+."""


@dataclass(frozen=True)
class Boon:
    """One row of the Chaos Boon table."""

    rolls: tuple[int, ...]
    """The D66 results that give it."""
    name: str
    effect: str
    """A key of :data:`EFFECTS`, or ``"none"``, ``"more boons"``, ``"new form"``."""
    value: str = ""
    """The effect's parameter: the characteristic raised, the rule gained, or the
    new form (a key of ``chaos_forms.FORMS``)."""


UNWORTHY_OFFERING = Boon((11, 12, 13, 14, 15, 16), "Unworthy Offering", "none")
SPAWNHOOD = Boon((21, 22), "Spawnhood", "new form", "Chaos Spawn")
MULTIPLE_BOONS = Boon((64,), "Multiple Boons", "more boons")
DARK_APOTHEOSIS = Boon((65, 66), "Dark Apotheosis", "new form", "Daemon Prince")

CHAOS_BOON_TABLE: Final[tuple[Boon, ...]] = (
    UNWORTHY_OFFERING,  # 11-16 "Nothing"
    SPAWNHOOD,  # 21-22 "Replace model with Chaos Spawn"
    Boon((23,), "Warp Frenzy", "characteristic", "A"),  # "+1 Attack"
    Boon((24,), "Fragment of Immortality", "rules", "Eternal Warrior"),
    Boon((25,), "Strength of the Berzerker", "characteristic", "S"),  # "+1 Strength"
    Boon((26,), "Arcane Occulum", "characteristic", "BS"),  # "+1 BS"
    Boon((31,), "Cerebral Cogitator", "characteristic", "I"),  # "+1 Initiative"
    # "Return to full wounds, if unwounded gain +1 Wound"
    Boon((32,), "Bloated", "wounds"),
    Boon((33,), "Crystalline Body", "characteristic", "T"),  # "+1 Toughness"
    Boon((34,), "Shield of Force", "rules", "Shrouded"),
    Boon((35,), "Mechanoid", "save"),  # "Armour Save improves by 1"
    Boon((36,), "Blade of Chaos", "one melee weapon", "Fleshbane"),  # "Melee weapon has Fleshbane"
    # "Passing a Deny the Witch roll makes enemy Psyker take a Str 6 AP 2 hit"
    Boon((41,), "Witch-eater", "rules", "Witch-eater"),  # witch_eater.py
    Boon((42,), "Cosmic Fate", "rules", "Cosmic Fate"),  # "Re-roll failed armour saves"
    Boon((43,), "Venomous", "rules", "Poisoned"),  # "Melee attacks are Poisoned"
    Boon((44,), "Unholy Crusader", "rules", "Crusader"),
    Boon((45,), "Meteoric Charge", "rules", "Hammer of Wrath"),
    # "Icy Aura (enemy models in base contact take a Str 4 AP 5 hit at Initiative Step 1)"
    Boon((46,), "Icy Aura", "rules", "Icy Aura"),  # icy_aura.py
    Boon((51,), "Mind of Metal", "rules", "Adamantium Will"),
    Boon((52,), "Gun Morph", "ranged strength"),  # "A ranged weapon has +1 Strength"
    Boon((53,), "All-consuming Hatred", "rules", "Hatred"),  # "Hatred (Everything!)"
    Boon((54,), "Warp Claws", "rules", "Shred"),
    Boon((55,), "Lifetaker", "rules", "Instant Death"),  # "Melee attacks have instant death"
    Boon((56,), "Blademaster", "characteristic", "WS"),  # "+1 WS"
    Boon((61,), "Voice of Horus", "rules", "Stubborn"),
    Boon((62,), "Temporal Distortion", "rules", "Fleet"),
    Boon((63,), "Masochism", "rules", "Feel No Pain"),
    # "Roll another d3+1 on this table (re-rolling Spawnhood and Apotheosis)"
    MULTIPLE_BOONS,
    DARK_APOTHEOSIS,  # 65-66 "Replace model with Daemon Prince"
)
"""The Chaos Boon table, each D66 result once (comments quote the transcription)."""

_BY_ROLL: Final = {roll: boon for boon in CHAOS_BOON_TABLE for roll in boon.rolls}


def boon_for(roll: int) -> Boon:
    """The row of the Chaos Boon table for a D66 result (11 to 66)."""
    return _BY_ROLL[roll]


@dataclass(frozen=True)
class ChaosBoonGained(Event):
    """What a Chaos Boon roll gave ``model``: ``outcome`` is ``gained``, ``already
    had`` (the roll has no effect), ``no effect`` (Unworthy Offering, Multiple
    Boons itself) or ``no room`` (Spawnhood or Dark Apotheosis with no place on
    the table for the new model's base: the champion stays as it is)."""

    kind: ClassVar[str] = "chaos boon gained"
    model: str
    roll: int
    boon: str
    outcome: str

    @property
    def text(self) -> str:
        return f"{self.model}: Chaos Boon {self.roll}, {self.boon} ({self.outcome})"


@dataclass
class BoonMemory:
    """The boons each Champion has (they last for the rest of the game), by model id."""

    gained: dict[str, list[str]] = field(default_factory=dict)


def d66(battle: Battle, model: Model) -> int:
    """A D66 for ``model``'s Chaos Boon: "roll two D6, one after the other, the
    first is the tens, the second the units" (the codex's worked example: 3 then 5
    is 35)."""
    tens, units_die = battle.dice.roll(2, f"Chaos Boon (D66, {model.id})")
    return 10 * tens + units_die


def gain_boon(battle: Battle, unit: Unit, model: Model, roll: int) -> None:
    """Give ``model`` the boon of ``roll``, unless it has it already."""
    boon = boon_for(roll)
    had = battle.remember(NAME, BoonMemory).gained.setdefault(model.id, [])
    if boon.effect == "more boons":
        battle.emit(ChaosBoonGained(model.id, roll, boon.name, "no effect"))
        _more_boons(battle, unit, model)
        return
    if boon.effect == "new form":
        _new_form(battle, unit, model, roll, boon)
        return
    if boon.effect == "none":
        outcome = "no effect"
    elif boon.name in had:
        outcome = "already had"
    else:
        had.append(boon.name)
        outcome = "gained"
        EFFECTS[boon.effect](unit, model, boon.value)
    battle.emit(ChaosBoonGained(model.id, roll, boon.name, outcome))


def _new_form(battle: Battle, unit: Unit, model: Model, roll: int, boon: Boon) -> None:
    """Spawnhood ("Replace model with Chaos Spawn"), Dark Apotheosis ("Replace model
    with Daemon Prince"): the champion becomes a new unit of that form
    (:func:`chaos_forms.transform`), where :func:`chaos_forms.new_form_spot` finds
    room for its base."""
    form = new_model(model, FORMS[boon.value])
    spot = new_form_spot(battle, model, unit.player, form)
    battle.emit(ChaosBoonGained(model.id, roll, boon.name, "gained" if spot else "no room"))
    if spot is not None:
        form.position = spot
        transform(battle, unit, model, boon.name, form)


def _more_boons(battle: Battle, unit: Unit, model: Model) -> None:
    """Multiple Boons: "Roll another d3+1 on this table (re-rolling Spawnhood and
    Apotheosis)"; each re-rolled until it is neither."""
    count = battle.dice.roll(1, f"Multiple Boons (D3+1, {model.id})", sides=3)[0] + 1
    for _ in range(count):
        roll = d66(battle, model)
        while boon_for(roll) in (SPAWNHOOD, DARK_APOTHEOSIS):
            roll = d66(battle, model)
        gain_boon(battle, unit, model, roll)


def _raise(model: Model, key: str, change: Callable[[str], str]) -> None:
    """Give ``model`` a profile whose characteristic ``key`` is changed."""
    chars = model.profile.characteristics
    if key in chars:
        new = change(chars[key])
        model.profile = replace(model.profile, characteristics={**chars, key: new})


def _plus_one(raw: str) -> str:
    """A characteristic one higher, at most 10; one that is not a number (``-``, a
    dice roll) is left as written."""
    text = raw.strip()
    return str(min(CHARACTERISTIC_MAX, int(text) + 1)) if text.isdigit() else raw


def raise_characteristic(unit: Unit, model: Model, key: str) -> None:
    """+1 to the characteristic ``key`` (Warp Frenzy, Crystalline Body, …)."""
    _raise(model, key, _plus_one)


def improve_save(unit: Unit, model: Model, _: str = "") -> None:
    """Mechanoid: "Armour Save improves by 1" (3+ becomes 2+, at best 2+); a model
    without an armour save (``-``) has none to improve."""

    def better(raw: str) -> str:
        text = raw.strip().rstrip("+")
        return f"{max(BEST_SAVE, int(text) - 1)}+" if text.isdigit() else raw

    _raise(model, "Sv", better)


def bloated(unit: Unit, model: Model, _: str = "") -> None:
    """Bloated: "The champion is returned to full Wounds. If he is already at full
    Wounds, he now has +1 Wound.\""""
    full = model.profile.number("W")
    if model.wounds_left < full:
        model.wounds_left = full
        return
    raise_characteristic(unit, model, "W")
    model.wounds_left = model.profile.number("W")


def gain_rule(unit: Unit, model: Model, rule: str) -> None:
    """A special rule the model gains (its own, as a character's rules are)."""
    if rule not in model.rules:
        model.rules = (*model.rules, rule)


def _melee(model: Model) -> list[int]:
    return [
        i
        for i, w in enumerate(model.weapons)
        if not is_melee_grenade(w) and weapon_of(w).base_type == "Melee"
    ]


def one_melee_weapon(unit: Unit, model: Model, rule: str) -> None:
    """Blade of Chaos: "Melee weapon has Fleshbane" — the first melee weapon the
    model carries; without one it strikes with its close combat weapon, so the
    model itself gains the rule (which its close combat attacks then have)."""
    melee = _melee(model)
    if not melee:
        gain_rule(unit, model, rule)
        return
    weapons = list(model.weapons)
    weapon = weapons[melee[0]]
    weapons[melee[0]] = replace(weapon, keywords=(*weapon.keywords, rule))
    model.weapons = tuple(weapons)


def ranged_strength(unit: Unit, model: Model, _: str = "") -> None:
    """Gun Morph: "A ranged weapon has +1 Strength": the first ranged weapon of a
    fixed Strength the model carries, all its firing modes (a combi-weapon's
    both); at most 10. Without one, nothing changes."""
    ranged = [
        w
        for w in model.weapons
        if not is_melee_grenade(w)
        and weapon_of(w).base_type != "Melee"
        and weapon_of(w).strength.mode == "fixed"
    ]
    if not ranged:
        return
    first = ranged[0]
    modes = {w.name for w in ranged if first.mode_of and w.mode_of == first.mode_of}
    morphed = {first.name} | modes
    model.weapons = tuple(
        replace(w, characteristics={**w.characteristics, "S": _plus_one(w.get("S"))})
        if w.name in morphed
        else w
        for w in model.weapons
    )


EFFECTS: Final[dict[str, Callable[[Unit, Model, str], None]]] = {
    "characteristic": raise_characteristic,
    "save": improve_save,
    "wounds": bloated,
    "rules": gain_rule,
    "one melee weapon": one_melee_weapon,
    "ranged strength": ranged_strength,
}
"""How each kind of boon changes the champion (``"none"``, ``"more boons"`` and
``"new form"`` are played by :func:`gain_boon` itself)."""
