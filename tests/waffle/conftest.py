"""Builders for Waffle Edition shooting-phase tests (seed 000).

Every test builds a tiny battle by hand: units of given profiles and weapons
at given points of an open 72" x 48" table, with scripted dice and a
:class:`ScriptedController` per player, so one exact branch of the rules is
driven and both the state and the event log can be checked.

Conventions that keep the hand arithmetic simple:

* bases are 25.4 mm, i.e. a radius of exactly 0.5", so the base-to-base
  distance of two models is their centre distance minus 1";
* player ``A`` deploys from the south edge (y = 0), ``B`` from the north
  edge (y = 48);
* model ids are ``<unit id>.<n>`` counting from 1, as the scenario loader
  names them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hammerlab.editions import get_ruleset
from hammerlab.editions.base import apply_rules
from hammerlab.editions.flow import Phase
from hammerlab.editions.waffle.charge import CHARGES, begin_charges
from hammerlab.editions.waffle.movement_phase import MOVEMENT
from hammerlab.editions.waffle.profiles import stats_of
from hammerlab.editions.waffle.psychic import PSYCHIC
from hammerlab.editions.waffle.shooting import SHOOTING
from hammerlab.engine.battle import Battle, Player
from hammerlab.engine.battlefield import Battlefield, TerrainArea
from hammerlab.engine.controllers import ScriptedController
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Profile, Weapon
from hammerlab.engine.decisions import Controller
from hammerlab.engine.dice import Dice, ScriptedDice
from hammerlab.engine.events import Event
from hammerlab.engine.geometry import Vec
from hammerlab.engine.rules import ParamValue
from hammerlab.engine.units import Model, Unit
from phase_kit import run_phase

A, B = "A", "B"
BASE_MM = 25.4
"""A 1" base: radius 0.5"."""


def profile(
    name: str = "Trooper",
    *,
    ws: int = 4,
    bs: int = 4,
    s: int = 4,
    t: int = 4,
    w: int = 1,
    i: int = 4,
    a: int = 1,
    ld: int = 8,
    sv: str = "3+",
    inv: int | None = None,
    unit_type: str = "Infantry",
) -> Profile:
    """A Waffle profile; defaults are a Space Marine's (WS4 BS4 S4 T4 W1 Ld8 3+)."""
    chars = {
        "WS": str(ws),
        "BS": str(bs),
        "S": str(s),
        "T": str(t),
        "W": str(w),
        "I": str(i),
        "A": str(a),
        "Ld": str(ld),
        "Sv": sv,
    }
    return Profile(name=name, characteristics=chars, unit_type=unit_type, invulnerable=inv)


WALKER = Profile(
    name="Walker",
    characteristics={
        "WS": "3",
        "BS": "3",
        "S": "5",
        "Front": "12",
        "Side": "10",
        "Rear": "10",
        "I": "3",
        "A": "1",
        "HP": "2",
    },
    unit_type="Vehicle (Walker)",
)
"""A Walker (an Armoured Sentinel's 7th-edition profile): a vehicle, issue 12 §2."""


def weapon(name: str, rng: str, s: str, ap: str, kind: str) -> Weapon:
    """A weapon as the 6th/7th-edition books print it: Range S AP Type."""
    return Weapon(name=name, characteristics={"Range": rng, "S": s, "AP": ap, "Type": kind})


MARINE = profile("Space Marine")
"""A Space Marine: WS4 BS4 S4 T4 W1 I4 A1 Ld8 3+."""
GUARD = profile("Guardsman", bs=3, s=3, ld=7, sv="5+")
"""A Guardsman as most tests use him: BS3 S3 T4 (the default) Ld7 5+."""
TROOPER = profile("Trooper", s=3, t=3, i=3, sv="-")
"""A test soldier for the AI's fights: WS4 S3 T3 I3 A1, no save (with no guns:
no Overwatch, nothing spared)."""
BRUTE = profile("Brute", s=5, t=4, i=3, a=3, sv="-")
"""A test bruiser: WS4 S5 T4 I3 A3, no save."""

# Weapons with their published 6th/7th-edition profiles (or a test variant).
BOLTGUN = weapon("Boltgun", "24", "4", "5", "Rapid Fire")
BOLT_PISTOL = weapon("Bolt pistol", "12", "4", "5", "Pistol")
HEAVY_BOLTER = weapon("Heavy bolter", "36", "5", "4", "Heavy 3")
LASGUN = weapon("Lasgun", "24", "3", "-", "Rapid Fire")
STORM_BOLTER = weapon("Storm bolter", "24", "4", "5", "Assault 2")
FLAMER = weapon("Flamer", "Template", "4", "5", "Assault 1, Template")
FRAG_MISSILE = weapon("Missile launcher (frag)", "48", "4", "6", "Heavy 1, Blast")
MORTAR = weapon("Mortar", "48", "4", "6", "Heavy 1, Blast, Barrage")
BATTLE_CANNON = weapon("Battle cannon", "72", "8", "3", "Ordnance 1, Large Blast")
LASCANNON = weapon("Lascannon", "48", "9", "2", "Heavy 1")


