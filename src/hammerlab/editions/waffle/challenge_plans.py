"""What the Waffle AI weighs a challenge by (7th edition, :mod:`challenges`): one round
of a Character's blows (:func:`duel_value`), and what each answer to a challenge is
worth to the issuer's side against the round fought without one."""

from __future__ import annotations

from hammerlab.editions.waffle.challenges import Fighter, champions, may_refuse
from hammerlab.editions.waffle.expected import alone, expected_melee
from hammerlab.engine.battle import Battle
from hammerlab.engine.units import Unit


def duel_value(battle: Battle, character: Fighter, foe: Unit) -> float:
    """Expected casualties one round of ``character``'s blows cause ``foe``
    (:func:`expected.expected_melee`): how a challenge is weighed."""
    unit, model = character
    return expected_melee(battle, unit, [model], foe, unit.status.charged)


def challenge_worth(battle: Battle, issuer: Fighter, acceptor: Fighter) -> float:
    """What ``acceptor`` taking up ``issuer``'s challenge is worth to the issuer's side
    in the round, in models (the enemy's slain less its own), against the round fought
    without a challenge.

    7th edition (:mod:`challenges`): the two "strike only each other", and no other
    blow may be allocated to them; wounds beyond the one slain are lost. So each
    Character's blows are read against the other alone (:func:`expected.alone`: at
    most the one model, at its own Weapon Skill, Toughness and save), in place of
    against the other's unit, where they would fall without a challenge. A Boss Nob's
    four Big choppa blows would slay 2.2 Guardsmen; in a challenge they slay the
    Sergeant, one model at most, and the excess is lost."""
    (issuer_unit, issuer_model), (acceptor_unit, acceptor_model) = issuer, acceptor
    dealt = duel_value(battle, issuer, alone(acceptor_unit, acceptor_model))
    taken = duel_value(battle, acceptor, alone(issuer_unit, issuer_model))
    dealt -= duel_value(battle, issuer, acceptor_unit)
    taken -= duel_value(battle, acceptor, issuer_unit)
    return dealt - taken


def refusal_worth(battle: Battle, issuer: Fighter, refusers: list[Fighter]) -> float:
    """What a refusal of ``issuer``'s challenge is worth to the issuer's side, against
    the round fought without a challenge: the Character barred (of ``refusers``, the
    one the issuer would bar: :meth:`ai.WaffleAI._refused_character`, the one expected to
    do most to its unit) "may not attack"; the challenger strikes the unit all the
    same, as it would without a challenge."""
    return max(duel_value(battle, c, issuer[0]) for c in refusers)


def answers_worth(battle: Battle, issuer: Fighter, foes: list[Fighter]) -> list[float]:
    """What each answer the enemy may give ``issuer``'s challenge is worth to the
    issuer's side (:func:`challenge_worth`, :func:`refusal_worth`): accepting with any
    of ``foes`` (its Characters able to, only its Champions of Chaos where it has
    any: :func:`challenges.champions`), or refusing where one of them may
    (:func:`challenges.may_refuse`) and no Champion must accept."""
    forced = champions(foes)
    worths = [challenge_worth(battle, issuer, foe) for foe in forced or foes]
    refusers = [] if forced else [f for f in foes if may_refuse(f[0])]
    if refusers:
        worths.append(refusal_worth(battle, issuer, refusers))
    return worths
