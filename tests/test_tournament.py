"""Tournaments: the JSON document's shape, Wilson intervals derived here
independently, ratings that order the players, and one-line errors."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli_kit import one_line, run
from hammerlab.analysis.game import Game
from hammerlab.analysis.search import start_game
from hammerlab.analysis.stats import wilson_interval
from hammerlab.analysis.sweep_grid import SameScenarioError
from hammerlab.analysis.tournament import (
    Result,
    ScenarioRuleError,
    TournamentError,
    ratings,
    tournament,
)
from hammerlab.cli.app import app
from hammerlab.engine.decisions import Decision
from hammerlab.errors import InputError
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = [
    ROOT / "examples" / "sanity" / "terminators_vs_guardsmen.toml",
    ROOT / "examples" / "sanity" / "nobz_vs_terminators.toml",
]


def _wilson(k: int, n: int) -> tuple[float, float]:
    """Solve |p̂ - p| = 1.96·sqrt(p(1-p)/n) for p: a quadratic in p."""
    z2, phat = 1.959964**2, k / n
    a = 1 + z2 / n
    b = -(2 * phat + z2 / n)
    c = phat * phat
    root = math.sqrt(b * b - 4 * a * c)
    return ((-b - root) / (2 * a), (-b + root) / (2 * a))


def test_wilson_interval_is_the_root_pair_of_the_score_test() -> None:
    for k, n in [(0, 10), (3, 10), (10, 10), (37, 40), (180, 360)]:
        interval = wilson_interval(k, n)  # the one the tournament's win rates use
        low, high = interval.low, interval.high
        want_low, want_high = _wilson(k, n)
        assert math.isclose(low, want_low, abs_tol=1e-9)
        assert math.isclose(high, want_high, abs_tol=1e-9)


def test_ratings_order_the_players_by_their_results_and_average_1500() -> None:
    games = [Result("s", seed, (("A", "strong"), ("B", "weak")), "strong") for seed in range(8)] + [
        Result("s", 9, (("A", "weak"), ("B", "strong")), None)
    ]
    elo = ratings(["strong", "weak"], games)
    assert elo["strong"] > 1500 > elo["weak"]
    assert math.isclose((elo["strong"] + elo["weak"]) / 2, 1500)
    # two players only: the fit is the observed score with the prior draw added
    share = (8 + 0.5 + 0.5) / (9 + 1)
    assert math.isclose(elo["strong"] - elo["weak"], 400 * math.log10(share / (1 - share)))


def test_tournament_json_has_a_record_and_an_interval_per_player() -> None:
    args = ["tournament", *map(str, SCENARIOS), "--players", "heuristic,random"]
    result = CliRunner().invoke(app, [*args, "--games", "3", "--json"])
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert set(document["players"]) == {"heuristic", "random"}
    for record in document["players"].values():
        assert record["games"] == 2 * 2 * 3  # two scenarios, both sides, three seeds
        assert record["wins"] + record["losses"] + record["draws"] == record["games"]
        assert math.isclose(record["win_rate"], record["wins"] / record["games"])
        low, high = record["win_rate_ci95"]
        want = _wilson(record["wins"], record["games"])
        assert math.isclose(low, want[0], abs_tol=1e-9)
        assert math.isclose(high, want[1], abs_tol=1e-9)
    h, r = document["players"]["heuristic"], document["players"]["random"]
    assert h["wins"] == r["losses"] and h["draws"] == r["draws"]
    (pairing,) = document["pairings"]
    assert pairing["heuristic_wins"] == h["wins"] and pairing["games"] == 12
    assert len(document["games"]) == 12
    for game in document["games"]:
        # Sudden Death names the winner where a side was wiped out, whatever the
        # scores; else the scenario's victory condition does: the higher score
        (a, score_a), (b, score_b) = game["scores"].items()
        best = None if score_a == score_b else (a if score_a > score_b else b)
        if game["wiped_out"]:
            (out,) = game["wiped_out"]
            best = b if out == a else a
        assert game["winner"] == (None if best is None else game["sides"][best])
    again = CliRunner().invoke(app, [*args, "--games", "3", "--json"])
    assert json.loads(again.stdout) == document  # common, fixed seeds


def test_tournament_names_a_bad_player_in_one_line() -> None:
    args = ["tournament", str(SCENARIOS[0]), "--players", "heuristic,alphazero"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2  # a usage error of --players (session 14)
    assert result.stderr.startswith("error: --players: ") and result.stderr.count("\n") == 1
    assert "alphazero" in result.stderr


class FirstChoice:
    """A player of one's own: always the first choice offered; counts its answers."""

    def __init__(self) -> None:
        self.answers = 0

    def choose(self, battle: object, decision: Decision[object]) -> int:
        self.answers += 1
        return 0


