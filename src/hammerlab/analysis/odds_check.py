"""Exact odds against the real engine: a χ² goodness-of-fit test, on request.

The question's units are put on an open table, the firers facing the target at
a distance that matches the question (within or beyond half range), and the
*engine's own* attack procedure (Waffle ``attacks.fire_weapon``, core11
``attacks.resolve_battery``: the edition's :class:`~hammerlab.analysis.odds.EngineCheck`,
looked up in the odds registry; an edition without one is refused as not
supported) fires the weapon ``trials`` times with seeded
dice, each volley at a fresh target: the units, the edition's state (a
vehicle's damage lives there) and the rules' memory are put back as they were
set up before each one (:class:`Table`). The models destroyed are then
compared with the exact distribution by Pearson's χ² test (bins with an
expected count under 5 pooled). No arithmetic of the odds is repeated here.

Only the library form (built-in or uploaded units) is checked, and only the
situations that the table itself can set up: range, and whether the firers
moved. Any other question is refused with a message saying why.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from hammerlab.analysis.odds import LibraryQuestion, OddsResult, QuestionError, engine_check
from hammerlab.analysis.odds_request import OddsAsk
from hammerlab.editions import get_ruleset
from hammerlab.editions.base import Ruleset, apply_rules
from hammerlab.engine.battle import Battle, Player
from hammerlab.engine.battlefield import Battlefield
from hammerlab.engine.controllers import FirstChoiceController
from hammerlab.engine.datasheet import Datasheet, Weapon
from hammerlab.engine.dice import Dice
from hammerlab.engine.geometry import MM_PER_INCH, base_distance
from hammerlab.engine.units import Model, Unit, UnitStatus

MAX_CHECK_MODELS = 40
"""Firers and target models in one row each."""
PASS_P = 0.001
"""The badge reads "matches" when the p-value is at least this."""


@dataclass(frozen=True)
class OddsCheck:
    """The engine's volleys against the exact distribution."""

    trials: int
    seed: int
    observed: tuple[int, ...]
    """Volleys that destroyed each number of models."""
    expected: tuple[float, ...]
    chi2: float
    dof: int
    p_value: float

    @property
    def matches(self) -> bool:
        """Whether the sample is consistent with the exact odds (p ≥ :data:`PASS_P`)."""
        return self.p_value >= PASS_P

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        return {
            "trials": self.trials,
            "seed": self.seed,
            "observed": list(self.observed),
            "expected": list(self.expected),
            "chi2": self.chi2,
            "dof": self.dof,
            "p_value": self.p_value,
            "matches": self.matches,
        }


def chi2_sf(x: float, dof: int) -> float:
    """P(χ² with ``dof`` degrees of freedom ≥ ``x``): the regularized upper incomplete
    gamma function Q(dof/2, x/2), by its series or its continued fraction."""
    if dof <= 0:
        return 1.0
    a, z = dof / 2.0, x / 2.0
    if z <= 0:
        return 1.0
    log_front = a * math.log(z) - z - math.lgamma(a)
    if z < a + 1:
        term = total = 1.0 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= z / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = z + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, h * math.exp(log_front))


def pearson(observed: Sequence[int], probabilities: Sequence[float]) -> tuple[float, int, float]:
    """(χ², degrees of freedom, p-value), neighbouring bins pooled until each
    expects at least 5."""
    n = sum(observed)
    bins: list[tuple[int, float]] = []
    count, expect = 0, 0.0
    for seen, p in zip(observed, probabilities, strict=True):
        count, expect = count + seen, expect + p * n
        if expect >= 5:
            bins.append((count, expect))
            count, expect = 0, 0.0
    if expect > 0 or count:
        if bins:
            last_count, last_expect = bins.pop()
            bins.append((last_count + count, last_expect + expect))
        else:
            bins.append((count, expect))
    chi2 = sum((c - e) ** 2 / e for c, e in bins if e > 0)
    dof = len(bins) - 1
    return chi2, dof, chi2_sf(chi2, dof)


def _row(
    ruleset: Ruleset, uid: str, player: str, sheet: Datasheet, size: int, y: float, width: float
) -> Unit:
    """``size`` models of ``sheet`` (its entries in order, the last repeated) in one row."""
    profiles = [e for e in sheet.entries for _ in range(e.count)]
    while len(profiles) < size:
        profiles.append(sheet.entries[-1])
    chosen = profiles[:size]
    pitch = max(e.base_mm for e in chosen) / MM_PER_INCH + 0.5
    models = [
        Model(
            id=f"{uid}.{i + 1}",
            profile=e.profile,
            weapons=e.weapons,
            position=(width / 2 + (i - (size - 1) / 2) * pitch, y),
            base_mm=e.base_mm,
            wounds_left=ruleset.starting_wounds(e.profile),
            rules=e.rules,
        )
        for i, e in enumerate(chosen)
    ]
    return Unit(uid, sheet.name, player, sheet, models)


def _firers(sheet: Datasheet, weapon: Weapon, wanted: int | None) -> Datasheet:
    """``sheet`` reduced to the entries that carry ``weapon`` (the calculators' firers)."""
    carriers = tuple(e for e in sheet.entries if any(w.name == weapon.name for w in e.weapons))
    if wanted is not None:
        carriers = (replace(carriers[0], count=wanted),)
    return replace(sheet, entries=carriers)


