"""Every core11 example plays, and twice with the same seed gives the same log."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from hammerlab.analysis.battles import prepare
from hammerlab.cli.app import app
from hammerlab.editions.base import play
from hammerlab.editions.core11.events import AttacksResolved, HitRollNeeds
from hammerlab.io.scenario import load_scenario

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("core11_*.toml"))


def _log(path: Path) -> str:
    ready = prepare(load_scenario(path), str(path), seed=1)
    play(ready.battle, ready.ruleset, ready.plan)
    return ready.battle.log.json_lines()


def test_there_is_an_example_for_each_shooting_type_and_for_the_ruling() -> None:
    names = {p.stem for p in EXAMPLES}
    for kind in ("normal", "assault", "close_quarters", "indirect"):
        assert f"core11_{kind}_shooting" in names
    assert {"core11_ruling_selected_as_target", "core11_ruling_ranged_attack"} <= names


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_replays_identically_with_seed_1(path: Path) -> None:
    first = _log(path)
    assert first == _log(path)
    assert '"kind":"shots"' in first


def test_ruling_examples_show_the_ruling() -> None:
    selected = _log(EXAMPLES[[p.stem for p in EXAMPLES].index("core11_ruling_selected_as_target")])
    assert '"rule":"Outrider Escort (Invader ATV [atv])","step":"resolved"' in selected
    ranged = _log(EXAMPLES[[p.stem for p in EXAMPLES].index("core11_ruling_ranged_attack")])
    assert "Multi-threat Eliminator" in ranged and "Guns Blazing" not in ranged


def test_the_normal_shooting_example_describes_cover_as_the_engine_plays_it() -> None:
    """A referee's review: the example said cover was "-1 to the Intercessors' hit
    rolls, inside the +/-1 cap"; hammerlab reads 13.08 as a BS worsened by 1, outside
    the cap (docs/rules/core11.md, assumption 1). The Intercessors' BS 3+ is 4+ at the
    Boyz in the ruin, whatever the roll's modifier."""
    path = EXAMPLES[[p.stem for p in EXAMPLES].index("core11_normal_shooting")]
    description = load_scenario(path).description
    assert "hit rolls, inside" not in description
    assert "3+ becomes 4+" in description and "outside the +/-1 cap" in " ".join(
        description.split()
    )
    # The need read off typed events, not a regex over the dice's purposes (code review
    # s23, finding 4): each Bolt Rifle group's hit roll (one `shots` summary each, none
    # of them [TORRENT]) is announced by a `hit-roll` event, since cover changes it.
    ready = prepare(load_scenario(path), str(path), seed=1)
    play(ready.battle, ready.ruleset, ready.plan)
    rifle = [
        e for e in ready.battle.log.events if str(getattr(e, "weapon", "")).startswith("Bolt Rifle")
    ]
    needs = [e.need for e in rifle if isinstance(e, HitRollNeeds)]
    groups = [e for e in rifle if isinstance(e, AttacksResolved)]
    assert groups and len(needs) == len(groups) and set(needs) == {4}


def test_the_printed_step_log_names_the_abilities_not_modelled() -> None:
    """A referee's review: "Abilities that hammerlab does not model are listed in the
    battle log when a battle starts" (docs/rules/core11.md) held for --log-json only;
    the step log ``hammerlab battle`` prints began with the first turn. The Boyz'
    datasheet lists Bodyguard and the Intercessors' Target Elimination, neither of
    which core11 plays."""
    path = EXAMPLES[[p.stem for p in EXAMPLES].index("core11_normal_shooting")]
    result = CliRunner().invoke(app, ["battle", str(path), "--seed", "1", "--no-dice"])
    assert result.exit_code == 0, result.output
    printed = " ".join(result.output.split())
    for unit, ability in (("Boyz [boyz]", "Bodyguard"),
                          ("Intercessor Squad [intercessors]", "Target Elimination")):  # fmt: skip
        assert f"note: ability not modelled by hammerlab: {unit}: {ability}" in printed
    assert printed.index("Bodyguard") < printed.index("== Turn 1")
