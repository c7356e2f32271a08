"""The interactive terminal controller: a person answers each decision."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.prompt import IntPrompt

from hammerlab.engine.battle import Battle
from hammerlab.engine.decisions import Decision
from hammerlab.errors import HammerlabError


class InputEndedError(HammerlabError):
    """The person's input ended (end of file) while a decision waited for an answer."""


def choice_line(count: int) -> str:
    """The question under a decision's list: ``choice [1-115]``, the range of numbers
    that answer it (``choice [1]`` for one choice). Listing every number, as rich
    does by default, wrapped over five lines for a Deep Strike's 115 points."""
    return f"choice [1-{count}]" if count > 1 else "choice [1]"


def choice_lines(decision: Decision[Any]) -> list[str]:
    """Each choice numbered from 1, with what the decision says of it
    (:meth:`Decision.details`) after its label: ``3. (24.0, 14.0): 9.5" from ...``."""
    return [
        f"{number}. {choice.label}: {detail}" if detail else f"{number}. {choice.label}"
        for number, (choice, detail) in enumerate(
            zip(decision.choices, decision.details(), strict=True), start=1
        )
    ]


class PromptController:
    """Lists the legal choices, each with what it means for the game where the
    decision says (:meth:`Decision.details`), then what was left out of them and
    why (:attr:`Decision.not_offered`), and reads a number from the terminal."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """Ask until a valid choice number is typed."""
        self.console.print(f"[bold]{escape(decision.player)}[/bold]: {escape(decision.prompt)}")
        for line in choice_lines(decision):
            self.console.print(f"  {escape(line)}")
        for line in decision.not_offered() if decision.not_offered else ():
            self.console.print(f"  not offered: {escape(line)}")
        choices = [str(n) for n in range(1, len(decision.choices) + 1)]
        try:
            answer = IntPrompt.ask(
                escape(choice_line(len(choices))),
                choices=choices,
                show_choices=False,
                console=self.console,
                default=1,
            )
        except EOFError:
            raise InputEndedError(
                f"the input ended while {decision.player} was asked: {decision.prompt} "
                f"({decision.kind}); the game stops unanswered at game turn {battle.turn}"
            ) from None
        return answer - 1
