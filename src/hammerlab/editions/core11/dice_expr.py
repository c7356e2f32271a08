"""Dice expressions as datasheets write them: ``3``, ``D3``, ``2D6``, ``D6+1``."""

from __future__ import annotations

import re
from dataclasses import dataclass

from hammerlab.engine.dice import Dice

_PATTERN = re.compile(r"^\s*(?:(\d*)\s*[dD]\s*(3|6))?\s*([+-]?\s*\d+)?\s*$")


MAX_DICE = 20
"""Dice an expression may roll (``20D6``)."""
MAX_BONUS = 200
"""The largest number an expression may add (or be)."""


class DiceExpressionError(ValueError):
    """Text that is not a dice expression."""


@dataclass(frozen=True)
class DiceExpr:
    """``count`` dice of ``sides`` sides plus ``bonus`` (``count`` 0: a fixed number)."""

    count: int = 0
    sides: int = 6
    bonus: int = 0

    @classmethod
    def parse(cls, text: str) -> DiceExpr:
        """``"D6+1"`` → ``DiceExpr(1, 6, 1)``; ``"4"`` → ``DiceExpr(0, 6, 4)``. A number
        after the die is added or taken away only with its sign: ``"D36"`` and ``"2D610"``
        are refused, not read as D3+6 and 2D6+10."""
        match = _PATTERN.match(str(text))
        added = match.group(3) if match is not None else None
        if (
            match is None
            or not (match.group(2) or added)
            or (match.group(2) and added and added[0] not in "+-")  # "D36": not D3 plus 6
        ):
            raise DiceExpressionError(f"{text!r} is not a number or dice expression like D6+1")
        count = (int(match.group(1)) if match.group(1) else 1) if match.group(2) else 0
        sides = int(match.group(2) or 6)
        bonus = int(match.group(3).replace(" ", "")) if match.group(3) else 0
        if count > MAX_DICE or bonus > MAX_BONUS or count + bonus < 0:
            raise DiceExpressionError(
                f"{text!r} is out of the range hammerlab handles: at most {MAX_DICE} dice, "
                f"a number up to {MAX_BONUS}, never below 0"
            )
        return cls(count, sides, bonus)

    @property
    def fixed(self) -> bool:
        """Whether no die is rolled."""
        return self.count == 0

    @property
    def low(self) -> int:
        """The smallest result."""
        return self.count + self.bonus

    @property
    def high(self) -> int:
        """The largest result."""
        return self.count * self.sides + self.bonus

    @property
    def mean(self) -> float:
        """The expected result."""
        return self.count * (self.sides + 1) / 2 + self.bonus

    def roll(self, dice: Dice, purpose: str) -> int:
        """One result, rolled (and recorded) with the battle's dice."""
        if self.fixed:
            return self.bonus
        return dice.total(self.count, purpose, self.sides) + self.bonus

    def roll_many(self, dice: Dice, times: int, purpose: str) -> int:
        """The sum of ``times`` results, rolled together."""
        if self.fixed or times <= 0:
            return self.bonus * max(times, 0)
        return sum(dice.roll(self.count * times, purpose, self.sides)) + self.bonus * times

    def distribution(self) -> list[float]:
        """Probability of each result; the index is the result."""
        ways = [1.0]
        for _ in range(self.count):
            grown = [0.0] * (len(ways) + self.sides)
            for total, p in enumerate(ways):
                for face in range(1, self.sides + 1):
                    grown[total + face] += p / self.sides
            ways = grown
        return [0.0] * self.bonus + ways if self.bonus >= 0 else ways[-self.bonus :]

    def __str__(self) -> str:
        if self.fixed:
            return str(self.bonus)
        dice = f"{self.count if self.count > 1 else ''}D{self.sides}"
        return dice + (f"{self.bonus:+d}" if self.bonus else "")
