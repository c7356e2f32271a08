"""``hammerlab battle`` and ``hammerlab replay``: play a scenario, resume a saved
game, check a log. Imported only when one of those commands runs."""

from __future__ import annotations

import json
import shlex
import traceback
from collections.abc import Collection
from pathlib import Path
from typing import Any

import typer
from rich.markup import escape

from hammerlab.analysis.game import HOLD, Game, stop_after_problem
from hammerlab.analysis.game_files import PluginNotNamedError, saved_players
from hammerlab.analysis.log_replay import check_log, logged_stop
from hammerlab.analysis.search import Budget, RandomController, install_search
from hammerlab.cli.common import (
    OutputClosed,
    check_outputs,
    console,
    fail,
    progress,
    source_files,
    usage_error,
    write_file,
)
from hammerlab.cli.prompt import InputEndedError, PromptController
from hammerlab.cli.render import show_event
from hammerlab.editions.base import Ruleset
from hammerlab.editions.plugins import check_plugins_fit, load_plugin_files
from hammerlab.engine.decisions import Controller
from hammerlab.engine.events import Event
from hammerlab.engine.rules import ParamValue, RuleSettingError, RuleSettings, rule_flags
from hammerlab.errors import BattleFailedError, HammerlabError, InputError
from hammerlab.io.files import MAX_LOG_BYTES, MAX_SAVED_GAME_BYTES, read_text_at_most
from hammerlab.io.scenario import load_scenario, plan_notes


def load_plugins(files: list[Path] | None, rulesets: Collection[str] | None = None) -> list[str]:
    """Load each plug-in file; their absolute paths (for worker processes). With
    ``rulesets`` (those the scenarios play), a plug-in for none of them is refused
    (:func:`~hammerlab.editions.plugins.check_plugins_fit`). A file given twice (by
    two spellings of its path) is loaded, and recorded, once: twice recorded, the
    same battles were stored under another engine version. Two files of one rule name
    are refused (:func:`~hammerlab.editions.plugins.load_plugin_files`)."""
    loaded = load_plugin_files(files or [])
    if rulesets is not None:
        check_plugins_fit(loaded, rulesets)
    return list(dict.fromkeys(p.path for p in loaded))


def run_battle(
    *,
    scenario: Path | None,
    seed: int | None,
    rule: list[str] | None,
    plugin: list[Path] | None,
    controller: str,
    side: str | None,
    log_json: Path | None,
    dice: bool,
    save: Path | None,
    stop_after: int | None,
    resume: Path | None,
    as_json: bool,
    playouts: int | None = None,
) -> None:
    """Play (or resume) the battle; the step log and summary, or one JSON document.

    ``--controller search`` makes ``--side`` (the first player by default) the
    search AI with ``playouts`` per decision (:class:`Budget`'s by default);
    ``--controller random`` makes it the random player, seeded as a tournament seeds
    it (:func:`install_random`), so that a tournament's game is played again; the other
    side is the heuristic AI. ``--playouts`` without search is a usage error, as
    ``--side`` is without prompt, search or random: it would change nothing.
    """
    controller = _checked_flags(controller, scenario, resume, side, playouts, as_json)
    budget = Budget() if playouts is None else Budget(playouts)
    if resume is not None:
        _check_recipe_flags(seed, rule)
    _check_output_paths(scenario, resume, save, log_json, plugin)
    stop = None if stop_after is None else stop_after + 1
    try:
        if resume is not None:
            game = _resume_game(resume, controller, side, plugin or [], stop_after, as_json)
            unlogged: list[str] = []
        else:
            assert scenario is not None
            game, unlogged = _start_game(
                scenario, seed, rule, plugin, controller, side, save, log_json, stop_after
            )
        you = _install_controller(game, controller, side, budget, str(resume or scenario))
        flags = _resume_flags(game, controller, you, budget)
        if not as_json:
            _show_start(game, resume is not None, controller, you, budget, dice, unlogged)
        _play_or_stop(game, stop, as_json or controller == "prompt", save, log_json, flags)
    except RuleSettingError as error:
        raise usage_error("--rule", error) from None
    except PluginNotNamedError as error:
        raise usage_error("--plugin", plugins_to_name(error)) from None
    except HammerlabError as error:
        raise fail(error) from None
    except (typer.Exit, typer.Abort):
        raise  # the player quit (--controller prompt)
    except OutputClosed:
        raise  # the reader of standard output went (| head): quietly, as without plug-ins
    except (Exception, SystemExit) as error:
        if not (plugin or _recorded_plugins(resume)):
            raise  # hammerlab's own bug: the whole traceback, for its report
        # With plug-ins, most often a bug of theirs: one line, then where it failed.
        line = f"the battle failed: {type(error).__name__}: {error}"
        raise fail(BattleFailedError(line, traceback.format_exc())) from None
    _write_outputs(game, save, log_json)
    _show_result(game, save, as_json)


