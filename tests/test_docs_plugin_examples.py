"""docs/plugins.md's plug-ins load and play as written: a rules writer copies them
first (a rules writer's review, session 21, wrote a Ballistic Skill plug-in as the page
described it, iterated ``battle.units`` as a list of units, and failed)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hammerlab.analysis.game import Game
from hammerlab.editions.plugins import load_plugin_file
from hammerlab.editions.waffle.characteristics import ballistic_skill
from hammerlab.editions.waffle.points import CHARGE_BONUS_ATTACKS
from hammerlab.io.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "plugins.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", PAGE.read_text("utf-8"), re.S | re.M)
PLUG_INS = {
    name: block
    for block in BLOCKS
    if "RULES = (" in block
    for name in re.findall(r'RuleOption\("(\w+)"', block)
}
"""The page's whole plug-ins (a block that declares its ``RULES``), by rule name."""
GUARD = ROOT / "examples" / "guard_suppress_terminators.toml"


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each plug-in of the page as a file, loaded (once: a rule name is taken by the
    first file that defines it, as two --plugin files defining one are refused)."""
    folder = tmp_path_factory.mktemp("plugins")
    paths = {}
    for name, block in PLUG_INS.items():
        paths[name] = folder / f"{name}.py"
        paths[name].write_text(block, encoding="utf-8")
        load_plugin_file(paths[name])
    return paths


def test_the_page_has_its_plug_ins() -> None:
    assert set(PLUG_INS) == {"my_charge", "steady_veterans"}


def test_the_charge_bonus_example_adds_its_attacks(written: dict[str, Path]) -> None:
    # bonus 2 by default: the +1 charge bonus becomes 1 + (2 - 1) = 2 Attacks.
    path = written["my_charge"]
    game = Game.start(
        load_scenario(GUARD), str(GUARD), 1, rules={"my_charge": True}, plugins=[str(path)]
    )
    (handler,) = game.battle.hooks.get(CHARGE_BONUS_ATTACKS)
    squad = game.battle.unit("squad1")
    assert handler(game.battle, squad, 1) == 2


@pytest.mark.parametrize(("moved", "bs"), [(False, 4), (True, 3)])
def test_the_ballistic_skill_example_finds_the_model_s_unit(
    written: dict[str, Path], moved: bool, bs: int
) -> None:
    # A Guardsman (catalogue BS3) of a squad that has not moved shoots at BS3 + 1 (the
    # bonus's default); once his squad has moved, at his own BS3. The handler is given
    # the model alone and finds its squad with battle.unit_of.
    path = written["steady_veterans"]
    game = Game.start(
        load_scenario(GUARD), str(GUARD), 1, rules={"steady_veterans": True}, plugins=[str(path)]
    )
    squad = game.battle.unit("squad1")
    squad.status.moved = moved
    guardsman = next(m for m in squad.alive_models if m.profile.name == "Guardsman")
    assert ballistic_skill(game.battle, guardsman) == bs
    # The battle plays on to its end with the rule on.
    game.play()
    assert game.is_over
