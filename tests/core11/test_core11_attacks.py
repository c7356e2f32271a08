"""Making Attacks (04) on a battle, each weapon keyword down its branch with scripted dice."""

from __future__ import annotations

from core11_kit import (
    battle,
    events,
    game,
    gun,
    place,
    ruleset,
    script,
    sheet,
    shooting_phase,
    texts,
)

from hammerlab.editions.core11.attacks import Battery, resolve_battery
from hammerlab.editions.core11.events import (
    AttacksLost,
    BatteryUnresolved,
    DevastatingWounds,
    HitRollNeeds,
    MortalWoundsSuffered,
    NoSavePossible,
    SaveRolled,
    WoundsIgnored,
)
from hammerlab.editions.core11.melee import MELEE
from hammerlab.editions.core11.profiles import DefenceStats
from hammerlab.editions.core11.rolls import Situation, hit_terms
from hammerlab.editions.core11.shooting import shoot_with
from hammerlab.editions.core11.weapons import read_weapon
from hammerlab.engine.battle import Battle
from hammerlab.engine.battlefield import TerrainArea
from hammerlab.engine.controllers import FirstChoiceController, ScriptedController
from hammerlab.engine.datasheet import Datasheet, ModelEntry, Weapon
from hammerlab.engine.events import Event

NO_SAVE = 7
TARGET = DefenceStats(toughness=4, save=3, wounds=1, keywords=frozenset({"INFANTRY"}))


def _shoot(
    weapon_keywords: tuple[str, ...] = (),
    dice: tuple[int, ...] = (),
    *,
    attacks: str = "1",
    ap: int = 0,
    damage: str = "1",
    target: Datasheet | None = None,
    distance: float = 10.0,
    shooter_rules: tuple[str, ...] = (),
    shooter_keywords: tuple[str, ...] = ("INFANTRY",),
    shooter_wounds: int = 1,
    terrain: tuple[TerrainArea, ...] = (),
) -> Battle:
    """One model with a 24" weapon shoots the target ``distance`` inches away."""
    weapon = gun("gun", 24, attacks, 3, 4, ap, damage, weapon_keywords)
    shooter = place("a", sheet("Shooter", 1, [weapon], rules=shooter_rules, wounds=shooter_wounds,
                               keywords=shooter_keywords), "A", (10, 10))  # fmt: skip
    victim = place("b", target or sheet("Target", 5, save=NO_SAVE), "B", (10, 10 + distance))
    fight = battle([shooter, victim], list(dice), terrain=terrain)
    shoot_with(game(fight), shooter)
    assert fight.dice.remaining == 0  # type: ignore[attr-defined]
    return fight


def _shots(fight: Battle) -> Event:
    return fight.log.of_kind("shots")[0]


def test_04_hit_roll_wound_roll_and_save_with_ap() -> None:
    # Hit 3 (3+), wound 4 (S4 v T4), save 4 against Sv3+ AP-1 (4+): saved.
    target = sheet("Target", 5, save=3)
    fight = _shoot(dice=(3, 4, 4), ap=-1, target=target)
    assert (_shots(fight).hits, _shots(fight).wounds, _shots(fight).unsaved) == (1, 1, 0)  # type: ignore[attr-defined]
    assert any("save b.1 (4+)" in e.purpose for e in fight.log.of_kind("dice"))  # type: ignore[attr-defined]


def test_04_invulnerable_save_is_used_when_better_than_the_armour_save() -> None:
    # Sv3+ AP-3 gives 6+; the 4+ invulnerable save is better: a 4 saves.
    target = sheet("Target", 5, save=3, invulnerable=4)
    fight = _shoot(dice=(3, 4, 4), ap=-3, target=target)
    assert _shots(fight).unsaved == 0  # type: ignore[attr-defined]


