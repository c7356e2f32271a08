"""The profiles and rules an entry or selection carries.

They may be written inline (``profiles/profile``, ``rules/rule``), linked by id
(``infoLinks/infoLink`` of type ``profile``, ``rule`` or ``infoGroup``) or
bundled in info groups; all of these are followed here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from hammerlab.io.battlescribe.links import Library
from hammerlab.io.battlescribe.modifiers import modifiers_of
from hammerlab.io.battlescribe.profiles import (
    RawProfile,
    RawRule,
    is_hidden,
    read_profile,
    read_rule,
)


@dataclass
class Infos:
    """Profiles and rules found on one element, plus what could not be followed."""

    profiles: list[RawProfile] = field(default_factory=list)
    rules: list[RawRule] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def read_infos(elements: tuple[Element | None, ...], library: Library) -> Infos:
    """Everything shown on ``elements`` (an entry link, then its target)."""
    infos = Infos()
    for element in elements:
        if element is not None:
            _collect(element, library, infos, seen=set())
    return infos


def _collect(element: Element, library: Library, infos: Infos, seen: set[int]) -> None:
    for profile in element.iterfind("profiles/profile"):
        _add_profile(read_profile(profile, library, None), infos)
    for rule in element.iterfind("rules/rule"):
        _add_rule(read_rule(rule, None), infos)
    for group in element.iterfind("infoGroups/infoGroup"):
        _follow_group(group, None, library, infos, seen)
    for link in element.iterfind("infoLinks/infoLink"):
        target = library.find(link.get("targetId", ""))
        kind = link.get("type", "")
        if target is None:
            label = link.get("name") or link.get("targetId", "")
            infos.notes.append(f"Linked {kind} {label!r} could not be resolved; left out.")
        elif kind == "profile" and target.tag == "profile":
            _add_profile(read_profile(target, library, link), infos)
        elif kind == "rule" and target.tag == "rule":
            _add_rule(read_rule(target, link), infos)
        elif kind == "infoGroup" and target.tag == "infoGroup":
            _follow_group(target, link, library, infos, seen)


def _follow_group(
    group: Element, link: Element | None, library: Library, infos: Infos, seen: set[int]
) -> None:
    """Collect an info group's contents once (groups may link each other).

    Groups are told apart by element, not by id: inline groups may have none.
    """
    if id(group) in seen or is_hidden(group, link, list(modifiers_of(link, group))):
        return
    seen.add(id(group))
    _collect(group, library, infos, seen)


def _add_profile(profile: RawProfile | None, infos: Infos) -> None:
    if profile is not None:
        infos.profiles.append(profile)


def _add_rule(rule: RawRule | None, infos: Infos) -> None:
    if rule is not None:
        infos.rules.append(rule)
