"""Hostile and malformed BattleScribe files, generated: an import either
succeeds or raises ``InputError``, never another exception and never hangs;
the ``import`` command then prints one ``error: ...`` line and exits 1.

Small valid files (a game system, a catalogue using both profile encodings,
links, groups, modifiers and info groups, and a ``.rosz``) are mutated:
truncated, bytes flipped, elements deleted, deeply nested elements inserted,
attribute values replaced by huge or absurd ones, the root renamed; archives
get corrupt bytes, extra members, unsafe member names and lying size fields.
Hypothesis runs derandomized with a bounded number of small examples.
"""

from __future__ import annotations

import io
import struct
import time
import warnings
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from hammerlab.cli import import_cmd
from hammerlab.errors import InputError
from hammerlab.io.battlescribe import ImportResult, clear_cache, import_file

CAT_NS = "http://www.battlescribe.net/schema/catalogueSchema"
GST_NS = "http://www.battlescribe.net/schema/gameSystemSchema"
ROS_NS = "http://www.battlescribe.net/schema/rosterSchema"
STATS = ("WS", "BS", "S", "T", "W", "I", "A", "Ld", "Save")

GAME_SYSTEM = f"""<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys" name="System" xmlns="{GST_NS}">
  <profileTypes><profileType id="pt-w" name="Weapon"/></profileTypes>
  <sharedProfiles>
    <profile id="p-gun" name="Gun" profileTypeId="pt-w">
      <characteristics>
        <characteristic name="Range" characteristicTypeId="ct-r" value="24&quot;"/>
        <characteristic name="Strength" characteristicTypeId="ct-s" value="4"/>
        <characteristic name="AP" characteristicTypeId="ct-ap" value="5"/>
        <characteristic name="Type" characteristicTypeId="ct-t" value="Rapid Fire"/>
      </characteristics>
    </profile>
  </sharedProfiles>
  <sharedRules>
    <rule id="r-fear" name="Fearless"><description>Never flees.</description></rule>
  </sharedRules>
</gameSystem>
"""

_TROOPER = "".join(f'<characteristic name="{k}" typeId="ct-{k}">3</characteristic>' for k in STATS)
_MIN = '<constraint field="selections" scope="parent" value="{v}" id="{i}" type="{t}"/>'

CATALOGUE = f"""<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat" name="Army" gameSystemId="sys" xmlns="{CAT_NS}">
  <entryLinks><entryLink id="l-squad" targetId="u-squad" type="selectionEntry"/></entryLinks>
  <sharedSelectionEntries>
    <selectionEntry id="u-squad" name="Squad" type="unit">
      <infoLinks><infoLink id="il-fear" targetId="r-fear" type="rule"/></infoLinks>
      <infoGroups><infoGroup id="ig" name="Notes">
        <rules>
          <rule id="r-halo" name="Halo"><description>A 4+ invulnerable save.</description></rule>
        </rules>
      </infoGroup></infoGroups>
      <selectionEntryGroups>
        <selectionEntryGroup id="g" name="Troopers" defaultSelectionEntryId="m-trooper">
          <constraints>{_MIN.format(v="2.0", i="c-g-min", t="min")}
            {_MIN.format(v="5.0", i="c-g-max", t="max")}</constraints>
          <modifiers><modifier type="increment" field="c-g-min" value="1"/></modifiers>
          <selectionEntries>
            <selectionEntry id="m-trooper" name="Trooper" type="model">
              <profiles><profile id="p-t" name="Trooper" typeId="pt-u" typeName="Unit">
                <characteristics>{_TROOPER}</characteristics>
                <modifiers>
                  <modifier type="set" field="ct-Save" value="4+"><conditions>
                    <condition field="selections" scope="parent" value="1" type="atLeast"/>
                  </conditions></modifier>
                  <modifier type="append" field="name" value="(Veteran)"/>
                </modifiers>
              </profile></profiles>
              <entryLinks><entryLink id="l-gun" targetId="e-gun" type="selectionEntry">
                <constraints>{_MIN.format(v="1", i="c-gun", t="min")}</constraints>
              </entryLink></entryLinks>
            </selectionEntry>
          </selectionEntries>
        </selectionEntryGroup>
      </selectionEntryGroups>
    </selectionEntry>
    <selectionEntry id="e-gun" name="Gun" type="upgrade">
      <infoLinks><infoLink id="il-gun" targetId="p-gun" type="profile"/></infoLinks>
    </selectionEntry>
  </sharedSelectionEntries>
</catalogue>
"""

