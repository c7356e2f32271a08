"""Rule options: proposed rules and variants that can be switched on or off."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from hammerlab.errors import UnknownNameError


@dataclass(frozen=True)
class RuleOption:
    """A named toggle; its ``quote`` is the seed text it implements."""

    name: str
    summary: str
    quote: str
    default: bool = False


def resolve_options(declared: Iterable[RuleOption], chosen: Mapping[str, bool]) -> dict[str, bool]:
    """Defaults overlaid with ``chosen``; an unknown name is an error."""
    table = {o.name: o.default for o in declared}
    for name, value in chosen.items():
        if name not in table:
            raise UnknownNameError("rule option", name, sorted(table))
        table[name] = value
    return table
