"""The Psychic phase of the 7th-edition rules, between Movement and Shooting.

7th edition, Generating Warp Charge: "At the start of the Psychic phase, roll
a D6. Each player gets a number of Warp Charge dice equal to that D6 roll plus
the number of total Mastery Levels of all psykers that player controls." Only
the player whose turn it is manifests powers; the other player's pool is for
Deny the Witch. "A psyker can manifest multiple powers in the same turn, but
not the same power twice." To manifest one, the player selects a Psyker, a
power and a target, and takes a psychic test: "selecting a number of Warp
Charge dice from your pool and rolling them. A result of 4+ means you
harnessed that charge"; enough harnessed points for the power's Warp Charge
manifest it; "If two or more dice roll a 6" the Psyker suffers Perils of the
Warp. The phase ends when the player is done or the pool is empty; pools are
then lost.

A player with no Psyker that knows a power the engine plays has nothing to do
in this phase: it emits no event and rolls no die (a game without Psykers
plays exactly as before the phase existed). Every choice and simplification
is listed in ``docs/rules/waffle.md`` (Psychic phase).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from math import comb

from hammerlab.editions.flow import Phase, Picks
from hammerlab.editions.waffle.attacks import fire_weapon, firing_models
from hammerlab.editions.waffle.beam_nova import beam_line, beam_units, power_hits
from hammerlab.editions.waffle.maledictions import afflict, end_maledictions
from hammerlab.editions.waffle.morale import phase_casualty_checks, pinning_test
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.perils import perils_of_the_warp
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.psychic_events import (
    BlessingChanged,
    DenyTheWitch,
    PsychicTest,
    WarpCharge,
)
from hammerlab.editions.waffle.psychic_memory import (
    MEMORY,
    Blessing,
    memory_of,
    purged,
)
from hammerlab.editions.waffle.psychic_powers import (
    PsychicPower,
    is_psyker,
    mastery_level,
    playable_powers,
)
from hammerlab.editions.waffle.psychic_rules import aegis_rerolls
from hammerlab.editions.waffle.shooting import may_target, start_phase
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.witch_eater import witch_eater
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.events import PhaseChanged
from hammerlab.engine.geometry import base_distance
from hammerlab.engine.units import Model, Unit

STOP = "stop"
WITCHFIRE_ORDERS = FireOrders(action="witchfire", purpose="psychic", counts_as_fired=False)
"""A Witchfire power is a shooting attack in the Psychic phase; 7th edition:
"Witchfire/psychic shooting attacks are done in the psychic phase too, and no
longer make the psyker count as having fired a weapon"."""


def _begin(battle: Battle, player: str) -> frozenset[str]:
    """End the player's Blessings; if a Psyker of the player can act, roll Warp Charge.

    "Until the start of your next Psychic phase" is how long a Blessing or a
    Malediction lasts here (:func:`end_blessings`,
    :func:`maledictions.end_maledictions`). With no Psyker that knows a power
    the engine plays, nothing is rolled: the roll would change nothing.
    """
    if MEMORY in battle.memory:
        end_blessings(battle, player)
    end_maledictions(battle, player)
    if not any(knows_powers(battle, u) for u in battle.units_of(player)):
        return frozenset()
    memory = memory_of(battle)
    memory.active = True
    memory.attempted.clear()
    start_phase(battle, "psychic", player)
    roll = battle.dice.d6("Warp Charge (psychic phase)")
    memory.pools = {
        p.name: roll + sum(mastery_level(u) for u in battle.units_of(p.name))
        for p in battle.players
    }
    battle.emit(WarpCharge(roll=roll, pools=dict(memory.pools)))
    return frozenset()


def knows_powers(battle: Battle, unit: Unit) -> bool:
    """Whether ``unit`` is a Psyker with a model that knows a power the engine plays."""
    return is_psyker(unit) and any(usable_powers(battle, m) for m in unit.alive_models)


def usable_powers(battle: Battle, model: Model) -> list[PsychicPower]:
    """The powers ``model`` knows that the engine plays, less those Mental Purge took
    (:mod:`.perils`)."""
    return [p for p in playable_powers(model) if not purged(battle, model.id, p.name)]


def _psykers(battle: Battle, player: str, done: frozenset[str]) -> list[Unit]:
    """The player's Psyker units that may still try a power now."""
    if MEMORY not in battle.memory or not memory_of(battle).active:
        return []
    return [u for u in battle.units_of(player) if u.id not in done and power_options(battle, u)]