def _checked_flags(
    controller: str,
    scenario: Path | None,
    resume: Path | None,
    side: str | None,
    playouts: int | None,
    as_json: bool,
) -> str:
    """The controller ``--controller`` names (:data:`CONTROLLER_ALIASES` resolved), the
    flags checked against it and each other: a usage error naming the first flag
    that does not fit."""
    controller = CONTROLLER_ALIASES.get(controller, controller)
    if controller not in CONTROLLERS:
        shown = ", ".join(CONTROLLERS[:-1]) + f" or {CONTROLLERS[-1]}"
        raise usage_error("--controller", f"must be {shown}, not {controller!r}")
    if as_json and controller == "prompt":
        raise usage_error("--json", "cannot be used with --controller prompt")
    if (scenario is None) == (resume is None):
        raise usage_error("SCENARIO", "give a scenario file or --resume FILE (one of the two)")
    if side is not None and controller == "heuristic":
        raise usage_error(
            "--side",
            "names the player --controller prompt, search or random plays; give one of those",
        )
    if playouts is not None and controller != "search":
        raise usage_error(
            "--playouts", "is the search AI's budget; give it with --controller search"
        )
    return controller


def _check_output_paths(
    scenario: Path | None,
    resume: Path | None,
    save: Path | None,
    log_json: Path | None,
    plugin: list[Path] | None,
) -> None:
    """Refuse ``--save`` and ``--log-json`` paths over the files the battle reads.

    Checked before play, so that a game played by hand is not lost to a mistyped
    path at its end. Saving over the game resumed is playing it on: allowed; a log
    over it is not."""
    reads = [scenario] if scenario is not None else []
    check_outputs({"--save": save, "--log-json": log_json}, reads + list(plugin or []))
    check_outputs({"--log-json": log_json}, [resume] if resume is not None else [])


def _resume_game(
    resume: Path,
    controller: str,
    side: str | None,
    plugins: list[Path],
    stop_after: int | None,
    as_json: bool,
) -> Game:
    """The saved game ``resume`` (:func:`_resumed`), ``--stop-after`` checked against
    the turns it has still to play, and (without ``--json``) a line saying so."""
    game = _resumed(resume, controller, side, plugins)
    first = game.ready.plan.turns + 1 if game.finished else game.turn
    _check_stop_after(stop_after, game.ready.plan.turns, str(resume), first)
    if not as_json:  # said once the flags are known good: an error comes alone
        console.print(
            f"Resuming {game.recipe.scenario.get('name', '')} — "
            f"{game.ready.ruleset.title}, seed {game.battle.dice.seed}, turn {game.turn}",
            markup=False,
        )
    return game


def _start_game(
    scenario: Path,
    seed: int | None,
    rule: list[str] | None,
    plugin: list[Path] | None,
    controller: str,
    side: str | None,
    save: Path | None,
    log_json: Path | None,
    stop_after: int | None,
) -> tuple[Game, list[str]]:
    """The battle the scenario file ``scenario`` begins (held before its first turn),
    and the scenario's notes the log does not hold (:func:`plan_notes`)."""
    spec = load_scenario(scenario)
    check_outputs({"--save": save, "--log-json": log_json}, source_files(scenario, spec))
    _check_stop_after(stop_after, spec.plan.turns, str(scenario))
    people = _people(controller, side, [p.name for p in spec.players], str(scenario))
    plugins = load_plugins(plugin)  # Game.start refuses one for another ruleset
    rules = rule_flags(rule or [])
    where = str(scenario.resolve())  # recorded: the game resumes from any folder
    game = Game.start(spec, str(scenario), seed, rules, plugins, people, HOLD, scenario_path=where)
    return game, plan_notes(spec)


