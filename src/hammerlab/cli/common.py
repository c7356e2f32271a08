"""What every command shares: the console, one-line errors, progress bars and a
command class that refuses a single-value option given twice.

This module is imported by every run of ``hammerlab``, ``--help`` included, so
it imports nothing but typer and rich's console; each command imports what it
needs when it runs.

Click's own usage errors (an unknown option or command, a missing or malformed
value) are turned into the same one line as every other mistake
(:class:`OnceCommand`, :class:`OneLineGroup`), rather than click's boxed usage.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from typer._click.exceptions import NoArgsIsHelpError, NoSuchOption, UsageError  # typer's click
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

if TYPE_CHECKING:
    from rich.table import Table

    from hammerlab.analysis.store import ResultStore
    from hammerlab.io.scenario import Scenario

DEFAULT_RULESET = "waffle"
"""The ruleset of every command that takes ``--ruleset`` (and of a scenario
file without ``ruleset =``), so that ``units``, ``show`` and ``odds`` agree."""


class OutputClosed(SystemExit):
    """Standard output closed by its reader (``| head``, a pager quit early): the
    command stops quietly with exit status 1, as rich makes it. Not a failure of the
    command: one that reports a plug-in's ``SystemExit`` as the plug-in's failure
    (``battle``) lets this one through."""


class _Output(Console):
    """Standard output's console, whose lines fit the terminal's width (or ``COLUMNS``)
    as rich's do, but go into a pipe or a file whole: there rich would assume 80
    columns and break a long line (a step log's event, a datasheet's header) in two,
    so that ``grep`` found half of it. Tables are printed whole there too
    (:func:`print_table`). A closed pipe stops the command with :class:`OutputClosed`."""

    def on_broken_pipe(self) -> None:
        """As rich does (nothing more is written; exit status 1), but as
        :class:`OutputClosed`, so that it is told from a plug-in's own ``SystemExit``."""
        try:
            super().on_broken_pipe()
        except SystemExit:
            raise OutputClosed(1) from None

    def print(self, *objects: Any, soft_wrap: bool | None = None, **options: Any) -> None:
        """Print as rich does; by default soft-wrapped (no line broken) where nothing
        sets the width (:func:`sized`)."""
        super().print(
            *objects, soft_wrap=not sized() if soft_wrap is None else soft_wrap, **options
        )


console = _Output(highlight=False)
"""Standard output, for people (``--json`` documents are printed plainly)."""

WIDEST_TABLE = 10_000
"""Columns a table printed into a pipe or a file may take (:func:`print_table`)."""


def sized() -> bool:
    """Whether standard output has a width to fit: a terminal's, or ``COLUMNS`` where
    it is set; not a pipe or a file without it."""
    return console.is_terminal or bool(os.environ.get("COLUMNS"))


def print_table(table: Table) -> None:
    """Print ``table`` on standard output whole.

    On a terminal, or with ``COLUMNS`` set, at that width, as rich does; into a
    pipe or a file, where rich would assume 80 columns and cut long cells
    (``CLOSE-QUAR…``), at the width the table's own cells take.
    """
    if sized():
        console.print(table)
        return
    from rich.measure import Measurement

    natural = Measurement.get(console, console.options.update_width(WIDEST_TABLE), table)
    Console(file=console.file, width=natural.maximum, highlight=False).print(table)


Advance = Callable[[int], None]
"""Moves a progress bar on by some steps."""


PLUGIN_HINT = " (a plug-in's rule? add --plugin FILE)"
"""Said after an unknown rule name by a command that takes ``--plugin`` and was given
none (:func:`plugin_hint`)."""


def fail(error: Exception | str) -> typer.Exit:
    """Print one error line on standard error and give the exit (status 1) to raise.

    A battle that failed (a plug-in's bug) has its traceback printed after the
    line, for the writer to find the bug in their code."""
    typer.echo(f"error: {error}{plugin_hint(error)}", err=True)
    trace = getattr(error, "trace", None)
    if isinstance(trace, str):
        typer.echo(f"The battle's traceback (where it failed is last):\n{trace.rstrip()}", err=True)
    return typer.Exit(1)


def usage_error(flag: str, problem: object) -> typer.Exit:
    """One line naming the flag; exit 2, a usage error like typer's own."""
    typer.echo(f"error: {flag}: {problem}{plugin_hint(problem)}", err=True)
    return typer.Exit(2)


