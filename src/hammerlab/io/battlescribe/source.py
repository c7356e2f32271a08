"""Reading BattleScribe files safely into element trees.

Files come from users and the internet, so nothing here trusts them:

* XML is parsed only with :mod:`defusedxml`, with document type declarations
  forbidden outright (BattleScribe never writes one; they are what entity
  expansion and external-entity attacks need);
* a file may not exceed :data:`MAX_XML_BYTES` nor hold more than
  :data:`MAX_XML_ELEMENTS` elements (counted before parsing: a tree costs
  about 400 bytes of memory an element, so 50 MB of ``<a/>`` would take gigabytes);
* a ``.rosz`` is read in memory, never extracted: the archive must be small
  (:data:`MAX_ARCHIVE_BYTES`, :data:`MAX_ARCHIVE_MEMBERS`), its single ``.ros``
  member must have a safe name, a declared size under the limit and a
  compression ratio under :data:`MAX_COMPRESSION_RATIO`, and the bytes actually
  read are counted against the limits too (a member may lie about its size).

Every failure becomes an :class:`~hammerlab.errors.InputError`.
"""

from __future__ import annotations

import io
import lzma
import re
import struct
import zipfile
import zlib
from pathlib import Path, PurePosixPath
from xml.etree.ElementTree import Element, ParseError

import defusedxml
import defusedxml.ElementTree as SafeET

from hammerlab.errors import MAX_DIGITS, InputError, long_number_problem
from hammerlab.io.files import read_at_most, size_words

MAX_XML_BYTES = 50 * 1024 * 1024
"""Largest XML document accepted, compressed or not (the biggest real
catalogues are a few megabytes)."""

MAX_XML_ELEMENTS = 500_000
"""Most elements in one XML document (the biggest real catalogue has about
51,000; half a million take about 200 MB once parsed)."""

ROOT_SCAN_BYTES = 64 * 1024
"""How much of a neighbouring file is read to find its root element's id
(BattleScribe writes the root within the first hundred bytes)."""

MAX_COMPRESSION_RATIO = 200
"""Largest uncompressed/compressed size ratio of a ``.rosz`` member (XML
compresses about 10-30 times; far more means a zip bomb)."""

MAX_ARCHIVE_BYTES = MAX_XML_BYTES // 5
"""Largest ``.rosz`` accepted (the biggest XML allowed compresses far below it)."""

MAX_ARCHIVE_MEMBERS = 16
"""Most files in a ``.rosz`` (BattleScribe writes one)."""

ROOT_TAGS = {
    ".cat": "catalogue",
    ".gst": "gameSystem",
    ".ros": "roster",
    ".rosz": "roster",
}
"""The root element each file type must have."""

_CHUNK = 1024 * 1024

_BAD_ZIP = (
    zipfile.BadZipFile,
    zipfile.LargeZipFile,
    EOFError,
    NotImplementedError,  # an unsupported compression method
    RuntimeError,  # a password needed
    zlib.error,  # corrupt deflate data
    lzma.LZMAError,
    struct.error,  # truncated headers
    ValueError,  # a member name marked UTF-8 that is not (UnicodeDecodeError)
    IndexError,  # a member with an empty name (zipfile looks at its last character)
)
"""What :mod:`zipfile` raises on a corrupt or unsupported archive (bzip2 errors
are ``OSError``, handled with the other read errors)."""


def load_root(path: Path, source: str) -> Element:
    """The root element of a BattleScribe file, checked to suit its file type.

    ``source`` is the path as the user gave it, used in error messages.
    """
    suffix = path.suffix.lower()
    if suffix not in ROOT_TAGS:
        raise InputError(
            source,
            "",
            f"unsupported file type {suffix or '(none)'!r}: expected .cat, .gst, .ros or .rosz",
        )
    if suffix == ".rosz":
        data, member = _read_zipped_roster(path, source)
    else:
        data, member = _read_plain(path, source), ""
        if data.startswith(ZIP_MAGIC):
            raise InputError(source, "", _zipped_problem(suffix))
    root = parse_xml(data, source, member)
    expected = ROOT_TAGS[suffix]
    found = local_name(root.tag)
    if found != expected:
        where = f"{member}: {found}" if member else found
        raise InputError(source, where, f"expected a <{expected}> root element for a {suffix} file")
    return root


ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
"""How a zip archive starts: its first member's header, or (empty) its directory's end."""