def _install_controller(
    game: Game, controller: str, side: str | None, budget: Budget, where: str
) -> str:
    """Make the player ``--side`` names (the first by default) the search AI or the
    random player where ``--controller`` says so; that player."""
    players = [p.name for p in game.battle.players]
    you = _side(side, players, where)
    if controller == "search":
        install_search(game, you, budget)
    if controller == "random":
        install_random(game, you)
    return you


def _show_start(
    game: Game,
    resumed: bool,
    controller: str,
    you: str,
    budget: Budget,
    dice: bool,
    unlogged: list[str],
) -> None:
    """What is said before the first turn played here (the title of a battle begun
    here, who plays each side, what the log holds already), and each event as it is
    logged from then on."""
    if not resumed:
        _introduce(game)
    players = [p.name for p in game.battle.players]
    console.print(_players_line(players, controller, you, budget), markup=False)
    _show_prepared(game, resumed, dice, unlogged)
    game.battle.log.subscribe(lambda event: show_event(console, event, dice))


def _play_or_stop(
    game: Game,
    stop: int | None,
    quiet: bool,
    save: Path | None,
    log_json: Path | None,
    flags: list[str],
) -> None:
    """Play on (:func:`_play`); stopped by Ctrl-C or the input ending, keep what
    :func:`_stopped` keeps and exit as it says."""
    try:
        _play(game, stop, quiet)
    except KeyboardInterrupt:
        raise _stopped(game, save, log_json, flags, "interrupted", 130) from None
    except InputEndedError as error:
        raise _stopped(game, save, log_json, flags, str(error), 1) from None


def _write_outputs(game: Game, save: Path | None, log_json: Path | None) -> None:
    """The game's ``--log-json`` log and its ``--save`` file, where asked for."""
    if log_json is not None:
        write_file(log_json, game.log_json_lines())
    if save is not None:
        write_file(save, game.to_json() + "\n")


def _show_result(game: Game, save: Path | None, as_json: bool) -> None:
    """The battle's summary: its JSON document (:func:`battle_document`) with
    ``--json``, else the ruleset's summary lines and where the game was saved."""
    if as_json:
        document = battle_document(game)
        document["saved_game"] = None if save is None else str(save)
        typer.echo(json.dumps(document, indent=1))
        return
    console.rule("Summary" if game.finished else f"Stopped before turn {game.turn}")
    for line in game.ready.ruleset.summary(game.battle, game.ready.plan, game.finished):
        console.print(line, markup=False)
    if save is not None:
        console.print(f"saved game written to {save}", markup=False)


CONTROLLERS = ("heuristic", "prompt", "search", "random")
"""What ``--controller`` takes: the heuristic AI on both sides; a person, the search AI
or the random player on ``--side``. ``heuristic`` is the name the battle's header,
``lab --ai`` and ``tournament --players`` give that AI."""

CONTROLLER_ALIASES = {"ai": "heuristic"}
"""Older names ``--controller`` still takes: ``ai``, its name (and default) before
session 23."""


def install_random(game: Game, player: str) -> None:
    """Make ``player`` the random player, seeded as a tournament's random player is
    (:meth:`~hammerlab.analysis.search.RandomController.for_seat`), so that
    ``battle --seed N --controller random --side P`` plays the tournament's game of
    seed ``N`` where the random player played ``P``. Its draws are seeded at each
    decision by the decision's place in the game (:func:`~hammerlab.analysis.search.drawn_at`),
    so a resumed game's random player draws what it drew in the game played whole."""
    game.battle.controllers[player] = RandomController.for_seat(game.battle.dice.seed, player)


