"""Crossed Words Solitaire: verifying a full game's output, and the reference players'
scores, as a markdown table (no pass/fail; the machine is shared).

    python bench/bench_crossed_words.py [--runs 30] [--seconds 10]

Verification: the simple player's output on the practice pool, verified ``--runs`` times
(median ms), against a plain baseline measured in the same run: splitting the same file into
lines and fields (what any reading of it costs). The players: each built and run once in the
real jail by ``manage.py play`` with ``seconds`` of limit on the practice inputs: its
verified score and its run's time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import common  # noqa: E402

PLAYERS = ROOT / "games/crossed_words/players"


def _median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def _play(program: Path, seconds: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="arbiter-bench-", dir=common.base()) as folder:
        replay = Path(folder) / "replay.json"
        done = subprocess.run(
            [sys.executable, "manage.py", "play", "crossed_words", str(program), "--clock", f"seconds={seconds}",
             "--replay", str(replay)],
            cwd=ROOT, capture_output=True, text=True, check=False, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )  # fmt: skip
        if done.returncode != 0:
            raise SystemExit(f"{program.name}: {done.stderr[-2000:]}")
        summary = json.loads(done.stdout)
        summary["output"] = json.loads(replay.read_text())["output"]
        return summary


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--seconds", type=int, default=10)
    args = parser.parse_args()
    from games.crossed_words import dictionary, inputs, verify

    players = {name: _play(PLAYERS / name, args.seconds) for name in ("greedy.cpp", "simple.py")}
    output = players["simple.py"]["output"].encode()
    piles, words = inputs.shuffle_pool(inputs.PRACTICE_SEED), dictionary.default_words()
    lines = len(output.splitlines())
    baseline = _median_ms(lambda: [line.split() for line in output.decode().splitlines()], args.runs)
    verified = _median_ms(lambda: verify.verify(output, piles, words), args.runs)
    print(f"Verification of the simple player's output ({lines} lines), median of {args.runs}:\n")
    print("| measure | median ms | ratio |")
    print("|---|---|---|")
    print(f"| baseline: split into lines and fields | {baseline:.3f} | 1.0 |")
    print(f"| `verify.verify` (replay, every figure, the board) | {verified:.3f} | {verified / baseline:.0f}× |")
    print(f"\nThe reference players on the practice inputs, {args.seconds} s limit, in the jail:\n")
    print("| player | verified score | claimed | run time s |")
    print("|---|---|---|---|")
    for name, summary in players.items():
        print(f"| {name} | {summary['verified']} | {summary['claimed']} | {summary['time_s']:.2f} |")


if __name__ == "__main__":
    common.exit_on_signals()
    main()
