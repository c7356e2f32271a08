"""Hostile or odd BattleScribe input found in issue 10, each a regression test.

Measured before the fixes (2-core machine): a neighbouring file with 40 MB
before its root element took 49-111 s to identify; a 49 MB catalogue of 12.8
million empty elements took 34 s and 2.1 GB; two groups linking each other
rejected the whole catalogue as "nested too deeply".
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hammerlab.errors import InputError
from hammerlab.io.battlescribe import clear_cache, import_file
from hammerlab.io.battlescribe.source import MAX_XML_ELEMENTS, ROOT_SCAN_BYTES

CAT_NS = "http://www.battlescribe.net/schema/catalogueSchema"
GST_NS = "http://www.battlescribe.net/schema/gameSystemSchema"
PROFILE = (
    '<profiles><profile id="p" name="Hero" typeName="Unit"><characteristics>'
    + "".join(
        f'<characteristic name="{key}" typeId="t-{key}">4</characteristic>'
        for key in ("WS", "BS", "S", "T", "W", "I", "A", "Ld")
    )
    + '<characteristic name="Save" typeId="t-Save">3+</characteristic>'
    "</characteristics></profile></profiles>"
)
"""A model profile: WS 4 ... Ld 4, Save 3+."""


def catalogue(body: str = "", system: str = "") -> str:
    attribute = f' gameSystemId="{system}"' if system else ""
    return f'<catalogue id="c" name="Army"{attribute} xmlns="{CAT_NS}">{body}</catalogue>'


def test_a_neighbour_is_identified_from_its_first_kilobytes_only(tmp_path: Path) -> None:
    system = f'<gameSystem id="sys" name="S" xmlns="{GST_NS}"/>'.encode()
    far = tmp_path / "far"
    near = tmp_path / "near"
    for folder, padding in ((far, ROOT_SCAN_BYTES), (near, 100)):
        folder.mkdir()
        (folder / "army.cat").write_text(catalogue(system="sys"))
        (folder / "system.gst").write_bytes(b"<!--" + b"x" * padding + b"-->" + system)
    clear_cache()
    notes = import_file(far / "army.cat").notes
    assert notes == (
        "Game system 'sys' (.gst) was not found next to the file; links into it stay unresolved.",
    )
    assert import_file(near / "army.cat").notes == ()


def test_too_many_elements_are_refused_before_parsing(tmp_path: Path) -> None:
    path = tmp_path / "many.cat"
    # The root plus MAX_XML_ELEMENTS empty elements: one too many.
    path.write_bytes(
        f'<catalogue id="c" name="A" xmlns="{CAT_NS}">'.encode()
        + b"<a/>" * MAX_XML_ELEMENTS
        + b"</catalogue>"
    )
    clear_cache()
    with pytest.raises(InputError) as caught:
        import_file(path)
    assert caught.value.problem == "more than 500,000 XML elements (tags); refused"


def test_groups_linking_each_other_are_noted_and_the_unit_kept(tmp_path: Path) -> None:
    path = tmp_path / "army.cat"
    group_link = '<entryLinks><entryLink id="{0}" name="{1}" targetId="{1}" ' \
        'type="selectionEntryGroup"/></entryLinks>'  # fmt: skip
    path.write_text(
        catalogue(
            "<sharedSelectionEntries>"
            f'<selectionEntry id="u" name="Hero" type="unit">{PROFILE}'
            + group_link.format("l1", "g1")
            + "</selectionEntry></sharedSelectionEntries><sharedSelectionEntryGroups>"
            + '<selectionEntryGroup id="g1" name="g1">'
            + group_link.format("l2", "g2")
            + '</selectionEntryGroup><selectionEntryGroup id="g2" name="g2">'
            + group_link.format("l3", "g1")
            + "</selectionEntryGroup></sharedSelectionEntryGroups>"
        )
    )
    clear_cache()
    hero = import_file(path).find("Hero")
    assert hero.model_count == 1
    assert "Group 'g1' links back to a group containing it; not followed." in hero.notes


def test_utf16_files_import_like_utf8_and_other_multibyte_encodings_are_refused(
    tmp_path: Path,
) -> None:
    text = catalogue(
        f'<sharedSelectionEntries><selectionEntry id="u" name="Héros" type="unit">{PROFILE}'
        "</selectionEntry></sharedSelectionEntries>"
    )
    declared = '<?xml version="1.0" encoding="{}"?>' + text
    (tmp_path / "utf8.cat").write_bytes(declared.format("UTF-8").encode("utf-8"))
    (tmp_path / "utf16.cat").write_bytes(declared.format("UTF-16").encode("utf-16"))
    shift_jis = declared.format("Shift_JIS").replace("é", "e")
    (tmp_path / "sjis.cat").write_bytes(shift_jis.encode("shift_jis"))
    clear_cache()
    utf8 = import_file(tmp_path / "utf8.cat").find("Héros")
    utf16 = import_file(tmp_path / "utf16.cat").find("Héros")
    assert utf16.entries == utf8.entries
    with pytest.raises(InputError) as caught:
        import_file(tmp_path / "sjis.cat")
    assert caught.value.problem == "the XML declares an unknown or unsupported character encoding"
