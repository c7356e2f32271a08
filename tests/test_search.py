"""The search AI: deterministic for a seed, never touches the real dice, plays
games that replay, and the random floor picks only legal choices."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hammerlab.analysis import search
from hammerlab.analysis.game import Action, Game
from hammerlab.analysis.log_replay import check_log
from hammerlab.analysis.search import (
    Budget,
    RandomController,
    SearchController,
    Values,
    army_worth,
    install_search,
    paired_verdict,
    start_game,
    value_for,
)
from hammerlab.cli.app import app
from hammerlab.editions.waffle.luck import Luck
from hammerlab.engine.battle import DecisionMade
from hammerlab.errors import InputError
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
SMALL = ROOT / "examples" / "matchups" / "carnifex_vs_guard.toml"
THREE_TURNS = ROOT / "examples" / "whole_game_three_turns.toml"


def _searched(seed: int) -> Game:
    spec = load_scenario(SMALL)
    players = {p.name: "search" for p in spec.players}
    game = start_game(
        spec, str(SMALL), seed, players, budget=Budget(playouts=4), stop_before_turn=3
    )
    game.play()
    return game


@pytest.fixture(scope="module")
def searched_5() -> Game:
    """One searched game (seed 5), shared by the tests that only read it: its
    decisions, digest and saved text (none plays it on or edits a unit)."""
    return _searched(5)


def test_search_is_deterministic_for_a_seed(searched_5: Game) -> None:
    first, again = searched_5, _searched(5)
    assert first.is_over
    assert first.decisions() == again.decisions()
    assert first.digest() == again.digest()


def test_search_never_rolls_the_real_battles_dice() -> None:
    spec = load_scenario(THREE_TURNS)
    game = Game.start(spec, str(THREE_TURNS), seed=2)
    # Two playouts a decision: the race still plays 57 playouts (two for each of the
    # 21 moves, then a confirmation batch), any of which, rolling the real dice,
    # would change the digest; six played 84 at a third more cost.
    searcher = install_search(game, spec.players[0].name, Budget(playouts=2))
    legal = game.legal_actions()  # the game plays on to its first pick
    before, events = game.digest(), len(game.battle.log.events)
    action = searcher.best_action(game)
    assert action in legal
    assert game.digest() == before and len(game.battle.log.events) == events


def test_a_searched_game_is_the_same_as_its_decisions_applied_to_a_plain_game(
    searched_5: Game,
) -> None:
    searched = searched_5  # seed 3 until session 25: any seed's searched game must replay
    text = searched.to_json()
    loaded = Game.from_json(text, "searched game", stop_before_turn=3)  # where it stopped
    assert loaded.digest() == searched.digest()


def test_battle_with_the_search_controller_logs_a_game_that_replays(tmp_path: Path) -> None:
    # Game turn 1 only: there the search side (the Ultramarines) already answers every
    # kind of decision it answers in the whole three turns (mover, move, shooter,
    # weapon, target, action, reaction; a charge reaction besides), 45 decisions
    # logged, and the log must still replay to the saved stop: a quarter of the cost.
    log = tmp_path / "search.jsonl"
    result = CliRunner().invoke(
        app,
        ["battle", str(THREE_TURNS), "--seed", "1", "--controller", "search",
         "--playouts", "2", "--stop-after", "1", "--json", "--log-json", str(log)],
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    text = log.read_text(encoding="utf-8")
    assert check_log(text, str(log)) is None
    events = [json.loads(line) for line in text.splitlines()]
    asked = {e["decision"] for e in events if e.get("player") == "Ultramarines" and "decision" in e}
    assert asked >= {"mover", "move", "shooter", "weapon", "target", "action", "reaction"}, asked


def test_the_random_controller_answers_only_legal_choices_and_repeats_for_a_seed() -> None:
    spec = load_scenario(SMALL)
    games = []
    for _ in range(2):
        game = Game.start(
            spec, str(SMALL), 4, controllers={p.name: RandomController(4) for p in spec.players}
        )
        game.play()
        games.append(game)
    assert games[0].is_over and games[0].decisions() == games[1].decisions()
    assert any(isinstance(e, DecisionMade) for e in games[0].battle.log.events)


def test_the_search_knows_the_heuristic_s_own_pick_at_each_top_level_decision() -> None:
    # The search keeps the heuristic AI's pick unless a playout scores another
    # strictly better; the pick it reads off a copy must be the one the
    # heuristic then makes in the real game, first answers included.
    spec = load_scenario(THREE_TURNS)
    game = Game.start(spec, str(THREE_TURNS), seed=3)
    searcher = SearchController(spec.players[0].name)
    searcher.attach(game)
    for _ in range(6):
        predicted = searcher.heuristic_action(game, game.legal_actions())
        start = len(game.battle.log.events)
        game.step()
        made = [
            (e.decision, e.answer)
            for e in game.battle.log.events[start:]
            if isinstance(e, DecisionMade)
        ]
        wanted = [(predicted.kind, predicted.label), *predicted.then]
        assert made[: len(wanted)] == wanted


def test_a_challenger_must_beat_the_noise_of_its_paired_gains() -> None:
    # SIGNIFICANCE = 1.5 standard errors.
    # [1, 1, 1, -1]: mean 0.5, sample variance (3 * 0.25 + 2.25) / 3 = 1,
    # standard error sqrt(1 / 4) = 0.5; 0.5 is not beyond 1.5 * 0.5: not yet known.
    assert paired_verdict([1, 1, 1, -1]) == 0
    # [2, 1, 2, 1]: mean 1.5, variance 4 * 0.25 / 3 = 1/3, standard error
    # sqrt(1/12) = 0.289; 1.5 is above 1.5 * 0.289 = 0.433.
    assert paired_verdict([2, 1, 2, 1]) == 1
    assert paired_verdict([-2, -1, -2, -1]) == -1  # the same, below zero
    assert paired_verdict([0.5, 0.5, 0.5]) == 1  # no spread, a positive mean
    assert paired_verdict([0, 0, 0, 0]) == -1  # played alike: settled, not better
    # [-1, -2]: mean -1.5, variance 2 * 0.25 / 1 = 0.5, error sqrt(0.5 / 2) = 0.5:
    # more than 1.5 errors below zero. [-1, 0, -1, 0]: mean -0.5, error 0.289 as
    # above: 1.73 errors below, settled worse. [-1, 0, -1, 0.5]: mean -0.375,
    # variance (0.625² * 2 + 0.375² + 0.875²) / 3 = 0.5625, error 0.375: one
    # error below, not yet known.
    assert paired_verdict([-1, -2]) == -1
    assert paired_verdict([-1, 0, -1, 0]) == -1
    assert paired_verdict([-1, 0, -1, 0.5]) == 0


def _scripted(gains: list[float]) -> tuple[SearchController, Game, Action, Action]:
    """A searcher at the three-turn game's first pick whose playouts are scripted: the
    heuristic's pick scores 0, one challenger 1 in the race and then ``gains``
    on the fresh seeds of :meth:`SearchController.confirm`, every other action -1."""
    spec = load_scenario(THREE_TURNS)
    game = Game.start(spec, str(THREE_TURNS), seed=2)
    budget = Budget(playouts=len(gains), confirm_batches=1)
    searcher = install_search(game, spec.players[0].name, budget)
    actions = game.legal_actions()
    default = searcher.heuristic_action(game, actions)
    challenger = next(a for a in actions if a != default)
    fresh: list[float] = []

    def scripted(_game: Game, action: Action, _seed: int, _rounds: int | None = None) -> float:
        if action == challenger:
            return fresh.pop(0) if confirming else 1.0
        return 0.0 if action == default else -1.0

    confirming = False
    confirm = searcher.confirm

    def confirmed(challenger: Action, default: Action, play: Values[Action]) -> bool:
        nonlocal confirming
        confirming = True
        fresh.extend(gains)
        return confirm(challenger, default, play)

    searcher._playout = scripted  # type: ignore[method-assign]
    searcher.confirm = confirmed  # type: ignore[method-assign, assignment]
    return searcher, game, default, challenger


def test_the_heuristic_s_pick_stands_unless_a_challenger_is_significantly_better() -> None:
    searcher, game, default, _ = _scripted([1, 1, 1, -1])
    assert searcher.best_action(game) == default
    searcher, game, _, challenger = _scripted([2, 1, 2, 1])
    assert searcher.best_action(game) == challenger


def test_playout_seeds_are_drawn_for_the_decision_searched_never_from_entropy() -> None:
    """Code review s23, finding 12: the generator of playout seeds began as an unseeded
    ``random.Random()``, replaced in ``choose`` before use; any other caller of the
    search drew seeds no seed reproduced. Now a search outside any decision is an
    error, and :meth:`best_action` draws its seeds for the position itself: asked
    twice at the same decision, it plays its playouts on the same seeds."""
    loner = SearchController("A")
    with pytest.raises(RuntimeError, match="no decision being searched"):
        loner.challenge("a", ["b"], lambda _x, seeds: [0.0 for _ in seeds])

    def seeds_searched() -> list[int]:
        searcher, game, _, _ = _scripted([1, 1, 1, -1])
        scripted, seen = searcher._playout, []

        def noted(game_: Game, action: Action, seed: int, rounds: int | None = None) -> float:
            seen.append(seed)
            return scripted(game_, action, seed, rounds)

        searcher._playout = noted  # type: ignore[method-assign]
        searcher.best_action(game)
        return seen

    first = seeds_searched()
    assert first and seeds_searched() == first


def test_a_playout_ends_after_the_searcher_s_own_next_turn() -> None:
    spec = load_scenario(THREE_TURNS)
    game = Game.start(spec, str(THREE_TURNS), seed=2)  # the heuristic AI plays it on
    searcher = SearchController(spec.players[0].name)
    searcher.attach(game)
    while game.legal_actions()[0].kind == "mover":
        game.step()
    action = game.legal_actions()[0]
    assert action.kind == "shooter"
    turn, seat = game.turn, game.play_state.cursor.seat
    assert seat == 0  # the first player: its next turn is the first of the next game turn
    copy = searcher.playout(game, action, seed=7)
    # This game turn, the opponent's turn, then the searcher's own next turn (its
    # charges and fights with it) were played, and nothing of the opponent's after it.
    assert (copy.turn, copy.play_state.cursor.seat) == (turn + 1, seat + 1)
    assert copy.current_player != game.current_player
    # Budget.until = "before": the horizon as it was, the start of the searcher's turn.
    before = SearchController(spec.players[0].name, replace(Budget(), until="before"))
    before.attach(game)
    early = before.playout(game, action, seed=7)
    assert (early.turn, early.play_state.cursor.seat) == (turn + 1, seat)
    assert early.current_player == game.current_player
    last = game.ready.plan.turns  # from the last game turn the horizon is the end
    while game.turn < last:
        game.step()
    assert searcher.playout(game, game.legal_actions()[0], seed=7).is_over


def test_the_second_player_s_playout_ends_with_the_game_turn_after_next() -> None:
    # The second seat's own next turn is the last of the next game turn: the
    # playout stops at the first seat's turn of the one after.
    spec = load_scenario(THREE_TURNS)
    game = Game.start(spec, str(THREE_TURNS), seed=2)
    second = spec.players[1].name
    searcher = SearchController(second)
    searcher.attach(game)
    while game.current_player != second or game.legal_actions()[0].kind != "shooter":
        game.step()
    turn = game.turn
    copy = searcher.playout(game, game.legal_actions()[0], seed=7)
    assert (copy.turn, copy.play_state.cursor.seat) == (turn + 2, 0)


def test_a_move_s_playout_looks_two_game_rounds_ahead() -> None:
    # Budget.move_rounds = 2: a pick in the Movement phase (turn 1, the first
    # player's seat) is played on through the first player's own turn of turn 3.
    spec = load_scenario(THREE_TURNS)
    game = Game.start(spec, str(THREE_TURNS), seed=2)
    searcher = SearchController(spec.players[0].name)
    searcher.attach(game)
    action = game.legal_actions()[0]
    assert action.kind == "mover" and game.turn == 1
    copy = searcher.playout(game, action, seed=7)
    assert (copy.turn, copy.play_state.cursor.seat) == (3, game.play_state.cursor.seat + 1)
    assert not copy.is_over


def test_a_playout_whose_horizon_falls_in_the_last_turn_plays_it_whole() -> None:
    # Budget.last_turn = "whole": the same pick's horizon is in
    # turn 3, the three-turn game's last, so the opponent's turn 3 is played too
    # and the game is over; so for a reaction replayed from the same snapshot.
    spec = load_scenario(THREE_TURNS)
    game = Game.start(spec, str(THREE_TURNS), seed=2)
    searcher = SearchController(spec.players[0].name, Budget(last_turn="whole"))
    searcher.attach(game)
    action = game.legal_actions()[0]
    assert searcher.playout(game, action, seed=7).is_over
    # One round ahead from turn 1 is turn 2, not the last: cut there as before.
    copy = searcher.playout(game, action, seed=7, rounds=1)
    assert (copy.turn, copy.play_state.cursor.seat) == (2, game.play_state.cursor.seat + 1)


def test_the_value_counts_damage_short_of_a_kill_pro_rata() -> None:
    # Models destroyed: two Guardsmen (W1) dead score 2 for the Tyranids; the
    # Carnifex (W4, the scenario's text) on 1 wound counts 3/4 of a model for
    # the Cadians: 2 - 0.75 = 1.25 to the Tyranids.
    spec = load_scenario(SMALL)
    game = Game.start(spec, str(SMALL), seed=1)
    units = game.battle.units
    for model in units["squad1"].models[:2]:
        model.wounds_left = 0
    units["carnifex"].models[0].wounds_left = 1
    ruleset = game.ready.ruleset
    assert value_for(game.battle, "models_destroyed", "Tyranids", ruleset) == 1.25
    assert value_for(game.battle, "models_destroyed", "Cadians", ruleset) == -1.25
    # Kill points: the Warboss dead is 1; of five Nobz (W2) two dead and one on
    # 1 wound is (2 + 1/2) / 5 = 0.5 of a kill point: 1.5 to the Ultramarines.
    spec = load_scenario(THREE_TURNS)
    game = Game.start(spec, str(THREE_TURNS), seed=1)
    units = game.battle.units
    units["warboss"].models[0].wounds_left = 0
    nobz = units["nobz"].models
    nobz[0].wounds_left = nobz[1].wounds_left = 0
    nobz[2].wounds_left = 1
    assert value_for(game.battle, "kill_points", "Ultramarines", game.ready.ruleset) == 1.5


def test_a_playout_s_value_has_the_luck_of_its_attacks_taken_out() -> None:
    # Budget.luck = "subtracted" (the default): the playout's attacks are watched
    # from the pick on, and the value is the margin less the searcher's luck
    # plus its opponent's; "kept" values the playout as rolled.
    spec = load_scenario(THREE_TURNS)
    game = Game.start(spec, str(THREE_TURNS), seed=2)
    player = spec.players[0].name
    searcher = SearchController(player)
    searcher.attach(game)
    action = game.legal_actions()[0]
    copy = searcher.playout(game, action, seed=7)
    luck = searcher._luck[id(copy.battle)]
    assert isinstance(luck, Luck) and luck.by_player  # attacks of both turns counted
    ruleset, victory = copy.ready.ruleset, copy.ready.plan.victory
    scale = army_worth(copy.battle, victory)  # Budget.measure = "share", the default
    rolled = value_for(copy.battle, victory, player, ruleset, scale)
    assert searcher._value(copy) == rolled - luck.margin(player, scale)
    assert id(copy.battle) not in searcher._luck  # forgotten once valued
    kept = SearchController(player, replace(Budget(), luck="kept"))
    kept.attach(game)
    copy = kept.playout(game, action, seed=7)
    assert not kept._luck and kept._value(copy) == value_for(
        copy.battle, victory, player, ruleset, scale
    )


def test_a_playout_that_ends_the_game_is_worth_its_score_margin() -> None:
    # Budget.ended = "score": once the game is over, damage short
    # of a kill counts nothing, as it does for the winner. By kill points, the
    # Tyranids destroying squad 1 score 1 and a Carnifex (W4) on one wound gives
    # the Cadians nothing: a margin of 1; counted pro rata the Carnifex's three
    # lost wounds give the Cadians 3/4 of its kill point: 1 - 0.75 = 0.25.
    spec = load_scenario(SMALL)
    game = Game.start(spec, str(SMALL), seed=1, stop_before_turn=2)
    game.play()
    assert game.is_over
    for unit in game.battle.units.values():
        for model in unit.models:
            model.wounds_left = game.ready.ruleset.starting_wounds(model.profile)
    for model in game.battle.units["squad1"].models:
        model.wounds_left = 0
    game.battle.units["carnifex"].models[0].wounds_left = 1
    values = {}
    for ended in ("score", "pro_rata"):
        budget = Budget(luck="kept", ended=ended, measure="points")
        searcher = SearchController("Tyranids", budget)
        searcher.attach(game)
        values[ended] = searcher._value(game)
    assert values == {"score": 1.0, "pro_rata": 0.25}
    # Measured as a share of each army (the default): the Cadians lost one of
    # their three units, the Tyranids three quarters of their only one.
    searcher = SearchController("Tyranids", Budget(luck="kept", ended="pro_rata"))
    searcher.attach(game)
    assert searcher._value(game) == pytest.approx(1 / 3 - 3 / 4)


def test_a_playout_stopped_with_a_combat_on_adds_the_fight_s_outlook() -> None:
    # Hormagaunts against the Guard, seed 8 (found by trying seeds, not derived; seed 9
    # until session 21's Barrage and Dive for Cover fixes sent that game another way,
    # seed 1 until session 22's barrages placed the mortars' later markers touching the
    # first, seed 3 until session 23's cover from intervening models and weapon order,
    # seed 5 until session 24's blast marker count, seed 4 until session 24's charges
    # round other bases, each time no combat being fought by then):
    # at the start of the second seat's
    # turn 2 a combat is being fought. Seven player turns are left in the
    # five-turn game (that one, then both of turns 3 to 5), one fight
    # sub-phase each: the value with the outlook is the value without it plus
    # the Tyranids' expected gain less the Cadians' over seven sub-phases.
    path = ROOT / "examples" / "matchups" / "hormagaunts_vs_guard_cover.toml"
    spec = load_scenario(path)
    game = Game.start(spec, str(path), seed=8)
    while (game.turn, game.play_state.cursor.seat) < (2, 1):
        game.step()
    gains = game.ready.ruleset.outlook(game.battle, 7)
    assert gains["Tyranids"] > 0 and gains["Cadians"] > 0
    values = {}
    for outlook in ("fights", "none"):
        searcher = SearchController("Tyranids", Budget(luck="kept", outlook=outlook))
        searcher.attach(game)
        values[outlook] = searcher._value(game)
    gain = gains["Tyranids"] - gains["Cadians"]
    assert values["fights"] == pytest.approx(values["none"] + gain)


@pytest.mark.parametrize(
    "setting",
    [
        {"luck": "lucky"},
        {"until": "later"},
        {"ended": "never"},
        {"last_turn": "half"},
        {"outlook": "far"},
        {"reactions": "sometimes"},
    ],
)
def test_a_budget_with_an_unknown_horizon_or_luck_is_refused(setting: dict[str, str]) -> None:
    with pytest.raises(InputError, match=next(iter(setting))):
        Budget(**setting)  # type: ignore[arg-type]


def test_a_budget_confirming_at_no_round_ahead_is_refused() -> None:
    with pytest.raises(InputError, match="confirm_rounds"):
        Budget(confirm_rounds=0)


def test_a_budget_giving_an_action_no_playout_a_stage_is_refused() -> None:
    with pytest.raises(InputError, match="race_each"):
        Budget(race_each=0)


def test_a_challenge_is_confirmed_at_the_confirmation_s_horizon() -> None:
    # Budget.confirm_rounds = 3: the race's playouts look as far as the budget's
    # rounds (no rounds given), the confirmation's three game rounds on; in the
    # three-turn game that is past its last turn, so they end with the game.
    spec = load_scenario(THREE_TURNS)
    game = Game.start(spec, str(THREE_TURNS), seed=2)
    budget = Budget(playouts=2, confirm_batches=1, confirm_rounds=3)
    searcher = install_search(game, spec.players[0].name, budget)
    actions = game.legal_actions()
    default = searcher.heuristic_action(game, actions)
    challenger = next(a for a in actions if a != default)
    asked: list[tuple[Action, int | None]] = []

    def scripted(_game: Game, action: Action, _seed: int, rounds: int | None = None) -> float:
        asked.append((action, rounds))
        return 1.0 if action == challenger else 0.0

    searcher._playout = scripted  # type: ignore[method-assign]
    assert searcher.best_action(game) == challenger
    confirming = [rounds for _, rounds in asked if rounds is not None]
    assert confirming and set(confirming) == {3}
    assert asked[0][1] is None  # the race came first, at the race's horizon
    copy = SearchController(spec.players[0].name, budget)
    copy.attach(game)
    assert copy.playout(game, challenger, seed=7, rounds=3).is_over
    assert not copy.playout(game, challenger, seed=7).is_over


def test_a_reaction_s_challenge_is_confirmed_at_the_confirmation_s_horizon(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The reactions' branches look Budget.rounds ahead in the race and
    # confirm_rounds in the confirmation (branching.branch_playout's rounds).
    spec = load_scenario(THREE_TURNS)
    game = Game.start(spec, str(THREE_TURNS), seed=2)
    budget = Budget(playouts=2, confirm_batches=1, confirm_rounds=4)
    searcher = install_search(game, spec.players[0].name, budget)
    looked: list[int] = []

    class Answers:
        def answers_since(self, _battle: object) -> list[tuple[str, str]]:
            return []

    def branch(_s: object, _a: object, branch: tuple[str, str], _seed: int, rounds: int,
               _dice: str, _watch: object, _whole: bool) -> str:  # fmt: skip
        looked.append(rounds)
        return branch[1]

    monkeypatch.setattr(search, "branch_playout", branch)
    monkeypatch.setattr(
        SearchController, "_value", lambda self, label: 1.0 if label == "b" else 0.0
    )
    searcher._snapshot = Answers()  # type: ignore[assignment]

    class Asked:
        kind = "reaction"

        def labels(self) -> list[str]:
            return ["a", "b"]

    assert searcher.inner_choice(game.battle, Asked(), 0) == 1  # type: ignore[arg-type]
    assert looked[0] == budget.rounds and 4 in looked and set(looked) == {budget.rounds, 4}
