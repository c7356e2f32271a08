"""Every file a user names is read with a cap on its size, whatever the file is.

An input review: the 1 MB scenario cap was checked with ``stat()``, which says
0 bytes of ``/dev/zero``, a FIFO (``<(...)``) or ``/dev/stdin``, so ``battle
/dev/zero`` read until the machine's memory ran out (7.5 GB in 10 s); saved games
(``battle --resume``) and logs (``replay``) had no cap at all. Each case feeds a
FIFO a few megabytes more than the cap the docs give (``docs/scenarios.md``,
*Caps*: a scenario 1,000,000 bytes, a saved game 16 MB, a log 64 MB) and checks
both the one error line and that the command stopped reading after the cap
rather than taking in all it was fed.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from cli_kit import one_line, run
from hammerlab.editions.plugins import load_plugin_file
from hammerlab.errors import InputError

MB = 1024 * 1024
CHUNK = 64 * 1024


def fed_fifo(path: Path, size: int) -> Callable[[], int]:
    """A FIFO at ``path`` that a thread feeds ``size`` bytes of ``#`` (or until its
    reader closes it); the function returned waits for the feeder and gives how many
    bytes it wrote (what the reader took, and at most a pipe's buffer more)."""
    os.mkfifo(path)
    written = [0]

    def feed() -> None:
        try:
            with path.open("wb", buffering=0) as stream:
                while written[0] < size:
                    written[0] += stream.write(b"#" * CHUNK)
        except BrokenPipeError:
            pass

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()

    def fed() -> int:
        feeder.join(timeout=60)
        return written[0]

    return fed


@pytest.mark.parametrize(
    ("args", "cap", "said"),
    [
        (["battle", "FILE"], 1_000_000, "1000000 bytes"),  # a scenario
        (["battle", "--resume", "FILE"], 16 * MB, "16 MB"),  # a saved game
        (["replay", "FILE"], 64 * MB, "64 MB"),  # a JSON Lines log
        (["lab", "FILE", "--rule", "suppressive_fire", "--runs", "2"], 1_000_000, "1000000 bytes"),
    ],
)
def test_a_stream_longer_than_the_cap_is_read_to_the_cap_and_refused(
    tmp_path: Path, args: list[str], cap: int, said: str
) -> None:
    fifo = tmp_path / "stream"
    size = cap + 4 * MB
    fed = fed_fifo(fifo, size)
    code, _, err = run(*(str(fifo) if word == "FILE" else word for word in args))
    assert one_line(code, err, 1) == f"error: {fifo}: file larger than {said}"
    assert fed() < cap + 2 * MB  # the cap, a pipe's buffer: not the 4 MB past it


def test_a_plug_in_larger_than_its_cap_is_refused_before_it_runs(tmp_path: Path) -> None:
    # A plug-in is run, not only read: 1 MB is far above docs/plugins.md's examples.
    plugin = tmp_path / "huge.py"
    plugin.write_text("# " + "x" * MB + "\nraise SystemExit('ran')\n", encoding="utf-8")
    with pytest.raises(InputError) as refused:
        load_plugin_file(plugin)
    assert str(refused.value) == f"{plugin}: file larger than 1 MB"


def test_a_file_within_the_caps_reads_from_a_fifo(tmp_path: Path) -> None:
    # A scenario given as <(...) or /dev/stdin plays: only the size is bounded.
    scenario = Path(__file__).resolve().parents[1] / "examples" / "psychic_duel.toml"
    fifo = tmp_path / "scenario"
    os.mkfifo(fifo)
    data = scenario.read_bytes()

    def feed() -> None:
        with fifo.open("wb") as stream:
            stream.write(data)

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    code, out, err = run("battle", str(fifo), "--seed", "1")
    feeder.join(timeout=10)
    assert code == 0, err
    assert out.startswith("Psychic duel: a Librarian against a Zoanthrope brood")
