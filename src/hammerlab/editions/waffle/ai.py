"""The Waffle Edition's heuristic AI: one method per decision kind.

Every estimate comes from the rules' own functions (:mod:`expected`,
:mod:`plans`); every heuristic weighs what each choice is expected to gain
or cost, in models. ``docs/ai.md`` gives each heuristic with the situation it
is for and the numbers measured over ``examples/matchups/``.

- Shooter: the unit with the most to gain (shooting, or the charge it keeps) first.
- Action (:func:`shooting_plans.shooting_plan`): the best of shooting a target with every
  weapon (and charging it after, if that is still allowed), shooting it with
  only the weapons that keep the charge open and then charging it (seed 004:
  "a unit that fired … can only charge the unit that it targeted"), or
  holding its fire to charge any target. A unit with a charge worth declaring
  never Runs. Suppressive Fire when :func:`plans.suppression_value` beats
  the plan. Run only when there is nothing to shoot and no charge worth
  declaring now, and the unit wants to close in (it would win a fight with
  an enemy unit, in models weighed by the victory condition, or its guns
  reach no target), and the Run pays: the enemy charge it walks into next
  turn costs no more than it adds to the unit's own
  (:func:`move_plans.run_pays`; for some distance it may roll, and with the
  distance rolled it goes only if that one pays, else it stays put); else
  hold. A unit that retreated this turn never Runs
  toward the enemy: it Runs on toward its edge while the retreat rule still
  holds and it is not at that edge already (:meth:`WaffleAI._runs`).
- Target: the plan's target (the one it means to charge), else the most
  expected casualties. A unit locked in combat (option
  ``shooting_into_combat``) only when the expected enemy casualties are at
  least :data:`shooting_plans.MELEE_RISK_RATIO` times the friendly ones its rolls
  of 1-2 cause.
- Melee stray: its own unit that would lose the fewest models, or the other
  player's unit that would lose the most.
- Weapon: one that no other is expected to slay more fired before, each pair
  weighed both ways, the second at what the first leaves of the target
  (:func:`shooting_plans.weapon_first`: a long gun that slays the only models a shorter one
  reaches is fired after it); of those the most expected casualties per firing
  model first; a unit keeping
  its charge open never fires a weapon that would forbid it; none that cannot
  hurt the target, nor a blast or template whose aim puts more of its own
  models at risk than enemy ones (:func:`shooting_plans.weapon_worth`): it stops instead.
- Weapon Destroyed (the attacker picks the vehicle's weapon): the one whose
  loss costs the vehicle's shooting most, what one weapon of that name is
  expected to slay of the attacker's side now (:func:`shooting_plans.weapon_loss`).
- Aim (blast/template): the target model with the most enemy models and the
  fewest friends around it.
- Final Shot, Final Blow, Sweeping Advance: always (each only adds attacks,
  and a Sweeping Advance is offered only to a unit with nothing left to fight).
- Reaction to Shooting: Return Fire! when it can hurt the attacker at all and
  that is worth no less than diving; Dive for Cover only when the casualties going
  to ground saves against the enemy units still to shoot this phase exceed
  what it costs (its next turn's move, charge and full shooting:
  :func:`plans.next_turn_value`).
- Jink: when the casualties its 4+ cover save spares this phase exceed what
  Snap Shots take from its shooting next turn (:func:`jink_plans.wants_to_jink`).
- Disembark: when the unit could then charge an enemy, or shoot one from where
  it is set down with a weapon that fires in full there
  (:func:`transport_plans.wants_to_disembark`), else stay aboard, where no one
  can shoot it. Embark: never (staying out is the first choice).
- Move: advance, except when diving for cover (nearest cover), and in the
  movement phase a unit whose Heavy/Ordnance weapons can already hurt an
  enemy holds still (unless Relentless) when a move is worth less to its
  shooting over two turns (:func:`move_plans.holds_for_its_guns`), and one
  that an enemy's charge
  next turn is expected to cost more (in a fight it would lose) than its own
  best charge would gain retreats (:func:`move_plans.wants_to_retreat`). A
  unit that would advance (or Run) across difficult terrain to a charge that
  would cost it the first blows, worth more than the detour under fire, goes
  round the terrain (``flank``: :func:`move_plans.wants_to_flank`).
- Charger and charge target: the best :func:`plans.charge_or_be_charged`
  (chance to reach times the fight's edge and the enemy charge it
  forestalls, less the Overwatch it will take); none when no value is positive.
- Reaction to Charge (:func:`reaction_plans.charge_reaction_costs`): Fall Back only when
  fleeing is expected to cost fewer models than staying (fleeing counts the
  fight it only postpones and the shooting it stands in the open to), and
  never when the Fall Back roll could take it off its own table edge while
  it could hold; else Fire Overwatch when it can hurt the charger, else none.
- Fiery Charge: when its expected casualties exceed those of the bonus
  Attacks it costs (parameter ``fiery_charge.lost_bonus_attacks``).
- Melee weapon: the most expected casualties (Attacks times blow value)
  against the best enemy unit in base contact.
- Melee target: the most expected casualties per blow; on a tie the unit
  with the fewest models left.
- Consolidate: advance (toward the nearest enemy, 1" short).

The values count only what the game still plays (:mod:`hammerlab.editions.schedule`):
no charge after a Shooting phase when the turn has no Assault phase, nothing of
a next turn for a side that has none, no enemy shooting or charge to come when
the enemy has no such phase left.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any

from hammerlab.editions.schedule import heeding_the_end
from hammerlab.editions.waffle.assault_results import SWEEP
from hammerlab.editions.waffle.challenge_plans import (
    answers_worth,
    challenge_worth,
    duel_value,
    refusal_worth,
)
from hammerlab.editions.waffle.challenges import Fighter, fighter, may_refuse
from hammerlab.editions.waffle.charge import (
    END_CHARGES,
    NO_REACTION,
    charge_bonus_attacks,
    charge_targets,
)
from hammerlab.editions.waffle.combat import engaged_models, foes_in_contact
from hammerlab.editions.waffle.deep_strike import landing_values
from hammerlab.editions.waffle.expected import (
    PLAIN_ORDERS,
    aim_values,
    best_melee_weapon,
    blow_value,
    expected_attack,
    expected_casualties,
)
from hammerlab.editions.waffle.fight import attacks_of, melee_options
from hammerlab.editions.waffle.flank import FLANK
from hammerlab.editions.waffle.flyers import is_zooming
from hammerlab.editions.waffle.jink_plans import wants_to_jink
from hammerlab.editions.waffle.melee_grenades import may_attack
from hammerlab.editions.waffle.move_plans import (
    dive_cost,
    drives_off,
    escaping_only,
    holds_for_its_guns,
    run_intent,
    run_nearer,
    run_pays,
    runs_paying,
    shot_down_on_the_way,
    wants_to_flank,
    wants_to_retreat,
    wants_to_run,
)
from hammerlab.editions.waffle.movement import RETREAT, RUNS, run_distances
from hammerlab.editions.waffle.orders import orders_against
from hammerlab.editions.waffle.outflank import edge_of, entry_shifts
from hammerlab.editions.waffle.placement import EPSILON
from hammerlab.editions.waffle.plans import (
    charge_gain,
    charge_keeping_weapons,
    charge_or_be_charged,
    edge_gap,
    suppression_value,
)
from hammerlab.editions.waffle.points import worth_of
from hammerlab.editions.waffle.profiles import WeaponProfile, weapon_of
from hammerlab.editions.waffle.psychic_ai import PsychicChoices
from hammerlab.editions.waffle.reaction_plans import charge_reaction_bounds, dive_bounds
from hammerlab.editions.waffle.reserves import waiting_unit
from hammerlab.editions.waffle.rules.fiery_charge import (
    FIERY,
    FIERY_ORDERS,
    LOST_BONUS,
    NO_FIERY,
)
from hammerlab.editions.waffle.rules.fiery_charge import NAME as FIERY_CHARGE
from hammerlab.editions.waffle.rules.jink import JINK, NO_JINK
from hammerlab.editions.waffle.rules.reactions import (
    DIVE,
    FALL_BACK,
    OVERWATCH,
    RETURN_FIRE,
    RETURN_FIRE_ORDERS,
    overwatch_orders,
)
from hammerlab.editions.waffle.rules.suppressive_fire import SUPPRESS
from hammerlab.editions.waffle.scatter_plans import scatter_worth
from hammerlab.editions.waffle.scout import closing_value
from hammerlab.editions.waffle.shooting import HOLD, RUN, SHOOT
from hammerlab.editions.waffle.shooting_plans import (
    ShotPlan,
    shooting_plan,
    target_value,
    weapon_first,
    weapon_loss,
    weapon_worth,
)
from hammerlab.editions.waffle.state import st, state_of
from hammerlab.editions.waffle.tank_shock_plans import death_or_glory_choice, tank_shock_choice
from hammerlab.editions.waffle.transport_plans import wants_to_disembark
from hammerlab.editions.waffle.transports import DISEMBARK, STAY_ABOARD
from hammerlab.editions.waffle.victory_worth import model_worth, weighing_for
from hammerlab.editions.waffle.zoom_plans import zoom_intent
from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Decision, DecisionContext
from hammerlab.engine.memo import decision_scope, state_of_play
from hammerlab.engine.transpositions import (
    Transpositions,
    digest,
    portable,
    position_key,
    remembering,
)
from hammerlab.engine.units import Model, Unit


def _offered(labels: list[str], *preferences: str) -> int:
    """The index of the first of ``preferences`` that ``labels`` offers, else 0: a
    decision may offer fewer intents than the AI would pick from (a Zooming
    Flyer's, or one asked again without a choice, :class:`choices.Declining`)."""
    for preference in preferences:
        if preference in labels:
            return labels.index(preference)
    return 0


def _asked_model(battle: Battle, decision: Decision[Any]) -> tuple[Unit, Model]:
    """The unit of a decision and the first of the models it is about."""
    unit = battle.unit(decision.context.unit)
    first = decision.context.models[0]
    return unit, next(m for m in unit.models if m.id == first)


def _best(values: list[float]) -> int:
    return values.index(max(values))


_context_of = attrgetter(*(f.name for f in fields(DecisionContext)))
"""A decision's context as plain data (ids and words only)."""

_NAMES: dict[type, str] = {}
"""Each AI class's full name, as :meth:`WaffleAI.choose` keys its answers (spelled once)."""

PortablePlan = tuple[str | None, bool, float]
"""A :class:`shooting_plans.ShotPlan` as it reads in any battle: its target by id."""

ANSWERS: Transpositions[tuple[int, PortablePlan | None]] = Transpositions()
"""Every :class:`WaffleAI`'s answers by position (:mod:`engine.transpositions`), with
the plan the answer made where it made one: shared by the battles a process
plays, such as the lab's and a sweep's thousands of one scenario, whose
positions recur (not the search's look-ahead, which runs
:func:`~engine.transpositions.unremembered`)."""


def _portable_plan(plan: ShotPlan | None) -> PortablePlan | None:
    if plan is None:
        return None
    return (None if plan.target is None else plan.target.id, plan.keep_charge, plan.value)


def _plan_in(battle: Battle, plan: PortablePlan) -> ShotPlan:
    target, keep_charge, value = plan
    return ShotPlan(None if target is None else battle.unit(target), keep_charge, value)


_KEPT_ITS_OWN_WAY = ("__slots__", "__getstate__", "__setstate__", "__reduce__", "__reduce_ex__")
"""What a subclass of :class:`WaffleAI` declares when it keeps or copies itself its own way
(:meth:`WaffleAI.__init_subclass__`)."""


class WaffleAI(PsychicChoices):
    """Heuristic controller for every Waffle Edition decision.

    It remembers the shooting plan chosen with a unit's action, for that
    battle, game turn, player's turn and unit only, so that the target and
    weapon decisions of that shooting attack carry it out (and no Return
    Fire! in the other player's turn reads it): one activation's decisions,
    asked one after another. Which units retreated in this turn's Movement
    phase (:meth:`_runs`) it reads off the battle's state
    (``WaffleStatus.retreated``), not its own memory, so a ``Game.clone()``,
    a fresh AI (the search's copies) and a game loaded from its decisions
    all know it.
    """

    def __init__(
        self,
        finish_units: bool = True,
        heeds_the_end: bool = True,
        escapes_only: bool = True,
        weighs_the_move: bool = True,
        weighs_the_order: bool = True,
    ) -> None:
        self._plans: dict[tuple[int, int, str, str], ShotPlan] = {}
        self.finish_units = finish_units
        """Whether an enemy model is worth its share of what is left of its unit's
        kill point (:func:`victory_worth.model_worth`), or, ``False``, its
        starting share, as the heuristic weighed it until branch ``issue9-finish``
        (``examples/matchups/lever_head_to_head.py finish_units`` plays one against the other)."""
        self.heeds_the_end = heeds_the_end
        """Whether it counts only the turns and phases the game still plays
        (:mod:`hammerlab.editions.schedule`), or, ``False``, takes every game to
        go on, as the heuristic did until branch ``issue9-end``
        (``examples/matchups/lever_head_to_head.py heeds_the_end`` plays one against the other)."""
        self.escapes_only = escapes_only
        """Whether a retreat weighs only the charges it can escape rather than put off
        (:func:`move_plans.retreat_escapes`), or, ``False``, every charge, as until
        branch ``issue9-declines`` (``examples/matchups/lever_head_to_head.py
        escapes_only`` plays one against the other)."""
        self.weighs_the_move = weighs_the_move
        """Whether a unit with Heavy weapons in range holds only when a move costs its
        shooting more than it brings (:func:`move_plans.holds_for_its_guns`), or,
        ``False``, whenever one of them reaches a target, as until branch
        ``issue9-gun-line`` (``examples/matchups/decision_duel.py --lever
        weighs_the_move`` and ``lever_head_to_head.py weighs_the_move`` play one
        against the other)."""
        self.weighs_the_order = weighs_the_order
        """Whether a unit weighs the order of its weapons pair by pair, the second at
        what the first leaves of the target (:func:`shooting_plans.weapon_first`), or,
        ``False``, fires the most expected casualties per firing model first, as until
        branch ``s23-sense`` (``examples/matchups/lever_head_to_head.py
        weighs_the_order`` plays one against the other)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass that declares how it is kept or copied (``__slots__``,
        ``__getstate__``, ``__setstate__``, ``__reduce__``, ``__reduce_ex__``) and no
        ``__deepcopy__`` of its own is deep-copied by ``copy.deepcopy``'s own way, which
        honours them: :meth:`__deepcopy__` copies the ``__dict__`` alone (a review's
        finding, twenty-sixth session: a subclass's slot was lost, and a cache its
        ``__getstate__`` leaves out went from one battle of a batch to the next)."""
        super().__init_subclass__(**kwargs)
        own = vars(cls)
        if "__deepcopy__" not in own and any(name in own for name in _KEPT_ITS_OWN_WAY):
            type.__setattr__(cls, "__deepcopy__", None)  # copy.deepcopy: no copier, reduce

    def __deepcopy__(self, memo: dict[int, Any]) -> WaffleAI:
        """The copy ``copy.deepcopy`` makes (of its class, made without ``__init__``,
        each attribute deep-copied with ``memo``: the plans' units given as the copied
        battle's), made without its ``__reduce_ex__`` round: a batch's every battle
        copies its AI (``PreparedBattle.again``), and that round was some 60,000
        instructions, the attributes' copies a few thousand (docs/scale.md,
        twenty-sixth session); a boolean (a lever) is itself, as ``copy.deepcopy``
        gives it, without that call. The attributes are set in the order they stand in,
        ``__init__``'s, so the copy's dictionary shares its keys with its class's
        other instances, as one made by ``__init__``. A subclass that keeps anything
        outside its ``__dict__`` or copies itself its own way (:meth:`__init_subclass__`)
        is copied as ``copy.deepcopy`` copies any object."""
        twin = object.__new__(type(self))
        memo[id(self)] = twin
        for name, value in vars(self).items():
            kept = value if type(value) is bool else copy.deepcopy(value, memo)
            object.__setattr__(twin, name, kept)
        return twin

    answers_by_position = True
    """Whether :meth:`choose` gives an answer found in :data:`ANSWERS` (a subclass
    that remembers more of a game than the shot plans sets it ``False``)."""

    @staticmethod
    def _key(battle: Battle, unit: Unit) -> tuple[int, int, str, str]:
        return (id(battle), battle.turn, battle.active_player, unit.id)

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """The index of the heuristic's preferred choice.

        An answer given before in the same position (:data:`ANSWERS`: any battle
        of this process, to this decision, by an AI of the same kind and levers,
        with the same plan for the unit) is given again, and the plan it made
        made again; the answer is a function of them alone, so it is the one
        the heuristic would work out afresh."""
        kind = type(self)
        if decision.kind not in answered_kinds(kind):
            return 0  # a plug-in's own decision: its first choice (docs/plugins.md)
        if not self.answers_by_position or not remembering():
            return self._answer(battle, decision, getattr(self, f"_{decision.kind}"))
        unit = decision.context.unit
        plan_key = self._key(battle, battle.unit(unit)) if unit in battle.units else None
        before = self._plans.get(plan_key) if plan_key is not None else None
        key = digest(
            (
                position_key(battle),
                _NAMES.get(kind)
                or _NAMES.setdefault(kind, f"{kind.__module__}.{kind.__qualname__}"),
                (
                    self.finish_units,
                    self.heeds_the_end,
                    self.escapes_only,
                    self.weighs_the_move,
                    self.weighs_the_order,
                ),
                decision.kind,
                decision.player,
                _context_of(decision.context),
                tuple([(c.label, portable(c.value)) for c in decision.choices]),
                _portable_plan(before),
            )
        )
        known = ANSWERS.get(key)
        if known is not None:
            index, made = known
            if plan_key is not None and made is not None:
                self._plans[plan_key] = _plan_in(battle, made)
            return index
        index = self._answer(battle, decision, getattr(self, f"_{decision.kind}"))
        after = self._plans.get(plan_key) if plan_key is not None else None
        ANSWERS.put(key, (index, None if after is before else _portable_plan(after)))
        return index

    def _answer(self, battle: Battle, decision: Decision[Any], handler: Callable[..., int]) -> int:
        """The heuristic's answer, worked out."""
        viewer = decision.player if self.finish_units else None
        heeded, escapes = self.heeds_the_end, self.escapes_only
        # The worth of a model depends on who weighs it, the turns to come on
        # whether the end is heeded, a retreat on the charges it weighs, so their
        # answers are kept apart.
        with (
            weighing_for(viewer),
            heeding_the_end(heeded),
            escaping_only(escapes),
            decision_scope((viewer, heeded, escapes, state_of_play(battle))),
        ):
            index: int = handler(battle, decision)
        return index

    def _plan_of(self, battle: Battle, unit: Unit) -> ShotPlan | None:
        return self._plans.get(self._key(battle, unit))

    def _shooter(self, battle: Battle, decision: Decision[Any]) -> int:
        def value(unit: Unit | None) -> float:
            return -1.0 if unit is None else shooting_plan(battle, unit).value

        return _best([value(c.value) for c in decision.choices])

    def _action(self, battle: Battle, decision: Decision[Any]) -> int:
        labels = decision.labels()
        unit = battle.unit(decision.context.unit)
        plan = shooting_plan(battle, unit)
        if not plan.keep_charge:
            taken = self._other_action(battle, decision, unit, plan)
            if taken is not None:
                return taken
        self._plans[self._key(battle, unit)] = plan
        if plan.target is not None and SHOOT in labels:
            return labels.index(SHOOT)
        if plan.value <= 0 and RUN in labels and self._runs(battle, unit):
            return labels.index(RUN)
        return _offered(labels, HOLD, RUN)

    def _other_action(
        self, battle: Battle, decision: Decision[Any], unit: Unit, plan: ShotPlan
    ) -> int | None:
        """The action other than shooting (Suppressive Fire, or a plug-in's that gives
        its worth: :class:`points.Weighed`) worth more than the shooting ``plan``,
        if one is; its target is remembered as the plan for the target decision.
        Only where the plan keeps no charge: these actions' worth counts none."""
        best: tuple[float, int, Unit] | None = None
        for index, choice in enumerate(decision.choices):
            if not isinstance(choice.value, tuple):
                continue
            action, targets = choice.value
            for target in targets:
                if choice.label == SUPPRESS:
                    value: float | None = suppression_value(battle, unit, target)
                else:
                    value = worth_of(action, battle, unit, target)
                if value is not None and value > (plan.value if best is None else best[0]):
                    best = (value, index, target)
        if best is None:
            return None
        value, index, target = best
        self._plans[self._key(battle, unit)] = ShotPlan(target, False, value)
        return index

    def _runs(self, battle: Battle, unit: Unit) -> bool:
        """Whether a unit with nothing to shoot and no charge worth declaring Runs.

        One that retreated in this turn's Movement phase never Runs back toward
        the enemy (that would undo the retreat); it Runs on toward its own edge
        (:meth:`_move`) while the retreat rule still holds from where it stands
        (:func:`move_plans.wants_to_retreat`: an enemy's charge at it next turn
        is expected to cost it more than its own charge after its next move
        gains it) and a Run toward its edge gains ground (its closest model is
        not at the edge already: :func:`plans.edge_gap`), and holds once out of
        that reach. Any other unit Runs toward the enemy when :func:`move_plans.wants_to_run`
        and some distance the Run may roll pays (:func:`move_plans.run_pays`:
        the enemy charge it walks into costs no more than it adds to its own);
        with the distance rolled it goes only if that one pays (:meth:`_move`),
        so declaring it costs nothing.
        """
        if st(battle, unit).retreated:
            return edge_gap(battle, unit) > EPSILON and wants_to_retreat(battle, unit)
        if not wants_to_run(battle, unit) or shot_down_on_the_way(battle, unit):
            return False
        toward = run_intent(battle, unit)
        nearers = (run_nearer(battle, unit, toward, d) for d in run_distances(battle, unit))
        return any(runs_paying(battle, unit, nearers))

    def _target(self, battle: Battle, decision: Decision[Any]) -> int:
        unit = battle.unit(decision.context.unit)
        plan = self._plan_of(battle, unit)
        targets = [c.value for c in decision.choices]
        if plan is not None and plan.target in targets:
            return targets.index(plan.target)
        return _best([target_value(battle, unit, t) for t in targets])

    def _melee_stray(self, battle: Battle, decision: Decision[Any]) -> int:
        unit = battle.unit(decision.context.unit)
        weapon = decision.context.weapon

        def value(victim: Unit) -> float:
            orders = orders_against(battle, victim, PLAIN_ORDERS)
            harm = expected_casualties(battle, unit, victim, weapon, orders)
            return -harm if victim.player == unit.player else harm

        return _best([value(c.value) for c in decision.choices])

    def _weapon(self, battle: Battle, decision: Decision[Any]) -> int:
        unit = battle.unit(decision.context.unit)
        target = battle.unit(decision.context.target)
        orders = orders_against(battle, target, PLAIN_ORDERS)
        plan = self._plan_of(battle, unit)
        keeping = charge_keeping_weapons(unit) if plan is not None and plan.keep_charge else None

        def allowed(name: str) -> bool:
            return bool(name) and (keeping is None or name in keeping)

        def value(name: str) -> float:
            if not name:
                return -1.0
            worth = weapon_worth(battle, unit, target, name, orders) if allowed(name) else None
            return -2.0 if worth is None else worth  # never fired: below stopping (-1)

        names = [c.value for c in decision.choices]
        worths = [value(name) for name in names]
        if not self.weighs_the_order:
            return _best(worths)
        return names.index(weapon_first(battle, unit, target, names, worths, orders))

    def _weapon_destroyed(self, battle: Battle, decision: Decision[Any]) -> int:
        """The weapon whose loss costs the damaged vehicle's shooting most
        (:func:`shooting_plans.weapon_loss`); the first named on a tie."""
        victim = battle.unit(decision.context.target)
        return _best([weapon_loss(battle, victim, c.value) for c in decision.choices])

    def _aim(self, battle: Battle, decision: Decision[Any]) -> int:
        """The aim point worth most (:func:`expected.aim_values`: what a template would
        cover, the crowd round a marker), as the estimates expect it
        (:func:`expected.likely_aim`)."""
        unit, firer = _asked_model(battle, decision)
        weapon = firer.weapon(decision.context.weapon)
        assert weapon is not None  # the firer's own weapon (markers._aim)
        profile = weapon_of(weapon)
        aims = [c.value for c in decision.choices]
        return _best(aim_values(battle, unit, firer, profile, aims))

    def _scatter_reroll(self, battle: Battle, decision: Decision[Any]) -> int:
        """Re-roll a Twin-linked blast's scatter where the landing it has is worth less
        than a re-roll is expected to be (:func:`scatter_plans.scatter_worth`); keep it
        on a tie."""
        unit = battle.unit(decision.context.unit)
        return _best([scatter_worth(battle, unit, c.value) for c in decision.choices])

    def _deep_strike(self, battle: Battle, decision: Decision[Any]) -> int:
        """Its own unit where it is worth most (:func:`deep_strike.landing_values`);
        an enemy unit it places (a Misplaced mishap) where it is worth least."""
        unit = waiting_unit(battle, decision.context.unit)
        sign = 1.0 if decision.player == unit.player else -1.0
        values = landing_values(battle, unit, [c.value for c in decision.choices])
        return _best([sign * v for v in values])

    def _scout(self, battle: Battle, decision: Decision[Any]) -> int:
        """The redeployment that brings the unit nearest the enemy (:func:`scout.closing_value`;
        staying, the first choice, on a tie)."""
        unit = battle.unit(decision.context.unit)
        return _best([closing_value(battle, unit, c.value) for c in decision.choices])

    def _outflank_edge(self, battle: Battle, decision: Decision[Any]) -> int:
        """The side whose best place to come on brings the unit nearest the enemy
        (:func:`outflank.entry_shifts`, :func:`scout.closing_value`; left on a tie)."""
        unit = waiting_unit(battle, decision.context.unit)

        def best(side: str) -> float:
            shifts = entry_shifts(battle, unit, edge_of(battle, unit.player, side))
            return max((closing_value(battle, unit, s) for s in shifts), default=float("-inf"))

        return _best([best(c.value) for c in decision.choices])

    def _outflank(self, battle: Battle, decision: Decision[Any]) -> int:
        """The place along the edge that brings the unit nearest the enemy
        (:func:`scout.closing_value` of the shift)."""
        unit = waiting_unit(battle, decision.context.unit)
        return _best([closing_value(battle, unit, c.value) for c in decision.choices])

    def _tank_shock(self, battle: Battle, decision: Decision[Any]) -> int:
        """A Tank Shock or Ram worth making, else a normal move
        (:func:`tank_shock_plans.tank_shock_choice`)."""
        return tank_shock_choice(battle, decision)

    def _death_or_glory(self, battle: Battle, decision: Decision[Any]) -> int:
        """The attack likeliest to stop the Tank, if likely enough
        (:func:`tank_shock_plans.death_or_glory_choice`)."""
        return death_or_glory_choice(battle, decision)

    def _infiltrate(self, battle: Battle, decision: Decision[Any]) -> int:
        """The set-up nearest the enemy (:func:`scout.closing_value` of the shift;
        deploying normally, the first choice, on a tie)."""
        unit = battle.unit(decision.context.unit)
        return _best([closing_value(battle, unit, c.value) for c in decision.choices])

    def _final_shot(self, battle: Battle, decision: Decision[Any]) -> int:
        return 0

    def _reaction(self, battle: Battle, decision: Decision[Any]) -> int:
        """The built-in reaction worth most (:meth:`_built_in_reaction`), unless a
        plug-in's reaction that gives its worth (:class:`points.Weighed`) is worth
        more, and more than none."""
        unit = battle.unit(decision.context.unit)
        attacker = battle.unit(decision.context.attacker)
        index, value = self._built_in_reaction(battle, decision.labels(), unit, attacker)
        value = max(value, 0.0)
        for other, choice in enumerate(decision.choices):
            worth = worth_of(choice.value, battle, unit, attacker)
            if worth is not None and worth > value:
                index, value = other, worth
        return index

    def _built_in_reaction(
        self, battle: Battle, labels: list[str], unit: Unit, attacker: Unit
    ) -> tuple[int, float]:
        """Return Fire!, Dive for Cover or none, each weighed, and the worth of the one
        taken (the models it removes, the next turn diving saves; none: 0)."""
        returned = 0.0
        if RETURN_FIRE in labels:
            returned = expected_attack(battle, unit, attacker, RETURN_FIRE_ORDERS)
        # Return Fire! "does not count as the squad's shooting phase" (seed 000):
        # it costs only the phase's one reaction, which diving would use, so any
        # damage at all is worth returning unless diving is worth more.
        fires_back = returned > 0.0
        returned *= model_worth(battle, attacker)
        dive = -1.0
        if DIVE in labels:
            for dive in dive_bounds(battle, unit, attacker):  # the last is exact
                if (returned >= dive) if fires_back else (dive <= 0):
                    break  # a bound already decides: what follows cannot change it
        if fires_back and returned >= dive:
            return labels.index(RETURN_FIRE), returned
        if dive > 0:
            return labels.index(DIVE), dive
        # Asked again without "no reaction" (choices.Declining): a Return Fire! that
        # does nothing costs nothing, where a dive worth nothing costs the next turn.
        return _offered(labels, NO_REACTION, RETURN_FIRE, DIVE), 0.0

    def _jink(self, battle: Battle, decision: Decision[Any]) -> int:
        unit = battle.unit(decision.context.unit)
        wanted = wants_to_jink(battle, unit, battle.unit(decision.context.attacker))
        return decision.labels().index(JINK if wanted else NO_JINK)

    def _disembark(self, battle: Battle, decision: Decision[Any]) -> int:
        entry = state_of(battle).embarked[decision.context.unit]
        wanted = wants_to_disembark(battle, entry.unit, battle.unit(entry.transport))
        return decision.labels().index(DISEMBARK if wanted else STAY_ABOARD)

    def _mover(self, battle: Battle, decision: Decision[Any]) -> int:
        return 0

    def _move(self, battle: Battle, decision: Decision[Any]) -> int:
        labels = decision.labels()
        unit = battle.unit(decision.context.unit)
        # Diving for Cover, the Run takes cover where the unit, gone to ground, faces
        # less there than where it stands (move_plans.dive_cost: the enemy's fire and
        # charges); else it stays put ("hold", always offered).
        if "dives" in decision.context.why:
            run = float(decision.context.what)  # the distance rolled
            covers = "take cover" in labels and dive_cost(
                battle, unit, "take cover", run
            ) < dive_cost(battle, unit, "hold", run)
            return labels.index("take cover" if covers else "hold")
        # "hold" last in each: an intent with nowhere to go is not offered
        # (movement.intents_for), and the first label would be an advance.
        if decision.context.why.startswith(RUNS):
            if st(battle, unit).retreated:
                return _offered(labels, RETREAT, "hold")  # it Runs only away: :meth:`_runs`
            toward = run_intent(battle, unit)
            nearer = run_nearer(battle, unit, toward, float(decision.context.what))
            # On only if the distance rolled pays (:meth:`_runs`); else it stays put.
            pays = run_pays(battle, unit, nearer)
            return _offered(labels, toward if pays else "hold", toward, "hold")
        movement = decision.context.phase == "movement"
        holds = movement and "hold" in labels
        gun_line = holds and holds_for_its_guns(battle, unit, self.weighs_the_move)
        preferred = "hold" if gun_line else "advance"
        retreats = movement and RETREAT in labels
        if retreats and preferred == "advance" and wants_to_retreat(battle, unit):
            preferred = RETREAT
        if retreats and drives_off(battle, unit):
            preferred = RETREAT
        if holds and preferred == "advance" and shot_down_on_the_way(battle, unit):
            preferred = "hold"
        if preferred == "advance" and FLANK in labels and wants_to_flank(battle, unit):
            preferred = FLANK
        if movement and is_zooming(unit):
            preferred = zoom_intent(battle, unit, preferred)
        return _offered(labels, preferred, "advance", "hold")

    def _charger(self, battle: Battle, decision: Decision[Any]) -> int:
        def value(unit: Unit | None) -> float:
            if unit is None:
                return 0.0
            # Only a gain can be chosen over ending the charges: a charge's gain will do.
            targets = charge_targets(battle, unit)
            gains = (charge_gain(battle, unit, t, forestalling=True) for t in targets)
            return max(gains, default=0.0)

        values = [value(c.value) for c in decision.choices]
        best = max(values)
        labels = decision.labels()
        return (
            values.index(best)
            if best > 0 or END_CHARGES not in labels
            else labels.index(END_CHARGES)
        )

    def _charge_target(self, battle: Battle, decision: Decision[Any]) -> int:
        unit = battle.unit(decision.context.unit)
        return _best([charge_or_be_charged(battle, unit, c.value).value for c in decision.choices])

    def _charge_reaction(self, battle: Battle, decision: Decision[Any]) -> int:
        labels = decision.labels()
        unit = battle.unit(decision.context.unit)
        charger = battle.unit(decision.context.attacker)
        overwatch = 0.0
        if OVERWATCH in labels:
            overwatch = expected_attack(battle, unit, charger, overwatch_orders(battle))
        if FALL_BACK in labels:
            for costs in charge_reaction_bounds(battle, unit, charger, overwatch):
                edge_risk = costs.off_table > 0 and costs.could_hold
                if edge_risk or costs.flee >= costs.stay:
                    break  # it stays: fleeing costs at least this bound
            else:  # the last bound is the exact cost
                return labels.index(FALL_BACK)
        if overwatch > 0:
            return labels.index(OVERWATCH)
        # Asked again without "no reaction": an Overwatch that does nothing is staying.
        return _offered(labels, NO_REACTION, OVERWATCH, FALL_BACK)

    def _fiery_charge(self, battle: Battle, decision: Decision[Any]) -> int:
        unit = battle.unit(decision.context.unit)
        target = battle.unit(decision.context.target)
        gain = expected_attack(battle, unit, target, FIERY_ORDERS)
        lost_attacks = min(
            charge_bonus_attacks(battle, unit),
            battle.settings.integer(f"{FIERY_CHARGE}.{LOST_BONUS.name}"),
        )
        lost = sum(
            lost_attacks
            * blow_value(
                battle, unit, m, best_melee_weapon(battle, unit, m, target, True), target, True
            )
            for m in engaged_models(battle, unit)
        )
        return decision.labels().index(FIERY if gain > lost else NO_FIERY)

    def _melee_weapon(self, battle: Battle, decision: Decision[Any]) -> int:
        unit, model = _asked_model(battle, decision)
        foes = foes_in_contact(battle, unit) or battle.enemies_of(unit)
        charged = unit.status.charged

        def value(weapon: WeaponProfile) -> float:
            best = max(
                (
                    blow_value(battle, unit, model, weapon, f, charged)
                    for f in foes
                    if may_attack(weapon, f)
                ),
                default=0.0,
            )
            return attacks_of(battle, unit, model, weapon) * best

        return _best([value(c.value) for c in decision.choices])

    def _melee_target(self, battle: Battle, decision: Decision[Any]) -> int:
        unit, model = _asked_model(battle, decision)
        options = melee_options(model, unit, [c.value for c in decision.choices])
        weapon = next(w for w in options if w.name == decision.context.weapon)
        charged = unit.status.charged
        values = [
            (blow_value(battle, unit, model, weapon, c.value, charged), -len(c.value.alive_models))
            for c in decision.choices
        ]
        return values.index(max(values))

    def _issue_challenge(self, battle: Battle, decision: Decision[Any]) -> int:
        """Challenge with the Character whose challenge is worth most to its side
        (:func:`challenge_plans.answers_worth`: the enemy answering it as :meth:`_accept_challenge`
        would, with the answer worth least to the issuer), if one is worth more than
        none (a Champion of Chaos has no choice but to issue)."""
        ctx = decision.context
        foes = [fighter(battle, u, m) for u, m in zip(ctx.others, ctx.models, strict=True)]

        def worth(mine: Fighter) -> float:
            return min(answers_worth(battle, mine, foes))

        return _best([worth(c.value) if c.value else 0.0 for c in decision.choices])

    def _accept_challenge(self, battle: Battle, decision: Decision[Any]) -> int:
        """The answer worth least to the issuer's side: accepting with a Character
        (:func:`challenge_plans.challenge_worth`: the two strike only each other, instead of each
        other's units), or refusing (:func:`challenge_plans.refusal_worth`: the Character the issuer
        bars loses its blows, the challenger strikes the unit as without a
        challenge); refusing on a tie. A Champion of Chaos always accepts, and a unit
        of one Character (Heroic Stand, :func:`challenges.may_refuse`) is offered no
        refusal."""
        issuer = fighter(battle, decision.context.unit, decision.context.models[0])
        refusers = [c.value for c in decision.choices if c.value and may_refuse(c.value[0])]

        def worth(mine: Fighter | None) -> float:
            if mine is None:
                return refusal_worth(battle, issuer, refusers)
            return challenge_worth(battle, issuer, mine)

        return _best([-worth(c.value) for c in decision.choices])

    def _refused_character(self, battle: Battle, decision: Decision[Any]) -> int:
        """Bar the enemy Character expected to do most to the issuer's unit."""
        unit = battle.unit(decision.context.unit)
        return _best([duel_value(battle, c.value, unit) for c in decision.choices])

    def _final_blow(self, battle: Battle, decision: Decision[Any]) -> int:
        return 0

    def _sweeping_advance(self, battle: Battle, decision: Decision[Any]) -> int:
        return decision.labels().index(SWEEP)


def answered_kinds(kind_of_ai: type) -> frozenset[str]:
    """The decision kinds an AI class answers with a heuristic of its own: those of its
    methods ``_KIND(battle, decision)``. Any other decision (a plug-in's own) gets its
    first choice: looking a handler up by the kind's name alone gave a plug-in decision
    called ``plans`` the AI's table of plans, and a crash (a plug-in author's review)."""
    known = _ANSWERED.get(kind_of_ai)
    if known is None:
        known = _ANSWERED[kind_of_ai] = frozenset(
            name[1:]
            for name, member in inspect.getmembers(kind_of_ai)
            if name.startswith("_")
            and not name.startswith("__")
            and callable(member)
            and list(inspect.signature(member).parameters)[1:] == ["battle", "decision"]
        )
    return known


_ANSWERED: dict[type, frozenset[str]] = {}
"""Each AI class's :func:`answered_kinds`, worked out once."""