def plugin_hint(problem: object) -> str:
    """:data:`PLUGIN_HINT` where ``problem`` is, or was raised while handling, an
    unknown rule name (:class:`~hammerlab.engine.rules.UnknownRuleError`, which
    commands re-raise as their own errors) and the command running takes ``--plugin``
    but was given none: the rule may be a plug-in's; otherwise nothing (``tables``
    has no ``--plugin`` to send the user to; a command given plug-ins knows their
    rules). What was given, not what the process happens to have loaded: a library
    caller or an earlier command in the same process must not change the message."""
    if not isinstance(problem, BaseException) or not _plugin_flag_unused():
        return ""
    from hammerlab.engine.rules import UnknownRuleError

    seen: BaseException | None = problem
    for _ in range(8):  # a wrapper of a wrapper at most, in practice
        if seen is None:
            return ""
        if isinstance(seen, UnknownRuleError):
            return PLUGIN_HINT
        seen = seen.__cause__ or seen.__context__
    return ""


def _plugin_flag_unused() -> bool:
    """Whether the command running (click's current context) has a ``--plugin`` option
    and was given no file with it."""
    from typer._click.globals import get_current_context

    ctx = get_current_context(silent=True)
    if ctx is None:
        return False
    flags = [p for p in ctx.command.params if "--plugin" in getattr(p, "opts", ())]
    return bool(flags) and not any(ctx.params.get(p.name or "") for p in flags)


@contextmanager
def one_line_usage(ctx: Any) -> Iterator[None]:
    """Turn click's usage error raised inside into one line, ``error:``, the problem
    and where help is, with exit 2 (the status click gives it).

    Left alone: a bare ``hammerlab`` (click shows the help), and shell completion,
    which parses resiliently and reports nothing.
    """
    try:
        yield
    except NoArgsIsHelpError:
        raise
    except UsageError as error:
        if ctx.resilient_parsing:
            raise
        problem = _no_such_option(error) or error.format_message().rstrip(".")
        where = error.ctx.command_path if error.ctx is not None else ctx.command_path
        typer.echo(f"error: {problem[:1].lower()}{problem[1:]} (see {where} --help)", err=True)
        raise typer.Exit(2) from None


def _no_such_option(error: UsageError) -> str | None:
    """An unknown option's problem with the options it may have meant, as an unknown
    name's is said (:func:`~hammerlab.errors.similar_names`, on the names without their
    dashes): ``no such option: --seeed (did you mean: --seed)``, and none for ``--bogus``,
    where click would list the options spelt least unlike it (``(Possible options:
    --out, --runs)``). ``None`` for another usage error."""
    if not isinstance(error, NoSuchOption):
        return None
    from hammerlab.errors import similar_names

    bare = {p.lstrip("-"): p for p in error.possibilities or ()}
    meant = [bare[name] for name in similar_names(error.option_name.lstrip("-"), list(bare))]
    hint = f" (did you mean: {', '.join(meant)})" if meant else ""
    return f"No such option: {error.option_name}{hint}"


def bare_flags(params: list[Any]) -> list[Any]:
    """``params`` with each on/off flag given an empty value name, so that ``--help``
    shows ``--json``, ``--dice/--no-dice``, ``--help`` as the flags they are: typer
    writes ``<bool>`` beside a flag without one, which reads as a value to give
    (``--json true`` is refused). A flag given a value name keeps it."""
    for param in params:
        if isinstance(param, TyperOption) and param.is_flag and param.metavar is None:
            param.metavar = ""
    return params


def usage_name(argument: TyperArgument) -> str:
    """An argument as the usage line names it, as click writes it: ``UNIT`` (required),
    ``[QUERY]`` (optional), ``SCENARIO.toml...`` (one or more). Typer writes a required
    argument in braces (``{UNIT}``) and adds ``...`` to a name that has them."""
    name = argument.display_name_raw
    if argument.nargs != 1 and not name.endswith("..."):
        name += "..."
    return name if argument.required else f"[{name}]"


