"""An uploaded game's referee program against the built-in game, as a markdown table (no
pass/fail).

    python bench/bench_uploaded_referee.py [--rounds 9]

One recorded legal game of CodeCup Sudoku, replayed by two scripted C programs, judged by the
built-in Sudoku (Python rules, native counting) and by examples/games/sudoku-referee (the C++
referee in a jail of its own, speaking docs/referee-protocol.md through the platform): the
whole game's time, the platform's time per move beyond the programs' own, and the referee's
CPU. Rounds alternate between the two, so that the machine's load falls on both alike.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")

import django  # noqa: E402

django.setup()

from bench_sudoku import legal_game, scripted  # noqa: E402

from games import registry  # noqa: E402
from games.clocks import Clock  # noqa: E402
from judging.play.referee import Player, play  # noqa: E402
from judging.uploaded import hosting  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    _, texts = legal_game(random.Random(2024))
    players = [Player("a", scripted(texts[0::2])), Player("b", scripted(texts[1::2]))]
    games = {
        "built-in Sudoku (Python rules)": registry.get("sudoku"),
        "uploaded Sudoku (C++ referee program)": hosting.manifest_of(
            hosting.read_folder(ROOT / "examples" / "games" / "sudoku-referee")
        ),
    }
    clock = Clock(time_limit=30, measure="wall", memory_mb=1536)
    walls: dict[str, list[float]] = {name: [] for name in games}
    overheads: dict[str, list[float]] = {name: [] for name in games}
    referee_cpu: list[float] = []
    results = set()
    for _ in range(args.rounds):
        for name, game in games.items():
            start = time.perf_counter()
            record = play(game, {}, 0, players, clock)
            wall = time.perf_counter() - start
            moves = record.replay["moves"]
            walls[name].append(wall)
            overheads[name].append((wall - sum(m["wall_s"] for m in moves)) / len(moves))
            if "referee" in record.replay:
                referee_cpu.append(record.replay["referee"]["cpu_s"])
            results.add((record.outcome.points, record.outcome.details, len(moves)))
    assert len(results) == 1, f"the two referees disagree: {results}"
    base = "built-in Sudoku (Python rules)"
    ms = 1000
    print(f"One legal game of {len(texts)} moves, {args.rounds} rounds each, alternating; the same result every time\n")
    print("| referee | whole game (median) | range | platform per move beyond the programs | ratio to built-in |")
    print("|---|---:|---:|---:|---:|")
    for name in games:
        w, o = walls[name], overheads[name]
        print(
            f"| {name} | {statistics.median(w) * ms:.0f} ms | {min(w) * ms:.0f}–{max(w) * ms:.0f} ms | "
            f"{statistics.median(o) * ms:.2f} ms | {statistics.median(w) / statistics.median(walls[base]):.2f}× |"
        )
    print(f"\nThe referee program's own CPU per game: {statistics.median(referee_cpu) * ms:.0f} ms (median).")


if __name__ == "__main__":
    from bench import common

    common.exit_on_signals()
    main()