@dataclass
class Placed:
    """One model to place: profile, weapons and where."""

    profile: Profile
    weapons: Sequence[Weapon]
    at: Vec
    rules: tuple[str, ...] = ()


def make_unit(
    uid: str,
    player: str,
    models: Iterable[Placed],
    *,
    name: str | None = None,
    rules: Sequence[str] = (),
) -> Unit:
    """A unit of the given models; ids ``<uid>.1``, ``<uid>.2``..."""
    placed = list(models)
    entries = tuple(
        ModelEntry(p.profile, 1, tuple(p.weapons), BASE_MM, rules=p.rules) for p in placed
    )
    sheet = Datasheet(
        name=name or uid.capitalize(),
        army="test",
        edition="waffle",
        entries=entries,
        rules=tuple(rules),
    )
    built = [
        Model(
            id=f"{uid}.{n}",
            profile=p.profile,
            weapons=tuple(p.weapons),
            position=p.at,
            base_mm=BASE_MM,
            wounds_left=stats_of(p.profile).w,  # a vehicle's Hull Points
            rules=p.rules,
        )
        for n, p in enumerate(placed, start=1)
    ]
    return Unit(id=uid, name=sheet.name, player=player, datasheet=sheet, models=built)


def squad(
    uid: str,
    player: str,
    prof: Profile,
    weapons: Sequence[Weapon],
    points: Iterable[Vec],
    *,
    name: str | None = None,
    rules: Sequence[str] = (),
) -> Unit:
    """A unit of identical models at ``points``."""
    return make_unit(
        uid, player, [Placed(prof, weapons, p) for p in points], name=name, rules=rules
    )


def row(x: float, y: float, count: int, pitch: float = 2.0) -> list[Vec]:
    """``count`` points along +x from (x, y), ``pitch`` inches apart."""
    return [(x + k * pitch, y) for k in range(count)]


def box(name: str, x0: float, y0: float, x1: float, y1: float, **effects: Any) -> TerrainArea:
    """A rectangular terrain area."""
    return TerrainArea(name, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), **effects)


def make_battle(
    *units: Unit,
    dice: Sequence[int] = (),
    directions: Sequence[float] = (),
    script_a: Sequence[tuple[str, str]] = (),
    script_b: Sequence[tuple[str, str]] = (),
    fallback: Controller | None = None,
    terrain: Sequence[TerrainArea] = (),
    options: Mapping[str, ParamValue] | None = None,
    seed: int | None = None,
) -> Battle:
    """A two-player battle (A south, B north) on an open 72" x 48" table.

    With ``seed`` the dice are real seeded :class:`Dice`; otherwise they are
    :class:`ScriptedDice` with ``dice`` and ``directions``. Unknown option
    names are an error, as in a scenario.
    """
    rolled: Dice = (
        Dice(seed)
        if seed is not None
        else ScriptedDice(values=list(dice), directions=list(directions))
    )
    battle = Battle(
        battlefield=Battlefield(72.0, 48.0, tuple(terrain)),
        players=(Player(A, "south"), Player(B, "north")),
        units={u.id: u for u in units},
        dice=rolled,
        ruleset="waffle",
        controllers={
            A: ScriptedController(script_a, fallback),
            B: ScriptedController(script_b, fallback),
        },
    )
    apply_rules(battle, get_ruleset("waffle"), options or {})
    return battle


def controller(battle: Battle, player: str) -> ScriptedController:
    """The scripted controller of ``player``."""
    found = battle.controllers[player]
    assert isinstance(found, ScriptedController)
    return found


def asked(battle: Battle, player: str, kind: str | None = None) -> list[Any]:
    """Decisions ``player`` was asked (of one ``kind``), in order."""
    return [d for d in controller(battle, player).asked if kind is None or d.kind == kind]


def of_kind(battle: Battle, kind: str) -> list[Any]:
    """Events of one kind (typed ``Any`` so tests can read their fields)."""
    return list(battle.log.of_kind(kind))


def kinds(battle: Battle, skip: Iterable[str] = ("dice", "message", "phase")) -> list[str]:
    """The kinds of events in order, without the noisy ones."""
    skipped = set(skip)
    return [e.kind for e in battle.log.events if e.kind not in skipped]


def story(battle: Battle, skip: Iterable[str] = ("dice", "message", "phase")) -> list[str]:
    """A compact record: kinds, with the decision name for decisions."""
    skipped = set(skip)
    out: list[str] = []
    for event in battle.log.events:
        if event.kind in skipped:
            continue
        if event.kind == "decision":
            out.append(f"decision:{event.decision}")  # type: ignore[attr-defined]
        else:
            out.append(event.kind)
    return out