def _stopped(
    game: Game,
    save: Path | None,
    log_json: Path | None,
    flags: list[str],
    why: str,
    status: int,
) -> typer.Exit:
    """Say in one line on standard error why the game stopped before its end and what
    was kept, and give the exit to raise (130 for Ctrl-C, as a shell reports it; 1,
    an ``error:`` line, for the input ending).

    What is kept is the game as it stood at its last top-level decision
    (:meth:`Game.at_last_pick`): with ``--save`` it is saved, so that ``--resume``
    (with ``flags``, :func:`_resume_flags`) asks the interrupted unit's activation again
    from its start; ``--log-json`` gets its log, with or without ``--save``, ending
    with the stop (:meth:`Game.stop`) so that ``replay`` stops there too. Without
    ``--save`` the line says how to keep a game next time."""
    interrupted = status == 130
    line = why if interrupted else f"error: {why}"
    kept = game.at_last_pick()
    if save is None:
        line += "; the game was not saved (--save FILE keeps a game you stop)"
    else:
        write_file(save, kept.to_json() + "\n")  # saved before its log records the stop
        resume = shlex.join(["hammerlab", "battle", "--resume", str(save), *flags])
        line += (
            f"; the game was saved to {save} as it stood at its last top-level decision "
            f"(game turn {kept.turn}; an activation under way is asked again from its start); "
            f"go on with {resume}"
        )
    if log_json is not None:
        kept.stop("interrupted" if interrupted else "the input ended")
        write_file(log_json, kept.log_json_lines())
        line += f"; its log was written to {log_json}"
    typer.echo(line, err=True)
    return typer.Exit(status)


def _resume_flags(game: Game, controller: str, you: str, budget: Budget) -> list[str]:
    """The flags that go on with a game saved where it stopped, played as it was,
    after ``--resume FILE``: the same controller, the side the person (or the search AI)
    plays, the search's playouts where not the default, and the plug-ins the game
    plays with (run only when named). ``--save`` stays the user's to give."""
    words: list[str] = []
    if controller != "heuristic":
        words += ["--controller", controller, "--side", you]
    if controller == "search" and budget.playouts != Budget.playouts:
        words += ["--playouts", str(budget.playouts)]
    for plugin in game.recipe.plugins:
        words += ["--plugin", plugin]
    return words


def _recorded_plugins(resume: Path | None) -> bool:
    """Whether the saved game ``resume`` (if any) plays with plug-ins: they are its
    own, not ``--plugin``'s. Read for the failure's message only: a file that
    cannot be read says no."""
    if resume is None:
        return False
    try:
        text = read_text_at_most(resume, MAX_SAVED_GAME_BYTES, str(resume))
        return bool(json.loads(text).get("plugins"))
    except (OSError, InputError, ValueError, RecursionError, AttributeError):
        return False


def plugins_to_name(error: PluginNotNamedError) -> str:
    """What ``--plugin`` must say for a saved game or log (``battle --resume``,
    ``replay``): the file, the plug-ins it plays with that were not named, and the
    flags that run them (its plug-ins are code, run only when the user names them);
    or the plug-ins named that it does not play with."""
    where = error.source
    if error.missing:
        them = "it" if len(error.missing) == 1 else "them"
        flags = " ".join(f"--plugin {shlex.quote(path)}" for path in error.missing)
        files = ", ".join(error.missing)
        kind = "plug-in" if len(error.missing) == 1 else "plug-ins"
        wrong = f"; it does not play with {', '.join(error.extra)}" if error.extra else ""
        return (
            f"{where} plays with the {kind} {files}, Python code run only when you name "
            f"{them}: add {flags} to run {them}{wrong}"
        )
    extra = ", ".join(error.extra)
    if not error.recorded:
        return f"{where} plays with no plug-in; leave out {extra}"
    return f"{where} does not play with {extra}; its plug-ins: {', '.join(error.recorded)}"


def _check_recipe_flags(seed: int | None, rule: list[str] | None) -> None:
    """With ``--resume``, refuse what would change the game's recipe: the saved game
    holds its own seed and rules, and playing on with others would not be the game
    saved; a usage error naming the flag. (``--plugin`` names the plug-ins it records,
    which are loaded only when named: :func:`plugins_to_name`.)"""
    given = {"--seed": seed is not None, "--rule": bool(rule)}
    flag = next((f for f, present in given.items() if present), None)
    if flag is not None:
        problem = "a saved game holds its own seed and rules; leave it out with --resume"
        raise usage_error(flag, problem)


