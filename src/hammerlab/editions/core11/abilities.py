"""Reactive shooting, redirection and targeting limits, as data.

The WTC ruling on reactive shooting (seed 003) names four abilities and when
they trigger. The dataset (wh40kdc) gives each of them the same shape — "Once
per turn, during the Shooting phase", an ``aura-6`` scope — but not the
timing; the ruling gives the timing. A :class:`Reaction` puts the two
together, and :func:`triggers_for` turns it into a trigger listening to one of
core11's timing windows. The ruling's outcomes then follow from *when* the
windows open (``volley.py``), with no special case in the shooting code:

- "When you have been selected as a target" abilities listen to
  :data:`SELECTED_AS_TARGET`, opened before anything else, so they trigger
  for the unit first selected even if a rule then redirects the attack; what
  they trigger is held until the attacking unit has resolved its attacks, and
  lapses if it resolved none ("unless there is no other eligible target ... in
  which case there will be no reactive shooting").
- "When an enemy unit makes a ranged attack" abilities listen to
  :data:`RANGED_ATTACK`, opened only for the units actually attacked once the
  targets are final, so they "only trigger by the redirected shooting".

Reading where the ruling and the dataset are silent (see ``docs/rules/core11.md``):
the reacting unit is the ability's bearer, for itself or a friendly unit within
the ability's aura; it shoots the attacking unit as in Making Attacks (04), with
every weapon that may attack that unit; it must not be engaged; it reacts only
to the active player's units (in its opponent's Shooting phase), so reactive
shooting never chains; "once per turn" counts per player turn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from hammerlab.editions.core11.fire_control import FireControl
from hammerlab.editions.core11.positions import is_engaged, unit_distance
from hammerlab.editions.core11.profiles import best_feel_no_pain, feel_no_pain
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.core11.volley import fire
from hammerlab.editions.core11.windows import (
    AFTER_ATTACKS,
    RANGED_ATTACK,
    SELECTED_AS_TARGET,
    TARGET_ELIGIBILITY,
)
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import DecisionContext
from hammerlab.engine.timing import Occasion, Trigger, TriggerBoard
from hammerlab.engine.units import Unit
from hammerlab.io.wh40kdc_library import AbilityFacts

FactsLookup = Callable[[str, str], AbilityFacts | None]
"""(army, ability name) → what the dataset says about it, if anything."""

REACTIVE_SHOOTING = "reactive-shooting"
REDIRECTION = "redirection"

REACTION = "reaction"
"""The decision whether to use a reaction (its context's ``why`` is the reaction's
effect, :data:`REACTIVE_SHOOTING` or :data:`REDIRECTION`)."""


@dataclass(frozen=True)
class Reaction:
    """A triggered ability that reacts to an enemy unit shooting."""

    name: str
    effect: str
    """:data:`REACTIVE_SHOOTING` or :data:`REDIRECTION`."""
    window: str
    """The timing window it listens to."""
    reach: float | None = None
    """Aura in inches: it also covers friendly units this close; ``None``: the bearer only."""
    once_per_turn: bool = True
    source: str = ""
    """Where its parts come from."""


RULING_TIMINGS: dict[str, str] = {
    "Outrider Escort": SELECTED_AS_TARGET,
    "Kroot Packmates": SELECTED_AS_TARGET,
    "Guns Blazing": RANGED_ATTACK,
    "Multi-threat Eliminator": RANGED_ATTACK,
}
"""The abilities the ruling names, and the window of their timing.

