"""7th-edition challenges in the Waffle Edition's fight sub-phase, and the
Champion of Chaos special rule on top of them.

The seeds' fight sub-phase is the 6th/7th-edition one; challenges are the
7th-edition rule it builds on: at the start of a combat's fight, the player
whose turn it is, then the other, may issue a challenge with one Character in
the combat able to fight (engaged, or within a Pile In of an enemy model); the
foe accepts with one of its Characters able to fight or refuses, and then the
issuer picks one enemy Character that may not attack that round, nor lend its
Leadership to its unit for the rest of the phase; a unit of one Character may
not refuse (Heroic Stand, :func:`may_refuse`). The two
models of an accepted challenge strike only each other (both of them, whether
or not in base contact), no other blow may be
allocated to them (the one slain, further wounds on it are lost), and the
challenge goes on in later rounds until one of them is slain (or the combat no
longer holds them both).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from hammerlab.editions.waffle.chaos_boons import d66, gain_boon
from hammerlab.editions.waffle.combat import engaged_models
from hammerlab.editions.waffle.placement import EPSILON, PILE_IN
from hammerlab.editions.waffle.profiles import stats_of
from hammerlab.editions.waffle.special_rules import is_independent_character, model_has
from hammerlab.editions.waffle.state import state_of
from hammerlab.editions.waffle.vehicles import fights_in_melee
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.events import Event
from hammerlab.engine.geometry import base_distance
from hammerlab.engine.units import Model, Unit

CHAMPION = "Champion of Chaos"
Fighter = tuple[Unit, Model]
"""A Character and its unit."""


@dataclass(frozen=True)
class ChallengeIssued(Event):
    """A Character issued a challenge, answered by ``accepted_by`` (a model id) or
    refused (``accepted_by`` empty), ``barred`` then not attacking this round."""

    kind: ClassVar[str] = "challenge"
    player: str
    model: str
    accepted_by: str
    barred: str

    @property
    def text(self) -> str:
        answer = f"accepted by {self.accepted_by}" if self.accepted_by else "refused"
        barred = f"; {self.barred} may not attack" if self.barred else ""
        return f"{self.player}: {self.model} issues a challenge, {answer}{barred}"


@dataclass(frozen=True)
class ChaosBoonRolled(Event):
    """A Champion of Chaos slew an enemy Character in a challenge: its D66 on
    the Chaos Boon table (what it gives: :class:`chaos_boons.ChaosBoonGained`)."""

    kind: ClassVar[str] = "chaos boon"
    model: str
    slain: str
    roll: int

    @property
    def text(self) -> str:
        return f"{self.model} slew {self.slain} in a challenge: Chaos Boon roll {self.roll}"


@dataclass(frozen=True)
class ExcessWoundsCounted(Event):
    """Wounds left over on ``model``, slain in a challenge: ``unsaved`` of the
    ``wounds`` count toward its foe's combat result (``allocation.excess_wounds``)."""

    kind: ClassVar[str] = "excess wounds"
    unit: str
    model: str
    wounds: int
    unsaved: int

    @property
    def text(self) -> str:
        return (
            f"{self.unit}: {self.wounds} wound(s) beyond slain {self.model}'s last, "
            f"{self.unsaved} unsaved counted for the combat result"
        )


def is_character(unit: Unit, model: Model) -> bool:
    """7th edition: a model whose unit type says Character, or an Independent
    Character (:func:`special_rules.is_independent_character`)."""
    return stats_of(model.profile).has_type("Character") or is_independent_character(unit, model)


def characters(battle: Battle, units: Sequence[Unit], player: str) -> list[Fighter]:
    """``player``'s Characters in the combat's ``units`` that may issue or accept a
    challenge: those able to fight (:func:`can_fight`)."""
    return [
        (u, m)
        for u in units
        if u.player == player and not u.destroyed
        for m in u.alive_models
        if is_character(u, m) and can_fight(battle, u, m, units)
    ]


def can_fight(battle: Battle, unit: Unit, model: Model, units: Sequence[Unit]) -> bool:
    """Whether ``model`` of ``unit`` is able to fight in the combat of ``units``, as
    the 6th/7th-edition rule asks of a Character that issues or accepts a challenge:
    it strikes blows (not a vehicle without a Weapon Skill,
    :func:`vehicles.fights_in_melee`) and is engaged (:func:`combat.engaged_models`)
    or able to Pile In into base contact: within 3" of an enemy model of the combat
    (``placement.PILE_IN``)."""
    if not fights_in_melee(model):
        return False
    if model in engaged_models(battle, unit):
        return True
    enemies = [e for u in units if u.player != unit.player for e in u.alive_models]
    return any(base_distance(model, e) <= PILE_IN + EPSILON for e in enemies)


def champions(fighters: Sequence[Fighter]) -> list[Fighter]:
    """Champion of Chaos (Codex: Chaos Space Marines): "must always issue and
    accept a challenge whenever possible" — the Characters of ``fighters`` the
    choice is narrowed to, when there are any."""
    return [(u, m) for u, m in fighters if model_has(u, m, CHAMPION)]


def may_refuse(unit: Unit) -> bool:
    """Whether a Character of ``unit`` may refuse a challenge. 6th-edition rulebook
    p. 64, Heroic Stand (kept by the 7th, p. 101, as remembered and as the rules
    discussions quote it: h2lat40k.blogspot.com/2012/08/refusing-challenge-heroic-stand.html,
    creativetwilight.com/40k-7th-quiz-characters): "A unit that consists of only
    a single character cannot refuse a challenge. He's got nowhere to hide." The
    unit as it stands: one model alive."""
    return len(unit.alive_models) > 1