def test_04_an_unmodified_1_fails_and_a_6_is_a_critical_hit() -> None:
    fight = _shoot(dice=(1,), weapon_keywords=("HEAVY",))  # stationary: +1, but 1 still fails
    assert _shots(fight).hits == 0  # type: ignore[attr-defined]
    fight = _shoot(dice=(6, 1))
    assert _shots(fight).critical_hits == 1  # type: ignore[attr-defined]


def test_13_08_cover_worsens_the_bs_of_the_attack_by_one() -> None:
    """13.08: "Each time a ranged attack targets a unit that has the benefit of cover
    against it, worsen the BS characteristic of that attack by 1." — BS 3+ becomes
    4+ (not a -1 modifier to the hit roll)."""
    ruin = TerrainArea("Ruin", ((5.0, 18.0), (40.0, 18.0), (40.0, 22.0), (5.0, 22.0)), cover_save=5)
    fight = _shoot(dice=(3,), terrain=(ruin,))  # a 3 misses BS 4+
    assert _shots(fight).hits == 0  # type: ignore[attr-defined]
    assert "(gun, 4+, modifier +0)" in fight.log.of_kind("dice")[0].purpose  # type: ignore[attr-defined]
    fight = _shoot(("IGNORES COVER",), (3, 1), terrain=(ruin,))
    assert _shots(fight).hits == 1  # type: ignore[attr-defined]


def test_the_log_says_why_a_hit_roll_is_worse_than_the_bs() -> None:
    # From a player's review (session 22, finding 4): "rolled 10D6 for hit rolls (Bolt
    # Rifle (Saturation), 4+, modifier +0)" of a BS 3+ weapon, and "cover" nowhere in the
    # log. 13.08: cover "worsen[s] the BS characteristic of that attack by 1": 3+ to 4+.
    ruin = TerrainArea("Ruin", ((5.0, 18.0), (40.0, 18.0), (40.0, 22.0), (5.0, 22.0)), cover_save=5)
    fight = _shoot(dice=(3,), terrain=(ruin,))
    (needs,) = events(fight, HitRollNeeds)
    assert (needs.characteristic, needs.skill, needs.need, needs.modifier) == ("BS", 3, 4, 0)
    assert needs.reasons == ("cover worsens BS by 1 (13.08)",)
    assert needs.text == (
        "  gun (Shooter [a]) at Target [b]: hit rolls of 4+, modifier +0, for BS 3+: "
        "cover worsens BS by 1 (13.08)"
    )
    # [HEAVY], the shooter stationary: "add 1 to the hit roll", by name.
    (needs,) = events(_shoot(("HEAVY",), (3, 1)), HitRollNeeds)
    assert (needs.need, needs.modifier, needs.reasons) == (3, 1, ("+1 [HEAVY]",))
    # A plain roll against the BS says nothing more than its dice.
    assert events(_shoot(dice=(1,)), HitRollNeeds) == []


def test_a_hit_roll_names_each_modifier_and_the_cap() -> None:
    # 10.06's -1 for a MONSTER/VEHICLE model in Close-quarters shooting and 17.03's -1
    # at an engaged MONSTER/VEHICLE unit: -2, capped at -1 (02.02.01); 10.07 in the open,
    # the unit moved: its target has cover (BS 3+ to 4+) and an unmodified 1-5 fails.
    rifle = read_weapon(gun(bs=3))
    penalised = Situation(close_quarters_penalty=True, engaged_target_penalty=True)
    assert hit_terms(rifle, TARGET, penalised).reasons == (
        "-1 close-quarters shooting (10.06)",
        "-1 an engaged MONSTER/VEHICLE target (17.03)",
        "capped at -1 (02.02.01)",
    )
    indirect = hit_terms(rifle, TARGET, Situation(indirect=True, spotted=True))
    assert (indirect.need, indirect.fails_up_to) == (4, 5)
    assert indirect.reasons == (
        "cover worsens BS by 1 (10.07: its target has the benefit of cover)",
        "an unmodified 1-5 fails (10.07: the unit moved)",
    )


