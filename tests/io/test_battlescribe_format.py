"""The BattleScribe format features, on small hand-written files.

A game system and a catalogue written here exercise both XML encodings,
links into the game system, default selections, modifiers and notes, so the
importer is checked on the format rather than on the quirks of one data set.
"""

from __future__ import annotations

from pathlib import Path

from hammerlab.io.battlescribe import import_file

GAME_SYSTEM = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-1" name="Test System" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <profileTypes>
    <profileType id="pt-weapon" name="Weapon"/>
  </profileTypes>
  <sharedProfiles>
    <profile id="prof-bolter" name="Bolter" hidden="false" profileTypeId="pt-weapon">
      <characteristics>
        <characteristic name="Range" characteristicTypeId="ct-range" value="24&quot;"/>
        <characteristic name="Strength" characteristicTypeId="ct-str" value="4"/>
        <characteristic name="AP" characteristicTypeId="ct-ap" value="5"/>
        <characteristic name="Type" characteristicTypeId="ct-type" value="Rapid Fire"/>
      </characteristics>
    </profile>
  </sharedProfiles>
  <sharedRules>
    <rule id="rule-fearless" name="Fearless"><description>Never flees.</description></rule>
  </sharedRules>
</gameSystem>
"""

MIN_ONE = '<constraint field="selections" scope="parent" value="1.0" id="{id}" type="min"/>'

CATALOGUE = f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Test Army" gameSystemId="sys-1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <entryLinks>
    <entryLink id="link-squad" targetId="unit-squad" type="selectionEntry"/>
    <entryLink id="link-tank" targetId="unit-tank" type="selectionEntry"/>
  </entryLinks>
  <sharedSelectionEntries>
    <selectionEntry id="unit-squad" name="Test Squad" type="unit">
      <infoLinks><infoLink id="il-1" targetId="rule-fearless" type="rule"/></infoLinks>
      <selectionEntries>
        <selectionEntry id="m-leader" name="Leader" type="model">
          <constraints>
            {MIN_ONE.format(id="c-leader")}
            <constraint field="selections" scope="parent" value="1.0" id="c-leader-max" type="max"/>
          </constraints>
          <profiles>
            <profile id="p-leader" name="Leader" hidden="false" typeId="pt-unit" typeName="Unit">
              <characteristics>
                <characteristic name="Unit Type">Infantry (Character)</characteristic>
                <characteristic name="WS" typeId="ct-ws">4</characteristic>
                <characteristic name="BS" typeId="ct-bs">4</characteristic>
                <characteristic name="S" typeId="ct-s">4</characteristic>
                <characteristic name="T" typeId="ct-t">4</characteristic>
                <characteristic name="W" typeId="ct-w">2</characteristic>
                <characteristic name="I" typeId="ct-i">4</characteristic>
                <characteristic name="A" typeId="ct-a">2</characteristic>
                <characteristic name="Ld" typeId="ct-ld">9</characteristic>
                <characteristic name="Save" typeId="ct-save">3+/5++</characteristic>
              </characteristics>
            </profile>
          </profiles>
          <entryLinks>
            <entryLink id="link-combi" targetId="wg-combi" type="selectionEntry">
              <constraints>{MIN_ONE.format(id="c-combi")}</constraints>
            </entryLink>
          </entryLinks>
        </selectionEntry>
      </selectionEntries>
      <selectionEntryGroups>
        <selectionEntryGroup id="g-troopers" name="Troopers" defaultSelectionEntryId="m-trooper">
          <constraints>
            <constraint field="selections" scope="parent" value="4.0" id="c-t-min" type="min"/>
            <constraint field="selections" scope="parent" value="9.0" id="c-t-max" type="max"/>
          </constraints>
          <selectionEntries>
            <selectionEntry id="m-heavy" name="Heavy Trooper" type="model"/>
            <selectionEntry id="m-trooper" name="Trooper" type="model">
              <profiles>
                <profile id="p-trooper" name="Trooper" hidden="false" profileTypeId="pt-unit">
                  <modifiers>
                    <modifier type="set" field="ct-save" value="2+">
                      <conditions>
                        <condition field="selections" scope="parent" value="1" type="atLeast"/>
                      </conditions>
                    </modifier>
                  </modifiers>
                  <characteristics>
                    <characteristic name="Unit Type" value="Jump Infantry"/>
                    <characteristic name="WS" characteristicTypeId="ct-ws" value="3"/>
                    <characteristic name="BS" characteristicTypeId="ct-bs" value="3"/>
                    <characteristic name="S" characteristicTypeId="ct-s" value="3"/>
                    <characteristic name="T" characteristicTypeId="ct-t" value="3"/>
                    <characteristic name="W" characteristicTypeId="ct-w" value="1"/>
                    <characteristic name="I" characteristicTypeId="ct-i" value="3"/>
                    <characteristic name="A" characteristicTypeId="ct-a" value="1"/>
                    <characteristic name="Ld" characteristicTypeId="ct-ld" value="7"/>
                    <characteristic name="Save" characteristicTypeId="ct-save" value="4+"/>
                  </characteristics>
                </profile>
                <profile id="p-shield" name="Shield" hidden="false" profileTypeId="pt-wargear">
                  <characteristics>
                    <characteristic name="Description" characteristicTypeId="ct-d"
                      value="The shield grants a 4+ invulnerable save against shooting attacks."/>
                  </characteristics>
                </profile>
              </profiles>
              <entryLinks>
                <entryLink id="link-bolter" targetId="wg-bolter" type="selectionEntry">
                  <constraints>{MIN_ONE.format(id="c-bolter")}</constraints>
                </entryLink>
              </entryLinks>
            </selectionEntry>
          </selectionEntries>
        </selectionEntryGroup>
        <selectionEntryGroup id="g-options" name="Options">
          <constraints>{MIN_ONE.format(id="c-options")}</constraints>
          <selectionEntries>
            <selectionEntry id="o-1" name="Banner" type="upgrade"/>
            <selectionEntry id="o-2" name="Horn" type="upgrade"/>
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
    </selectionEntry>
    <selectionEntry id="unit-tank" name="Test Tank" type="model">
      <profiles>
        <profile id="p-tank" name="Test Tank" hidden="false" typeId="pt-vehicle" typeName="Vehicle">
          <characteristics>
            <characteristic name="BS" typeId="ct-bs">3</characteristic>
            <characteristic name="Front" typeId="ct-f">12</characteristic>
            <characteristic name="Side" typeId="ct-sd">11</characteristic>
            <characteristic name="Rear" typeId="ct-r">10</characteristic>
            <characteristic name="HP" typeId="ct-hp">3</characteristic>
          </characteristics>
        </profile>
      </profiles>
    </selectionEntry>
    <selectionEntry id="wg-bolter" name="Bolter" type="upgrade">
      <infoLinks><infoLink id="il-bolter" targetId="prof-bolter" type="profile"/></infoLinks>
    </selectionEntry>
    <selectionEntry id="wg-combi" name="Combi-flamer" type="upgrade">
      <infoLinks>
        <infoLink id="il-flamer" targetId="prof-flamer" type="profile">
          <modifiers><modifier type="append" field="ct-type" value=", One Use Only"/></modifiers>
        </infoLink>
      </infoLinks>
    </selectionEntry>
  </sharedSelectionEntries>
  <sharedProfiles>
    <profile id="prof-flamer" name="Flamer" hidden="false" typeId="pt-weapon" typeName="Weapon">
      <characteristics>
        <characteristic name="Range" typeId="ct-range">Template</characteristic>
        <characteristic name="Strength" typeId="ct-str">4</characteristic>
        <characteristic name="AP" typeId="ct-ap">5</characteristic>
        <characteristic name="Type" typeId="ct-type">Assault 1</characteristic>
      </characteristics>
    </profile>
  </sharedProfiles>
</catalogue>
"""


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_catalogue_with_its_game_system_beside_it(tmp_path: Path) -> None:
    write(tmp_path, "system.gst", GAME_SYSTEM)
    result = import_file(write(tmp_path, "army.cat", CATALOGUE))
    assert result.kind == "catalogue"
    assert [sheet.name for sheet in result.datasheets] == ["Test Squad", "Test Tank"]
    assert result.notes == ()
    squad = result.find("test squad")
    assert squad.army == "Test Army"
    assert squad.rules == ("Fearless",)  # a rule shared by the game system
    leader, troopers = squad.entries
    assert (leader.profile.name, leader.count, leader.variable) == ("Leader", 1, False)
    assert leader.profile.unit_type == "Infantry (Character)"
    assert (leader.profile.get("Sv"), leader.profile.invulnerable) == ("3+", 5)
    assert [dict(w.characteristics) for w in leader.weapons] == [
        {"Range": "Template", "S": "4", "AP": "5", "Type": "Assault 1, One Use Only"}
    ]
    assert (troopers.profile.name, troopers.count, troopers.variable) == ("Trooper", 4, True)
    assert troopers.profile.unit_type == "Jump Infantry"
    assert troopers.profile.get("Sv") == "4+"  # the conditional 2+ is not applied...
    assert any("2+" in note and "conditions" in note for note in squad.notes)  # ...but noted
    assert troopers.profile.invulnerable is None  # only against shooting: noted, not applied
    assert any("Shield" in note and "invulnerable" in note for note in squad.notes)
    assert troopers.rules == ("Shield",)
    assert [dict(w.characteristics) for w in troopers.weapons] == [
        {"Range": "24", "S": "4", "AP": "5", "Type": "Rapid Fire"}
    ]
    assert any("'Options'" in note and "no default" in note for note in squad.notes)
    tank = result.find("Test Tank")
    (hull,) = tank.entries  # issue 12 §2: BS 3, Front 12, Side 11, Rear 10, HP 3, no Type
    assert dict(hull.profile.characteristics) == {
        "BS": "3",
        "Front": "12",
        "Side": "11",
        "Rear": "10",
        "HP": "3",
    }
    assert (hull.profile.unit_type, hull.base_mm) == ("Vehicle", 100.0)
    assert result.reasons("Test Tank") == ()
    assert result.weapon_profiles == 1  # the Flamer; the Bolter is the game system's