def _end(battle: Battle, player: str) -> None:
    """Morale checks for the phase's casualties; the pools are lost."""
    if MEMORY not in battle.memory or not memory_of(battle).active:
        return
    memory = memory_of(battle)
    memory.active = False
    memory.pools = {}
    phase_casualty_checks(battle, player)
    battle.emit(PhaseChanged(phase="psychic", player=player, turn=battle.turn, begins=False))


@dataclass(frozen=True)
class PowerOption:
    """A power a Psyker model may try now, with its legal targets."""

    model: Model
    power: PsychicPower
    targets: list[Unit]


def power_options(battle: Battle, unit: Unit) -> list[PowerOption]:
    """What ``unit`` may still try: each power not yet attempted this phase that its
    pool can pay for (at least the Warp Charge in dice), with a legal target."""
    memory = memory_of(battle)
    pool = memory.pools.get(unit.player, 0)
    options: list[PowerOption] = []
    if not is_psyker(unit):
        return options
    seen: set[str] = set()
    for model in unit.alive_models:
        for power in usable_powers(battle, model):
            if power.name in seen or (unit.id, power.name) in memory.attempted:
                continue
            seen.add(power.name)
            if power.warp_charge > pool:
                continue
            targets = power_targets(battle, unit, model, power)
            if targets:
                options.append(PowerOption(model, power, targets))
    return options


def option_of(battle: Battle, unit: Unit, name: str) -> PowerOption | None:
    """The power called ``name`` a model of ``unit`` knows, with its targets (attempted
    or not: what a decision about that power is asked about)."""
    for model in unit.alive_models:
        for power in usable_powers(battle, model):
            if power.name == name:
                return PowerOption(model, power, power_targets(battle, unit, model, power))
    return None


def power_targets(battle: Battle, unit: Unit, model: Model, power: PsychicPower) -> list[Unit]:
    """Legal targets: for a Witchfire power (Beam and Nova ones too: a Nova hits
    them all), the enemy units the Psyker could shoot with it (seen, in range,
    not locked in combat unless a rule allows: a Psyker locked in combat fires
    no Witchfire); for a Malediction, the enemy units
    within range (interpretation: no line of sight needed); for a Blessing, its
    own unit when its range is ``Self``, else the friendly units within range."""
    if power.is_witchfire:
        if st(battle, unit).locked_in_combat:
            return []
        firer = psyker_firing(unit, model, power)
        return [
            e
            for e in battle.enemies_of(unit)
            if may_target(battle, unit, e)
            and firing_models(battle, firer, e, power.name, WITCHFIRE_ORDERS)
        ]
    if power.is_malediction:
        reach = power.range if power.range is not None else 0.0
        return [
            e
            for e in battle.enemies_of(unit)
            if any(base_distance(model, m) <= reach for m in e.alive_models)
        ]
    if power.range is None:
        return [unit]
    reach = power.range
    return [
        u
        for u in battle.units_of(unit.player)
        if any(base_distance(model, m) <= reach for m in u.alive_models)
    ]


def psyker_firing(unit: Unit, model: Model, power: PsychicPower) -> Unit:
    """The unit as it fires a Witchfire power: the Psyker alone, the power his only
    weapon (7th edition: "Witchfire powers are shooting attacks" made by the
    Psyker), so that the shooting procedure's own functions fire it."""
    assert power.weapon is not None
    return replace(unit, models=[replace(model, weapons=(power.weapon,))])


def manifest_powers(battle: Battle, unit: Unit) -> None:
    """The selected Psyker unit tries powers, one after another, until its player
    stops or it has none left it may try (each power once per phase)."""
    while options := power_options(battle, unit):
        choices: list[Choice[PowerOption | None]] = [Choice(o.power.name, o) for o in options]
        choices.append(Choice(STOP, None))
        option = battle.decide(
            Decision(
                kind="power",
                player=unit.player,
                prompt=f"Which psychic power does {unit.label} try?",
                choices=tuple(choices),
                context=DecisionContext(unit=unit.id),
            )
        )
        if option is None:
            return
        manifest(battle, unit, option)