def test_04_sustained_hits_add_hits_on_a_critical_hit() -> None:
    fight = _shoot(("SUSTAINED HITS 2",), (6, 4, 4, 1))  # 1 crit + 2 hits; 3 wound rolls
    assert (_shots(fight).hits, _shots(fight).wounds) == (3, 2)  # type: ignore[attr-defined]


def test_04_lethal_hits_wound_automatically() -> None:
    fight = _shoot(("LETHAL HITS",), (6,))  # no wound roll at all
    assert (_shots(fight).wounds, _shots(fight).critical_wounds) == (1, 0)  # type: ignore[attr-defined]


def _devastated(fight: Battle) -> DevastatingWounds:
    [event] = events(fight, DevastatingWounds)
    return event


def test_each_save_is_a_typed_event_with_its_need_and_result() -> None:
    """Code review s23, finding 4: a save was only a die's purpose string. Hit 3, wound
    4 (S4 v T4), then the save: Sv 3+ with AP-1 needs 4+ and a 4 saves; Sv 3+ with
    AP-3 is 6+, so a 4+ invulnerable save is taken and a 4 saves; Sv 2+ with AP0 needs
    2+ and an unmodified 1 fails."""
    fight = _shoot(dice=(3, 4, 4), ap=-1, target=sheet("Target", 5, save=3))
    assert events(fight, SaveRolled) == [SaveRolled("Target [b]", "b.1", 4, 4, True, False)]
    fight = _shoot(dice=(3, 4, 4), ap=-3, target=sheet("Target", 5, save=3, invulnerable=4))
    assert events(fight, SaveRolled) == [SaveRolled("Target [b]", "b.1", 4, 4, True, True)]
    fight = _shoot(dice=(3, 4, 1), target=sheet("Target", 5, save=2))
    assert events(fight, SaveRolled) == [SaveRolled("Target [b]", "b.1", 2, 1, False, False)]


def test_a_wound_no_save_can_stop_is_a_typed_event() -> None:
    """Sv 6+ worsened by AP-1 is 7+: no die is rolled for the save (hit 3, wound 4 are
    the only dice) and the log says which model had none, and what its armour needed."""
    fight = _shoot(dice=(3, 4), ap=-1, target=sheet("Target", 5, save=6))
    assert events(fight, NoSavePossible) == [NoSavePossible("Target [b]", "b.1", 7)]
    assert events(fight, SaveRolled) == []


def test_mortal_wounds_and_feel_no_pain_are_typed_events() -> None:
    """06.02's mortal wounds and Feel No Pain as fields, not prose (finding 4). A D3
    [DEVASTATING WOUNDS] critical wound (hit 3, wound 6) puts 3 mortal wounds on b.1;
    a failed hazard roll (a 2) 1 on the shooter's a.1; Feel No Pain 5+ against 3
    damage rolls 5, 2, 6 (2 ignored), then 5, 5, 6 (all 3 ignored: no wound lost)."""
    target = sheet("Intercessor", 5, save=3, wounds=2)
    fight = _shoot(("DEVASTATING WOUNDS",), (3, 6), damage="3", target=target)
    assert events(fight, MortalWoundsSuffered) == [
        MortalWoundsSuffered("Intercessor [b]", "b.1", 3, "gun")
    ]
    fight = _shoot(("HAZARDOUS",), (1, 2))
    assert events(fight, MortalWoundsSuffered) == [
        MortalWoundsSuffered("Shooter [a]", "a.1", 1, "hazardous")
    ]
    stubborn = sheet("Stubborn", 1, save=NO_SAVE, wounds=5, rules=("Feel No Pain 5+",))
    fight = _shoot((), (3, 4, 5, 2, 6), damage="3", target=stubborn)
    assert events(fight, WoundsIgnored) == [WoundsIgnored("Stubborn [b]", "b.1", 5, 3, 2)]
    fight = _shoot((), (3, 4, 5, 5, 6), damage="3", target=stubborn)
    assert events(fight, WoundsIgnored) == [WoundsIgnored("Stubborn [b]", "b.1", 5, 3, 3)]
    assert texts(fight, "wound") == []


