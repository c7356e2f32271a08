"""The shortcuts a volley takes (issue 14's steady battles) give what the long way gives.

A volley reads once, for the models of one profile and rules, what each model fires
with (``attacks._rolled_hits``), unless a rule installed reads the model itself; the
score needed to wound is remembered (``wounds.wound_target``); volleys' results are
merged in a plain loop (``VolleyResult.merge``). Each test sets the shortcut against
the long way: each model's own answer, the score worked out afresh, ``Counter.update``.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter
from dataclasses import replace

import pytest
from conftest import (
    GUARD,
    LASGUN,
    MARINE,
    TROOPER,
    A,
    B,
    box,
    last,
    make_battle,
    of_kind,
    row,
    squad,
)

from hammerlab.editions.waffle import allocation, visibility
from hammerlab.editions.waffle.artillery import _gun_profile
from hammerlab.editions.waffle.attacks import fire_weapon
from hammerlab.editions.waffle.firing_modes import is_grenade, spend
from hammerlab.editions.waffle.gets_hot import gets_hot
from hammerlab.editions.waffle.orders import FireOrders, Tally, VolleyResult
from hammerlab.editions.waffle.points import BALLISTIC_SKILL, WOUNDS_LEFT
from hammerlab.editions.waffle.profiles import weapon_of
from hammerlab.editions.waffle.shooting import weapon_choices
from hammerlab.editions.waffle.strength import STRENGTH
from hammerlab.editions.waffle.visibility import (
    cover_save,
    seen_among,
    seen_by_each,
    terrain_covers,
)
from hammerlab.editions.waffle.weapon_rules import six_resolves_at_ap2
from hammerlab.editions.waffle.wounds import wound_target
from hammerlab.engine.battle import Battle
from hammerlab.engine.datasheet import Profile, Weapon
from hammerlab.engine.decisions import Choice
from hammerlab.engine.units import Model, Unit


def _sharper_second(battle: Battle, model: Model, bs: int) -> int:
    """A rule read model by model: the second Guardsman shoots at BS4."""
    return bs + 1 if model.id == "a.2" else bs


def _stronger_second(battle: Battle, unit: Unit, model: Model, weapon: object, s: int) -> int:
    """A rule read model by model: the second Guardsman's shots hit at S4."""
    return s + 1 if model.id == "a.2" else s


def _to_roll(battle: Battle, what: str) -> list[str]:
    return [e.purpose for e in of_kind(battle, "dice") if e.purpose.startswith(what)]


@pytest.mark.parametrize("installed", [False, True])
def test_models_alike_fire_each_with_their_own_bs_and_strength_where_a_rule_reads_them(
    installed: bool,
) -> None:
    # Two Guardsmen (one profile, no rules of their own: BS3, 4+ to hit; S3 lasguns)
    # fire one shot each 20" away at T3 Troopers with no save, both hitting (6s) and
    # wounding (6s). With rules giving the second BS4 (3+) and S4 (3+ to wound against
    # T3), its dice need 3+ where the first's need 4+, and the hits roll to wound in
    # two groups by Strength; without them both need 4+, in one group.
    guard = squad("a", A, GUARD, [LASGUN], row(30, 10, 2))
    target = squad("b", B, TROOPER, [], row(30, 30, 3))
    battle = make_battle(guard, target, dice=[6, 6, 6, 6])
    if installed:
        battle.hooks.add(BALLISTIC_SKILL, _sharper_second)
        battle.hooks.add(STRENGTH, _stronger_second)
    result = fire_weapon(battle, guard, target, LASGUN.name, FireOrders())
    assert result.casualties["b"] == 2
    if installed:
        assert _to_roll(battle, "to hit") == ["to hit (Lasgun, 4+)", "to hit (Lasgun, 3+)"]
        assert _to_roll(battle, "to wound") == ["to wound (Lasgun, 4+)", "to wound (Lasgun, 3+)"]
        assert last(of_kind(battle, "shots")).needed == "3+/4+"
    else:
        assert _to_roll(battle, "to hit") == ["to hit (Lasgun, 4+)", "to hit (Lasgun, 4+)"]
        assert _to_roll(battle, "to wound") == ["to wound (Lasgun, 4+)"]
        assert last(of_kind(battle, "shots")).needed == "4+"


def _surging(battle: Battle, unit: Unit, model: Model, weapon: object, s: int) -> int:
    """A house rule read model by model that rolls dice of its own: a model's shots
    gain +1 Strength on a D6 of 6."""
    return s + (battle.dice.roll(1, f"surge {model.id}")[0] == 6)


