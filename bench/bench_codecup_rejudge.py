"""Official CodeCup Sudoku games re-judged with games/sudoku's rules, as a markdown table.

    python bench/bench_codecup_rejudge.py [FOLDER_OR_CSV ...]

Every ``*.csv`` file in the folders given (default: games/sudoku/tests/data) is read as a file
of official results (columns as games/sudoku/codecup.py reads them); every game is re-judged
and compared with its official names and points. Printed: games and agreements by how the
game ended, then the rules' time per judged move (median and worst) against a baseline, the
parse alone (notation, occupied cell, a digit its row, column or box holds), which shows what
counting solutions costs. The disagreements, if any, are listed below the table.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.sudoku import codecup, native  # noqa: E402
from games.sudoku.rules import Place, Sudoku  # noqa: E402

DEFAULT = ROOT / "games" / "sudoku" / "tests" / "data"


def csv_files(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for given in paths or [str(DEFAULT)]:
        path = Path(given)
        files += sorted(path.glob("*.csv")) if path.is_dir() else [path]
    if not files:
        raise SystemExit(f"no .csv files in {', '.join(paths)}")
    return files


def parse_times(game: Sudoku, official: codecup.OfficialGame) -> list[float]:
    """The baseline: each listed move parsed (not applied) in the position it was made in."""
    times = []
    state = game.initial_state({}, 0)
    for text in official.moves:
        start = time.perf_counter()
        move = game.parse_move(state, text)
        times.append(time.perf_counter() - start)
        if not isinstance(move, Place):
            break
        state = game.apply(state, replace(move, claim=False))  # the claim is the last move anyway
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("paths", nargs="*", help="folders of (or single) CSV files of official results")
    args, _ = parser.parse_known_args()  # bench/run.py passes every benchmark the same arguments
    game = Sudoku()
    native.count(bytes(81))  # load (or build) the counter before anything is timed
    games: list[codecup.OfficialGame] = []
    files = csv_files(args.paths)
    for path in files:
        games += codecup.read(path.read_text(encoding="utf-8"))
    start = time.perf_counter()
    judged = [codecup.rejudge(g, game) for g in games]
    total = time.perf_counter() - start
    parsed = [t for g in games for t in parse_times(game, g)]
    moves = [t for j in judged for t in j.move_seconds]

    names = ", ".join(str(p.relative_to(ROOT) if p.is_relative_to(ROOT) else p) for p in files)
    print(f"{len(games)} official games from {names}, re-judged in {total:.2f} s\n")
    print("| ending | games | agree with the official result |")
    print("|---|---:|---:|")
    endings, agreeing = Counter(j.ending for j in judged), Counter(j.ending for j in judged if j.agrees)
    for ending, count in endings.most_common():
        print(f"| {ending} | {count} | {agreeing[ending]} |")
    print(f"| all | {len(judged)} | {sum(agreeing.values())} |\n")
    us = 1e6
    median, parse = statistics.median(moves), statistics.median(parsed)
    print("| what | median | worst | baseline (parse alone) | ratio |")
    print("|---|---:|---:|---:|---:|")
    print(
        f"| judging one listed move ({len(moves)} moves) | {median * us:.0f} µs | {max(moves) * us:.0f} µs | "
        f"{parse * us:.1f} µs | {median / parse:.0f}× |"
    )
    wrong = [j for j in judged if not j.agrees]
    for j in wrong:
        print(f"\n- game {j.official.game}: {'; '.join(j.problems)}")


if __name__ == "__main__":
    from bench import common

    common.exit_on_signals()
    main()
