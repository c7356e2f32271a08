"""docs/api.md's Python examples run as written and print what their comments say:
a tool builder copies them first (a tool builder's review found a printed result
that the code did not print)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
API = ROOT / "docs" / "api.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", API.read_text("utf-8"), re.S | re.M)
SAID = re.compile(r"^print\(.*\)\s+# (?P<said>.+)$")
"""A top-level ``print(...)`` whose comment is the line it prints."""


def test_the_page_has_its_examples() -> None:
    assert len(BLOCKS) >= 2  # the first game, and a tournament with a player of one's own


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_an_example_runs_and_prints_what_its_comments_say(
    block: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)  # the examples name files from the repository's root
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block, str(API), "exec"), {"__name__": "api_example"})
    lines = printed.getvalue().splitlines()
    for line in block.splitlines():
        said = SAID.match(line)
        if said is not None:
            assert said.group("said") in lines, (said.group("said"), lines)