class OneLineGroup(TyperGroup):
    """The ``hammerlab`` command group, whose usage errors (an unknown command or
    option) are one line (:func:`one_line_usage`), and whose flags ``--help`` shows
    bare (:func:`bare_flags`)."""

    def get_params(self, ctx: Any) -> list[Any]:
        """The group's parameters, its flags bare."""
        return bare_flags(super().get_params(ctx))

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Parse as usual; a usage error is one line."""
        with one_line_usage(ctx):
            return super().parse_args(ctx, args)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        """Find the command as usual; an unknown one is one line."""
        with one_line_usage(ctx):
            return super().resolve_command(ctx, args)


class OnceCommand(TyperCommand):
    """A command on which an option that takes one value may be given only once.

    Click keeps the last of ``--weapon A --weapon B`` silently; a person who
    wrote both meant something, so that is a usage error naming the option.
    The command line is parsed once more by click's own parser (which lists
    every option in the order given, repeats included) before the real parse.
    Click's usage errors are one line (:func:`one_line_usage`). ``--help`` shows its
    flags bare (:func:`bare_flags`) and its arguments as click does (:func:`usage_name`).
    """

    def get_params(self, ctx: Any) -> list[Any]:
        """The command's parameters, its flags bare."""
        return bare_flags(super().get_params(ctx))

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        """The usage line's words after the command: ``[OPTIONS]`` and each argument
        (:func:`usage_name`)."""
        arguments = [p for p in self.get_params(ctx) if isinstance(p, TyperArgument)]
        options = [self.options_metavar] if self.options_metavar else []
        return [*options, *map(usage_name, arguments)]

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """Refuse a repeated single-value option, then parse as usual."""
        with one_line_usage(ctx):
            if not ctx.resilient_parsing:
                opts, positional, order = self.make_parser(ctx).parse_args(args=list(args))
                seen: set[str] = set()
                for param in order:
                    if not isinstance(param, TyperOption) or param.multiple or param.count:
                        continue
                    if param.is_eager:
                        continue
                    name = param.name or ""
                    if name in seen:
                        raise usage_error(
                            "/".join(param.opts), "given more than once; give it once"
                        )
                    seen.add(name)
                _refuse_long_numbers(self, opts, positional)
            return super().parse_args(ctx, args)


def _refuse_long_numbers(
    command: TyperCommand, opts: dict[str, Any], positional: list[str]
) -> None:
    """A value of the command line (``opts`` by parameter name, and the
    ``positional`` arguments left over, as click's parser read them once for the
    repeat check) holding more digits than any count or seed needs
    (:data:`~hammerlab.errors.MAX_DIGITS`) is a usage error naming its option (or
    argument): Python cannot even convert a whole number of over 4,300 digits."""
    from hammerlab.errors import long_number, long_number_problem

    named = {p.name: "/".join(getattr(p, "opts", ())) or p.name for p in command.params}
    values = [(named.get(k, k), v) for k, v in opts.items()]
    values += [("argument", v) for v in positional]
    for flag, value in values:
        for item in value if isinstance(value, list | tuple) else [value]:
            too_long = long_number(str(item)) if item is not None else None
            if too_long is not None:
                raise usage_error(str(flag), long_number_problem(too_long[1]))


