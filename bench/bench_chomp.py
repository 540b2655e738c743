"""Chomp on the platform, as a markdown table (no pass/fail; the machine is shared).

    python bench/bench_chomp.py [--rows 50 --cols 49]

1. One 50 x 49 game between two trivial C programs (each eats the last cookie of the
   lowest row, so the game lasts all 2450 moves): the referee's time per move (sandboxed
   run, reading the reply, applying the rules, recording the replay) against a plain
   subprocess spawn of the same program on the same grid, measured in the same run.
2. A round robin of four trivial programs (12 games on a 10 x 10 grid) played one game
   after another by the referee: its wall time against the CPU time the programs used.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")

import django  # noqa: E402

django.setup()

from games import registry  # noqa: E402
from games.chomp import codec  # noqa: E402
from games.clocks import Clock  # noqa: E402
from judging.play.referee import Player, play  # noqa: E402
from judging.schedule.tournaments import round_robin_pairs  # noqa: E402
from sandbox import build_program  # noqa: E402

PLAYER = ROOT / "judging/tests/programs/chomp_last.c"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=50)
    parser.add_argument("--cols", type=int, default=49)
    args = parser.parse_args()
    chomp = registry.get("chomp")
    program = build_program(PLAYER.read_bytes(), PLAYER.name).program
    clock = Clock(cpu_per_move_s=5, wall_per_move_s=10)
    params = {"rows": args.rows, "cols": args.cols}

    # Plain spawns of the same program on the grids of a game, same count as the game's moves.
    state = chomp.initial_state(params, 0)
    plain = []
    host_prog = str(program.files / "prog")
    while chomp.to_move(state) is not None:
        grid = codec.program_input(state).encode()
        start = time.perf_counter()
        done = subprocess.run([host_prog, *codec.program_args(state)], input=grid, capture_output=True, check=True)
        plain.append(time.perf_counter() - start)
        state = chomp.apply(state, codec.read_reply(chomp, state, done.stdout.decode()))

    players = [Player(f"last-{i}", program) for i in range(2)]
    start = time.perf_counter()
    record = play(chomp, params, 0, players, clock)
    game_wall = time.perf_counter() - start
    moves = len(record.replay["moves"])
    referee_per_move = game_wall / moves
    move_walls = [m["wall_s"] for m in record.replay["moves"]]

    # A round robin of four programs, one game after another.
    robin_params = {"rows": 10, "cols": 10}
    four = [Player(f"p{i}", program) for i in range(4)]
    start = time.perf_counter()
    cpu = 0.0
    games = round_robin_pairs(4, 2)
    for a, b in games:
        played = play(chomp, robin_params, 0, [four[a], four[b]], clock)
        cpu += sum(seat.cpu_s for seat in played.seats)
    robin_wall = time.perf_counter() - start

    print("| what | baseline | platform | ratio |")
    print("|---|---:|---:|---:|")
    print(
        f"| {args.rows} x {args.cols} game, {moves} moves: time per move | plain spawn "
        f"{statistics.median(plain) * 1000:.2f} ms (median) | {referee_per_move * 1000:.2f} ms (mean, whole referee loop) "
        f"| {referee_per_move / statistics.median(plain):.1f}x |"
    )
    print(
        f"| the same, the program's run alone | plain spawn {statistics.median(plain) * 1000:.2f} ms | "
        f"{statistics.median(move_walls) * 1000:.2f} ms (median wall in the jail) | "
        f"{statistics.median(move_walls) / statistics.median(plain):.1f}x |"
    )
    print(
        f"| round robin of 4 programs, {len(games)} games on 10 x 10 | programs' CPU {cpu:.2f} s | "
        f"wall {robin_wall:.2f} s | {robin_wall / cpu:.0f}x |"
    )


if __name__ == "__main__":
    from bench import common

    common.exit_on_signals()
    main()
