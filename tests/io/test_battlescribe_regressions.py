"""Regression tests for importer bugs found in review, one (or a few) per bug.

Each test names what went wrong before the fix: a unit silently misread, or
an exception other than ``InputError`` escaping from a bad file.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from hammerlab.cli import import_cmd
from hammerlab.editions.waffle.profiles import stats_of, weapon_of
from hammerlab.engine.datasheet import Datasheet, Weapon
from hammerlab.errors import InputError
from hammerlab.io.battlescribe import clear_cache, import_file
from hammerlab.io.battlescribe.profiles import (
    RawProfile,
    normalise_strength,
    normalise_type,
    weapon,
)
from hammerlab.io.battlescribe.saves import split_save

DATA = Path(__file__).resolve().parents[1] / "data"
CAT_NS = "http://www.battlescribe.net/schema/catalogueSchema"
GST_NS = "http://www.battlescribe.net/schema/gameSystemSchema"
ROS_NS = "http://www.battlescribe.net/schema/rosterSchema"


def shared(name: str) -> Path:
    """A data file copied into ``tests/data``; a missing one fails the test."""
    path = DATA / name
    assert path.is_file(), f"test data missing: {path}"
    return path


def model_profile(name: str, save: str = "3+") -> str:
    """A newer-encoding model profile (WS 4 ... Save ``save``)."""
    values = dict.fromkeys(("WS", "BS", "S", "T", "W", "I", "A", "Ld"), "4") | {"Save": save}
    cells = "".join(
        f'<characteristic name="{key}" typeId="t-{key}">{value}</characteristic>'
        for key, value in values.items()
    )
    return (
        f'<profiles><profile id="p-{name}" name="{name}" typeName="Unit">'
        f"<characteristics>{cells}</characteristics></profile></profiles>"
    )


def one_unit_catalogue(tmp_path: Path, unit_body: str, shared_body: str = "") -> Path:
    """A catalogue holding one unit entry ``Hero`` (its inner XML given)."""
    path = tmp_path / "army.cat"
    path.write_text(
        f'<catalogue id="c" name="Army" xmlns="{CAT_NS}">{shared_body}<sharedSelectionEntries>'
        f'<selectionEntry id="u" name="Hero" type="unit">{unit_body}</selectionEntry>'
        "</sharedSelectionEntries></catalogue>"
    )
    return path


def hero(path: Path) -> Datasheet:
    clear_cache()
    return import_file(path).find("Hero")


# -- units silently misread ----------------------------------------------------


def test_an_invulnerable_save_alone_is_not_an_armour_save(tmp_path: Path) -> None:
    # Before: Save "5++" stayed Sv "5++", which stats_of reads as a 5+ armour save.
    assert split_save("5++") == ("-", 5)
    assert split_save("3+/5++") == ("3+", 5)
    sheet = hero(one_unit_catalogue(tmp_path, model_profile("Daemon", save="5++")))
    profile = sheet.entries[0].profile
    assert (profile.get("Sv"), profile.invulnerable) == ("-", 5)
    assert (stats_of(profile).sv, stats_of(profile).invulnerable) == (None, 5)


@pytest.mark.parametrize(
    ("written", "read"),
    [("2x", "x2"), ("X2", "x2"), ("x 2", "x2"), ("+ 1", "+1"), ("user", "User"), ("4", "4")],
)
def test_strength_is_written_the_way_weapon_of_reads_it(written: str, read: str) -> None:
    assert normalise_strength(written) == read


def test_a_strength_of_2x_in_the_data_reads_as_double_strength() -> None:
    # Warhammer40K.gst line 7771: Malleus Argyrum, Strength "2x". Before: kept
    # as written, which weapon_of refuses, so Grand Master Voldus was unusable.
    path = shared("bsdata-7e/Space Marines - Codex (2015).cat")
    voldus = import_file(path).find("Grand Master Voldus, Warden of the Librarius")
    hammer = next(w for w in voldus.weapons() if w.name == "Malleus Argyrum")
    assert hammer.get("S") == "x2"
    assert (weapon_of(hammer).strength.mode, weapon_of(hammer).strength.value) == ("times", 2)


def test_a_blast_written_with_its_size_in_brackets_keeps_its_marker() -> None:
    # HH_Test.ros line 580: Ignis blaze, Type 'Heavy 1 , Blind, Parabolic Shot,
    # Blast (3")'. Before: "Blast (3")" was read as an unknown rule, so the
    # weapon fired one shot at one model instead of a 3" blast.
    sheet = import_file(shared("rosters/HH_Test.ros")).find("Secutarii Peltast Phalanx")
    ignis = next(w for w in sheet.weapons() if w.name == "Ignis blaze")
    assert ignis.get("Type") == "Heavy 1, Blind, Parabolic Shot, Blast"
    assert weapon_of(ignis).blast == 3.0


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ('Heavy 1, Blast (5")', "Heavy 1, Large Blast"),
        ("Assault 1, Poisoned 2+", "Assault 1, Poisoned (2+)"),
        ("Melee, Poison 4+", "Melee, Poisoned (4+)"),
        ("Assault 2,  Ignores  Cover", "Assault 2, Ignores Cover"),
        ("Rapid Fire", "Rapid Fire"),
        ('Ordnance 1, 7" Blast', 'Ordnance 1, 7" Blast'),  # no Waffle marker: left as written
    ],
)
def test_weapon_types_are_written_the_way_weapon_of_reads_them(written: str, read: str) -> None:
    assert normalise_type(written) == read


def test_poisoned_without_brackets_is_read_as_poisoned() -> None:
    values = {"Range": '12"', "Strength": "1", "AP": "-", "Type": "Assault 1, Poisoned 3+"}
    raw = RawProfile("Venom", "Weapon", values)
    assert weapon_of(weapon(raw)).rule_value("Poisoned") == 3


def test_a_ranged_weapon_with_no_range_is_noted() -> None:
    # Tyranids - Codex.cat: Spore Mine Cysts, Range "-", Type "Assault 1,
    # Barrage, Large Blast...": weapon_of reads no range, so it never fires.
    harpy = import_file(shared("bsdata-7e/Tyranids - Codex.cat")).find("Harpy")
    assert any(
        note.startswith("Weapon 'Spore Mine Cysts' is a ranged weapon") and "never fires" in note
        for note in harpy.notes
    )


def test_a_link_without_a_target_resolves_to_nothing(tmp_path: Path) -> None:
    # Before: every element without an id was indexed under "", so a link
    # without targetId picked up whichever came first (here a stray rule).
    path = one_unit_catalogue(
        tmp_path,
        model_profile("Hero") + '<infoLinks><infoLink id="l" name="Lost" type="rule"/></infoLinks>',
        shared_body='<sharedRules><rule name="Stray"><description>x</description></rule>'
        "</sharedRules>",
    )
    sheet = hero(path)
    assert "Stray" not in sheet.rules
    assert "Linked rule 'Lost' could not be resolved; left out." in sheet.notes


def test_info_groups_without_ids_are_each_read(tmp_path: Path) -> None:
    # Before: groups were remembered by id, so a second group without one was skipped.
    groups = "".join(
        f'<infoGroup name="G{n}"><rules><rule id="r{n}" name="Rule {n}"><description>x'
        "</description></rule></rules></infoGroup>"
        for n in (1, 2)
    )
    body = model_profile("Hero") + f"<infoGroups>{groups}</infoGroups>"
    sheet = hero(one_unit_catalogue(tmp_path, body))
    assert {"Rule 1", "Rule 2"} <= set(sheet.rules)


def test_a_minimum_of_minus_one_means_no_minimum(tmp_path: Path) -> None:
    # BattleScribe writes -1 for "no limit". Before: a min of -1 was refused
    # as a selection count outside 0..10000, failing the whole file.
    minimum = '<constraint field="selections" scope="parent" value="-1.0" id="c" type="min"/>'
    path = one_unit_catalogue(
        tmp_path,
        '<selectionEntries><selectionEntry id="m" name="Guard" type="model">'
        f"<constraints>{minimum}</constraints>{model_profile('Guard')}</selectionEntry>"
        '<selectionEntry id="s" name="Sergeant" type="model"><constraints>'
        '<constraint field="selections" scope="parent" value="1" id="c2" type="min"/>'
        f"</constraints>{model_profile('Sergeant')}</selectionEntry></selectionEntries>",
    )
    assert [(e.profile.name, e.count) for e in hero(path).entries] == [("Sergeant", 1)]


# -- exceptions other than InputError ------------------------------------------


def test_a_model_selected_zero_times(tmp_path: Path) -> None:
    # Before: ZeroDivisionError sharing its weapons out over zero models.
    path = tmp_path / "zero.ros"
    gun = (
        '<selection name="Gun" number="2" type="upgrade"><profiles><profile name="Gun" '
        'typeName="Weapon"><characteristics><characteristic name="Range">24"</characteristic>'
        '<characteristic name="Strength">4</characteristic><characteristic name="AP">5'
        '</characteristic><characteristic name="Type">Assault 1</characteristic>'
        "</characteristics></profile></profiles></selection>"
    )
    path.write_text(
        f'<roster id="r" name="R" xmlns="{ROS_NS}"><forces><force catalogueName="Army">'
        '<selections><selection name="Hero" number="1" type="unit"><selections>'
        f'<selection name="Guard" number="0" type="model">{model_profile("Guard")}'
        f"<selections>{gun}</selections></selection></selections></selection></selections>"
        "</force></forces></roster>"
    )
    sheet = hero(path)
    assert sheet.entries == ()
    assert "Model 'Guard' is selected 0 times; left out." in sheet.notes


def test_a_nul_byte_in_the_path_is_an_input_error() -> None:
    # Before: ValueError("embedded null byte") from Path.resolve/stat.
    with pytest.raises(InputError, match="not a valid file path"):
        import_file("army\0.cat")


@pytest.mark.parametrize("encoding", ["nan", "shift_jis", "rot13", "idna", "utf-7"])
def test_an_unusable_xml_encoding_is_an_input_error(tmp_path: Path, encoding: str) -> None:
    # Before: LookupError / ValueError / UnicodeError straight from expat.
    path = tmp_path / "army.cat"
    path.write_text(f'<?xml version="1.0" encoding="{encoding}"?><catalogue id="c" name="A"/>')
    clear_cache()
    with pytest.raises(InputError, match="encoding"):
        import_file(path)


def test_a_junk_file_beside_a_catalogue_does_not_break_it(tmp_path: Path) -> None:
    # Before: finding the game system read every .gst's first element, and a
    # neighbour declaring encoding="nan" raised LookupError for the catalogue.
    (tmp_path / "junk.gst").write_text(
        f'<?xml version="1.0" encoding="nan"?><gameSystem id="s" xmlns="{GST_NS}"/>'
    )
    path = one_unit_catalogue(tmp_path, model_profile("Hero"))
    path.write_text(path.read_text().replace('name="Army"', 'name="Army" gameSystemId="s"'))
    clear_cache()
    result = import_file(path)
    assert result.find("Hero").entries
    assert any("Game system 's' (.gst) was not found" in note for note in result.notes)


def test_deep_modifier_groups_on_a_profile_no_unit_uses(tmp_path: Path) -> None:
    # Before: only unit building was guarded against RecursionError; counting
    # the file's weapon profiles reads every profile, and raised it.
    depth = 3000
    nested = "<modifierGroups><modifierGroup>" * depth + "</modifierGroup></modifierGroups>" * depth
    path = tmp_path / "system.gst"
    path.write_text(
        f'<gameSystem id="s" name="S" xmlns="{GST_NS}"><sharedProfiles>'
        f'<profile id="p" name="Gun" typeName="Weapon">{nested}</profile>'
        "</sharedProfiles></gameSystem>"
    )
    clear_cache()
    with pytest.raises(InputError, match="nested too deeply"):
        import_file(path)


ROSTER = f'<roster id="r" name="R" xmlns="{ROS_NS}"><forces/></roster>'.encode()


def _zip(members: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=method) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA])
def test_corrupt_compressed_data_in_a_rosz_is_an_input_error(tmp_path: Path, method: int) -> None:
    # Before: zlib.error / lzma.LZMAError escaped, and bzip2's OSError read
    # "cannot read the file (None)".
    data = bytearray(_zip({"list.ros": ROSTER * 20}, method))
    info = zipfile.ZipFile(io.BytesIO(bytes(data))).infolist()[0]
    start = info.header_offset + 30 + len(info.filename)
    data[start + 8 : start + 40] = b"\xff" * 32
    path = tmp_path / "list.rosz"
    path.write_bytes(bytes(data))
    clear_cache()
    with pytest.raises(InputError) as caught:
        import_file(path)
    assert "None" not in caught.value.problem


def test_a_rosz_member_name_marked_utf8_that_is_not(tmp_path: Path) -> None:
    # Before: UnicodeDecodeError from zipfile decoding the member name.
    data = _zip({"lisé.ros": ROSTER}).replace("é".encode(), b"\x85\x85")
    path = tmp_path / "list.rosz"
    path.write_bytes(data)
    clear_cache()
    with pytest.raises(InputError, match="zip"):
        import_file(path)


def test_a_member_name_with_a_line_break_still_gives_one_error_line(tmp_path: Path) -> None:
    # Before: the member name went into the message as it was, on two lines.
    path = tmp_path / "list.rosz"
    path.write_bytes(_zip({"evil\n/../list.ros": ROSTER}))
    clear_cache()
    with pytest.raises(InputError) as caught:
        import_file(path)
    assert caught.value.where == "evil\\n/../list.ros"
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """A stand-in for the hammerlab app."""

    import_cmd.register(app)
    run = CliRunner().invoke(app, ["import", str(path)])
    assert run.exit_code == 1
    assert len(run.stderr.splitlines()) == 1 and run.stderr.startswith("error: ")


def test_the_mapped_weapon_is_an_engine_weapon() -> None:
    raw = RawProfile("Gun", "Weapon", {"Range": '24"', "S": "2x", "AP": "-", "Type": "Heavy 1 "})
    assert weapon(raw) == Weapon("Gun", {"Range": "24", "S": "x2", "AP": "-", "Type": "Heavy 1"})