ROSTER = f"""<?xml version="1.0" encoding="UTF-8"?>
<roster id="ros" name="List" xmlns="{ROS_NS}"><forces>
  <force id="f" name="Force" catalogueName="Army"><selections>
    <selection id="s-u" name="Squad" number="1" type="unit"><selections>
      <selection id="s-m" name="Trooper" number="3" type="model">
        <profiles><profile name="Trooper" typeName="Unit"><characteristics>{_TROOPER}
        </characteristics></profile></profiles>
        <selections><selection id="s-g" name="Gun" number="3" type="upgrade">
          <profiles><profile name="Gun" typeName="Weapon"><characteristics>
            <characteristic name="Range">24"</characteristic>
            <characteristic name="Strength">4</characteristic>
            <characteristic name="AP">5</characteristic>
            <characteristic name="Type">Rapid Fire</characteristic>
          </characteristics></profile></profiles>
        </selection></selections>
      </selection>
    </selections></selection>
  </selections></force>
</forces></roster>
"""

MAX_SECONDS = 5.0
"""Longest one import may take on these small files: more means a hang."""

HOSTILE = settings(
    derandomize=True,
    database=None,
    deadline=None,  # timed by ``outcome`` instead, with a generous bound
    max_examples=200,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
HOSTILE_XML = settings(HOSTILE, max_examples=300)


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """A stand-in for the hammerlab app."""

    import_cmd.register(app)
    return app


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("hostile")


def outcome(path: Path) -> ImportResult | InputError:
    """Import ``path`` afresh: the result, or the InputError (anything else fails)."""
    clear_cache()  # a rewritten file may keep its size and modification time
    started = time.perf_counter()
    try:
        result: ImportResult | InputError = import_file(path)
    except InputError as error:
        result = error
    assert time.perf_counter() - started < MAX_SECONDS, "import took too long"
    return result


def check(path: Path, app: typer.Typer) -> None:
    """Importing ``path`` succeeds or raises InputError; the CLI agrees."""
    result = outcome(path)
    clear_cache()
    run = CliRunner().invoke(app, ["import", str(path), "--json"])
    if isinstance(result, InputError):
        assert run.exit_code == 1, run.output
        assert run.stdout == ""
        lines = run.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), run.stderr
    else:
        assert run.exit_code == 0, (run.output, run.exception)


def write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


# -- XML mutations ------------------------------------------------------------


def _elements(text: str) -> list[ET.Element]:
    return list(ET.fromstring(text).iter())


def local_name(tag: str) -> str:
    return tag.rpartition("}")[2]


def flip(draw: st.DrawFn, data: bytes, head: int) -> bytes:
    """``data`` with 1 to 8 bytes replaced, often within its first ``head`` bytes."""
    flipped = bytearray(data)
    where = st.one_of(st.integers(0, min(head, len(data)) - 1), st.integers(0, len(data) - 1))
    for _ in range(draw(st.integers(1, 8))):
        flipped[draw(where)] = draw(st.integers(0, 255))
    return bytes(flipped)


NESTINGS = {
    "entries": (
        '<selectionEntries><selectionEntry id="n{i}" name="N" type="upgrade"><constraints>'
        + _MIN.format(v="1", i="cn{i}", t="min")
        + "</constraints>",
        "</selectionEntry></selectionEntries>",
    ),
    "info groups": ('<infoGroups><infoGroup id="ig{i}" name="G">', "</infoGroup></infoGroups>"),
    "modifier groups": ("<modifierGroups><modifierGroup>", "</modifierGroup></modifierGroups>"),
    "units": (
        '<selectionEntries><selectionEntry id="u{i}" name="U" type="unit">',
        "</selectionEntry></selectionEntries>",
    ),
    "plain": ("<x>", "</x>"),
}
"""Chains of elements to nest deeply: (opening with ``{i}``, closing)."""