def test_wounds_left_when_the_target_is_destroyed_are_a_typed_event() -> None:
    """Three hits (3, 3, 3) and three wounds (4, 4, 4) at a lone model with no save: the
    first wound slays it and the other 2 are lost. Two D1 [DEVASTATING WOUNDS] critical
    wounds (hit 3, 3; wound 6, 6) at a lone model: the first mortal wound slays it and
    the second is lost."""
    fight = _shoot((), (3, 3, 3, 4, 4, 4), attacks="3", target=sheet("Target", 1, save=NO_SAVE))
    assert events(fight, AttacksLost) == [AttacksLost("Shooter [a]", "gun", "Target [b]", 2, False)]
    lone = sheet("Target", 1, save=NO_SAVE)
    fight = _shoot(("DEVASTATING WOUNDS",), (3, 3, 6, 6), attacks="2", target=lone)
    assert events(fight, AttacksLost) == [AttacksLost("Shooter [a]", "gun", "Target [b]", 1, True)]


def test_04_devastating_wounds_end_the_attack_sequence_in_mortal_wounds() -> None:
    """[DEVASTATING WOUNDS] (11th-edition keyword text): a critical wound ends "the
    attack sequence for that attack" and "the target unit suffers a number of mortal
    wounds equal to the D characteristic": hit 3, wound 6, no save roll though the
    target has Sv 2+ (no die is left for one), one mortal wound slays a 1-wound model."""
    fight = _shoot(("DEVASTATING WOUNDS",), (3, 6), target=sheet("Target", 5, save=2))
    assert (_shots(fight).unsaved, _shots(fight).damage) == (1, 0)  # type: ignore[attr-defined]
    devastated = _devastated(fight)
    assert (devastated.critical_wounds, devastated.mortal_wounds) == (1, 1)
    assert (devastated.damage, devastated.models_destroyed) == (1, 1)
    assert [e.model for e in fight.log.of_kind("casualty")] == ["b.1"]  # type: ignore[attr-defined]


def test_04_devastating_wounds_damage_one_model_at_most_per_critical_wound() -> None:
    """The keyword text's own example: "An attack made with a [DEVASTATING WOUNDS] weapon
    with a D characteristic of 3 results in a critical wound against an Intercessor
    Squad, so inflicts 3 mortal wounds. The first 2 mortal wounds are sufficient to
    destroy 1 Intercessor model, so the remaining mortal wound is lost." Five W2
    models: one destroyed, the other four untouched."""
    target = sheet("Intercessor", 5, save=3, wounds=2)
    fight = _shoot(("DEVASTATING WOUNDS",), (3, 6), damage="3", target=target)
    devastated = _devastated(fight)
    assert (devastated.mortal_wounds, devastated.damage, devastated.models_destroyed) == (3, 2, 1)
    victim = fight.unit("b")
    assert [m.wounds_left for m in victim.models] == [0, 2, 2, 2, 2]