def _zipped_problem(suffix: str) -> str:
    """What to do with a zip archive named as an XML file of type ``suffix``:
    BattleScribe zips a roster as ``.rosz``, which is read as it is, and a
    catalogue or game system as ``.catz`` or ``.gstz``, which must be unzipped."""
    if suffix == ".ros":
        return "a zip archive, not XML: name a zipped roster .rosz (BattleScribe's name for it)"
    return (
        f"a zip archive, not XML (a {suffix}z renamed?): unzip it and give the {suffix} file inside"
    )


def local_name(tag: str) -> str:
    """``{namespace}name`` → ``name``."""
    return tag.rpartition("}")[2]


def read_root_attributes(path: Path) -> dict[str, str] | None:
    """The attributes of a file's root element, reading only its start.

    Used to find the game system (or a linked catalogue) of a catalogue among
    its neighbours without parsing them whole; ``None`` if the file cannot be
    read as safe XML or its root does not start within
    :data:`ROOT_SCAN_BYTES` (before, a neighbour with megabytes before its
    root was read to the root, slower and slower: 40 MB took 111 s).
    """
    try:
        with path.open("rb") as stream:
            head = io.BytesIO(stream.read(ROOT_SCAN_BYTES))
        for _event, element in SafeET.iterparse(head, events=("start",), forbid_dtd=True):
            return dict(element.attrib)
    except (OSError, ParseError, LookupError, ValueError):
        # ValueError covers defusedxml's refusals and undecodable encodings;
        # LookupError an encoding Python does not know (encoding="nan").
        return None
    return None


_LONG_NUMBER = re.compile(rb"\d{" + str(MAX_DIGITS + 1).encode() + rb",}")
"""A run of digits longer than any number a file needs (:data:`~hammerlab.errors.MAX_DIGITS`)."""


def parse_xml(data: bytes, source: str, member: str = "") -> Element:
    """Parse ``data`` with DTDs, entities and external references refused; ``member``
    (printable) is the archive member of ``source`` it was read from, named first
    where a mistake is (a ``.rosz``'s roster), else ``""``.

    Every element starts with ``<`` not followed by ``/``, so the count below
    bounds the number of elements from above, at the speed of a byte search.
    """

    def at(where: str) -> str:
        return ": ".join(part for part in (member, where) if part)

    elements = data.count(b"<") - data.count(b"</")
    if elements > MAX_XML_ELEMENTS:
        raise InputError(
            source, member, f"more than {MAX_XML_ELEMENTS:,} XML elements (tags); refused"
        )
    too_long = _LONG_NUMBER.search(data)  # a characteristic Python could not convert
    if too_long is not None:
        line = data.count(b"\n", 0, too_long.start()) + 1
        raise InputError(source, at(f"line {line}"), long_number_problem(len(too_long.group())))
    try:
        root: Element = SafeET.fromstring(data, forbid_dtd=True)
    except defusedxml.DTDForbidden:
        raise InputError(
            source,
            member,
            "the XML declares a document type (DTD), which BattleScribe files "
            "never do and which entity-expansion attacks need; refused",
        ) from None
    except defusedxml.EntitiesForbidden:
        raise InputError(source, member, "the XML declares entities; refused") from None
    except defusedxml.ExternalReferenceForbidden:
        raise InputError(source, member, "the XML refers to external resources; refused") from None
    except defusedxml.DefusedXmlException:
        raise InputError(source, member, "the XML uses a feature refused for safety") from None
    except ParseError as error:
        line, column = error.position
        raise InputError(
            source, at(f"line {line}, column {column}"), f"not well-formed XML ({_reason(error)})"
        ) from None
    except (LookupError, ValueError):
        # the XML declaration names an encoding Python does not know
        # (LookupError), a multi-byte one expat cannot use, or one that fails
        # to decode (ValueError, UnicodeError)
        raise InputError(
            source, member, "the XML declares an unknown or unsupported character encoding"
        ) from None
    return root


def _reason(error: ParseError) -> str:
    """Expat's message without the position it repeats."""
    return str(error).split(":")[0]