def test_a_missing_game_system_is_reported_not_fatal(tmp_path: Path) -> None:
    result = import_file(write(tmp_path / "alone", "army.cat", CATALOGUE))
    assert any("Game system 'sys-1'" in note for note in result.notes)
    squad = result.find("Test Squad")
    assert squad.rules == ()
    assert any("'rule-fearless' could not be resolved" in note for note in squad.notes)
    assert any("'prof-bolter' could not be resolved" in note for note in squad.notes)
    troopers = next(e for e in squad.entries if e.profile.name == "Trooper")
    assert troopers.weapons == ()


def test_a_game_system_with_another_id_is_not_used(tmp_path: Path) -> None:
    write(tmp_path, "other.gst", GAME_SYSTEM.replace('id="sys-1"', 'id="sys-2"'))
    result = import_file(write(tmp_path, "army.cat", CATALOGUE))
    assert any("was not found" in note for note in result.notes)


def test_a_changed_file_is_imported_again(tmp_path: Path) -> None:
    path = write(tmp_path, "army.cat", CATALOGUE)
    first = import_file(path)
    path.write_text(CATALOGUE.replace('name="Test Squad"', 'name="Renamed Squad"'))
    assert first.find("Test Squad")
    assert import_file(path).find("Renamed Squad")


def test_a_link_back_to_a_containing_entry_is_noted_not_followed(tmp_path: Path) -> None:
    looping = CATALOGUE.replace(
        '<entryLink id="link-combi" targetId="wg-combi"',
        '<entryLink id="link-loop" targetId="m-leader" type="selectionEntry">'
        f"<constraints>{MIN_ONE.format(id='c-loop')}</constraints></entryLink>"
        '<entryLink id="link-combi" targetId="wg-combi"',
    )
    write(tmp_path, "system.gst", GAME_SYSTEM)
    squad = import_file(write(tmp_path, "army.cat", looping)).find("Test Squad")
    assert any("links back" in note for note in squad.notes)
    assert squad.model_count == 5


def test_links_resolve_through_a_linked_catalogue(tmp_path: Path) -> None:
    library = GAME_SYSTEM.replace("gameSystem", "catalogue").replace(
        'id="sys-1" name="Test System"', 'id="lib-1" name="Library" gameSystemId="sys-1"'
    )
    linking = CATALOGUE.replace(
        "<entryLinks>",
        '<catalogueLinks><catalogueLink id="cl" targetId="lib-1" type="catalogue"/>'
        "</catalogueLinks><entryLinks>",
        1,
    )
    write(tmp_path, "library.cat", library)
    result = import_file(write(tmp_path, "army.cat", linking))
    assert result.find("Test Squad").rules == ("Fearless",)
    assert [note for note in result.notes if "Linked catalogue" in note] == []
    assert any("Game system" in note for note in result.notes)