def test_04_devastating_wounds_come_after_the_normal_damage_of_the_attacks() -> None:
    """The order matters (session 22 core11 review, finding 3): "These are inflicted after
    resolving any normal damage inflicted by those attacks." A Nob (W2, Sv 4+) already
    down to 1 wound, and a Boy (W1, Sv 6+). Two attacks of a D1 [DEVASTATING WOUNDS]
    weapon hit (3, 3) and wound on 6 (critical) then 4 (S4 v T4). The normal wound comes
    first: 05.03 puts it on the wounded Nob, whose 4+ save passes on a 5; then the
    mortal wound, which 06.02 also gives the wounded Nob: the Nob dies and the Boy
    lives. (In roll order, the critical wound slew the Nob and the normal wound went to
    the Boy, whose 6+ save failed on the same 5: both died.)"""
    nob = ModelEntry(sheet("Nob", save=4, wounds=2).entries[0].profile, 1, ())
    boy = ModelEntry(sheet("Boy", save=6).entries[0].profile, 1, ())
    mob = Datasheet("Mob", "test", "core11", (nob, boy))
    weapon = gun("gun", attacks="2", keywords=("DEVASTATING WOUNDS",))
    shooter = place("a", sheet("Shooter", 1, [weapon]), "A", (10, 10))
    victim = place("b", mob, "B", (10, 20))
    victim.models[0].wounds_left = 1
    fight = battle([shooter, victim], [3, 3, 6, 4, 5])
    shoot_with(game(fight), shooter)
    assert fight.dice.remaining == 0  # type: ignore[attr-defined]
    assert [e.model for e in fight.log.of_kind("casualty")] == ["b.1"]  # type: ignore[attr-defined]
    assert victim.models[1].wounds_left == 1  # the Boy
    assert (_shots(fight).unsaved, _shots(fight).damage) == (1, 0)  # type: ignore[attr-defined]
    assert (_devastated(fight).damage, _devastated(fight).models_destroyed) == (1, 1)


def test_04_devastating_mortal_wounds_are_allocated_as_mortal_wounds_not_by_precision() -> None:
    """Mortal wounds go where 06.02 says ("if that unit contains one or more
    non-CHARACTER models, you must select one of those models"), not to the CHARACTER a
    [PRECISION] attack may pick: a wound roll of 6 slays a Guard, not the Leader."""
    leader = sheet("Leader", 1, save=NO_SAVE, keywords=("INFANTRY", "CHARACTER"))
    guards = sheet("Guard", 4, save=NO_SAVE)
    mixed = Datasheet("Retinue", "test", "core11", (*guards.entries, *leader.entries))
    weapon = gun("rifle", keywords=["PRECISION", "DEVASTATING WOUNDS"])
    shooter = place("a", sheet("Sniper", 1, [weapon]), "A", (10, 10))
    victim = place("b", mixed, "B", (10, 20))
    fight = battle([shooter, victim], [3, 6])
    shoot_with(game(fight), shooter)
    assert [e.model for e in fight.log.of_kind("casualty")] == ["b.1"]  # type: ignore[attr-defined]


def test_04_anti_makes_critical_wounds_against_the_keyword() -> None:
    fight = _shoot(("ANTI-INFANTRY 4+", "DEVASTATING WOUNDS"), (3, 4))
    assert _shots(fight).critical_wounds == 1  # type: ignore[attr-defined]


def test_04_twin_linked_rerolls_failed_wound_rolls() -> None:
    fight = _shoot(("TWIN-LINKED",), (3, 2, 5))
    assert _shots(fight).wounds == 1  # type: ignore[attr-defined]


def test_04_torrent_hits_without_a_roll() -> None:
    fight = _shoot(("TORRENT",), (4, 4), attacks="2")  # only the two wound rolls
    assert _shots(fight).hits == 2  # type: ignore[attr-defined]


def test_04_rapid_fire_and_melta_at_half_range() -> None:
    fight = _shoot(("RAPID FIRE 1",), (1, 1), distance=10)  # within 12": 2 attacks
    assert _shots(fight).attacks == 2  # type: ignore[attr-defined]
    fight = _shoot(("RAPID FIRE 1",), (1,), distance=14)
    assert _shots(fight).attacks == 1  # type: ignore[attr-defined]
    big = sheet("Tank", 1, toughness=4, save=NO_SAVE, wounds=10, keywords=("VEHICLE",))
    fight = _shoot(("MELTA 2",), (3, 4), damage="3", target=big)
    assert _shots(fight).damage == 5  # type: ignore[attr-defined]