def _check_stop_after(stop_after: int | None, turns: int, where: str, first: int = 1) -> None:
    """``--stop-after TURN`` must be a game turn still to play (:func:`stop_after_problem`;
    a game over, its last turn played or a side wiped out, has none); a usage error
    naming the flag."""
    problem = "" if stop_after is None else stop_after_problem(stop_after, turns, where, first)
    if problem:
        raise usage_error("--stop-after", problem)


def _play(game: Game, stop: int | None, quiet: bool) -> None:
    """Play on (from :data:`HOLD`) to the end or to turn ``stop``, a progress bar
    moving one step per game turn (on a terminal)."""
    first = game.turn
    last = game.ready.plan.turns if stop is None else min(game.ready.plan.turns, stop - 1)
    with progress("game turns", max(0, last - first + 1), quiet) as advance:
        reached = [first]

        def turn_ended(event: Event) -> None:
            if game.turn > reached[0]:
                advance(game.turn - reached[0])
                reached[0] = game.turn

        game.battle.log.subscribe(turn_ended)
        game.stop_before_turn = stop
        game.play()


def battle_document(game: Game) -> dict[str, Any]:
    """The battle's summary as plain data: what ``battle --json`` prints.

    Keys: ``scenario``, ``ruleset``, ``seed``, ``rules_on``, ``parameters_changed``,
    ``units`` (``id``, ``label`` (``Ork Boyz [boyz]``), ``unit`` (the label too, kept
    for tools that read it: in ``sweep`` and ``results`` it is the id, so read ``id``
    and ``label``), ``player``, ``starting_models`` (the rules' starting
    strength), ``models_fielded`` (those less the models lost before the scenario, its
    ``casualties``), ``models_left``, ``models_destroyed`` (in play: fielded less left,
    as the ``models_destroyed`` victory counts them), ``off_table`` (``null`` for a unit
    on the table, else where it is: ``in reserve``, ``aboard Chimera [chimera]``; the
    units on the table come first)), ``victory``, ``scores``,
    ``winner`` (``null`` on a draw and in a game stopped before its end; the player
    left when the other was wiped out, whatever the scores), ``leading`` (who leads as
    the game stands, ``null`` when level: the winner once the game is over),
    ``wiped_out`` (the players with no models left when the game ended early, else
    empty), ``stopped_before_turn`` (``null`` when the game ran to its end),
    ``warnings``.
    """
    ready, battle = game.ready, game.battle
    return {
        "scenario": game.recipe.scenario.get("name", ""),
        "ruleset": ready.ruleset.name,
        "seed": battle.dice.seed,
        "rules_on": sorted(n for n, v in battle.options.items() if v),
        "parameters_changed": changed_parameters(ready.ruleset, battle.settings),
        "units": [
            {
                "id": unit.id,
                "label": unit.label,
                "unit": unit.label,
                "player": unit.player,
                "starting_models": unit.starting_models,
                "models_fielded": unit.fielded_models,
                "models_left": len(unit.alive_models),
                "models_destroyed": unit.fielded_models - len(unit.alive_models),
                "off_table": away,
            }
            for unit, away in ready.every_unit()
        ],
        "victory": ready.plan.victory,
        "scores": game.scores,
        "winner": game.winner,
        "leading": game.leading,
        "wiped_out": list(game.wiped_out),
        "stopped_before_turn": None if game.finished else game.turn,
        "warnings": list(ready.warnings),
    }


def _people(
    controller: str, side: str | None, players: list[str], where: str
) -> dict[str, Controller]:
    """The prompt controller for the side a person plays (``--controller prompt``)."""
    if controller != "prompt":
        return {}
    return {_side(side, players, where): PromptController(console)}


def _side(side: str | None, players: list[str], where: str) -> str:
    """The player ``--side`` names (the first player without it)."""
    you = side or players[0]
    if you not in players:
        raise usage_error(
            "--side", f"{where} has no player {you!r}; its players: {', '.join(players)}"
        )
    return you


def _resumed(path: Path, controller: str, side: str | None, plugins: list[Path]) -> Game:
    """The saved game in ``path``, replayed to where it stopped (and held there); the
    plug-ins it records are loaded only when ``plugins`` (``--plugin``) names them all
    (:class:`PluginNotNamedError` otherwise, before any is)."""
    try:
        text = read_text_at_most(path, MAX_SAVED_GAME_BYTES, str(path))
    except OSError as error:
        raise InputError(str(path), "", f"cannot read: {error}") from None
    players = saved_players(text, str(path))
    people = _people(controller, side, players, str(path))
    return Game.from_json(text, str(path), people, HOLD, plugins)