def test_the_library_tournament_rates_a_player_of_one_s_own() -> None:
    # A tool builder's review: only heuristic, search and random could be rated.
    made: list[tuple[str, FirstChoice]] = []

    def first(game: Game, side: str) -> FirstChoice:
        made.append((side, FirstChoice()))
        return made[-1][1]

    specs = [(load_scenario(path), str(path)) for path in SCENARIOS]
    report = tournament(specs, ["heuristic", "first"], 2, 5, controllers={"first": first})
    assert len(report.games) == len(made) == 2 * 2 * 2  # two scenarios, both sides, two seeds
    assert all(controller.answers > 0 for _, controller in made)  # it played its side
    for game, (side, _) in zip(report.games, made, strict=True):
        assert dict(game.sides)[side] == "first"
        # The same game through the public API: that side answered by a first-choice
        # player, the other left to the edition's AI (the heuristic).
        spec, source = next(s for s in specs if s[0].name == game.scenario)
        alone = Game.start(spec, source, game.seed, controllers={side: FirstChoice()})
        alone.play()
        assert dict(game.scores) == alone.scores
        expected = None if alone.winner is None else dict(game.sides)[alone.winner]
        assert game.winner == expected
    assert {s.player for s in report.standings} == {"heuristic", "first"}


def test_a_player_of_one_s_own_named_like_a_built_in_one_is_refused() -> None:
    specs = [(load_scenario(SCENARIOS[0]), str(SCENARIOS[0]))]
    with pytest.raises(TournamentError, match="'random' is a built-in player"):
        tournament(
            specs, ["heuristic", "random"], 1, controllers={"random": lambda g, s: FirstChoice()}
        )
    with pytest.raises(
        TournamentError, match="'mine' is not one of heuristic, search, random, first"
    ):
        tournament(
            specs, ["heuristic", "mine"], 1, controllers={"first": lambda g, s: FirstChoice()}
        )


ALL_SAVE_2 = """from hammerlab.editions.waffle.points import ARMOUR_SAVE
from hammerlab.engine.rules import RuleOption
RULESET = "waffle"
def install(hooks, settings):
    hooks.add(ARMOUR_SAVE, lambda battle, unit, model, save: 2)
RULES = (RuleOption("{name}", "every model saves on 2+", "House rule", install=install),)
"""


def test_tournament_plays_every_game_with_the_rule_and_plug_in_given(tmp_path: Path) -> None:
    # A tool builder's review: tournament had no --rule and no --plugin.
    plugin = tmp_path / "all_save_2.py"
    plugin.write_text(ALL_SAVE_2.format(name="all_save_2"), encoding="utf-8")
    args = ["tournament", str(SCENARIOS[0]), "--players", "heuristic,random", "--games", "2"]
    code, out, err = run(*args, "--plugin", str(plugin), "--rule", "all_save_2", "--json")
    assert code == 0, err
    document = json.loads(out)
    assert document["rules"] == {"all_save_2": "on"}
    assert [p["path"] for p in document["plugins"]] == [str(plugin.resolve())]
    # Each game is the one `battle` plays with the same rule (the heuristic side
    # against the random one), as its scores show.
    spec, source = load_scenario(SCENARIOS[0]), str(SCENARIOS[0])
    changed = 0
    for game in document["games"]:
        sides = game["sides"]
        mine = start_game(spec, source, game["seed"], sides, {"all_save_2": True}, [str(plugin)])
        mine.play()
        assert mine.scores == game["scores"]
        plain = start_game(spec, source, game["seed"], sides)
        plain.play()
        changed += plain.battle.log.json_lines() != mine.battle.log.json_lines()
    assert changed  # the rule changed a game (its saves), if not always its score


def test_tournament_s_rule_and_plug_in_mistakes_are_one_line(tmp_path: Path) -> None:
    args = ["tournament", *map(str, SCENARIOS), "--players", "heuristic,random", "--games", "1"]
    code, _, err = run(*args, "--rule", "no_such_rule")
    assert one_line(code, err, 2).startswith(
        f"error: --rule: {SCENARIOS[0]} plays waffle: unknown rule or parameter 'no_such_rule'"
    )
    plugin = tmp_path / "elsewhere.py"
    text = 'from hammerlab.engine.rules import RuleOption\nRULESET = "core11"\n'
    plugin.write_text(text + 'RULES = (RuleOption("elsewhere", "s", "q"),)\n', "utf-8")
    code, _, err = run(*args, "--plugin", str(plugin))
    assert one_line(code, err, 1) == (
        f"error: {plugin}: the plug-in is for core11; these scenarios play waffle"
    )