def test_04_blast_adds_attacks_per_five_models() -> None:
    fight = _shoot(("BLAST 1",), (1, 1, 1), target=sheet("Horde", 10, save=NO_SAVE))
    assert _shots(fight).attacks == 3  # type: ignore[attr-defined]


def test_04_damage_excess_is_lost_and_a_wounded_model_takes_the_next_attack() -> None:
    target = sheet("Brutes", 2, save=NO_SAVE, wounds=3)
    # Three hits and wounds; D2: the first wound leaves b.1 on 1, the second destroys it
    # (the excess point is lost), the third goes to b.2.
    fight = _shoot((), (3, 3, 3, 4, 4, 4), attacks="3", damage="2", target=target)
    assert [e.text.strip() for e in fight.log.of_kind("wound")] == [
        "b.1 of Brutes [b] loses 2 wound(s), 1 left",
        "b.1 of Brutes [b] loses 1 wound(s), 0 left",
        "b.2 of Brutes [b] loses 2 wound(s), 1 left",
    ]


def test_04_feel_no_pain_ignores_points_of_damage() -> None:
    target = sheet("Stubborn", 1, save=NO_SAVE, wounds=5, rules=("Feel No Pain 5+",))
    fight = _shoot((), (3, 4, 5, 2, 6), damage="3", target=target)  # FNP rolls 5, 2, 6
    assert "loses 1 wound(s), 4 left" in texts(fight, "wound")[0]


def test_06_03_hazard_roll_fails_on_1_or_2_and_inflicts_one_mortal_wound() -> None:
    """06.03: "roll one D6: on a 1-2, that roll fails and that unit suffers: 1 mortal
    wound (06.02) Or 3 mortal wounds instead if each model in that unit is a
    MONSTER/VEHICLE model." — a CHARACTER no longer suffers 3 (10th edition)."""
    fight = _shoot(("HAZARDOUS",), (1, 2))  # the hit misses; the hazard roll (a 2) fails
    assert [e.cause for e in fight.log.of_kind("casualty")] == ["hazardous"]  # type: ignore[attr-defined]
    hero = ("CHARACTER", "INFANTRY")
    fight = _shoot(("HAZARDOUS",), (1, 1), shooter_keywords=hero, shooter_wounds=4)
    assert texts(fight, "casualty") == []
    assert texts(fight, "wound") == ["  a.1 of Shooter [a] loses 1 wound(s), 3 left"]
    fight = _shoot(("HAZARDOUS",), (1, 3))  # a 3 passes
    assert texts(fight, "casualty") == [] and texts(fight, "wound") == []


def test_04_one_shot_fires_once_per_battle() -> None:
    weapon = gun("missile", keywords=["ONE SHOT"])
    shooter = place("a", sheet("Shooter", 1, [weapon]), "A", (10, 10))
    victim = place("b", sheet("Target", 5, save=NO_SAVE), "B", (10, 20))
    fight = battle([shooter, victim], [1])
    played = game(fight)
    shooting_phase(played)
    shooting_phase(played)  # a second phase: the missile is spent
    assert len(fight.log.of_kind("shots")) == 1


def test_04_precision_lets_the_attacker_allocate_to_a_character() -> None:
    leader = sheet("Leader", 1, save=NO_SAVE, keywords=("INFANTRY", "CHARACTER"))
    guards = sheet("Guard", 4, save=NO_SAVE)
    mixed = Datasheet("Retinue", "test", "core11", (*guards.entries, *leader.entries))
    weapon = gun("rifle", keywords=["PRECISION"])
    shooter = place("a", sheet("Sniper", 1, [weapon]), "A", (10, 10))
    victim = place("b", mixed, "B", (10, 20))
    chooser = ScriptedController([("precision", "b.5 (Leader)")])
    fight = battle([shooter, victim], [3, 4], {"A": chooser})
    shoot_with(game(fight), shooter)
    assert [e.model for e in fight.log.of_kind("casualty")] == ["b.5"]  # type: ignore[attr-defined]


