"""Invulnerable saves, as the data expresses them.

Two ways are read: a model's save characteristic written ``"3+/4++"`` (armour
save, then invulnerable save), and rule or wargear text such as "An iron halo
confers a 4+ invulnerable save." Text is only trusted when a sentence grants
one value with no condition, and, for a wargear item's description, names the
item itself (a Nova Reactor's text describing the shield generator's save
grants nothing); other mentions are reported, never guessed.
:func:`with_invulnerable` gives a model's profile the best save its rules and
wargear grant.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from hammerlab.engine.datasheet import Profile

_SAVE = re.compile(r"^(?P<armour>[^/]*?)\s*/\s*(?P<invulnerable>[2-6])\s*\+{1,2}$")
_ONLY_INVULNERABLE = re.compile(r"^(?P<invulnerable>[2-6])\s*\+\+$")


def split_save(value: str) -> tuple[str | None, int | None]:
    """``"3+/4++"`` → ``("3+", 4)``; ``"3+"`` → ``("3+", None)``; unreadable → ``(None, None)``.

    The 7th-edition data writes a model's own invulnerable save after its
    armour save this way. ``"5++"`` alone is an invulnerable save and no
    armour save: ``("-", 5)`` (read as written it would be a 5+ armour save).
    """
    only = _ONLY_INVULNERABLE.match(value.strip())
    if only:
        return "-", int(only["invulnerable"])
    if "/" not in value:
        return value, None
    match = _SAVE.match(value)
    if match is None:
        return None, None
    return match["armour"], int(match["invulnerable"])


_INVULNERABLE = re.compile(
    r"(?:\b([2-6])\s*\+{1,2}\s*invul|invulnerable sav\w*\s+of\s+([2-6])\+)", re.IGNORECASE
)
_GRANTS = r"(?:has|have|confers?|grants?|gives?|provides?)"
_ONLY_GRANT = re.compile(
    rf"(?:(?:(?!\band\b)[^,;:])*?\b{_GRANTS}\s+(?:an?\s+)?)?[2-6]\s*\+{{1,2}}"
    r"\s*invul(?:nerable)?\.?\s+(?:save|sv)\.?",
    re.IGNORECASE,
)
"""A sentence that grants an invulnerable save and nothing else: a subject with no
list in it ("An iron halo confers a 4+ invulnerable save."; not "...has the Deep
Strike, Relentless and Bulky special rules and a 5+ invulnerable save."), none
("Provides 4++ Invulnerable save"), or the save alone ("5+ Invul Sv")."""
_OWN_SUBJECT = re.compile(rf"\s*(?:(?:this|it)\s+)?{_GRANTS}\b|\s*[2-6]\s*\+", re.IGNORECASE)
"""A sentence of a wargear item's description whose subject can only be the item:
none ("Provides 4++ Invulnerable save", "Confers 5++ Invulnerable Save"), "This" or
"It" ("This provides a 3+ Invulnerable save."), or the save alone ("5+ Invul Sv")."""
_CONDITION_WORDS = re.compile(
    r"\b(if|when|whenever|while|whilst|against|until|unless|except|during|from|versus|vs|instead|"
    r"challenge|turn|phase|roll|may|can)\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.;!?])\s+|\n+")


@dataclass(frozen=True)
class InvulnerableMention:
    """What a text says about invulnerable saves."""

    value: int | None
    """The save (``4`` for 4+) where a sentence grants one without conditions."""
    unclear: tuple[str, ...]
    """Sentences that mention an invulnerable save with conditions or no value."""
    elsewhere: tuple[str, ...] = ()
    """Sentences of an item's description granting a save without naming the item."""
    whole: bool = False
    """Whether granting ``value`` is all the text says (each sentence grants the save
    and nothing else): once applied as the invulnerable save, the rule leaves
    nothing to resolve."""


def invulnerable_in_text(text: str, item: str | None = None) -> InvulnerableMention:
    """Read a rule's or wargear's text for an invulnerable save.

    Only a sentence that names a single value and no condition counts ("An iron
    halo confers a 4+ invulnerable save."); any other sentence that mentions
    one ("...a 5+ invulnerable save against shooting attacks") is returned as
    unclear, for the importer to report rather than guess. ``item`` is the
    name of the wargear item whose description ``text`` is: such a sentence
    only counts when it names the item (ignoring case and a plural ``s``).
    """
    best: int | None = None
    unclear: list[str] = []
    elsewhere: list[str] = []
    other = False
    for sentence in _SENTENCE_END.split(text):
        if "invul" not in sentence.lower():
            other = other or bool(sentence.strip())
            continue
        other = other or not _ONLY_GRANT.fullmatch(sentence.strip())
        values = {int(a or b) for a, b in _INVULNERABLE.findall(sentence)}
        if len(values) != 1 or _CONDITION_WORDS.search(sentence):
            unclear.append(sentence.strip())
        elif item is not None and not _names(sentence, item) and not _OWN_SUBJECT.match(sentence):
            elsewhere.append(sentence.strip())
        else:
            value = values.pop()
            best = value if best is None else min(best, value)
    whole = best is not None and not (other or unclear or elsewhere)
    return InvulnerableMention(best, tuple(unclear), tuple(elsewhere), whole)


def _names(sentence: str, item: str) -> bool:
    """Whether ``sentence`` names ``item`` ("Iron Halo" in "An iron halo confers..."),
    a title before a colon aside ("Chapter Relic: Kesare's Mantle" names itself "Kesare's
    Mantle")."""
    wanted = " ".join(item.rpartition(":")[2].casefold().split())
    singular = wanted[:-1] if wanted.endswith("s") else wanted
    return bool(singular) and singular in " ".join(sentence.casefold().split())


def with_invulnerable(
    profile: Profile, texts: list[tuple[str, str, bool]], notes: list[str], applied: set[str]
) -> Profile:
    """``profile`` with the best invulnerable save its rules and wargear grant.

    A wargear item's description only grants a save in a sentence naming the
    item; one describing another item's save (a Nova Reactor's text about the
    shield generator) is noted, not applied. A rule or item whose text says
    nothing but the save it grants (Iron Halo: "An iron halo confers a 4+
    invulnerable save.") is wholly applied: its name joins ``applied``, for the
    datasheet to leave out of the rules the edition resolves, and a note says so.
    """
    best = profile.invulnerable
    granted: dict[str, int] = {}
    for name, text, item in texts:
        mention = invulnerable_in_text(text, name if item else None)
        if mention.value is not None:
            best = mention.value if best is None else min(best, mention.value)
            if mention.whole:
                granted[name] = mention.value
        notes.extend(
            f"{name!r} mentions an invulnerable save that cannot be applied reliably "
            f"({_shorten(sentence)})."
            for sentence in mention.unclear
        )
        notes.extend(
            f"{name!r} describes an invulnerable save without naming itself as what grants "
            f"it ({_shorten(sentence)}); not applied."
            for sentence in mention.elsewhere
        )
    applied.update(granted)
    notes.extend(_applied_note(name, value, best) for name, value in granted.items())
    return profile if best == profile.invulnerable else replace(profile, invulnerable=best)


def _applied_note(name: str, value: int, best: int | None) -> str:
    """The note on a rule wholly applied as the invulnerable save ``best`` (its own
    ``value``, or a better one the model has from elsewhere)."""
    if value == best:
        return f"{name!r}: applied as a {value}+ invulnerable save."
    return f"{name!r}: its {value}+ invulnerable save is applied, bettered by a {best}+."


def _shorten(text: str, limit: int = 120) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
