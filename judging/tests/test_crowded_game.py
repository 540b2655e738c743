"""A wall-clock game beside more busy jails than cores is decided as it would be on a quiet
host (issue 35): the Sudoku clock (CodeCup's 30 s of real time a game) does not charge a
program for the time the host's other jails kept it from a CPU (sandbox.monitor.StallClock,
the jail's CPU pressure), and the replay says how much was left out (``held_s``)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from games import registry
from games.clocks import Clock
from judging.play.referee import Player, play
from sandbox.conf import get_settings
from sandbox.jail import cgroup_layout
from sandbox.limits import Limits
from sandbox.programs import build_program
from sandbox.tests.crowds import spinning

pytestmark = pytest.mark.alone  # the crowd takes every core for the game's length

ROOT = Path(__file__).resolve().parents[2]
SPIN = ROOT / "sandbox" / "tests" / "programs" / "spin.c"
RANDOM = ROOT / "games" / "sudoku" / "players" / "random_player.py"
CORES = len(os.sched_getaffinity(0))
CROWD = CORES + 1  # busy jails beside the game: more runnable programs than cores
THINK_S = 0.04  # each move's own CPU, on top of the random player's counting
# A whole game's wall clock for each player: about twice what one needs on a quiet host, and
# well under what it takes beside the crowd without the correction (the crowd's share of the
# cores is CROWD of CROWD + 1).
TIME_LIMIT_S = 4.0
sudoku = registry.get("sudoku")


def thinker() -> bytes:
    """The demo's random Sudoku player, seeded (both games play the same moves), computing
    THINK_S of CPU before each move it sends."""
    source = RANDOM.read_text()
    think = (
        "def _think():\n"
        "    import time\n"
        f"    until = time.process_time() + {THINK_S}\n"
        "    while time.process_time() < until:\n"
        "        pass\n\n\n"
        "def main():\n"
        "    random.seed(7)"
    )
    source = source.replace("def main():", think, 1)
    source = source.replace("        print(move, flush=True)", "        _think()\n        print(move, flush=True)", 1)
    assert "_think()" in source and "random.seed(7)" in source
    return source.encode()


@pytest.fixture
def slots(settings):
    settings.SANDBOX_SLOTS = CROWD + 2  # the crowd and the game's two players
    if not cgroup_layout(get_settings().cgroup_parent).pressure:
        pytest.skip("this kernel keeps no CPU pressure for cgroups (PSI): wall clocks are not corrected here")


@pytest.fixture
def crowd(slots) -> Iterator[None]:
    built = build_program(SPIN.read_bytes(), "spin.c")
    assert built.ok, built.log
    with spinning(built.program, Limits(cpu_s=120, wall_s=120, memory_mb=64, pids=16), CROWD):
        yield


def a_game():
    built = build_program(thinker(), "thinker.py")
    assert built.ok, built.log
    players = [Player("a", built.program), Player("b", built.program)]
    return play(sudoku, {}, 1, players, Clock(time_limit=TIME_LIMIT_S, measure="wall"))


def test_a_wall_clock_game_beside_a_crowd_of_jails_is_decided_as_on_a_quiet_host(slots, request):
    quiet = a_game()
    assert "timeout" not in quiet.outcome.statuses, quiet.outcome.reason
    used = max(move.get("clock_s", 0) for move in quiet.replay["moves"])
    assert used < TIME_LIMIT_S / 1.5, f"the quiet game used {used} s of {TIME_LIMIT_S}: the test's margin is gone"
    request.getfixturevalue("crowd")
    crowded = a_game()
    assert crowded.outcome.statuses == quiet.outcome.statuses, crowded.outcome.reason
    assert crowded.outcome.points == quiet.outcome.points
    assert [m.get("move") for m in crowded.replay["moves"]] == [m.get("move") for m in quiet.replay["moves"]]
    held = sum(move.get("held_s", 0) for move in crowded.replay["moves"])
    walls = sum(move["wall_s"] for move in crowded.replay["moves"] if "wall_s" in move)
    assert held > 0.5 * walls, (held, walls)  # the crowd held it for most of its computing: left out
