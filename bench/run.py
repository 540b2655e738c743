"""Run the benchmarks in bench/ (files named bench_*.py, each runnable on its own) in turn.

    python bench/run.py            # every bench at its own default size (make bench)
    python bench/run.py --size     # the contests' real sizes: slow, not for CI (make bench-size)

Each prints a markdown table of medians and ratios against a baseline it measures in the
same run, with the load average beside it; copy the figures into docs/benchmarks.md.
Benchmarks never fail on a time. Folders go under BENCH_TMP, ports come from BENCH_PORT
(bench/common.py).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# The real sizes of the contests Arbiter serves (issue 35): CodeCup 2024's final (70 programs,
# 24 Swiss rounds played twice, the top 36 twice round), a ladder of 1,000 entries, standings
# and ratings at 1,000 entries and 500,000 games, Swiss pairing up to 1,000 players.
SIZE = [
    ("bench_swiss", []),
    ("bench_ratings", []),
    ("bench_standings", ["--ladder", "--entries", "1000", "--matches", "500000"]),
    ("bench_scale", []),
    ("bench_codecup", []),
    ("bench_codecup", ["--ladder", "1000", "--minutes", "10"]),
]
# Too long for an everyday run: they are the size run's.
ONLY_AT_SIZE = {"bench_scale", "bench_codecup"}


def main() -> int:
    size = "--size" in sys.argv[1:]
    rest = [arg for arg in sys.argv[1:] if arg != "--size"]
    if size:
        runs = [(HERE / f"{name}.py", args) for name, args in SIZE]
    else:
        runs = [(script, []) for script in sorted(HERE.glob("bench_*.py")) if script.stem not in ONLY_AT_SIZE]
    failed = 0
    for script, args in runs:
        print(f"\n## {script.stem} {' '.join(args)}\n", flush=True)
        failed += subprocess.run([sys.executable, str(script), *args, *rest], cwd=HERE.parent).returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
