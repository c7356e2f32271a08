"""The Waffle Edition's heuristic AI: sensible defaults, documented.

- Shooter: the unit with the most expected casualties to cause first.
- Action: shoot when any target can be hurt; Suppressive Fire (when the option
  is on) against a target it would hardly kill but could break (expected
  casualties under one model, 4+ models); otherwise Run toward the enemy if
  it can, else hold.
- Target: the one with the most expected casualties.
- Weapon: the one with the most expected casualties per firing model first, so
  special weapons fire before a model's pistol could take their turn.
- Aim (blast/template): the target model with the most enemy models and the
  fewest friends around it.
- Final Shot: always.
- Reaction to Shooting: Return Fire! if it can hurt the attacker, else Dive
  for Cover if it can run, else none.
- Move: advance, except when diving for cover (nearest cover) or falling back.
"""

from __future__ import annotations

from typing import Any

from hammerlab.editions.waffle.attacks import FireOrders
from hammerlab.editions.waffle.estimate import expected_attack, expected_per_model
from hammerlab.editions.waffle.shooting import DIVE, HOLD, RETURN_FIRE, RUN, SHOOT, SUPPRESS
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Decision
from hammerlab.engine.geometry import centre_distance
from hammerlab.engine.units import Model, Unit


class WaffleAI:
    """Heuristic controller for every Waffle Edition decision."""

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """The index of the heuristic's preferred choice."""
        handler = getattr(self, f"_{decision.kind}", None)
        if handler is None:
            return 0
        index: int = handler(battle, decision)
        return index

    def _shooter(self, battle: Battle, decision: Decision[Any]) -> int:
        def value(unit: Unit | None) -> float:
            if unit is None:
                return -1.0
            return max(
                (expected_attack(battle, unit, e, FireOrders()) for e in battle.enemies_of(unit)),
                default=0.0,
            )

        values = [value(c.value) for c in decision.choices]
        return values.index(max(values))

    def _action(self, battle: Battle, decision: Decision[Any]) -> int:
        labels = decision.labels()
        unit = battle.unit(decision.context["unit"])
        if SHOOT in labels:
            best = max(
                (expected_attack(battle, unit, e, FireOrders()) for e in battle.enemies_of(unit)),
                default=0.0,
            )
            if SUPPRESS in labels and best < 1.0:
                return labels.index(SUPPRESS)
            if best > 0:
                return labels.index(SHOOT)
        return labels.index(RUN) if RUN in labels else labels.index(HOLD)

    def _target(self, battle: Battle, decision: Decision[Any]) -> int:
        unit = battle.unit(decision.context["unit"])
        values = [expected_attack(battle, unit, c.value, FireOrders()) for c in decision.choices]
        return values.index(max(values))

    def _weapon(self, battle: Battle, decision: Decision[Any]) -> int:
        unit = battle.unit(decision.context["unit"])
        target = battle.unit(decision.context["target"])
        values = [
            expected_per_model(battle, unit, target, c.value, FireOrders()) if c.value else -1.0
            for c in decision.choices
        ]
        return values.index(max(values))

    def _aim(self, battle: Battle, decision: Decision[Any]) -> int:
        unit = battle.unit(decision.context["unit"])
        friends = [m for u in battle.units_of(unit.player) for m in u.alive_models]
        foes = [m for e in battle.enemies_of(unit) for m in e.alive_models]

        def crowd(model: Model) -> float:
            near = [f for f in foes if centre_distance(f.position, model.position) <= 2.5]
            risk = [f for f in friends if centre_distance(f.position, model.position) <= 3.5]
            return len(near) - 2.0 * len(risk)

        values = [crowd(c.value) for c in decision.choices]
        return values.index(max(values))

    def _final_shot(self, battle: Battle, decision: Decision[Any]) -> int:
        return 0

    def _reaction(self, battle: Battle, decision: Decision[Any]) -> int:
        labels = decision.labels()
        unit = battle.unit(decision.context["unit"])
        attacker = battle.unit(decision.context["attacker"])
        snap = FireOrders(snap=True, purpose="return fire")
        if RETURN_FIRE in labels and expected_attack(battle, unit, attacker, snap) > 0.05:
            return labels.index(RETURN_FIRE)
        if DIVE in labels:
            return labels.index(DIVE)
        return len(labels) - 1

    def _move(self, battle: Battle, decision: Decision[Any]) -> int:
        labels = decision.labels()
        if "dives" in decision.context.get("why", ""):
            return labels.index("take cover")
        return labels.index("advance")