def test_a_rule_on_strength_rolls_its_dice_after_the_model_s_dice_to_hit() -> None:
    # A model's Strength is read after its dice to hit (seed 000 step 4: "Roll a D6 for
    # each shot fired", then each hit wounds at the shot's Strength), so a rule that
    # rolls for it rolls after them: the first Guardsman's dice to hit, his surge, then
    # the second's. Rolled in another order, every later die of a seeded battle moves.
    guard = squad("a", A, GUARD, [LASGUN], row(30, 10, 2))
    target = squad("b", B, TROOPER, [], row(30, 30, 3))
    battle = make_battle(guard, target, dice=[1] * 40)
    battle.hooks.add(STRENGTH, _surging)
    fire_weapon(battle, guard, target, LASGUN.name, FireOrders())
    assert [e.purpose for e in of_kind(battle, "dice")][:4] == [
        "to hit (Lasgun, 4+)",
        "surge a.1",
        "to hit (Lasgun, 4+)",
        "surge a.2",
    ]


def test_wounds_saved_go_to_the_same_model_without_asking_its_wounds_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Three Guardsmen fire one lasgun shot each 20" away (beyond half range) at three
    # Marines (T4, 3+ save): all hit (6s), all wound (6s at 5+). The first two wounds
    # are saved (3, 4 at 3+) and the third is not (1), each on the nearest Marine, b.1
    # (straight ahead of a.1 at 20", the others 20.1" and 20.4" from the nearest
    # Guardsman). Where no rule counts wounds left its own way, a saved wound changes
    # nothing, so the models standing are read once, before the first wound (before,
    # before every wound: three times).
    guard = squad("a", A, GUARD, [LASGUN], row(30, 10, 3))
    marines = squad("b", B, MARINE, [], row(30, 30, 3))
    battle = make_battle(guard, marines, dice=[6, 6, 6, 6, 6, 6, 3, 4, 1])
    reads: list[list[str]] = []
    read_standing = allocation.standing

    def standing(*args: object) -> list[Model]:
        found = read_standing(*args)  # type: ignore[arg-type]
        reads.append([m.id for m in found])
        return found

    monkeypatch.setattr(allocation, "standing", standing)
    result = fire_weapon(battle, guard, marines, LASGUN.name, FireOrders())
    saves = [(e.model, e.roll, e.saved) for e in of_kind(battle, "save")]
    assert saves == [("b.1", 3, True), ("b.1", 4, True), ("b.1", 1, False)]
    assert result.unsaved["b"] == 1 and result.casualties["b"] == 1
    assert [m.id for m in marines.alive_models] == ["b.2", "b.3"]
    assert reads == [["b.1", "b.2", "b.3"]]


def test_a_rule_counting_wounds_left_is_asked_again_after_a_saved_wound() -> None:
    # The same volley and dice, with a plug-in's rule (points.WOUNDS_LEFT) that counts
    # a Marine spent (no wounds left) once a save of it has held, read off the log. The
    # rule's count changes with a saved wound, so the wound after it must go to a model
    # the rule still counts (a review's finding, twenty-sixth session: the standing
    # models kept from before the save gave b.1 the second and third wounds). Nearest
    # first: b.1 takes the first (saved: 3), b.2 the second (saved: 4), b.3 the third
    # (failed: 1, slain).
    guard = squad("a", A, GUARD, [LASGUN], row(30, 10, 3))
    marines = squad("b", B, MARINE, [], row(30, 30, 3))
    battle = make_battle(guard, marines, dice=[6, 6, 6, 6, 6, 6, 3, 4, 1])

    def spent_once_saved(battle: Battle, model: Model, orders: FireOrders) -> int | None:
        held = [e for e in of_kind(battle, "save") if e.model == model.id and e.saved]
        return 0 if held else None

    battle.hooks.add(WOUNDS_LEFT, spent_once_saved)
    fire_weapon(battle, guard, marines, LASGUN.name, FireOrders())
    saves = [(e.model, e.roll, e.saved) for e in of_kind(battle, "save")]
    assert saves == [("b.1", 3, True), ("b.2", 4, True), ("b.3", 1, False)]


