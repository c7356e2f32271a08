"""The WTC ruling on reactive shooting, sentence by sentence, with the four units it names.

The reactive abilities are the wh40kdc dataset's (Outrider Escort, Kroot Packmates,
Guns Blazing, Multi-threat Eliminator); the redirection is hammerlab's example
rule ``Decoy Screen``, written as data. Player A shoots with a test gunline;
player B's units are the screen ``x`` (selected first), the far unit ``y`` and
the bearer of the reactive ability.
"""

from __future__ import annotations

from core11_kit import battle, game, gun, library_unit, place, ruleset, sheet, shooting_phase

from hammerlab.editions.core11.abilities import (
    EXAMPLE_REDIRECTION,
    REACTIVE_SHOOTING,
    reaction_for,
)
from hammerlab.editions.core11.state import Core11Game
from hammerlab.editions.core11.windows import RANGED_ATTACK, SELECTED_AS_TARGET
from hammerlab.engine.battle import Battle
from hammerlab.engine.controllers import FirstChoiceController, ScriptedController
from hammerlab.engine.decisions import Controller
from hammerlab.engine.dice import Dice
from hammerlab.engine.geometry import Vec

DECOY = EXAMPLE_REDIRECTION.name


def _setup(
    bearer: str,
    bearer_at: Vec,
    screen_rules: tuple[str, ...] = (),
    screen_at: Vec = (30, 20),
    far_at: Vec | None = (16, 18),
    picks: tuple[str, ...] = ("Screen [x]", "Far [y]"),
) -> tuple[Core11Game, Battle]:
    """Gunline ``a`` (A) at (30, 10); B's screen, far unit and the bearer."""
    units = [
        place("a", sheet("Gunline", 5, [gun("rifle", 24, "2")]), "A", (30, 10)),
        place("x", sheet("Screen", 5, rules=screen_rules), "B", screen_at),
        library_unit("bearer", bearer, "B", bearer_at),
    ]
    if far_at is not None:
        units.append(place("y", sheet("Far", 5), "B", far_at))
    script = [("shooter", "Gunline [a]"), *(("target", p) for p in picks)]
    people: dict[str, Controller] = {
        "A": ScriptedController(script, fallback=FirstChoiceController())
    }
    fight = battle(units, Dice(5), people)
    return game(fight), fight


def _timeline(fight: Battle) -> list[str]:
    """Triggers, targets and attack results, in order, as short strings."""
    out = []
    for event in fight.log.events:
        if event.kind == "trigger":
            out.append(f"{event.step}:{event.rule.split(' (')[0]}@{event.window}")  # type: ignore[attr-defined]
        elif event.kind == "target":
            out.append(f"target:{event.unit.split(' ')[0]}->{event.target.split(' ')[0]}")  # type: ignore[attr-defined]
        elif event.kind == "shots":
            out.append(f"shots:{event.unit.split(' [')[0]}->{event.target.split(' ')[0]}")  # type: ignore[attr-defined]
        elif event.kind == "decision" and event.decision == "reaction":  # type: ignore[attr-defined]
            out.append(f"reaction:{event.player}:{event.answer}")  # type: ignore[attr-defined]
    return out


def _in_order(timeline: list[str], *steps: str) -> bool:
    """Whether ``steps`` occur in ``timeline`` in this order (not necessarily adjacent)."""
    position = 0
    for step in steps:
        try:
            position = timeline.index(step, position) + 1
        except ValueError:
            return False
    return True


def test_ruling_the_named_abilities_come_from_the_dataset_with_the_ruling_timing() -> None:
    facts = ruleset().library.ability
    expected = {
        ("adeptus-astartes", "Outrider Escort"): SELECTED_AS_TARGET,
        ("tau-empire", "Kroot Packmates"): SELECTED_AS_TARGET,
        ("chaos-space-marines", "Guns Blazing"): RANGED_ATTACK,
        ("necrons", "Multi-threat Eliminator"): RANGED_ATTACK,
    }
    for (army, name), window in expected.items():
        reaction = reaction_for(army, name, facts)
        assert reaction is not None
        # The dataset gives each "once-per-turn" and an "aura-6" scope.
        assert (reaction.effect, reaction.window, reaction.reach) == (
            REACTIVE_SHOOTING,
            window,
            6.0,
        )
        assert reaction.once_per_turn and reaction.source.startswith("wh40kdc ")
    assert ruleset().find_unit("Invader ATV").rules.count("Outrider Escort") == 1


def test_ruling_selected_as_target_happens_before_anything_else_and_shoots_back_after() -> None:
    """ "When you have been selected as a target" which happens before anything else."""
    played, fight = _setup("Krootox Riders", (40, 22))
    shooting_phase(played)
    timeline = _timeline(fight)
    assert _in_order(
        timeline,
        "target:Gunline->Screen",
        "fired:Kroot Packmates@selected-as-target",
        "reaction:B:use",
        "shots:Gunline->Screen",
        "resolved:Kroot Packmates@after-attacks-resolved",
        "shots:Krootox Riders->Gunline",
    )