def manifest(battle: Battle, unit: Unit, option: PowerOption) -> None:
    """Select a target, take the psychic test, suffer Perils, face Deny the Witch,
    then resolve the power."""
    power, model = option.power, option.model
    memory = memory_of(battle)
    memory.attempted.append((unit.id, power.name))
    target = (
        nova_target(battle, unit, option)
        if power.is_nova
        else battle.decide(
            Decision(
                kind="psychic_target",
                player=unit.player,
                prompt=f"Target of {power.name} ({unit.label})",
                choices=tuple(Choice(t.label, t) for t in option.targets),
                context=DecisionContext(unit=unit.id, weapon=power.name),
            )
        )
    )
    pool = memory.pools[unit.player]
    dice = battle.decide(
        Decision(
            kind="warp_dice",
            player=unit.player,
            prompt=f"Warp Charge dice for {power.name} (pool {pool})",
            choices=tuple(Choice(f"{n} dice", n) for n in range(power.warp_charge, pool + 1)),
            context=DecisionContext(unit=unit.id, target=target.id, weapon=power.name),
        )
    )
    memory.pools[unit.player] = pool - dice
    harness = battle.settings.integer("warp_charge_roll")
    rolls = battle.dice.roll(dice, f"psychic test ({power.name}, {harness}+)")
    successes = sum(1 for r in rolls if r >= harness)
    perils = rolls.count(6) >= battle.settings.integer("perils_sixes")
    passed = successes >= power.warp_charge
    battle.emit(
        PsychicTest(
            unit=unit.label,
            power=power.name,
            target=target.label,
            warp_charge=power.warp_charge,
            rolls=rolls,
            successes=successes,
            passed=passed,
            perils=perils,
        )
    )
    if perils:
        perils_of_the_warp(battle, unit, model)
    if not passed or not model.alive:
        return
    if power.targets_enemy and deny_the_witch(battle, unit, target, power, successes):
        witch_eater(battle, unit, model, target)
        return
    if power.is_witchfire:
        witchfire(battle, unit, model, power, target)
    elif power.is_malediction:
        afflict(battle, unit.player, power.name, target)
    else:
        bless(battle, unit, model, power, target)


def nova_target(battle: Battle, unit: Unit, option: PowerOption) -> Unit:
    """The unit that stands for a Nova's targets (it hits them all): the one whose
    Deny the Witch is easiest (:func:`deny_needed`), the first such."""
    return min(option.targets, key=lambda t: deny_needed(battle, unit, t))


def manifest_chance(dice: int, warp_charge: int, harness: int) -> float:
    """The chance that ``dice`` Warp Charge dice harness at least ``warp_charge``
    points, each on ``harness`` or more (binomial)."""
    p = (7 - harness) / 6
    return sum(comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(warp_charge, dice + 1))


def deny_needed(battle: Battle, caster: Unit, target: Unit) -> int:
    """The score a Deny the Witch die needs against a power aimed at ``target``.

    7th edition: 6+, improved by 1 with Adamantium Will, by 1 if the target
    unit contains a Psyker, and by 1 more if that Psyker's Mastery Level is
    higher than the manifesting Psyker's; a 1 always fails (so 2+ at best).
    """
    needed = battle.settings.integer("deny_the_witch_roll")
    if target.has_rule("Adamantium Will"):
        needed -= 1
    if is_psyker(target):
        needed -= 1
        if mastery_level(target) > mastery_level(caster):
            needed -= 1
    return max(2, needed)


def deny_the_witch(
    battle: Battle, caster: Unit, target: Unit, power: PsychicPower, successes: int
) -> bool:
    """The target's player may roll dice of his pool to deny the power: it is
    nullified when the Deny successes equal or beat the psychic test's."""
    memory = memory_of(battle)
    pool = memory.pools.get(target.player, 0)
    if pool <= 0:
        return False
    needed = deny_needed(battle, caster, target)
    memory.facing = successes
    dice = battle.decide(
        Decision(
            kind="deny_dice",
            player=target.player,
            prompt=(
                f"Deny {power.name} on {target.label}: {successes} success(es) to match, "
                f"{needed}+ per die (pool {pool})"
            ),
            choices=tuple(Choice(f"{n} dice", n) for n in range(0, pool + 1)),
            context=DecisionContext(unit=target.id, attacker=caster.id, weapon=power.name),
        )
    )
    if dice == 0:
        return False
    memory.pools[target.player] = pool - dice
    rolls = battle.dice.roll(dice, f"Deny the Witch ({power.name}, {needed}+)")
    rolls, rerolled = aegis_rerolls(battle, target, rolls)
    denied_by = sum(1 for r in rolls if r >= needed)
    denied = denied_by >= successes
    battle.emit(
        DenyTheWitch(
            unit=target.label,
            power=power.name,
            needed=needed,
            rolls=rolls,
            successes=denied_by,
            against=successes,
            denied=denied,
            rerolled=rerolled,
        )
    )
    return denied


