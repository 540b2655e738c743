"""Run every benchmark in bench/ (files named bench_*.py, each runnable on its own) in turn.

Each prints a markdown table of medians and ratios against a baseline it measures in the
same run; copy the figures into docs/benchmarks.md. Benchmarks never fail on a time.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    scripts = sorted(HERE.glob("bench_*.py"))
    if not scripts:
        print("no benchmarks in bench/")
        return 0
    failed = 0
    for script in scripts:
        print(f"\n## {script.stem}\n", flush=True)
        failed += subprocess.run([sys.executable, str(script), *sys.argv[1:]], cwd=HERE.parent).returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