@dataclass
class Table:
    """The question set up on an open table: firers facing the target, ready to fire."""

    battle: Battle
    shooters: Unit
    target: Unit
    fire: Callable[[], None]
    """Fires the weapon once with the edition's engine procedure."""
    moved: bool
    """Whether the firers count as having moved."""
    reset: Callable[[], None]
    """Puts both units and the battle's memory back as they were set up."""

    def volley(self) -> int:
        """One volley at a fresh target: the models it destroyed."""
        self.reset()
        self.shooters.status = UnitStatus(moved=self.moved)
        self.fire()
        self.battle.log.events.clear()
        return len(self.target.models) - len(self.target.alive_models)


def check_odds(
    ask: OddsAsk,
    result: OddsResult,
    trials: int,
    seed: int,
    units: Sequence[Datasheet] = (),
    checkpoint: Callable[[], None] | None = None,
) -> OddsCheck:
    """Fire the question's weapon ``trials`` times with the engine; compare with ``result``.

    ``checkpoint`` is called before each volley: it may raise to stop the check (the
    web server's time limit)."""
    table = set_table(ask, seed, units)
    observed = [0] * len(result.models_killed)
    for _ in range(trials):
        if checkpoint is not None:
            checkpoint()
        observed[table.volley()] += 1
    chi2, dof, p = pearson(observed, result.models_killed)
    expected = tuple(p * trials for p in result.models_killed)
    return OddsCheck(trials, seed, tuple(observed), expected, chi2, dof, p)


def set_table(ask: OddsAsk, seed: int, units: Sequence[Datasheet] = ()) -> Table:
    """The question's firers and target on a table, the dice seeded with ``seed``."""
    check = engine_check(ask.ruleset)
    if not ask.is_library or ask.attacker is None or ask.weapon is None or ask.target is None:
        raise QuestionError("the engine check takes library units (pick them, or upload a file)")
    if ask.hits is not None or ask.cover is not None:
        raise QuestionError("the engine check does not set up given hits or cover yet")
    facts = frozenset(s.strip().lower() for s in ask.situation)
    unchecked = sorted(facts - check.situations)
    if unchecked:
        raise QuestionError(f"the engine check does not set up the situation {unchecked[0]!r}")
    ruleset = get_ruleset(ask.ruleset)
    question = LibraryQuestion(ask.attacker, ask.weapon, ask.target, units=tuple(units))
    attacker = question.find(ruleset, ask.attacker)
    target_sheet = question.find(ruleset, ask.target)
    weapon = _weapon(attacker, ask.weapon, ask.profile)
    firing = _firers(attacker, weapon, None if ask.models is None else int(ask.models))
    wanted = int(ask.target_models) if ask.target_models else None
    aimed_at = check.odds_target(target_sheet, wanted)
    size = aimed_at.count
    count = sum(e.count for e in firing.entries)
    if count > MAX_CHECK_MODELS or size > MAX_CHECK_MODELS:
        raise QuestionError(f"the engine check places at most {MAX_CHECK_MODELS} models a side")
    reach = check.weapon_range(weapon)
    gap = reach * (0.3 if "half-range" in facts else 0.8)
    width = 240.0
    shooters = _row(ruleset, "firers", "A", firing, count, 6.0, width)
    target = _row(
        ruleset, "target", "B", replace(target_sheet, entries=(aimed_at,)), size, 0.0, width
    )
    depth = max(m.radius for m in shooters.models) + max(m.radius for m in target.models)
    for model in target.models:
        model.position = (model.position[0], 6.0 + gap + depth)
    _check_reach(shooters, target, reach, "half-range" in facts)
    battle = Battle(
        battlefield=Battlefield(width, 12.0 + gap + depth),
        players=(Player("A", "south"), Player("B", "north")),
        units={shooters.id: shooters, target.id: target},
        dice=Dice(seed),
        ruleset=ask.ruleset,
        controllers={"A": FirstChoiceController(), "B": FirstChoiceController()},
    )
    apply_rules(battle, ruleset, {})
    fire = check.volley(battle, shooters, target, weapon)
    return Table(battle, shooters, target, fire, check.moved(facts), _restorer(battle))


def _restorer(battle: Battle) -> Callable[[], None]:
    """A function that puts the battle's units back as they are now, models and
    statuses, with the edition's state and the rules' memory. The edition's state
    is where a volley leaves what is not a wound: a vehicle's damage (Waffle's
    ``WaffleState.vehicles``), a unit gone to ground; a model's weapons are where
    a Weapon Destroyed result leaves its mark. Copied, never shared, so each
    volley fires at the target as it was set up."""
    models = [
        (m, m.wounds_left, m.weapons, m.position) for u in battle.units.values() for m in u.models
    ]
    keep = {id(battle): battle}
    state, memory = copy.deepcopy((battle.state, battle.memory), keep)

    def reset() -> None:
        for model, wounds, weapons, position in models:
            model.wounds_left, model.weapons, model.position = wounds, weapons, position
        for unit in battle.units.values():
            unit.status = UnitStatus()
        battle.state, battle.memory = copy.deepcopy((state, memory), dict(keep))

    return reset


def _weapon(sheet: Datasheet, name: str, profile: str | None) -> Weapon:
    """The weapon the calculators would pick (full name, or name and profile)."""
    wanted = name.strip().lower()
    full = f"{wanted} ({profile.strip().lower()})" if profile else wanted
    for weapon in sheet.weapons():
        if weapon.name.lower() == full:
            return weapon
    raise QuestionError(f"the engine check found no weapon {full!r} on {sheet.name}")


def _check_reach(shooters: Unit, target: Unit, reach: float, half: bool) -> None:
    """Every firer within range, and within half range exactly when the question says."""
    for model in shooters.models:
        nearest = min(base_distance(model, t) for t in target.models)
        if nearest > reach or (nearest <= reach / 2) != half:
            raise QuestionError("the engine check cannot place these units at that range")
