"""A referee's bug is the referee's (issue 37): a referee that hangs is given up on time, a
result that its game's declared outcome cannot have is refused as the referee's fault, and
neither is ever charged to a seat or to a contestant's version."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from games.clocks import Clock
from judging.play.referee import Player, play
from judging.tests.conftest import PROGRAMS, build
from judging.tests.test_hosted_games import nim_files
from judging.uploaded import hosting
from judging.uploaded.program_referee import RefereeFault

CORES = len(os.sched_getaffinity(0))


@pytest.mark.once
@pytest.mark.alone  # it crowds every core on purpose
def test_a_referee_that_hangs_computing_is_given_up_within_its_seconds_on_a_crowded_host():
    # Fault 9: the referee spins after `begin`, never writing a line. Its CPU is not what stops
    # it (600 s): its 2 s for a line are, in real time however crowded the host. Before, the
    # time the host kept it from a CPU moved its deadline on (a crowded host: 127 s for 20).
    game = hosting.manifest_of(nim_files(referee_seconds=2, referee_cpu_seconds=600))
    players = [Player(name, build(PROGRAMS / "nim" / name)) for name in ("taker.py", "one.py")]
    asked: list[float] = []

    def should_stop() -> bool:  # asked before the referee's every line: the last is when it hung
        asked.append(time.monotonic())
        return False

    crowd = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(3 * CORES)]
    try:
        with pytest.raises(RefereeFault, match="the referee wrote no line for 2 s"):
            play(game, {"stones": 5, "fault": 9}, 1, players, Clock.from_json(game.default_clock), should_stop)
        took = time.monotonic() - asked[-1]
    finally:
        for spinner in crowd:
            spinner.kill()
            spinner.wait()
    assert 2 <= took < 3, took