def test_a_rule_one_scenario_s_ruleset_lacks_is_refused_before_any_game_naming_it(
    tmp_path: Path,
) -> None:
    # An agent author's review (session 22): `--rule fiery_charge` over two Waffle
    # scenarios and a core11 one failed only once the core11 scenario's first game was
    # started, every Waffle game played before it wasted, with a message that named no
    # scenario and hinted at a plug-in for a built-in Waffle rule.
    waffle = ROOT / "examples" / "matchups" / "boyz_vs_tactical.toml"
    core11 = ROOT / "examples" / "core11_whole_game.toml"
    specs = [(load_scenario(path), str(path)) for path in (waffle, core11)]
    played: list[int] = []
    with pytest.raises(ScenarioRuleError) as refused:
        tournament(
            specs, ["heuristic", "random"], 10, rules={"fiery_charge": True}, progress=played.append
        )
    assert played == []  # before any game
    # (the rules core11 knows: cover_effect, and those of core11 plug-ins another test
    # of this process loaded)
    message = str(refused.value)
    assert message.startswith(
        f"{core11} plays core11: unknown rule or parameter 'fiery_charge'; known: cover_effect"
    )
    assert message.endswith(
        "(every game plays every rule given; the waffle scenarios take it, the core11 ones do not)"
    )
    args = ["tournament", str(waffle), str(core11), "--games", "60"]
    code, _, err = run(*args, "--rule", "fiery_charge")
    assert one_line(code, err, 2) == f"error: --rule: {message}"
    # A plug-in's Waffle rule over the same set: refused alike, before any game.
    plugin = tmp_path / "mixed_save_2.py"
    plugin.write_text(ALL_SAVE_2.format(name="mixed_save_2"), encoding="utf-8")
    code, _, err = run(*args, "--plugin", str(plugin), "--rule", "mixed_save_2")
    assert one_line(code, err, 2).startswith(
        f"error: --rule: {core11} plays core11: unknown rule or parameter 'mixed_save_2'"
    )
    # A rule no scenario's ruleset has: no other ruleset's scenarios to point at (the
    # plug-in hint follows where this process has loaded no plug-in).
    code, _, err = run("tournament", str(core11), "--rule", "fiery_charge")
    line = one_line(code, err, 2)
    assert line.startswith(
        f"error: --rule: {core11} plays core11: unknown rule or parameter 'fiery_charge'; "
        "known: cover_effect"
    )
    assert "scenarios take it" not in line


def test_a_tournament_s_random_game_is_played_again_by_battle_with_the_same_result() -> None:
    # An agent author's review (session 22): the docs said any lost game could be
    # replayed with `hammerlab battle FILE --seed N`, but `battle` took no random player
    # and the JSON named no FILE. Each game of heuristic against random, played again
    # by the command docs/ai.md gives: the random player's side named by --side.
    scenario = ROOT / "examples" / "matchups" / "carnifex_vs_guard.toml"
    code, out, err = run(
        "tournament", str(scenario), "--players", "heuristic,random", "--games", "1", "--json"
    )
    assert code == 0, err
    games = json.loads(out)["games"]
    assert len(games) == 2
    for game in games:
        assert game["file"] == str(scenario)
        (side,) = [s for s, player in game["sides"].items() if player == "random"]
        code, out, err = run(
            "battle", game["file"], "--seed", str(game["seed"]), "--controller", "random",
            "--side", side, "--json",
        )  # fmt: skip
        assert code == 0, err
        again = json.loads(out)
        assert again["scores"] == game["scores"]
        assert again["wiped_out"] == game["wiped_out"]
        winner = again["winner"]
        assert game["winner"] == (None if winner is None else game["sides"][winner])


