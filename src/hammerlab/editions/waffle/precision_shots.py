"""Precision Shots, and the Precision Shots of Sniper weapons (7th-edition rulebook).

Precision Shots: "If a model with this special rule rolls a 6 To Hit with a
shooting weapon, that shot is a 'Precision Shot'. Wounds from Precision Shots
are allocated against a model (or models) of your choice in the target unit, as
long as it is in range and line of sight of the firer, rather than following
the normal rules for Wound allocation. … Note that Snap Shots and shots from
weapons that scatter, or do not roll To Hit, can never be Precision Shots."
Sniper: "If a weapon has the Sniper special rule, or is fired by a model with
the Sniper special rule, and rolls a 6 To Hit, that shot is a 'Precision Shot'."

A die re-rolled (twin-linked, BS6+, Preferred Enemy) that shows 6 counts.
The firer's player chooses among the target's models in range and sight of
the firing model (a ``precision_shot`` decision), the model the normal rules
would take offered first; Look Out, Sir is not modelled (no characters'
saves are). A Precision Shot's wound that no model in range and sight can
take is allocated normally.
"""

from __future__ import annotations

from hammerlab.editions.waffle.orders import WoundRoll
from hammerlab.editions.waffle.profiles import WeaponProfile
from hammerlab.editions.waffle.special_rules import model_has
from hammerlab.editions.waffle.visibility import model_sees
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Choice, Decision, DecisionContext
from hammerlab.engine.geometry import base_distance
from hammerlab.engine.units import Model, Unit

RULES = ("Precision Shots", "Sniper")


def fires_precision_shots(unit: Unit, model: Model, profile: WeaponProfile, snap: bool) -> bool:
    """Whether ``model``'s 6s To Hit with ``profile`` are Precision Shots: it has
    Precision Shots or Sniper, or the weapon is a Sniper weapon; never Snap Shots,
    and only weapons that roll To Hit (the caller's: markers never roll)."""
    if snap or profile.template or profile.blast:
        return False
    return profile.has_rule("Sniper") or any(model_has(unit, model, r) for r in RULES)


def precision_target(
    battle: Battle,
    shooter: Unit,
    wound: WoundRoll,
    profile: WeaponProfile,
    usual: Model,
    candidates: list[Model],
) -> Model:
    """The model the wound of a Precision Shot goes to: the firer's player chooses
    among the ``candidates`` (the target's models that may take wounds) in range and
    sight of the firing model (``usual``, the normal rules' model, offered first
    when it is one of them)."""
    firer = wound.source
    reach = profile.range or 0.0
    options = [
        m for m in candidates if base_distance(firer, m) <= reach and model_sees(battle, firer, m)
    ]
    if usual in options:
        options.remove(usual)
        options.insert(0, usual)
    if len(options) < 2:
        return options[0] if options else usual
    return battle.decide(
        Decision(
            kind="precision_shot",
            player=shooter.player,
            prompt=f"Precision Shot of {firer.id} ({profile.name}): which model?",
            choices=tuple(Choice(m.id, m) for m in options),
            context=DecisionContext(unit=shooter.id, weapon=profile.name),
        )
    )