@contextmanager
def progress(description: str, total: int | None, quiet: bool = False) -> Iterator[Advance]:
    """A transient rich progress bar of ``total`` steps (a spinner when ``None``).

    Drawn only on a terminal and when not ``quiet`` (``--json``); otherwise the
    ``advance`` it yields does nothing, so a pipe or a file never gets a bar.
    """
    if quiet or not console.is_terminal:
        yield lambda steps: None
        return
    from rich.progress import Progress

    with Progress(console=console, transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda steps: bar.advance(task, steps)


def check_outputs(outputs: Mapping[str, Path | None], reads: Iterable[Path] = ()) -> None:
    """Check before a run that every output given (by flag) can be written
    (:func:`writable_file`), that no two name one plain file (the later would replace
    the earlier without a word), and that none names a file the run reads: the
    scenario, a plug-in, a saved game, a results store's database
    (:func:`store_files`). A problem is a usage error naming the flag; a path that
    cannot be resolved (a loop of links) is left to the command that opens it."""
    given = {flag: path for flag, path in outputs.items() if path is not None}
    if not given:
        return
    read = {where: path for path in reads if (where := _resolved(path)) is not None}
    written: dict[Path, str] = {}
    for flag, path in given.items():
        writable_file(path, flag)
        where = _resolved(path)
        if where is None:
            continue
        if where in read:
            same = "" if read[where] == path else f" ({read[where]})"
            raise usage_error(flag, f"{path} is a file this run reads{same}; give another")
        if where in written and not _special(path):  # /dev/null twice is fine
            raise usage_error(flag, f"{path} is the {written[where]} file too; give another")
        written[where] = flag


def source_files(path: Path, scenario: Scenario) -> list[Path]:
    """The BattleScribe files the scenario at ``path`` reads its units from
    (``units[].source``, beside it): outputs may not replace them either."""
    return [path.parent / unit.source for unit in scenario.units if unit.source is not None]


def store_files(folder: Path | None) -> list[Path]:
    """The files of the results store in ``folder`` (``--out``, or a folder ``results``
    reads), there yet or not: its database and the database's log."""
    if folder is None:
        return []
    from hammerlab.analysis.store import FILE  # DuckDB: only when a store is named

    return [folder / FILE, folder / f"{FILE}.wal"]


def _resolved(path: Path) -> Path | None:
    """``path`` with its links followed (``None``: a loop of links, or a folder that
    cannot be read on the way)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return None


def _special(path: Path) -> bool:
    """Whether ``path`` is there and is not a plain file or a folder (a device, a
    pipe): written into, not replaced (:func:`write_file`)."""
    try:
        return path.exists() and not path.is_file() and not path.is_dir()
    except OSError:
        return False


def writable_file(path: Path, flag: str) -> None:
    """Check before a long run that ``path`` can be written: not a directory, and
    its folder exists and may be written in (:func:`write_file` writes a file there
    and renames it into place), or, for a device or a pipe, that it may be written
    itself (it is written into); a problem is a usage error naming ``flag``."""
    if path.is_dir():
        raise usage_error(flag, f"{path} is a directory; give a file name")
    if _special(path):
        if not os.access(path, os.W_OK):
            raise usage_error(flag, f"{path}: cannot write it")
        return
    folder = path.parent
    if not folder.is_dir():
        raise usage_error(flag, f"{path}: no such folder {str(folder)!r}")
    if not os.access(folder, os.W_OK):
        raise usage_error(flag, f"{path}: cannot write in folder {str(folder)!r}")


def write_file(path: Path, text: str) -> None:
    """Write ``text`` whole or not at all (a temporary file renamed into place).

    A path that is there and is not a plain file (``/dev/stdout``, a named pipe, a
    device) is written to as it is: renamed over, it would be replaced by a file."""
    if path.is_dir():
        raise fail(f"{path}: is a directory")
    if _special(path):
        try:
            with path.open("w", encoding="utf-8") as stream:
                stream.write(text)
        except OSError as error:
            raise fail(f"{path}: cannot write: {error.strerror}") from None
        return
    partial = path.with_name(f".{path.name}.partial")
    try:
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
    except OSError as error:
        with suppress(OSError):  # the cleanup must not hide the problem (a folder there)
            partial.unlink(missing_ok=True)
        at = f" ({error.filename})" if error.filename not in (None, str(path)) else ""
        raise fail(f"{path}: cannot write: {error.strerror}{at}") from None


def interrupted(out: Path | None, store: ResultStore | None, stop: KeyboardInterrupt) -> typer.Exit:
    """Say in one line on standard error what a run stopped by Ctrl-C (or a SIGTERM:
    :class:`~hammerlab.analysis.runners.Terminated`) kept, and give the exit to raise:
    status 130 (128 + SIGINT, as a shell reports it), 143 for a SIGTERM.

    The store is written a batch of seeds at a time, so what was saved is every
    batch finished; the batches being played were lost, and ``--resume`` plays them.
    Raised inside the runner's and the store's ``with``, so the line comes at once,
    before local worker processes finish the batch they are on and the store closes.
    Before the store is open (``store`` is ``None``), nothing of the run was saved.
    """
    if out is None:
        line = "interrupted: nothing was saved (--out DIR stores every battle as it finishes)"
    elif store is None:
        line = f"interrupted: stopped before any battle was played; nothing was saved to {out}"
    else:
        line = (
            f"interrupted: {store.added} battles of this run saved to {out} (the store is "
            "written a batch at a time; the batches being played were lost); run the same "
            "command with --resume to continue"
        )
    typer.echo(line, err=True)
    return typer.Exit(128 + getattr(stop, "signal_number", signal.SIGINT))


class Interruptible:
    """A run (``sweep``, ``lab``) that a Ctrl-C stops with its one line
    (:func:`interrupted`) wherever it comes: while the command's code is imported,
    the files are read and the points checked, the store is opened, or the results
    are written (a rules writer's review, session 24: a Ctrl-C in a sweep's first
    seconds ended it with status 130 and nothing said). The run tells it the store
    once it is open (:attr:`store`); the battles' own ``interrupted`` line is said
    inside the store's ``with``, at once."""

    def __init__(self, out: Path | None) -> None:
        self.out = out
        self.store: ResultStore | None = None
        """The run's store, once open: what the line counts."""

    def __enter__(self) -> Interruptible:
        return self

    def __exit__(self, kind: object, error: BaseException | None, trace: object) -> None:
        if isinstance(error, KeyboardInterrupt):
            raise interrupted(self.out, self.store, error) from None