"some examples would be the Invader ATV's Outrider Escort ability and the
Krootox Riders Kroot Packmates ability" (selected as a target); "abilities
like Cyphers Guns Blazing, and the Hexmark Destroyers Multi-Threat
Elimimator" (when an enemy unit makes a ranged attack).
"""

EXAMPLE_REDIRECTION = Reaction(
    name="Decoy Screen",
    effect=REDIRECTION,
    window=TARGET_ELIGIBILITY,
    reach=None,
    source="hammerlab example rule (not in the dataset): once per turn, when this unit is "
    "selected as the target of an enemy unit's ranged attacks, it is no longer an eligible "
    "target for that unit this phase; the enemy selects a new target",
)
"""A redirection ability written as data, to exercise the ruling: the dataset has
no ability that makes a selected target ineligible."""

TARGETING_LIMIT = "targeting-permission"
"""wh40kdc's effect type for "can only be selected as the target of ranged attacks
if the attacking unit is within N"" (Lone Operative)."""


def reaction_for(army: str, rule: str, facts: FactsLookup) -> Reaction | None:
    """The reaction a unit of ``army`` has through its ability ``rule``, if any."""
    if rule.lower() == EXAMPLE_REDIRECTION.name.lower():
        return EXAMPLE_REDIRECTION
    window = next((w for name, w in RULING_TIMINGS.items() if name.lower() == rule.lower()), None)
    if window is None:
        return None
    known = facts(army, rule)
    return Reaction(
        name=rule,
        effect=REACTIVE_SHOOTING,
        window=window,
        reach=known.aura_inches if known is not None else None,
        once_per_turn=known is None or known.frequency == "once-per-turn",
        source=(
            f"wh40kdc {known.ability_id}: {known.summary} Timing: the WTC ruling."
            if known is not None
            else "not in the dataset; timing from the WTC ruling"
        ),
    )


def targeting_limit(army: str, rules: Iterable[str], facts: FactsLookup) -> float | None:
    """The range within which a unit may be targeted, from a dataset ability such as
    Lone Operative ("This model can only be selected as the target of ranged
    attacks if the attacking unit is within 12"."), if it has one that holds all
    battle long (In The Shadow Of Great Wings holds "When an enemy unit is selected,
    until the end of the phase": not modelled)."""
    limits = [
        known.effect_range
        for rule in rules
        if (known := facts(army, rule)) is not None
        and known.effect_type == TARGETING_LIMIT
        and known.lasting
        and known.effect_range is not None
    ]
    return min(limits) if limits else None


def feel_no_pain_of(army: str, rules: Iterable[str], facts: FactsLookup) -> int | None:
    """The unit's Feel No Pain X+ ("Each time a model with this ability would lose a
    wound, roll one D6: on an X+, that wound is not lost."), under any name: read
    from the dataset's structured facts of each ability (Bound Creation is a Feel
    No Pain 4+; only one that holds all battle long, ``AbilityFacts.lasting``: Living
    Fortress, "Once per battle, until the end of the phase", is not modelled), else
    from an ability written ``Feel No Pain X+``."""
    values = []
    for rule in rules:
        known = facts(army, rule)
        values.append(known.feel_no_pain if known is not None else None)
        values.append(feel_no_pain([rule]))
    return best_feel_no_pain(*values)


def abilities_of(unit: Unit) -> list[str]:
    """The unit's abilities and those of its models, without repeats."""
    names = list(unit.datasheet.rules)
    for model in unit.models:
        names += [r for r in model.rules if r not in names]
    return names


def install(game: Core11Game, facts: FactsLookup) -> list[str]:
    """Register every unit's reactions on the board and note its targeting limit.

    Returns the abilities hammerlab does not model, as ``unit: ability`` lines.
    """
    unmodelled = []
    for unit in game.battle.units.values():
        reading = _reading(unit.datasheet.army, unit.rules, tuple(abilities_of(unit)), facts)
        if reading.limit is not None:
            game.target_limits[unit.id] = reading.limit
        if reading.feel_no_pain is not None:
            game.feel_no_pain[unit.id] = reading.feel_no_pain
        for reaction in reading.reactions:
            for trigger in triggers_for(game, unit, reaction):
                game.board.register(trigger)
        unmodelled += [f"{unit.label}: {rule}" for rule in reading.unmodelled]
    return unmodelled


@dataclass(frozen=True)
class _Reading:
    """What a unit's abilities give it, read from the dataset (:func:`_reading`)."""

    limit: float | None
    feel_no_pain: int | None
    reactions: tuple[Reaction, ...]
    unmodelled: tuple[str, ...]


@lru_cache(maxsize=1024)
def _reading(
    army: str, rules: tuple[str, ...], abilities: tuple[str, ...], facts: FactsLookup
) -> _Reading:
    """The targeting limit of a unit of ``army`` with ``abilities`` (its own and its
    models'), its Feel No Pain (from its unit ``rules``), its reactions and the
    abilities hammerlab does not model, in the abilities' order (cached: a pure
    reading of the dataset, the same for every battle of a scenario)."""
    reactions = []
    unmodelled = []
    for rule in abilities:
        reaction = reaction_for(army, rule, facts)
        if reaction is not None:
            reactions.append(reaction)
        elif feel_no_pain_of(army, [rule], facts) is None and not _is_limit(army, rule, facts):
            unmodelled.append(rule)
    return _Reading(
        targeting_limit(army, abilities, facts),
        feel_no_pain_of(army, rules, facts),
        tuple(reactions),
        tuple(unmodelled),
    )


def _is_limit(army: str, rule: str, facts: FactsLookup) -> bool:
    return targeting_limit(army, [rule], facts) is not None


def triggers_for(game: Core11Game, bearer: Unit, reaction: Reaction) -> list[Trigger]:
    """The trigger ``reaction`` gives ``bearer``."""
    if reaction.effect == REDIRECTION:
        return [_Redirect(game, bearer.id, reaction)]
    return [_ReactiveShooting(game, bearer.id, reaction)]


class _Listening:
    """What every reaction checks before it fires."""

    def __init__(self, game: Core11Game, bearer: str, reaction: Reaction) -> None:
        self.game = game
        self.bearer = bearer
        self.reaction = reaction

    @property
    def bearer_unit(self) -> Unit:
        return self.game.battle.unit(self.bearer)

    @property
    def name(self) -> str:
        return f"{self.reaction.name} ({self.bearer_unit.label})"

    @property
    def owner(self) -> str:
        return self.bearer_unit.player

    @property
    def window(self) -> str:
        return self.reaction.window

    def applies(self, battle: Battle, occasion: Occasion) -> bool:
        """An active-player unit acts on the bearer, or on a friendly unit in its aura;
        the bearer is on the table and has not used the ability this turn."""
        bearer = self.bearer_unit
        if bearer.destroyed or not occasion.actor or not occasion.subject:
            return False
        actor, subject = battle.unit(occasion.actor), battle.unit(occasion.subject)
        if actor.player != battle.active_player or actor.player == bearer.player:
            return False
        if subject.player != bearer.player or subject.destroyed:
            return False
        reach = self.reaction.reach
        covered = subject.id == bearer.id or (
            reach is not None and unit_distance(bearer, subject) <= reach
        )
        return covered and not self._used()

    def _used(self) -> bool:
        key = (self.bearer, self.reaction.name, self.game.turn_key)
        return self.reaction.once_per_turn and key in self.game.used

    def _use(self) -> None:
        self.game.used.add((self.bearer, self.reaction.name, self.game.turn_key))

    def _agrees(self, occasion: Occasion, prompt: str) -> bool:
        return self.game.yes_no(
            REACTION,
            self.owner,
            f"{self.name}: {prompt}",
            DecisionContext(
                unit=self.bearer,
                what=self.reaction.name,
                attacker=occasion.actor,
                why=self.reaction.effect,
            ),
        )


class _ReactiveShooting(_Listening):
    """Triggers now; the bearer shoots after the attacking unit has resolved its attacks."""

    def applies(self, battle: Battle, occasion: Occasion) -> bool:
        """As every reaction, and the bearer is not engaged: an engaged bearer could
        not shoot back, so the ability is not offered (and not used up)."""
        return super().applies(battle, occasion) and not is_engaged(battle, self.bearer_unit)

    def resolve(self, battle: Battle, occasion: Occasion, board: TriggerBoard) -> None:
        enemy = battle.unit(occasion.actor)
        if not self._agrees(occasion, f"shoot {enemy.label} after it has shot?"):
            return
        self._use()
        board.hold(
            _ReturnFire(self.game, self.name, self.owner, self.bearer, enemy.id),
            AFTER_ATTACKS,
            enemy.id,
        )


class _ReturnFire:
    """The held half of a reactive shooting ability."""

    def __init__(self, game: Core11Game, name: str, owner: str, bearer: str, enemy: str) -> None:
        self.game = game
        self.name = name
        self.owner = owner
        self.bearer = bearer
        self.enemy = enemy

    def applies(self, battle: Battle, occasion: Occasion) -> bool:
        """ "unless there is no other eligible target for attacks to be resolved against
        in which case there will be no reactive shooting": it lapses when the attacking
        unit resolved attacks against no unit; also when either unit is gone, or the
        bearer is engaged."""
        bearer, enemy = battle.unit(self.bearer), battle.unit(self.enemy)
        if not occasion.related or bearer.destroyed or enemy.destroyed:
            return False
        return not is_engaged(battle, bearer)

    def resolve(self, battle: Battle, occasion: Occasion) -> None:
        bearer = battle.unit(self.bearer)
        battle.say("reaction", f"{bearer.label} shoots back at {battle.unit(self.enemy).label}")
        fire(self.game, bearer, return_fire_control(self.enemy))


def return_fire_control(enemy: str) -> FireControl:
    """What a reactive shooting allows: the attacking unit ``enemy`` as the only
    target, outside the bearer's own Shooting phase (so no [HEAVY], 17.03)."""
    return FireControl("reactive", only_target=enemy, own_phase=False)


class _Redirect(_Listening):
    """Makes the bearer no longer an eligible target for the attacking unit this phase."""

    def applies(self, battle: Battle, occasion: Occasion) -> bool:
        return occasion.subject == self.bearer and super().applies(battle, occasion)

    def resolve(self, battle: Battle, occasion: Occasion, board: TriggerBoard) -> None:
        enemy = battle.unit(occasion.actor)
        if not self._agrees(occasion, f"make {enemy.label} select a new target?"):
            return
        self._use()
        self.game.barred.add((enemy.id, self.bearer))
        battle.say(
            "reaction",
            f"{self.bearer_unit.label} is no longer an eligible target for {enemy.label}",
        )
