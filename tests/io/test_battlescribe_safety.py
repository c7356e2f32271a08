"""Malformed and hostile BattleScribe files: each one is an InputError."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from hammerlab.errors import InputError
from hammerlab.io.battlescribe import import_file

CAT_NS = "http://www.battlescribe.net/schema/catalogueSchema"
ROS_NS = "http://www.battlescribe.net/schema/rosterSchema"
TINY_ROSTER = f'<roster id="r" name="R" xmlns="{ROS_NS}"><forces/></roster>'

BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<catalogue id="c" name="&lol4;" xmlns="http://www.battlescribe.net/schema/catalogueSchema"/>
"""

EXTERNAL_ENTITY = """<?xml version="1.0"?>
<!DOCTYPE roster [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<roster id="r" name="&secret;" xmlns="http://www.battlescribe.net/schema/rosterSchema"/>
"""


def rejected(path: Path | str) -> InputError:
    """The InputError importing ``path`` raises (and nothing else)."""
    with pytest.raises(InputError) as caught:
        import_file(path)
    error = caught.value
    assert error.source == str(path)
    assert error.problem
    assert "\n" not in str(error)
    return error


def write_zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def test_billion_laughs_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "laughs.cat"
    path.write_text(BILLION_LAUGHS)
    assert "DTD" in rejected(path).problem


def test_external_entity_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "passwd.ros"
    path.write_text(EXTERNAL_ENTITY)
    error = rejected(path)
    assert "root" not in error.problem  # nothing of /etc/passwd leaks into the message


def test_zip_bomb_is_refused(tmp_path: Path) -> None:
    bomb = write_zip(tmp_path / "bomb.rosz", {"bomb.ros": b" " * (20 * 1024 * 1024)})
    assert "compression ratio" in rejected(bomb).problem


@pytest.mark.parametrize("member", ["../escape.ros", "/etc/absolute.ros", "a/../../b.ros"])
def test_rosz_members_outside_the_archive_are_refused(tmp_path: Path, member: str) -> None:
    path = write_zip(tmp_path / "evil.rosz", {member: TINY_ROSTER.encode()})
    assert rejected(path).where == member


@pytest.mark.parametrize(
    "members",
    [
        {},
        {"a.ros": b"x", "b.ros": b"y"},
        {"notes.txt": b"x"},
        {"r.ros": TINY_ROSTER.encode()} | {f"padding{n}.txt": b"" for n in range(20)},
    ],
)
def test_rosz_must_hold_one_roster(tmp_path: Path, members: dict[str, bytes]) -> None:
    rejected(write_zip(tmp_path / "odd.rosz", members))


def test_a_rosz_that_is_not_a_zip_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "plain.rosz"
    path.write_text(TINY_ROSTER)
    assert "zip" in rejected(path).problem


def test_a_valid_rosz_still_imports(tmp_path: Path) -> None:
    path = write_zip(tmp_path / "fine.rosz", {"fine.ros": TINY_ROSTER.encode()})
    assert import_file(path).kind == "roster"


def test_truncated_file(tmp_path: Path) -> None:
    whole = f'<catalogue id="c" name="C" xmlns="{CAT_NS}"><sharedSelectionEntries>'
    path = tmp_path / "cut.cat"
    path.write_text(whole + '<selectionEntry id="x" name="Half')
    assert rejected(path).where.startswith("line 1")


def test_not_xml(tmp_path: Path) -> None:
    path = tmp_path / "image.cat"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00binary")
    assert "not well-formed" in rejected(path).problem


def test_wrong_root_element(tmp_path: Path) -> None:
    path = tmp_path / "roster-in-disguise.cat"
    path.write_text(TINY_ROSTER)
    error = rejected(path)
    assert (error.where, "<catalogue>" in error.problem) == ("roster", True)


def test_missing_file(tmp_path: Path) -> None:
    assert rejected(tmp_path / "nowhere.cat").problem == "file not found"


def test_unsupported_file_type(tmp_path: Path) -> None:
    path = tmp_path / "army.txt"
    path.write_text("hello")
    assert "unsupported file type" in rejected(path).problem


def test_absurd_counts_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "huge.cat"
    path.write_text(
        f'<catalogue id="c" name="C" xmlns="{CAT_NS}"><sharedSelectionEntries>'
        '<selectionEntry id="u" name="Horde" type="unit"><selectionEntries>'
        '<selectionEntry id="m" name="Grot" type="model"><constraints>'
        '<constraint field="selections" scope="parent" value="1e9" id="c1" type="min"/>'
        "</constraints></selectionEntry></selectionEntries></selectionEntry>"
        "</sharedSelectionEntries></catalogue>"
    )
    assert "outside" in rejected(path).problem