def dice_purposes(battle: Battle) -> list[str]:
    """The purpose of every roll, in order."""
    return [e.purpose for e in battle.log.of_kind("dice")]  # type: ignore[attr-defined]


def messages(battle: Battle) -> list[str]:
    """Every procedure message, in order."""
    return [e.message for e in battle.log.of_kind("message")]  # type: ignore[attr-defined]


def all_dice_used(battle: Battle) -> bool:
    """Whether the scripted dice were consumed exactly (no roll more, none fewer)."""
    dice = battle.dice
    assert isinstance(dice, ScriptedDice)
    return dice.remaining == 0 and not dice._directions


def alive_ids(unit: Unit) -> list[str]:
    """Ids of the unit's models still on the table."""
    return [m.id for m in unit.alive_models]


def model(battle: Battle, model_id: str) -> Model:
    """A model by id."""
    unit_id = model_id.split(".", maxsplit=1)[0]
    return next(m for m in battle.unit(unit_id).models if m.id == model_id)


def last(events: Sequence[Event]) -> Any:
    """The last event of a list (typed ``Any``)."""
    return events[-1]


# 6th/7th-edition To Wound chart, Strength down, Toughness across, by hand.
TO_WOUND_BY_HAND = """
     T1  T2  T3  T4  T5  T6  T7  T8  T9  T10
S1   4+  5+  6+  6+  -   -   -   -   -   -
S2   3+  4+  5+  6+  6+  -   -   -   -   -
S3   2+  3+  4+  5+  6+  6+  -   -   -   -
S4   2+  2+  3+  4+  5+  6+  6+  -   -   -
S5   2+  2+  2+  3+  4+  5+  6+  6+  -   -
S6   2+  2+  2+  2+  3+  4+  5+  6+  6+  -
S7   2+  2+  2+  2+  2+  3+  4+  5+  6+  6+
S8   2+  2+  2+  2+  2+  2+  3+  4+  5+  6+
S9   2+  2+  2+  2+  2+  2+  2+  3+  4+  5+
S10  2+  2+  2+  2+  2+  2+  2+  2+  3+  4+
"""


def hand_to_wound() -> dict[tuple[int, int], str]:
    """The hand table above as {(S, T): cell}."""
    lines = [line.split() for line in TO_WOUND_BY_HAND.strip().splitlines()]
    header, rows = lines[0], lines[1:]
    assert header == [f"T{t}" for t in range(1, 11)]
    table: dict[tuple[int, int], str] = {}
    for cells in rows:
        strength = int(cells[0].removeprefix("S"))
        for toughness, cell in enumerate(cells[1:], start=1):
            table[strength, toughness] = cell
    assert len(table) == 100
    return table


def one_unit_against_boyz(unit_lines: str) -> str:
    """A scenario's text: player A's unit "a" (``unit_lines`` give it) against
    twenty Boyz of player B at (36, 40), for scenario-loading tests."""
    return f"""
name = "x"
[[players]]
name = "A"
[[players]]
name = "B"
edge = "north"
[[units]]
id = "b"
player = "B"
unit = "Ork Boyz"
position = [36, 40]
[[units]]
id = "a"
player = "A"
{unit_lines}
"""


SMITE = Weapon(
    "(Primaris) Smite",
    {
        "Warp Charge": "1",
        "Power Category": "Witchfire",
        "Range": '18"',
        "Strength": "4",
        "AP": "2",
        "Type": "Assault 4",
        "Details": "",
    },
)
"""The Primaris power Smite, copied from Warhammer40K.gst (Discipline: Biomancy): the
witchfire the psychic tests cast."""


def movement_phase(battle: Battle, player: str) -> None:
    """The Movement phase for ``player``, as the flow runs it (``run_phase``)."""
    run_phase(battle, MOVEMENT, player)


def psychic_phase(battle: Battle, player: str) -> None:
    """The Psychic phase for ``player``, as the flow runs it."""
    run_phase(battle, PSYCHIC, player)


def shooting_phase(battle: Battle, player: str) -> None:
    """The Shooting phase for ``player``, as the flow runs it."""
    run_phase(battle, SHOOTING, player)


def _charges_end(battle: Battle, player: str) -> None:
    """The charges end here; the assault phase would go on to the fight."""


def charge_sub_phase(battle: Battle, player: str) -> None:
    """Seed 004: the charge sub-phase alone (``charge.CHARGES``, begun as the assault
    phase begins it), without the fight that follows it in ``assault.ASSAULT``."""
    run_phase(battle, Phase("charge", begin_charges, CHARGES, _charges_end), player)