def test_spending_counts_each_model_its_item_and_the_grenade_whatever_its_wargear() -> None:
    # Four models in two wargears (a pair sharing one tuple, then a pair with another:
    # a grenade that is also a mode of an item, then a plain grenade of that name) each
    # throw "Frag": every model counts one weapon fired; the first pair's item its mode,
    # model by model; the unit's grenade four times (one a model, as spend counts it).
    moded = Weapon(name="Frag", characteristics={"Range": "8", "S": "3", "AP": "-",
                   "Type": "Assault 1, Grenade"}, mode_of="Grenade pouch")  # fmt: skip
    plain = Weapon(name="Frag", characteristics={"Range": "8", "S": "3", "AP": "-",
                   "Type": "Assault 1, Grenade"})  # fmt: skip
    first, second = (moded, LASGUN), (LASGUN, plain)
    unit = squad("a", A, GUARD, [], row(30, 10, 4))
    models = [
        replace(m, weapons=w)
        for m, w in zip(unit.models, [*[first] * 2, *[second] * 2], strict=True)
    ]
    spent: Counter[str] = Counter({"a.2": 1})
    spend(spent, unit, models, "Frag")
    assert spent == {
        "a.2": 2,
        "a.1": 1,
        "a.1 fired a mode of Grenade pouch": 1,
        "a threw a grenade": 4,
        "a.2 fired a mode of Grenade pouch": 1,
        "a.3": 1,
        "a.4": 1,
    }
    assert list(spent)[:4] == [
        "a.2",
        "a.1",
        "a.1 fired a mode of Grenade pouch",
        "a threw a grenade",
    ]