def test_04_the_defender_allocates_among_kinds_of_model() -> None:
    boss = ModelEntry(sheet("Boss", wounds=3, save=NO_SAVE).entries[0].profile, 1, ())
    grunts = sheet("Grunt", 4, save=NO_SAVE)
    mixed = Datasheet("Mob", "test", "core11", (boss, *grunts.entries))
    shooter = place("a", sheet("Shooter", 1, [gun()]), "A", (10, 10))
    victim = place("b", mixed, "B", (10, 20))
    defender = script(("allocate", "b.2 (Grunt)"))
    fight = battle([shooter, victim], [3, 4], {"B": defender})
    shoot_with(game(fight), shooter)
    assert [e.model for e in fight.log.of_kind("casualty")] == ["b.2"]  # type: ignore[attr-defined]


def test_04_an_unknown_keyword_is_reported_not_ignored_silently() -> None:
    fight = _shoot(("CONVERSION", "CONVERSION"), (1,))
    notes = [t for t in texts(fight, "message") if "CONVERSION" in t]
    assert notes == ["note: weapon gun: keyword CONVERSION: not implemented, no effect"]


def test_04_an_unknown_keyword_is_reported_at_the_start_though_the_weapon_never_fires() -> None:
    """Reported once before the first turn (``Core11Ruleset.start``), for a unit that
    is never picked to shoot as for one that is."""
    shooter = place("a", sheet("Shooter", 1, [gun()]), "A", (10, 10))
    idle = place("b", sheet("Idle", 1, [gun(keywords=("CONVERSION",))]), "B", (10, 40))
    fight = battle([shooter, idle])
    ruleset().start(fight)
    notes = [t for t in texts(fight, "message") if "CONVERSION" in t]
    assert notes == ["note: weapon gun: keyword CONVERSION: not implemented, no effect"]


def test_04_ai_allocates_to_rank_and_file_first() -> None:
    boss = ModelEntry(sheet("Boss", wounds=3, save=NO_SAVE).entries[0].profile, 1, ())
    mixed = Datasheet("Mob", "test", "core11", (boss, *sheet("Grunt", 4, save=NO_SAVE).entries))
    shooter = place("a", sheet("Shooter", 1, [gun()]), "A", (10, 10))
    victim = place("b", mixed, "B", (10, 20))
    fight = battle([shooter, victim], [3, 4], {"A": FirstChoiceController(), "B": ruleset().ai()})
    shoot_with(game(fight), shooter)
    assert [e.model for e in fight.log.of_kind("casualty")] == ["b.2"]  # type: ignore[attr-defined]


def test_a_melee_battery_at_a_destroyed_target_is_a_typed_fight_event() -> None:
    """Review s24, code 3: ``resolve_battery`` resolves melee batteries too, but said its
    "is gone" line under the shooting topic, in prose. A melee battery whose target is
    destroyed before its first group strikes rolls no dice, and says so as a typed
    event marked melee (its target and reason fields)."""
    blade = Weapon("blade", {"Range": "Melee", "A": "1", "WS": "3+", "S": "4", "AP": "0", "D": "1"})
    a = place("a", sheet("Squad", 1, [blade]), "A", (10, 10))
    b = place("b", sheet("Foes"), "B", (10, 11.5))
    fight = battle([a, b])
    for model in b.models:
        model.wounds_left = 0  # destroyed by an earlier battery
    battery = Battery(blade, read_weapon(blade), a.models, target="b", target_models=1)
    resolve_battery(game(fight), a, battery, a.models, MELEE)
    assert events(fight, BatteryUnresolved) == [
        BatteryUnresolved("Squad [a]", "blade", "Foes [b]", "target_gone", True)
    ]
    assert not [e for e in fight.log.events if e.kind in ("dice", "message")]