def witchfire(battle: Battle, unit: Unit, model: Model, power: PsychicPower, target: Unit) -> None:
    """Fire the power like a weapon, with the shooting procedure's own
    :func:`attacks.fire_weapon` (To Hit with the Psyker's BS, To Wound, saves,
    allocation), then the Pinning tests it causes. A Beam hits every unit under
    its line through ``target``, a Nova every enemy unit it may target
    (:mod:`.beam_nova`)."""
    if power.is_beam or power.is_nova:
        if power.is_beam:
            line = beam_line(model, target, power.range or 0.0)
            victims = beam_units(battle, unit, model, line)
        else:
            victims = power_targets(battle, unit, model, power)
        pinning = power_hits(battle, unit, model, power, victims, WITCHFIRE_ORDERS).pinning
    else:
        firer = psyker_firing(unit, model, power)
        pinning = fire_weapon(battle, firer, target, power.name, WITCHFIRE_ORDERS).pinning
    for unit_id in sorted(pinning):
        pinning_test(battle, battle.unit(unit_id), f"pinning power of {unit.label}")


def bless(battle: Battle, unit: Unit, model: Model, power: PsychicPower, target: Unit) -> None:
    """Grant a Blessing: its special rules to the Psyker for a ``Self`` power, else to
    every model of the target unit; its weapon rules (Force: Instant Death on Force
    weapons) to the weapons of those models; until the start of the caster's next
    Psychic phase (:func:`end_blessings`)."""
    whole = power.whole_unit or power.range is not None
    models = target.alive_models if whole else [model]
    blessing = Blessing(unit.player, target.id, power.name, {})
    for blessed in models:
        new = tuple(r for r in power.rules if r not in blessed.rules)
        blessed.rules = (*blessed.rules, *new)
        blessing.granted[blessed.id] = new
        armed = _arm(blessed, power.weapon_rules)
        if armed:
            blessing.armed[blessed.id] = armed
    memory_of(battle).blessings.append(blessing)
    battle.emit(
        BlessingChanged(unit=target.label, power=power.name, rules=_effects(blessing), begins=True)
    )


def _arm(model: Model, grants: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """Give ``model``'s weapons the rules ``grants`` names; what each gained."""
    armed: list[tuple[str, str]] = []
    weapons = list(model.weapons)
    for rule, gained in grants:
        for index, weapon in enumerate(weapons):
            read = weapon_of(weapon)
            if (not rule or read.has_rule(rule)) and not read.has_rule(gained):
                weapons[index] = replace(weapon, keywords=(*weapon.keywords, gained))
                armed.append((weapon.name, gained))
    model.weapons = tuple(weapons)
    return tuple(armed)


def _disarm(model: Model, armed: tuple[tuple[str, str], ...]) -> None:
    """Take back from ``model``'s weapons the rules a Blessing gave them."""
    model.weapons = tuple(
        replace(w, keywords=tuple(k for k in w.keywords if (w.name, k) not in armed))
        if any(name == w.name for name, _ in armed)
        else w
        for w in model.weapons
    )


def _effects(blessing: Blessing) -> tuple[str, ...]:
    """What a Blessing gave, in words: its rules, and ``<rule> (<weapon>)``."""
    rules = [r for g in blessing.granted.values() for r in g]
    rules += [f"{rule} ({weapon})" for a in blessing.armed.values() for weapon, rule in a]
    return tuple(dict.fromkeys([*rules, *blessing.notes]))


def end_blessings(battle: Battle, player: str) -> None:
    """Take away what ``player``'s Blessings gave: they last "until the start of
    your next Psychic phase"."""
    memory = memory_of(battle)
    ending = [b for b in memory.blessings if b.player == player]
    memory.blessings = [b for b in memory.blessings if b.player != player]
    for blessing in ending:
        unit = battle.unit(blessing.unit)
        for blessed in unit.models:
            lost = blessing.granted.get(blessed.id, ())
            blessed.rules = tuple(r for r in blessed.rules if r not in lost)
            _disarm(blessed, blessing.armed.get(blessed.id, ()))
            if blessed.id in blessing.profiles:
                blessed.profile = blessing.profiles[blessed.id]
        battle.emit(
            BlessingChanged(
                unit=unit.label, power=blessing.power, rules=_effects(blessing), begins=False
            )
        )


PSYCHIC = Phase(
    "psychic",
    begin=_begin,
    picks=Picks(
        "psyker",
        "Select a Psyker to manifest psychic powers, or end the phase",
        _psykers,
        manifest_powers,
    ),
    end=_end,
)
"""7th edition: "After the move phase is the new psychic phase"; the player's
Psykers manifest powers one unit after another until the player ends it."""