def _show_prepared(game: Game, resumed: bool, dice: bool, unlogged: list[str]) -> None:
    """What the step log holds before the first turn, for a battle begun here: what
    was logged while it was prepared (the load notes, an edition's notes, such as
    core11's abilities it does not model, a transport's passengers embarking), as
    ``--log-json`` has it, then the notes not logged (``unlogged``: the scenario's
    about its ``[plan]``, :func:`plan_notes`). A resumed battle's log holds its whole
    history: its load notes alone are said again."""
    if resumed:
        for warning in game.ready.warnings:
            console.print(f"[yellow]note:[/yellow] {escape(warning)}")
        return
    for event in game.battle.log.events:
        show_event(console, event, dice)
    for note in unlogged:
        console.print(f"[yellow]note:[/yellow] {escape(note)}")


def _introduce(game: Game) -> None:
    """The battle's title, description and the rules in force."""
    ready, battle = game.ready, game.battle
    name = game.recipe.scenario.get("name", "")
    description = game.recipe.scenario.get("description")
    console.print(f"{name} — {ready.ruleset.title}, seed {battle.dice.seed}", markup=False)
    if description:
        console.print(description, markup=False)
    implied = battle.settings.implied
    on = [
        f"{n} (switched on by {implied[n]})" if n in implied else n
        for n, v in battle.options.items()
        if v
    ]
    console.print("Rule options on: " + (", ".join(on) if on else "none"), markup=False)
    changed = changed_parameters(ready.ruleset, battle.settings)
    if changed:
        shown = ", ".join(f"{k}={v}" for k, v in changed.items())
        console.print("Rule parameters: " + shown, markup=False)


def _players_line(players: list[str], controller: str, you: str, budget: Budget) -> str:
    """Who plays each side, said before the first turn: ``Players: Ultramarines: search
    AI (8 playouts a decision); Orks: heuristic AI``. ``you`` is the side ``--side``
    names (the first player by default), which ``--controller search``, ``prompt`` or
    ``random`` plays; every other side is the ruleset's heuristic AI."""
    playouts = f"{budget.playouts} playout{'s' if budget.playouts != 1 else ''}"
    played = {
        "search": f"search AI ({playouts} a decision)",
        "prompt": "you (--controller prompt)",
        "random": "random player (uniform over every choice, seeded)",
    }
    who = {
        p: played.get(controller, "heuristic AI") if p == you else "heuristic AI" for p in players
    }
    return "Players: " + "; ".join(f"{p}: {who[p]}" for p in players)


def changed_parameters(ruleset: Ruleset, settings: RuleSettings) -> dict[str, ParamValue]:
    """Every parameter not at its default, with its value."""
    defaults = {p.name: p.default for p in ruleset.parameters}
    for option in ruleset.options:
        defaults.update({f"{option.name}.{p.name}": p.default for p in option.parameters})
    return {k: v for k, v in settings.values.items() if defaults.get(k) != v}


def run_replay(log: Path, plugin: list[Path] | None = None) -> None:
    """Check a JSON Lines log by playing it again; exit 1 at the first difference.
    The plug-ins its header records are loaded only when ``plugin`` (``--plugin``)
    names them all: otherwise a usage error says which, before any is."""
    try:
        text = read_text_at_most(log, MAX_LOG_BYTES, str(log))
        differs = check_log(text, str(log), plugin or [])
    except OSError as error:
        raise fail(f"{log}: cannot read: {error}") from None
    except PluginNotNamedError as error:
        raise usage_error("--plugin", plugins_to_name(error)) from None
    except HammerlabError as error:
        raise fail(error) from None
    if differs is None:
        stop = logged_stop([json.loads(text.splitlines()[-1])])
        where = "" if stop is None else f" up to where the game stopped at game turn {stop.turn}"
        reason = "" if stop is None else f" ({stop.reason})"
        console.print(f"{log}: replays identically{where}{reason}", markup=False)
        return
    raise fail(f"{log}: {differs}")