ENCODINGS = st.one_of(
    st.sampled_from(
        ["nan", "utf-16", "utf-32", "shift_jis", "utf-7", "rot13", "base64", "idna", "latin-1"]
    ),
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789-_", max_size=12),
)
"""What an XML declaration may claim: unknown, multi-byte, not a text encoding..."""

ABSURD = st.one_of(
    st.sampled_from(
        ["1e400", "-1e400", "nan", "inf", "-1", "1e308", "0.5", "99999999", "", "-0", "0x10"]
    ),
    st.integers(0, 200_000).map(lambda size: "9" * size),
    st.integers(0, 200_000).map(lambda size: "W" * size),
    st.text(max_size=40),
)


def _insert_at_closing(text: str, tag: str, index: int, inserted: str) -> str:
    closings = [position for position in _find_all(text, f"</{tag}>")]
    if not closings:
        return text
    position = closings[index % len(closings)]
    return text[:position] + inserted + text[position:]


def _find_all(text: str, needle: str) -> Iterator[int]:
    start = text.find(needle)
    while start >= 0:
        yield start
        start = text.find(needle, start + 1)


@st.composite
def mutated_xml(draw: st.DrawFn, text: str, root: str) -> bytes:
    """``text`` (a valid file) with one kind of damage."""
    data = text.encode()
    kinds = ["truncate", "flip", "delete", "nest", "attribute", "root", "encoding"]
    kind = draw(st.sampled_from(kinds))
    if kind == "encoding":
        declared = draw(ENCODINGS)
        return text.replace('encoding="UTF-8"', f'encoding="{declared}"', 1).encode()
    if kind == "truncate":
        return data[: draw(st.integers(0, len(data) - 1))]
    if kind == "flip":
        return flip(draw, data, head=60)  # the XML declaration names the encoding
    if kind == "delete":
        tree = ET.fromstring(text)
        parents = [(parent, child) for parent in tree.iter() for child in parent]
        for _ in range(draw(st.integers(1, 3))):
            if not parents:
                break
            parent, child = parents.pop(draw(st.integers(0, len(parents) - 1)))
            if child in list(parent):
                parent.remove(child)
        return ET.tostring(tree)
    if kind == "nest":
        opening, closing = NESTINGS[draw(st.sampled_from(sorted(NESTINGS)))]
        depth = draw(st.integers(1, 3000))
        chain = "".join(opening.format(i=i) for i in range(depth)) + closing * depth
        tags = sorted({local_name(element.tag) for element in _elements(text)[1:]})
        tag = draw(st.sampled_from(tags))
        return _insert_at_closing(text, tag, draw(st.integers(0, 20)), chain).encode()
    if kind == "attribute":
        tree = ET.fromstring(text)
        attributed = [element for element in tree.iter() if element.attrib]
        element = attributed[draw(st.integers(0, len(attributed) - 1))]
        name = draw(st.sampled_from(sorted(element.attrib)))
        element.set(name, draw(ABSURD))
        return ET.tostring(tree)
    wrong = draw(st.sampled_from(["catalogue", "gameSystem", "roster", "html", "x", root]))
    return text.replace(f"<{root} ", f"<{wrong} ", 1).replace(f"</{root}>", f"</{wrong}>").encode()


@HOSTILE_XML
@given(data=mutated_xml(CATALOGUE, "catalogue"))
def test_a_damaged_catalogue_imports_or_is_an_input_error(
    data: bytes, folder: Path, app: typer.Typer
) -> None:
    write(folder, "system.gst", GAME_SYSTEM.encode())
    check(write(folder, "army.cat", data), app)


@HOSTILE_XML
@given(data=mutated_xml(GAME_SYSTEM, "gameSystem"))
def test_a_damaged_game_system_beside_a_catalogue(
    data: bytes, folder: Path, app: typer.Typer
) -> None:
    # The catalogue finds its game system among its neighbours by root id, so
    # the damaged file is read both as a neighbour and when imported itself.
    sub = folder / "with-system"
    sub.mkdir(exist_ok=True)
    write(sub, "system.gst", data)
    check(write(sub, "army.cat", CATALOGUE.encode()), app)
    check(sub / "system.gst", app)


