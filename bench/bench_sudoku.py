"""CodeCup Sudoku on the platform, as a markdown table (no pass/fail).

    python bench/bench_sudoku.py [--games 300]

1. The referee's judgement of a move (parse, count solutions, check the decrease) over
   many games of legal self-play, median and worst; and the counter alone on the hard
   positions: nearly empty grids with random digits, many with a hidden contradiction.
2. The line protocol's cost per move: a whole game between two scripted C programs in the
   sandbox, the referee's time per move beyond the programs' own, against a raw pipe round
   trip with the same program outside the jail.
"""

from __future__ import annotations

import argparse
import os
import random
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
from games.clocks import Clock  # noqa: E402
from games.sudoku import native  # noqa: E402
from games.sudoku.rules import Claim, Place, peers_hold  # noqa: E402
from judging.play.referee import Player, play  # noqa: E402
from sandbox import Limits, build_program, open_jail  # noqa: E402

sudoku = registry.get("sudoku")


def legal_game(rng: random.Random) -> tuple[list[float], list[str]]:
    """Self-play of legal moves; returns the judgement time of each move and the moves."""
    state = sudoku.initial_state({}, 0)
    times, texts = [], []
    while sudoku.to_move(state) is not None:
        if native.count(state.grid) == 1:
            move = Claim()
        else:
            options = [m for m in sudoku.legal_moves(state) if isinstance(m, Place)]
            rng.shuffle(options)
            move = next(
                m
                for m in options
                if native.count(state.grid[: m.cell] + bytes([m.digit]) + state.grid[m.cell + 1 :], 1)
                and native.count(state.grid, 1, exclude=(m.cell, m.digit))
            )
        text = sudoku.move_text(state, move)
        start = time.perf_counter()
        state = sudoku.apply(state, sudoku.parse_move(state, text))
        times.append(time.perf_counter() - start)
        texts.append(text)
    return times, texts


def hard_positions(rng: random.Random, n: int) -> list[float]:
    times = []
    for _ in range(n):
        grid = bytearray(81)
        for _ in range(rng.randint(8, 24)):
            cell, digit = rng.randrange(81), rng.randint(1, 9)
            if grid[cell] == 0 and peers_hold(bytes(grid), cell, digit) is None:
                grid[cell] = digit  # no easy mistake: any contradiction is a hidden one
        start = time.perf_counter()
        native.count(bytes(grid))
        times.append(time.perf_counter() - start)
    return times


SCRIPTED = """
#include <stdio.h>
#include <string.h>
static const char *moves[] = {%s};
int main(void) {
    char line[64];
    int i = 0;
    while (fgets(line, sizeof line, stdin)) {
        if (!strncmp(line, "Quit", 4)) break;
        printf("%%s\\n", moves[i] ? moves[i] : "!");
        if (moves[i]) i++;
        fflush(stdout);
    }
    return 0;
}
"""


def scripted(moves: list[str]):
    source = SCRIPTED % ", ".join([f'"{m}"' for m in moves] + ["0"])
    return build_program(source.encode(), "scripted.c").program


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(2024)
    judge_times, lengths, texts = [], [], []
    for _ in range(args.games):
        times, texts = legal_game(rng)
        judge_times += times
        lengths.append(len(times))
    hard = hard_positions(rng, 5000)

    # One recorded game replayed by two scripted programs through the real referee.
    first, second = texts[0::2], texts[1::2]
    a, b = scripted(first), scripted(second)
    walls, setups = [], []
    for _ in range(7):
        start = time.perf_counter()
        record = play(sudoku, {}, 0, [Player("a", a), Player("b", b)], Clock(time_limit=30, measure="wall"))
        walls.append(time.perf_counter() - start - sum(m["wall_s"] for m in record.replay["moves"]))
        start = time.perf_counter()
        with open_jail(a, Limits(cpu_s=30)) as one, open_jail(b, Limits(cpu_s=30)) as two:
            one.start_session(a.argv(one.limits)).close()
            two.start_session(b.argv(two.limits)).close()
        setups.append(time.perf_counter() - start)
    moves = record.replay["moves"]
    setup = statistics.median(setups)
    per_move = (statistics.median(walls) - setup) / len(moves)
    answer = statistics.median(m["wall_s"] for m in moves)

    proc = subprocess.Popen([str(a.files / "prog")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    rtts = []
    for _ in first[:-1]:
        t = time.perf_counter()
        proc.stdin.write(b"Aa1\n")
        proc.stdout.readline()
        rtts.append(time.perf_counter() - t)
    proc.stdin.write(b"Quit\n")
    proc.wait()
    raw = statistics.median(rtts)

    us = 1e6
    print(f"Sudoku referee, {args.games} games of legal self-play ({statistics.mean(lengths):.0f} moves on average)\n")
    print("| what | median | worst | baseline | ratio |")
    print("|---|---:|---:|---:|---:|")
    print(
        f"| judging one move (parse, count, decrease check) | {statistics.median(judge_times) * us:.0f} µs | "
        f"{max(judge_times) * us:.0f} µs | – | – |"
    )
    print(
        f"| counting solutions of 5000 nearly empty grids of random allowed digits | {statistics.median(hard) * us:.0f} µs | "
        f"{max(hard) * us:.0f} µs | – | – |"
    )
    # The replay keeps answer times to 0.1 ms: a median below that floor reads 0.
    shown, ratio = (f"{answer * us:.0f} µs", f"{answer / raw:.1f}×") if answer else ("under 100 µs", "–")
    print(
        f"| a program's answer through the sandboxed protocol ({len(moves)} moves) | {shown} | "
        f"{max(m['wall_s'] for m in moves) * us:.0f} µs | raw pipe round trip {raw * us:.0f} µs | {ratio} |"
    )
    print(
        f"| the referee's own time per move (judging, freezing, records) | {per_move * us:.0f} µs (median game) | – | – | – |"
    )
    print(f"| starting and ending the two jails of a game | {setup * 1000:.0f} ms | – | – | – |")


if __name__ == "__main__":
    from bench import common

    common.exit_on_signals()
    main()
