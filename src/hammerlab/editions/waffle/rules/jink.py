"""Jink (7th edition), a rule that is on by default.

7th edition (``Warhammer40K.gst``): "When a unit with any models with the Jink
special rule is selected as a target for a shooting attack, you may declare
that it will Jink. The decision must be made before any To Hit rolls have
been made. If the unit Jinks, all models in the unit with this special rule
gain a 4+ cover save until the start of their next Movement phase, but they
can only fire Snap Shots until the end of their next turn." Skimmers and Bikes
have the rule.

How it meets the seeds' reactions (``docs/rules/waffle.md``, *Jink*): seed
000 says "A unit may only use a single Reaction to Shooting per shooting
phase". Jink is declared when the unit is targeted, before any To Hit roll,
so it cannot wait for step 8 like Return Fire! and Dive for Cover; hammerlab
counts it as that phase's single Reaction to Shooting, so a unit that Jinked
neither returns fire nor dives for cover in the same phase, and a unit that
already reacted this phase may not Jink.
"""

from __future__ import annotations

from hammerlab.editions.waffle.events import ReactionDeclared
from hammerlab.editions.waffle.points import END_OF_TURN, SHOOTING_ATTACK_BEGINS, Attack
from hammerlab.editions.waffle.profiles import stats_of
from hammerlab.editions.waffle.state import st
from hammerlab.editions.waffle.vehicles import vehicle_of
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Profile
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.memo import per_makeup
from hammerlab.engine.rules import Hooks, RuleOption, RuleSettings
from hammerlab.engine.units import Unit

JINK, NO_JINK = "Jink", "no jink"


def _jinks_by_type(profile: Profile) -> bool:
    """Whether a model of ``profile`` has Jink by its unit type: 7th edition's Skimmers
    and Bikes ("Skimmers … have the Jink special rule"; so do Bikes and Jetbikes)."""
    vehicle = vehicle_of(profile)
    if vehicle is not None:
        return vehicle.has_type("Skimmer")
    return stats_of(profile).has_type("Bike")


@per_makeup
def _any_jinks_by_type(profiles: tuple[Profile, ...]) -> bool:
    """Whether a model alive of a unit has Jink by its unit type (called with the unit:
    :func:`memo.per_makeup`, asked of every target of every shooting attack)."""
    return any(_jinks_by_type(p) for p in profiles)


def may_jink(battle: Battle, unit: Unit) -> bool:
    """A unit with the rule (or a model with it) that has not Jinked already, has not
    used its Reaction to Shooting this phase and is not locked in combat.

    A model alive has Jink by its own rules, which :meth:`Unit.has_rule` reads with
    the unit's, or by its unit type (:func:`_jinks_by_type`), a fact of the unit's
    make-up (:func:`_any_jinks_by_type`): each model's profile is not read again at
    every shooting attack."""
    status = st(battle, unit)
    if status.jinking or status.reacted_this_phase or status.locked_in_combat:
        return False
    return unit.has_rule("Jink") or _any_jinks_by_type(unit)


def offer_jink(battle: Battle, attack: Attack) -> None:
    """When a unit is selected as the target of a shooting attack, before any To Hit
    roll, its controller may declare that it Jinks (:func:`jink`)."""
    target = attack.target
    if target.player == attack.shooter.player or not may_jink(battle, target):
        return
    choice = battle.decide(
        Decision(
            kind="jink",
            player=target.player,
            prompt=f"{target.label} is targeted by {attack.shooter.label}: Jink?",
            choices=(Choice(JINK, True), Choice(NO_JINK, False)),
            context=DecisionContext(unit=target.id, attacker=attack.shooter.id),
        )
    )
    if choice:
        jink(battle, target, attack.shooter)


def jink(battle: Battle, unit: Unit, attacker: Unit) -> None:
    """The unit Jinks: 4+ cover (``visibility.cover_save``) until the start of its next
    Movement phase, Snap Shots only (``snap_shots.fires_snap``) until the end of its next
    turn (the end of this one too when it is its own), and its Reaction to Shooting
    for this phase is spent. The whole unit benefits (hammerlab reads unit rules;
    a unit mixing models with and without Jink is rare)."""
    status = st(battle, unit)
    status.jinking = True
    status.jink_snap_turns = 2 if battle.active_player == unit.player else 1
    status.reacted_this_phase = True
    battle.emit(ReactionDeclared(unit=unit.label, reaction=JINK, against=attacker.label))


def jink_end_of_turn(battle: Battle, player: str) -> None:
    """At the end of ``player``'s turn: that player's Jinked units count a turn of Snap
    Shots down; the other player's units lose their Jink cover save, since their next
    Movement phase starts their turn."""
    for unit in battle.units.values():
        status = st(battle, unit)
        if unit.player == player:
            status.jink_snap_turns = max(0, status.jink_snap_turns - 1)
        else:
            status.jinking = False


def _install(hooks: Hooks, settings: RuleSettings) -> None:
    hooks.add(SHOOTING_ATTACK_BEGINS, offer_jink)
    hooks.add(END_OF_TURN, jink_end_of_turn)


JINK_RULE = RuleOption(
    name="jink",
    summary="A Skimmer, Bike or unit with Jink may Jink when targeted: 4+ cover, Snap Shots after",
    quote=(
        "If the unit Jinks, all models in the unit with this special rule gain a 4+ cover save "
        "until the start of their next Movement phase, but they can only fire Snap Shots until "
        "the end of their next turn."
    ),
    default=True,
    install=_install,
)