@HOSTILE_XML
@given(data=mutated_xml(ROSTER, "roster"))
def test_a_damaged_roster_imports_or_is_an_input_error(
    data: bytes, folder: Path, app: typer.Typer
) -> None:
    check(write(folder, "list.ros", data), app)


# -- archive mutations --------------------------------------------------------

METHODS = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA)

MEMBER_NAMES = st.one_of(
    st.sampled_from(
        [
            "list.ros",
            "../list.ros",
            "a/../../list.ros",
            "/etc/list.ros",
            "C:/list.ros",
            "..\\list.ros",
            "dir/",
            "list.ROS",
            "notes.txt",
            "line\nbreak.ros",
            "",
        ]
    ),
    st.text(max_size=20).map(lambda name: name + ".ros"),
)


def archive(members: list[tuple[str, bytes]], method: int) -> bytes:
    buffer = io.BytesIO()
    with (
        warnings.catch_warnings(),  # duplicate member names are the point
        zipfile.ZipFile(buffer, "w", compression=method) as zipped,
    ):
        warnings.simplefilter("ignore", UserWarning)
        for name, data in members:
            zipped.writestr(zipfile.ZipInfo(name or "unnamed"), data, compress_type=method)
    return buffer.getvalue()


def _lie_about_sizes(data: bytes, compressed: int, unpacked: int) -> bytes:
    """Rewrite the size fields of every local and central header."""
    patched = bytearray(data)
    for position in _find_all(data.decode("latin-1"), "PK\x03\x04"):
        struct.pack_into("<II", patched, position + 18, compressed, unpacked)
    for position in _find_all(data.decode("latin-1"), "PK\x01\x02"):
        struct.pack_into("<II", patched, position + 20, compressed, unpacked)
    return bytes(patched)


SIZES = st.one_of(
    st.sampled_from([0, 1, 0xFFFFFFFF, 50 * 1024 * 1024 + 1, 10 * 1024 * 1024]),
    st.integers(0, 0xFFFFFFFF),
)


@st.composite
def mutated_rosz(draw: st.DrawFn) -> bytes:
    """A one-roster ``.rosz`` with one kind of damage."""
    method = draw(st.sampled_from(METHODS))
    valid = [("list.ros", ROSTER.encode())]
    kind = draw(st.sampled_from(["flip", "truncate", "members", "names", "sizes"]))
    if kind == "members":
        extra = draw(st.lists(st.tuples(MEMBER_NAMES, st.binary(max_size=64)), max_size=20))
        return archive(valid + extra, method)
    if kind == "names":
        return archive([(draw(MEMBER_NAMES), ROSTER.encode())], method)
    data = archive(valid, method)
    if kind == "sizes":
        return _lie_about_sizes(data, draw(SIZES), draw(SIZES))
    if kind == "truncate":
        return data[: draw(st.integers(0, len(data) - 1))]
    return flip(draw, data, head=len(data))


@HOSTILE
@given(data=mutated_rosz())
def test_a_damaged_rosz_imports_or_is_an_input_error(
    data: bytes, folder: Path, app: typer.Typer
) -> None:
    check(write(folder, "list.rosz", data), app)


def test_the_undamaged_files_import(folder: Path) -> None:
    """The mutations start from files that import whole."""
    write(folder, "system.gst", GAME_SYSTEM.encode())
    squad = outcome(write(folder, "army.cat", CATALOGUE.encode()))
    assert isinstance(squad, ImportResult), squad
    sheet = squad.find("Squad")
    assert [(e.profile.name, e.count) for e in sheet.entries] == [("Trooper (Veteran)", 3)]
    assert {w.name for w in sheet.weapons()} == {"Gun"}
    assert sheet.entries[0].profile.invulnerable == 4
    assert "Fearless" in sheet.rules
    roster = outcome(write(folder, "list.rosz", archive([("list.ros", ROSTER.encode())], 8)))
    assert isinstance(roster, ImportResult), roster
    assert roster.find("Squad").model_count == 3
