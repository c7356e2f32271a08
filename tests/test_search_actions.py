"""What the search chooses among: movement intents and shooting targets as legal
top-level actions (Waffle), and the race that spends its playouts where the
actions differ (:func:`hammerlab.analysis.search.race`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from hammerlab.analysis.game import Action, Game
from hammerlab.analysis.search import race
from hammerlab.engine.battle import DecisionMade
from hammerlab.io.scenario import load_scenario, parse_scenario

ROOT = Path(__file__).resolve().parents[1]
CARNIFEX = ROOT / "examples" / "matchups" / "carnifex_vs_guard.toml"
PLATOON = ROOT / "examples" / "matchups" / "terminators_vs_guard_platoon.toml"


def _start(path: Path) -> Game:
    return Game.start(load_scenario(path), str(path), 1)


def test_a_mover_may_advance_retreat_or_hold_and_take_cover_only_where_there_is_cover() -> None:
    # carnifex_vs_guard.toml has no terrain: "take cover" has nowhere to head
    # for; the Carnifex may advance, retreat to its edge or hold, or advance on
    # either unit its plain advance does not head for: squad 1 (its line runs
    # from x 21.3 toward the Carnifex at x 36) is closest, so squad 2 and the
    # lascannons (5" farther south than the squads) in the scenario's order.
    game = _start(CARNIFEX)
    assert [str(a) for a in game.legal_actions()] == [
        "Carnifex [carnifex] → advance",
        "Carnifex [carnifex] → retreat",
        "Carnifex [carnifex] → hold",
        "Carnifex [carnifex] → advance on squad2",
        "Carnifex [carnifex] → advance on lascannons",
        "end phase",
    ]


def test_a_mover_that_holds_stays_where_it_is() -> None:
    game = _start(CARNIFEX)
    before = [m.position for m in game.battle.units["carnifex"].alive_models]
    game.apply(Action("mover", "carnifex", "Carnifex [carnifex]", (("move", "hold"),)))
    assert [m.position for m in game.battle.units["carnifex"].alive_models] == before
    advanced = _start(CARNIFEX)
    advanced.apply(Action("mover", "carnifex", "Carnifex [carnifex]", (("move", "advance"),)))
    # Advancing toward the Guard (south, at y 5..10) moves the Carnifex down the table.
    assert advanced.battle.units["carnifex"].alive_models[0].position[1] < before[0][1]


def _terminators_shooting() -> Game:
    game = _start(PLATOON)
    game.apply(
        Action("mover", "terminators", "Terminator Squad [terminators]", (("move", "hold"),))
    )
    return game


def test_a_shooter_s_actions_name_each_target_in_range() -> None:
    # The two Terminators hold at y 30 (x 34.71 and 37.29); every squad has a
    # model within the storm bolters' 24", base to base: squads 1 and 2 about
    # 9.1" and 9.8" away, squads 3 and 4 about 20.7" and 21.4" (centre to
    # centre from (34.71, 30) to (24.72, 9.68): 9.99 across, 20.32 down, 22.6"
    # less the two bases' radii); the lascannon team at y 4 is 24.06" away, out
    # of range.
    # So: shoot at each of the four squads, Run, hold, or end the phase.
    labels = [str(a) for a in _terminators_shooting().legal_actions()]
    unit = "Terminator Squad [terminators]"
    assert labels == [
        *(f"{unit} → shoot → Infantry Squad [squad{n}]" for n in (1, 2, 3, 4)),
        f"{unit} → run",
        f"{unit} → hold",
        "end phase",
    ]


def test_the_shooting_action_s_target_is_the_one_shot() -> None:
    game = _terminators_shooting()
    shoot = next(a for a in game.legal_actions() if ("target", "Infantry Squad [squad4]") in a.then)
    before = {s: len(game.battle.units[s].alive_models) for s in ("squad1", "squad2", "squad3")}
    game.apply(shoot)
    made = [(e.decision, e.answer) for e in game.battle.log.events if isinstance(e, DecisionMade)]
    assert ("target", "Infantry Squad [squad4]") in made
    assert {s: len(game.battle.units[s].alive_models) for s in before} == before


class Scripted:
    """Playouts scripted per action: each scores its list's values in turn (the
    last one repeated); ``calls`` counts the playouts each was given."""

    def __init__(self, values: dict[str, list[float]]) -> None:
        self.values = values
        self.actions = [Action("mover", name, name) for name in values]
        self.calls: Counter[str] = Counter()
        self._next_seed = 0

    def play(self, action: Action, seeds: Sequence[int]) -> list[float]:
        out = []
        for _ in seeds:
            script = self.values[action.label]
            out.append(script[min(self.calls[action.label], len(script) - 1)])
            self.calls[action.label] += 1
        return out

    def seeds(self, count: int) -> list[int]:
        self._next_seed += count
        return list(range(self._next_seed - count, self._next_seed))

    def race(self, playouts: int, each: int = 1) -> Action | None:
        default, *others = self.actions
        return race(default, others, self.play, self.seeds, playouts, each)


def test_the_race_halves_the_field_and_keeps_the_best() -> None:
    # Default D scores 1.5, others A 3, B 1, C 2, E 0 on every seed. With 10
    # playouts a stage: stage 1 plays all five on 10 // 5 = 2 seeds and keeps
    # the better half of four (A, C); stage 2 plays D, A and C on 10 // 3 = 3
    # seeds and keeps A: over its 5 seeds A's 15 is above D's 7.5.
    script = Scripted({"D": [1.5], "A": [3], "B": [1], "C": [2], "E": [0]})
    assert script.race(10) == script.actions[1]
    assert script.calls == {"D": 5, "A": 5, "C": 5, "B": 2, "E": 2}


def test_later_stages_overturn_an_early_lucky_score() -> None:
    # X scores 5 on its first seed and -2 after; Y 1 always; Z 0; default D 0.
    # 6 playouts a stage: stage 1, 6 // 4 = 1 seed: X 5, Y 1, Z 0, keep X and Y;
    # stage 2, 6 // 3 = 2 seeds: X 5 - 4 = 1, Y 3: Y is left, 3 above D's 0.
    script = Scripted({"D": [0], "X": [5, -2], "Y": [1], "Z": [0]})
    assert script.race(6) == script.actions[2]


def test_each_action_gets_the_race_s_least_share_of_seeds_in_every_stage() -> None:
    # X scores -1 on its first seed and 4 after; Y 1; Z 0; default D 0; 4 playouts.
    # One seed each at least (4 // 4 = 1): stage 1 X -1, Y 1, Z 0 keeps Y and Z (X out
    # on one unlucky seed); stage 2, 4 // 3 = 1 seed: Y 2 against Z 0, Y is left.
    # Two each at least: stage 1 X -1 + 4 = 3, Y 2, Z 0 keeps X and Y; stage 2, two
    # seeds: X 11 against Y 4, X is left, above D's 0.
    values: dict[str, list[float]] = {"D": [0], "X": [-1, 4], "Y": [1], "Z": [0]}
    assert Scripted(values).race(4) == Scripted(values).actions[2]
    script = Scripted(values)
    assert script.race(4, each=2) == script.actions[1]
    assert script.calls == {"D": 4, "X": 4, "Y": 4, "Z": 2}


def test_the_race_has_no_challenger_when_none_outscores_the_default() -> None:
    # D 2 against A 2 and B 1: A survives, but ties D; with no other action, none.
    script = Scripted({"D": [2], "A": [2], "B": [1]})
    assert script.race(4) is None
    assert race(script.actions[0], [], script.play, script.seeds, 4) is None


def test_the_race_s_ties_keep_the_earlier_action() -> None:
    # A and B both score 1 (D 0): stage 1 keeps one of two, the first listed.
    script = Scripted({"D": [0], "A": [1], "B": [1]})
    assert script.race(3) == script.actions[1]


def test_a_tank_that_could_tank_shock_is_asked_that_first_and_every_action_applies() -> None:
    # vehicles_tank_shock.toml: the Leman Russ has the Termagants within 6" straight
    # ahead, so its activation asks Tank Shock or move normally before where to
    # move; each of its actions, applied to a copy, is the activation's own answers.
    path = ROOT / "examples" / "vehicles_tank_shock.toml"
    game = _start(path)
    russ = [a for a in game.legal_actions() if a.unit == "russ"]
    assert [a.then for a in russ] == [
        (("tank_shock", "move normally"), ("move", "advance")),
        (("tank_shock", "move normally"), ("move", "retreat")),
        (("tank_shock", "move normally"), ("move", "hold")),
        (("tank_shock", "move normally"), ("move", "advance on hormagaunts")),
        (("tank_shock", "shock Termagants [gaunts]"),),
    ]
    for action in russ:
        game.clone().apply(action)


def test_a_zooming_flyer_s_actions_are_the_intents_its_zoom_asks() -> None:
    # A Valkyrie (a Flyer, so Zooming) against two Marine squads: its zoom asks
    # where to among the four plain intents only (zooming.zoom), so an "advance on"
    # the farther squad, offered to other movers, is not one of its actions.
    source = ROOT / "tests" / "data" / "bsdata-7e" / "Astra Militarum - Codex.cat"
    squads = "".join(
        f"""
[[units]]
id = "{uid}"
player = "Marines"
unit = "Tactical Squad (meltagun, lascannon)"
position = [{x}, 36]
"""
        for uid, x in (("near", 36), ("far", 60))
    )
    text = f"""
name = "A Valkyrie zooms"
ruleset = "waffle"
seed = 5
first_player = "Guard"
[plan]
turns = 1
phases = ["movement"]
[[players]]
name = "Guard"
edge = "south"
[[players]]
name = "Marines"
edge = "north"
[[units]]
id = "jet"
player = "Guard"
unit = "Valkyrie Squadron"
source = "{source}"
position = [36, 8]
{squads}"""
    game = Game.start(parse_scenario(text, "zoom.toml"), "zoom.toml", 5)
    jet = [a for a in game.legal_actions() if a.unit == "jet"]
    assert [a.then for a in jet] == [
        (("move", "advance"),),
        (("move", "take cover"),),
        (("move", "retreat"),),
        (("move", "hold"),),
    ]
    for action in jet:
        game.clone().apply(action)