def test_each_game_says_which_side_was_wiped_out_and_the_turn_it_ended() -> None:
    # An agent author's review (session 22): games won on a tied or a lower score (the
    # loser wiped out, Sudden Death) said nothing of why. The same games through the
    # game API: a wipe-out is the `wiped_out` event at the end of the game turn it
    # names; any other game plays the scenarios' five turns (their [plan]). Seeds 2
    # and 3 give both kinds of end (since the random player draws afresh at each
    # decision, session 23, seeds 1 and 2 end every game in a wipe-out).
    scenarios = [(load_scenario(p), str(p)) for p in SCENARIOS]
    report = tournament(scenarios, ["heuristic", "random"], 2, first_seed=2)
    document = report.to_dict()
    seen = set()
    for result, game in zip(report.games, document["games"], strict=True):
        assert game["file"] in map(str, SCENARIOS)
        replay = start_game(
            load_scenario(Path(game["file"])), game["file"], game["seed"], game["sides"]
        )
        replay.play()
        ends = [e for e in replay.battle.log.events if e.kind == "wiped_out"]
        if ends:
            (end,) = ends
            assert game["wiped_out"] == list(end.players) and game["last_turn"] == end.turn
            (loser,) = end.players
            assert game["winner"] == next(p for s, p in game["sides"].items() if s != loser)
        else:
            assert game["wiped_out"] == [] and game["last_turn"] == 5
        assert result.wiped_out == tuple(game["wiped_out"])
        seen.add(bool(ends))
    assert seen == {True, False}  # both kinds of end among these games


def test_a_scenario_given_twice_is_refused_before_any_game(tmp_path: Path) -> None:
    # A hostile-input review (session 22): `tournament base.toml base.toml ./base.toml`
    # played the same games three times and counted them as 6 games where 2 were
    # played, narrowing every interval; `sweep` refused it. Refused alike, in the same
    # words, whether the file is named twice, by another spelling of its path, or
    # copied under another name (the same content).
    scenario = ROOT / "examples" / "matchups" / "carnifex_vs_guard.toml"
    copy = tmp_path / "copy.toml"
    copy.write_bytes(scenario.read_bytes())
    played: list[int] = []
    specs = [(load_scenario(scenario), str(scenario))] * 2
    with pytest.raises(SameScenarioError, match="is given twice; give each scenario file once"):
        tournament(specs, ["heuristic", "random"], 1, progress=played.append)
    assert played == []
    code, _, err = run("tournament", str(scenario), str(scenario), "--games", "1")
    assert one_line(code, err, 2) == (
        f"error: SCENARIO: {scenario} is given twice; give each scenario file once"
    )
    other_spelling = str(scenario.parent / ".." / "matchups" / scenario.name)
    code, _, err = run("tournament", str(scenario), other_spelling, "--games", "1")
    assert one_line(code, err, 2) == (
        f"error: SCENARIO: {other_spelling} is given twice; give each scenario file once"
    )
    code, _, err = run("tournament", str(scenario), str(copy), "--games", "1")
    assert one_line(code, err, 2).startswith(
        f"error: SCENARIO: {scenario} and {copy} say the same scenario (the same content)"
    )


def test_a_plug_in_plays_in_the_games_of_its_ruleset_alone(tmp_path: Path) -> None:
    # Since a game refuses a plug-in of another ruleset (a library review, session 22),
    # a tournament over a Waffle and a core11 scenario with a Waffle plug-in was
    # refused at the core11 scenario; the plug-in belongs in the Waffle games only.
    # Two scenarios, two players, both sides, one seed: 2 x 2 x 1 = 4 games.
    plugin = tmp_path / "waffle_only.py"
    plugin.write_text(ALL_SAVE_2.format(name="waffle_only"), encoding="utf-8")
    waffle = ROOT / "examples" / "matchups" / "boyz_vs_tactical.toml"
    core11 = ROOT / "examples" / "core11_whole_game.toml"
    specs = [(load_scenario(path), str(path)) for path in (waffle, core11)]
    report = tournament(specs, ["heuristic", "random"], 1, plugins=[str(plugin)])
    assert len(report.games) == 4
    assert [p.path for p in report.plugins] == [str(plugin.resolve())]


def test_the_library_refuses_a_plug_in_for_none_of_the_scenarios_rulesets(
    tmp_path: Path,
) -> None:
    # A final read (session 22): the library's tournament took a Waffle plug-in over a
    # core11 scenario, played it in no game, and still listed it in the report's
    # plug-ins; the CLI refused it. Refused alike, before any game.
    plugin = tmp_path / "waffle_nowhere.py"
    plugin.write_text(ALL_SAVE_2.format(name="waffle_nowhere"), encoding="utf-8")
    core11 = ROOT / "examples" / "core11_whole_game.toml"
    played: list[int] = []
    with pytest.raises(InputError, match="the plug-in is for waffle; this scenario plays core11"):
        tournament(
            [(load_scenario(core11), str(core11))],
            ["heuristic", "random"],
            1,
            progress=played.append,
            plugins=[str(plugin)],
        )
    assert played == []
