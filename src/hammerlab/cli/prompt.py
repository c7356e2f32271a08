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


class PromptController:
    """Lists the legal choices and reads a number from the terminal."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def choose(self, battle: Battle, decision: Decision[Any]) -> int:
        """Ask until a valid choice number is typed."""
        self.console.print(f"[bold]{escape(decision.player)}[/bold]: {escape(decision.prompt)}")
        for number, choice in enumerate(decision.choices, start=1):
            self.console.print(f"  {number}. {escape(choice.label)}")
        choices = [str(n) for n in range(1, len(decision.choices) + 1)]
        try:
            answer = IntPrompt.ask("choice", choices=choices, console=self.console, default=1)
        except EOFError:
            raise InputEndedError(
                f"the input ended while {decision.player} was asked: {decision.prompt} "
                f"({decision.kind}); the game stops unanswered at game turn {battle.turn}"
            ) from None
        return answer - 1