def test_on_a_table_without_terrain_every_model_is_seen_and_in_the_open_unasked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No terrain: nothing blocks sight and nothing gives cover (7th edition: cover is
    # terrain's, or intervening models', none here). Every Trooper is seen by either
    # Guardsman, none by no one, and each is in the open: known without the table's
    # sight or cover (asking either fails here; before, both were asked).
    guard = squad("a", A, GUARD, [LASGUN], row(30, 10, 2))
    target = squad("b", B, TROOPER, [], row(30, 30, 3))
    battle = make_battle(guard, target)

    def unasked(*args: object) -> None:
        raise AssertionError("the table was asked")

    monkeypatch.setattr(type(battle.battlefield), "sight_table", unasked)
    monkeypatch.setattr(type(battle.battlefield), "cover_between", unasked)
    for remembered in (terrain_covers, visibility._seen, visibility._seen_each):
        remembered.cache_clear()  # what an earlier test left would answer unasked
    troopers = target.models
    assert seen_among(battle, guard.models, troopers) == troopers
    assert seen_among(battle, [], troopers) == []
    assert seen_by_each(battle, guard.models, target) == ((0, 1, 2), (0, 1, 2))
    shooter = guard.models[0]
    assert [cover_save(battle, shooter, target, m, False) for m in troopers] == [None] * 3
    assert [cover_save(battle, shooter, target, m, True) for m in troopers] == [6] * 3


def _weapon(name: str, rules: str) -> Weapon:
    characteristics = {"Range": "24", "S": "4", "AP": "5", "Type": f"Assault 1{rules}"}
    return Weapon(name=name, characteristics=characteristics)


@pytest.mark.parametrize(
    "rules", ["", ", Poisoned", ", Poisoned (2+)", ", Fleshbane", ", Sniper", ", Poisoned, Sniper"]
)
def test_the_score_to_wound_remembered_is_the_one_worked_out(rules: str) -> None:
    weapon = weapon_of(_weapon(f"Gun{rules}", rules))
    for strength in range(1, 11):
        for toughness in range(1, 11):
            expected = wound_target.__wrapped__(strength, toughness, weapon)
            assert wound_target(strength, toughness, weapon) == expected
            assert wound_target(strength, toughness, weapon) == expected  # remembered


def test_results_merged_are_what_counter_update_adds_up_key_by_key_in_order() -> None:
    # Counts of 0 are kept as keys (Counter.update keeps them), new keys come last.
    draw = random.Random(7)
    for _ in range(300):
        into, other = VolleyResult(), VolleyResult()
        for result in (into, other):
            for counts in (result.hits, result.wounds, result.unsaved, result.casualties):
                for _ in range(draw.randint(0, 4)):
                    counts[draw.choice("abcd")] += draw.randint(0, 2)
        expected = [
            Counter(mine) for mine in (into.hits, into.wounds, into.unsaved, into.casualties)
        ]
        for counts, theirs in zip(
            expected, (other.hits, other.wounds, other.unsaved, other.casualties), strict=True
        ):
            counts.update(theirs)
        into.merge(other)
        merged = (into.hits, into.wounds, into.unsaved, into.casualties)
        assert [list(c.items()) for c in merged] == [list(c.items()) for c in expected]


def test_a_tally_counts_as_a_counter_does_however_it_is_made() -> None:
    # Tally skips Counter.__init__'s calls only when it starts empty: made from
    # something to count, copied or pickled, it holds what a Counter holds.
    for given, kwds in ((None, {}), ("abca", {}), ({"a": 2, "b": 0}, {}), (None, {"a": 3})):
        tally, counter = Tally(given, **kwds), Counter(given, **kwds)
        assert type(tally) is Tally and list(tally.items()) == list(counter.items())
        tally["c"] += 1
        counter["c"] += 1
        assert tally["z"] == 0 and "z" not in tally
        for made in (copy.copy(tally), copy.deepcopy(tally), tally.copy()):
            assert type(made) is Tally and list(made.items()) == list(counter.items())
        back = pickle.loads(pickle.dumps(tally))
        assert type(back) is Tally and list(back.items()) == list(counter.items())
    first, second = VolleyResult(), VolleyResult()
    first.hits["a"] += 1
    assert not second.hits and all(
        type(c) is Tally for c in (first.hits, first.wounds, first.unsaved, first.casualties)
    )


@pytest.mark.parametrize(
    "rules",
    ["", ", Gets Hot", ", Grenade", ", Rending", ", Sniper", ", Bladestorm", ", Twin-linked"],
)
def test_the_weapon_and_profile_facts_remembered_are_the_ones_worked_out(rules: str) -> None:
    # is_grenade, gets_hot, six_resolves_at_ap2 and _gun_profile are remembered
    # (lru_cache): asked twice, each gives what working it out gives.
    weapon = _weapon(f"Gun{rules}", rules)
    gun = Profile("Gun", {**GUARD.characteristics, "S": "-"}, unit_type="Artillery")
    for _ in range(2):
        assert is_grenade(weapon) == is_grenade.__wrapped__(weapon)
        profile = weapon_of(weapon)
        assert gets_hot(profile) == gets_hot.__wrapped__(profile)
        assert six_resolves_at_ap2(profile) == six_resolves_at_ap2.__wrapped__(profile)
        for model_profile in (GUARD, TROOPER, gun):
            assert _gun_profile(model_profile) == _gun_profile.__wrapped__(model_profile)
    assert is_grenade(weapon) == (rules == ", Grenade")
    assert gets_hot(weapon_of(weapon)) == (rules == ", Gets Hot")
    assert six_resolves_at_ap2(weapon_of(weapon)) == (
        rules in (", Rending", ", Sniper", ", Bladestorm")
    )
    assert _gun_profile(gun) and not _gun_profile(GUARD)


def test_the_terrain_cover_remembered_is_the_one_worked_out() -> None:
    # terrain_covers is remembered by the battlefield and the two points (lru_cache):
    # for points in the open, in a ruin, behind it and behind a wood too, asked twice,
    # it gives the cover saves working it out gives, the area stood in counted as the
    # area seen through is.
    ruin = box("ruin", 20, 20, 30, 30, cover_save=4)
    wood = box("wood", 20, 35, 30, 40, cover_save=5)
    field = make_battle(terrain=[ruin, wood]).battlefield
    shooter = (25.0, 5.0)
    for _ in range(2):
        for target in ((5.0, 5.0), (25.0, 25.0), (25.0, 33.0), (25.0, 45.0), (25.0, 37.0)):
            expected = terrain_covers.__wrapped__(field, shooter, target)
            assert terrain_covers(field, shooter, target) == expected
    assert terrain_covers(field, shooter, (5.0, 5.0)) == ()
    assert terrain_covers(field, shooter, (25.0, 33.0)) == (4,)
    assert sorted(terrain_covers(field, shooter, (25.0, 45.0))) == [4, 5]


def test_a_weapon_decision_s_choices_remembered_are_the_weapons_then_stop() -> None:
    # weapon_choices is remembered by the names (lru_cache): the choices are each weapon
    # by its name, then "stop", as the shooting attack offered them.
    names = ("Lasgun", "Frag grenade")
    expected = (
        Choice("Lasgun", "Lasgun"),
        Choice("Frag grenade", "Frag grenade"),
        Choice("stop", ""),
    )
    assert weapon_choices(names) == weapon_choices.__wrapped__(names) == expected
    assert weapon_choices(names) == expected  # remembered
    assert weapon_choices(("Lasgun",)) == (Choice("Lasgun", "Lasgun"), Choice("stop", ""))
