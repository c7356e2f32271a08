"""Invulnerable saves, as the data expresses them.

Two ways are read: a model's save characteristic written ``"3+/4++"`` (armour
save, then invulnerable save), and rule or wargear text such as "An iron halo
confers a 4+ invulnerable save." Text is only trusted when a sentence grants
one value with no condition, and, for a wargear item's description, names the
item itself (a Nova Reactor's text describing the shield generator's save
grants nothing); other mentions are reported, never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