def test_deeply_nested_entries_are_refused(tmp_path: Path) -> None:
    depth = 200
    minimum = '<constraints><constraint field="selections" scope="parent" value="1" type="min"/>'
    opening = "".join(
        f'<selectionEntries><selectionEntry id="e{i}" name="E{i}" type="upgrade">'
        f"{minimum}</constraints>"
        for i in range(depth)
    )
    closing = "</selectionEntry></selectionEntries>" * depth
    path = tmp_path / "deep.cat"
    path.write_text(
        f'<catalogue id="c" name="C" xmlns="{CAT_NS}"><sharedSelectionEntries>'
        f'<selectionEntry id="u" name="Deep" type="unit">{opening}{closing}</selectionEntry>'
        "</sharedSelectionEntries></catalogue>"
    )
    assert "nest" in rejected(path).problem


def test_deeply_nested_roster_selections_are_refused(tmp_path: Path) -> None:
    depth = 5000
    opening = '<selection name="S" number="1" type="upgrade"><selections>' * depth
    closing = "</selections></selection>" * depth
    path = tmp_path / "deep.ros"
    path.write_text(
        f'<roster id="r" name="R" xmlns="{ROS_NS}"><forces><force catalogueName="X">'
        f'<selections><selection name="U" number="1" type="unit"><selections>{opening}'
        f"{closing}</selections></selection></selections></force></forces></roster>"
    )
    assert "nested too deeply" in rejected(path).problem


def test_links_that_fan_out_exponentially_are_refused(tmp_path: Path) -> None:
    minimum = '<constraints><constraint field="selections" scope="parent" value="1" type="min"/>'
    twice = "".join(
        f'<entryLink id="l{{level}}{n}" targetId="e{{target}}" type="selectionEntry">'
        f"{minimum}</constraints></entryLink>"
        for n in "ab"
    )
    entries = "".join(
        f'<selectionEntry id="e{level}" name="E{level}" type="upgrade"><entryLinks>'
        + twice.format(level=level, target=level + 1)
        + "</entryLinks></selectionEntry>"
        for level in range(30)
    )
    path = tmp_path / "fan.cat"
    path.write_text(
        f'<catalogue id="c" name="C" xmlns="{CAT_NS}"><sharedSelectionEntries>'
        '<selectionEntry id="u" name="Fan" type="unit"><entryLinks>'
        f'<entryLink id="root" targetId="e0" type="selectionEntry">{minimum}</constraints>'
        f"</entryLink></entryLinks></selectionEntry>{entries}<selectionEntry id='e30'"
        ' name="Leaf" type="upgrade"/></sharedSelectionEntries></catalogue>'
    )
    assert "default selections" in rejected(path).problem


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("orks.cat", "a zip archive, not XML (a .catz renamed?): unzip it and give the .cat file"),
        ("system.gst", "a zip archive, not XML (a .gstz renamed?): unzip it and give the .gst"),
        ("list.ros", "a zip archive, not XML: name a zipped roster .rosz"),
    ],
)
def test_a_zip_named_as_xml_says_it_is_a_zip_archive(
    tmp_path: Path, name: str, problem: str
) -> None:
    # A player's review: a zipped catalogue renamed .cat read "line 1, column 2: not
    # well-formed XML (invalid token)", as if the XML were broken. BattleScribe zips
    # rosters as .rosz (read as such) and catalogues as .catz (to unzip).
    path = write_zip(tmp_path / name, {"inside" + name[-4:]: TINY_ROSTER.encode()})
    error = rejected(path)
    assert error.where == ""
    assert error.problem.startswith(problem)


def test_a_damaged_roster_inside_a_rosz_is_named(tmp_path: Path) -> None:
    # A .rosz whose .ros member is cut short: the line and column are the member's,
    # so the member is named before them (the review's message named the archive only).
    cut = TINY_ROSTER[:40]
    path = write_zip(tmp_path / "army.rosz", {"my army.ros": cut.encode()})
    error = rejected(path)
    assert error.where.startswith("my army.ros: line 1, column ")
    assert "not well-formed XML" in error.problem
    wrong = write_zip(
        tmp_path / "cat.rosz", {"army.ros": f'<catalogue xmlns="{CAT_NS}"/>'.encode()}
    )
    assert rejected(wrong).where == "army.ros: catalogue"
