"""The luck of a game's attacks: what each player's attacks did beyond what they
were expected to do (issue 9 §2, the search AI's playouts).

A playout of the search AI ends with a value, the victory margin
(:func:`analysis.search.value_for`), most of whose spread from one playout to
the next is the dice of its volleys and blows. Each attack's luck is the
damage it did to its target (:func:`turns.damage_share`, as the value counts
it) less the damage it was expected to do, worked out just before its dice
were rolled with the AI's own estimates (:func:`expected.expected_casualties`
for a volley, :func:`expected.blow_value` for blows). The expectation of each
attack's luck, given the game up to its roll, is zero whatever either player
does; so a value less the luck of every attack in it has the same mean, the
comparison of two actions stays fair, and the spread of the dice is taken out
(the control variate backgammon programs use in their rollouts). What no
estimate here is exact for is left in the value, its luck not counted: a blast
or template (where a marker lands is geometry; the AI's estimate takes three
models under it), a vehicle target, a volley into a melee (it may hit the
firer's own side), blows in a challenge.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from hammerlab.editions.turns import damage_share
from hammerlab.editions.waffle.attacks import firing_models
from hammerlab.editions.waffle.expected import blow_value, expected_casualties
from hammerlab.editions.waffle.fight import attacks_of
from hammerlab.editions.waffle.orders import FireOrders
from hammerlab.editions.waffle.points import ATTACK_WATCHERS
from hammerlab.editions.waffle.profiles import WeaponProfile, weapon_of
from hammerlab.editions.waffle.vehicles import is_vehicle
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Profile
from hammerlab.engine.units import Model, Unit


def _nothing() -> None:
    """What an attack whose luck is not counted does once resolved."""


@dataclass
class Luck:
    """Each player's luck so far: the damage their attacks did less the damage
    they were expected to do, in the value's units (an :class:`AttackWatcher`
    of :mod:`points`)."""

    victory: str
    starting_wounds: Callable[[Profile], int]
    by_pair: dict[tuple[str, str], float] = field(default_factory=dict)
    """The luck of each attacking player's attacks against each target's player."""

    @property
    def by_player(self) -> dict[str, float]:
        """Each attacking player's luck, whoever its attacks hit."""
        totals: defaultdict[str, float] = defaultdict(float)
        for (attacker, _), luck in self.by_pair.items():
            totals[attacker] += luck
        return dict(totals)

    def volley(
        self,
        battle: Battle,
        unit: Unit,
        target: Unit,
        weapon_name: str,
        orders: FireOrders,
        models: list[Model],
    ) -> Callable[[], None]:
        """Count a volley's luck once it is resolved: each firing model's share of
        the expected casualties of the weapon (:func:`expected.expected_casualties`
        for every model that may fire it; ``models`` are those that do, fewer when
        some have already fired another weapon)."""
        weapon = models[0].weapon(weapon_name)
        if weapon is None or is_vehicle(target) or orders.into_melee:
            return _nothing
        profile = weapon_of(weapon)
        if profile.blast or profile.template:
            return _nothing
        able = firing_models(battle, unit, target, weapon_name, orders)
        if not able:
            return _nothing
        each = expected_casualties(battle, unit, target, weapon_name, orders) / len(able)
        return self._count(unit.player, target, each * len(models))

    def blows(
        self,
        battle: Battle,
        unit: Unit,
        models: tuple[Model, ...],
        weapon: WeaponProfile,
        target: Unit,
    ) -> Callable[[], None]:
        """Count a group's blows' luck once resolved: their Attacks
        (:func:`fight.attacks_of`) times each blow's expected casualties
        (:func:`expected.blow_value`), no more than the target's models."""
        if is_vehicle(target):
            return _nothing
        charged = unit.status.charged
        expected = sum(
            attacks_of(battle, unit, m, weapon)
            * blow_value(battle, unit, m, weapon, target, charged)
            for m in models
        )
        return self._count(unit.player, target, min(expected, float(len(target.alive_models))))

    def _count(self, player: str, target: Unit, casualties: float) -> Callable[[], None]:
        """What adds ``player``'s luck against ``target`` once the attack is
        resolved: the damage done (:func:`turns.damage_share` after less
        before) less ``casualties`` expected (models, a wound counting its share
        of a model), weighed as the value weighs a model of ``target``."""
        before = self._share(target)
        worth = 1 / target.starting_models if self.victory == "kill_points" else 1.0

        def resolved() -> None:
            done = self._share(target) - before
            pair = (player, target.player)
            self.by_pair[pair] = self.by_pair.get(pair, 0.0) + done - casualties * worth

        return resolved

    def _share(self, unit: Unit) -> float:
        return damage_share(unit, self.victory, self.starting_wounds)

    def margin(self, player: str, scale: Mapping[str, float] | None = None) -> float:
        """``player``'s luck less the most any other player had: what the dice
        added to ``player``'s value (:func:`analysis.search.value_for`). With
        ``scale``, the luck against each target player's units counts divided by
        that player's scale, as the ``share`` value counts its losses."""
        totals: defaultdict[str, float] = defaultdict(float)
        for (attacker, target), luck in self.by_pair.items():
            totals[attacker] += luck / (scale[target] if scale else 1.0)
        others = [v for p, v in totals.items() if p != player]
        return totals.get(player, 0.0) - max(others, default=0.0)


def watch_luck(battle: Battle, victory: str, starting_wounds: Callable[[Profile], int]) -> Luck:
    """A :class:`Luck` that counts every attack resolved in ``battle`` from now on."""
    luck = Luck(victory, starting_wounds)
    battle.hooks.add(ATTACK_WATCHERS, luck)
    return luck