def open_challenges(battle: Battle, units: Sequence[Unit], player: str) -> None:
    """The start of a combat's fight: a challenge goes on, or one may be issued.

    A challenge whose models are not both in the combat has ended (refusals
    were forgotten when the last fight sub-phase ended: :func:`forget_refusals`).
    The player whose turn it is (``player``) may issue first, then the other
    player (7th edition).
    """
    state = state_of(battle)
    ids = {m.id for u in units for m in u.models}
    alive = {m.id for u in units for m in u.alive_models}
    for model, foe in list(state.duels.items()):
        if model in ids and not {model, foe} <= alive:
            del state.duels[model]
    if any(model in ids for model in state.duels):
        return
    others = [p for p in dict.fromkeys(u.player for u in units) if p != player]
    for issuer in (player, *others):
        foes = [p for p in (player, *others) if p != issuer]
        if foes and _issue(battle, units, issuer, foes[0]):
            return


def _issue(battle: Battle, units: Sequence[Unit], issuer: str, foe: str) -> bool:
    """Whether ``issuer`` issues a challenge (then it is accepted or refused)."""
    mine, theirs = characters(battle, units, issuer), characters(battle, units, foe)
    if not mine or not theirs:
        return False
    forced = champions(mine)
    choices: list[Choice[Fighter | None]] = [Choice(m.id, (u, m)) for u, m in forced or mine]
    issued = battle.decide(
        Decision(
            kind="issue_challenge",
            player=issuer,
            prompt="Which Character issues a challenge?",
            choices=tuple(
                choices if forced else [Choice[Fighter | None]("no challenge", None), *choices]
            ),
            context=DecisionContext(
                models=tuple(m.id for _, m in theirs), others=tuple(u.id for u, _ in theirs)
            ),
        )
    )
    if issued is None:
        return False
    accepting = champions(theirs)
    answers: list[Choice[Fighter | None]] = [Choice(m.id, (u, m)) for u, m in accepting or theirs]
    # Heroic Stand: the Characters that may refuse (the one barred is one of them);
    # none, and there is no refusing.
    refusers = [] if accepting else [(u, m) for u, m in theirs if may_refuse(u)]
    accepted = battle.decide(
        Decision(
            kind="accept_challenge",
            player=foe,
            prompt=f"Which Character accepts {issued[1].id}'s challenge?",
            choices=tuple(
                [Choice[Fighter | None]("refuse", None), *answers] if refusers else answers
            ),
            context=DecisionContext(unit=issued[0].id, models=(issued[1].id,)),
        )
    )
    state = state_of(battle)
    if accepted is not None:
        state.duels[issued[1].id] = accepted[1].id
        state.duels[accepted[1].id] = issued[1].id
        battle.emit(ChallengeIssued(issuer, issued[1].id, accepted[1].id, ""))
        return True
    barred = refusers[0]
    if len(refusers) > 1:
        barred = battle.decide(
            Decision(
                kind="refused_character",
                player=issuer,
                prompt="Which enemy Character may not attack this round?",
                choices=tuple(Choice(m.id, (u, m)) for u, m in refusers),
                context=DecisionContext(unit=issued[0].id),
            )
        )
    state.refused.add(barred[1].id)
    battle.emit(ChallengeIssued(issuer, issued[1].id, "", barred[1].id))
    return True


def fighter(battle: Battle, unit: str, model: str) -> Fighter:
    """The Character ``model`` of the unit ``unit`` (ids, as decisions name them)."""
    of = battle.unit(unit)
    return of, next(m for m in of.models if m.id == model)


def barred(battle: Battle, model: Model) -> bool:
    """Whether ``model`` refused a challenge this round: it may not attack."""
    return model.id in state_of(battle).refused


def forget_refusals(battle: Battle) -> None:
    """The end of the fight sub-phase, the last of the Assault phase: the Characters
    barred by a refused challenge may attack again, and lend their Leadership
    (:func:`characteristics.leadership`), from the next round on."""
    state_of(battle).refused.clear()


def in_challenge(battle: Battle) -> frozenset[str]:
    """Ids of the models fighting a challenge: no other blow may wound them."""
    return frozenset(state_of(battle).duels)


def opponent(battle: Battle, model: Model, units: Sequence[Unit]) -> Fighter | None:
    """The model ``model`` fights in a challenge, among the combat's ``units``."""
    foe = state_of(battle).duels.get(model.id)
    return next(((u, m) for u in units for m in u.alive_models if m.id == foe), None)


def end_challenges(battle: Battle, units: Sequence[Unit]) -> None:
    """After the combat's fight: a challenge with a slain model is over (until
    then its survivor may strike no other model, nor be wounded by one).

    Champion of Chaos: when it slays an enemy Character in a challenge it rolls
    a D66 on the Chaos Boon table (:class:`ChaosBoonRolled`) and gains the boon
    (:func:`chaos_boons.gain_boon`). The codex: "If an enemy character dies as a
    result of multiple Wounds being allocated to it simultaneously, and one or
    more of those Wounds were caused by the champion, that champion still rolls";
    in a challenge only the champion's blows reach its foe.
    """
    duels = state_of(battle).duels
    alive = {m.id: (u, m) for u in units for m in u.alive_models}
    ids = {m.id for u in units for m in u.models}
    for model, foe in list(duels.items()):
        if model not in ids or {model, foe} <= alive.keys():
            continue
        del duels[model]
        if model in alive and model_has(*alive[model], CHAMPION):
            unit, champion = alive[model]
            roll = d66(battle, champion)
            battle.emit(ChaosBoonRolled(model, foe, roll))
            gain_boon(battle, unit, champion, roll)
