"""Invulnerable saves, as the data expresses them.

Two ways are read: a model's save characteristic written ``"3+/4++"`` (armour
save, then invulnerable save), and rule or wargear text such as "An iron halo
confers a 4+ invulnerable save." Text is only trusted when a sentence grants
one value with no condition; other mentions are reported, never guessed.
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
    r"(?:\b([2-6])\s*\+{1,2}\s*invulnerable|invulnerable sav\w*\s+of\s+([2-6])\+)", re.IGNORECASE
)
_CONDITION_WORDS = re.compile(
    r"\b(if|when|whenever|while|whilst|against|until|unless|during|from|versus|vs|instead|"
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


def invulnerable_in_text(text: str) -> InvulnerableMention:
    """Read a rule's or wargear's text for an invulnerable save.

    Only a sentence that names a single value and no condition counts ("An iron
    halo confers a 4+ invulnerable save."); any other sentence that mentions
    one ("...a 5+ invulnerable save against shooting attacks") is returned as
    unclear, for the importer to report rather than guess.
    """
    best: int | None = None
    unclear: list[str] = []
    for sentence in _SENTENCE_END.split(text):
        if "invulnerable" not in sentence.lower():
            continue
        values = {int(a or b) for a, b in _INVULNERABLE.findall(sentence)}
        if len(values) == 1 and not _CONDITION_WORDS.search(sentence):
            value = values.pop()
            best = value if best is None else min(best, value)
        else:
            unclear.append(sentence.strip())
    return InvulnerableMention(best, tuple(unclear))