def test_ruling_redirected_target_reactive_shooting_still_resolves_after_the_attacks() -> None:
    """ "if a stratagem or ability would be used to make the target no longer eligible and
    a new target is chosen, the reactive shooting will still be resolved after the unit
    making the attacks has resolved their attacks"."""
    played, fight = _setup("Invader ATV", (40, 22), screen_rules=(DECOY,))
    shooting_phase(played)
    timeline = _timeline(fight)
    assert _in_order(
        timeline,
        "target:Gunline->Screen",
        "fired:Outrider Escort@selected-as-target",  # before the redirection...
        "fired:Decoy Screen@target-eligibility",  # ...which makes Screen ineligible
        "target:Gunline->Far",  # a new target is chosen
        "shots:Gunline->Far",
        "resolved:Outrider Escort@after-attacks-resolved",
        "shots:Invader ATV->Gunline",
    )
    assert "shots:Gunline->Screen" not in timeline


def test_ruling_no_other_eligible_target_means_no_reactive_shooting() -> None:
    """ "unless there is no other eligible target for attacks to be resolved against in
    which case there will be no reactive shooting"."""
    # Screen 22" away is the only unit in the gunline's 24"; the Krootox behind it is not.
    played, fight = _setup(
        "Krootox Riders", (38, 37), screen_rules=(DECOY,), screen_at=(30, 32), far_at=None
    )
    shooting_phase(played)
    timeline = _timeline(fight)
    assert _in_order(
        timeline,
        "fired:Kroot Packmates@selected-as-target",
        "fired:Decoy Screen@target-eligibility",
        "lapsed:Kroot Packmates@after-attacks-resolved",
    )
    assert not [t for t in timeline if t.startswith("shots:")]


def test_ruling_ranged_attack_timing_does_not_trigger_for_the_original_target() -> None:
    """ "abilities like Cyphers Guns Blazing ... will only trigger by the redirected
    shooting": Cypher covers the screen, but the gunline is redirected to Far."""
    played, fight = _setup("Cypher", (39, 18), screen_rules=(DECOY,))
    shooting_phase(played)
    timeline = _timeline(fight)
    assert _in_order(timeline, "fired:Decoy Screen@target-eligibility", "shots:Gunline->Far")
    assert not [t for t in timeline if "Guns Blazing" in t]


def test_ruling_ranged_attack_timing_triggers_without_redirection() -> None:
    """ "When an enemy unit makes a ranged attack": after targets are final."""
    played, fight = _setup("Cypher", (39, 18))
    shooting_phase(played)
    assert _in_order(
        _timeline(fight),
        "target:Gunline->Screen",
        "fired:Guns Blazing@ranged-attack",
        "shots:Gunline->Screen",
        "resolved:Guns Blazing@after-attacks-resolved",
        "shots:Cypher->Gunline",
    )


def test_ruling_ranged_attack_timing_triggers_for_the_redirected_target() -> None:
    """The Hexmark Destroyer covers Far, not the screen first selected: its
    Multi-threat Eliminator triggers only because the shooting was redirected to Far."""
    played, fight = _setup("Hexmark Destroyer", (18, 23), screen_rules=(DECOY,))
    shooting_phase(played)
    timeline = _timeline(fight)
    assert _in_order(
        timeline,
        "target:Gunline->Screen",
        "fired:Decoy Screen@target-eligibility",
        "target:Gunline->Far",
        "fired:Multi-threat Eliminator@ranged-attack",
        "shots:Gunline->Far",
        "resolved:Multi-threat Eliminator@after-attacks-resolved",
        "shots:Hexmark Destroyer->Gunline",
    )


def test_ruling_abilities_are_once_per_turn_and_may_be_declined() -> None:
    played, fight = _setup("Krootox Riders", (40, 22))
    fight.units["a2"] = place("a2", sheet("Second", 5, [gun("rifle", 24, "1")]), "A", (22, 10))
    fight.controllers["A"] = FirstChoiceController()
    shooting_phase(played)
    fired = [t for t in _timeline(fight) if t.startswith("fired:Kroot")]
    assert len(fired) == 1  # the second gunline's attack finds it used this turn
    declined, again = _setup("Krootox Riders", (40, 22))
    again.controllers["B"] = ScriptedController([("reaction", "decline")])
    shooting_phase(declined)
    timeline = _timeline(again)
    assert "reaction:B:decline" in timeline
    assert not [t for t in timeline if t.startswith("shots:Krootox")]


def test_ruling_redirection_is_data_the_board_registers_from_unit_rules() -> None:
    played, _ = _setup("Krootox Riders", (40, 22), screen_rules=(DECOY,))
    names = [t.name for t in played.board.triggers]
    assert "Decoy Screen (Screen [x])" in names
    assert "Kroot Packmates (Krootox Riders [bearer])" in names
    assert EXAMPLE_REDIRECTION.window == "target-eligibility"