def _read_plain(path: Path, source: str) -> bytes:
    """The bytes of an uncompressed file, reading no more than the limit allows."""
    if path.exists() and not path.is_file():
        raise InputError(source, "", "not a regular file")
    try:
        return read_at_most(path, MAX_XML_BYTES, source)
    except FileNotFoundError:
        raise InputError(source, "", "file not found") from None
    except OSError as error:
        raise InputError(source, "", f"cannot read the file ({error.strerror})") from None


def _read_zipped_roster(path: Path, source: str) -> tuple[bytes, str]:
    """The ``.ros`` document inside a ``.rosz`` archive, read in memory, and its member
    name (printable), which a mistake in reading or parsing it names."""
    name = ""
    try:
        if path.stat().st_size > MAX_ARCHIVE_BYTES:
            raise InputError(source, "", f"archive is larger than {size_words(MAX_ARCHIVE_BYTES)}")
        with zipfile.ZipFile(path) as archive:
            member = _roster_member(archive, source)
            name = printable(member.filename)
            return _read_member(archive, member, source), name
    except InputError:
        raise
    except FileNotFoundError:
        raise InputError(source, "", "file not found") from None
    except _BAD_ZIP:
        not_zip = "not a valid zip archive (or an unsupported one)"
        raise InputError(source, name, "damaged compressed data" if name else not_zip) from None
    except OSError as error:
        raise InputError(
            source, name, f"cannot read the file ({error.strerror or 'corrupt data'})"
        ) from None


def _roster_member(archive: zipfile.ZipFile, source: str) -> zipfile.ZipInfo:
    """The one safe, reasonably sized ``.ros`` member of ``archive``."""
    members = [info for info in archive.infolist() if not info.is_dir()]
    if len(members) > MAX_ARCHIVE_MEMBERS:
        raise InputError(source, "", f"archive holds more than {MAX_ARCHIVE_MEMBERS} files")
    for info in members:
        if not _safe_member_name(info.filename):
            raise InputError(
                source,
                printable(info.filename),
                "archive member has an absolute path or '..'; refused",
            )
    rosters = [info for info in members if info.filename.lower().endswith(".ros")]
    if len(rosters) != 1:
        raise InputError(
            source, "", f"a .rosz must hold exactly one .ros roster, found {len(rosters)}"
        )
    info = rosters[0]
    if info.flag_bits & 0x1:
        raise InputError(source, printable(info.filename), "archive member is encrypted")
    if info.file_size > MAX_XML_BYTES:
        raise InputError(
            source,
            printable(info.filename),
            f"roster is larger than {size_words(MAX_XML_BYTES)} unpacked",
        )
    if info.file_size > MAX_COMPRESSION_RATIO * max(info.compress_size, 1):
        raise InputError(
            source,
            printable(info.filename),
            f"compression ratio above {MAX_COMPRESSION_RATIO}:1 (a zip bomb?); refused",
        )
    return info


def _read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, source: str) -> bytes:
    """Read ``info`` in chunks, stopping as soon as it outgrows its limits."""
    limit = min(MAX_XML_BYTES, MAX_COMPRESSION_RATIO * max(info.compress_size, 1))
    chunks: list[bytes] = []
    total = 0
    with archive.open(info) as stream:
        while chunk := stream.read(_CHUNK):
            total += len(chunk)
            if total > limit:
                raise InputError(
                    source,
                    printable(info.filename),
                    "roster unpacks to more than its archive declares "
                    "or allows (a zip bomb?); refused",
                )
            chunks.append(chunk)
    return b"".join(chunks)


def _safe_member_name(name: str) -> bool:
    """Whether an archive member name stays inside the archive."""
    normalised = name.replace("\\", "/")
    pure = PurePosixPath(normalised)
    has_drive = len(normalised) > 1 and normalised[1] == ":"
    return not (pure.is_absolute() or has_drive or ".." in pure.parts)


def printable(text: str) -> str:
    """``text`` with line breaks and other control characters escaped (``\\n``).

    For messages, which must stay one line: a member name inside a ``.rosz``
    (or a file name) may hold a newline.
    """
    return "".join(
        char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        for char in text
    )
