"""How far past a CPU limit a program gets before it is stopped (no pass/fail).

    python bench/bench_cpu_limit.py [--runs 15] [--limit 1.0]

A C program spins in one thread, then in two, under a CPU limit of ``--limit`` seconds,
each in a fresh jail; the recorded CPU less the limit is the overshoot. Measured with the
machine as it is, then beside four busy loops outside the jail (more runnable threads than
cores: the watcher waits its turn like everyone else).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sandbox import Limits, build_program, run_program
from sandbox.result import Verdict

ONE = b"int main(void) { for (;;) ; }\n"
TWO = b"""#include <pthread.h>
static void *spin(void *arg) { for (;;) ; return arg; }
int main(void) { pthread_t t; pthread_create(&t, 0, spin, 0); spin(0); }
"""
BUSY_LOOPS = 4


def overshoots_ms(program, limit: float, runs: int) -> list[float]:  # type: ignore[no-untyped-def]
    found = []
    for _ in range(runs):
        result = run_program(program, limits=Limits(cpu_s=limit, wall_s=limit * 20 + 10, memory_mb=64))
        assert result.verdict is Verdict.TIME_LIMIT, result
        found.append((result.cpu_s - limit) * 1000)
    return found


def row(what: str, values: list[float]) -> str:
    p90 = statistics.quantiles(values, n=10, method="inclusive")[-1]
    return f"| {what} | {min(values):.1f} | {statistics.median(values):.1f} | {p90:.1f} | {max(values):.1f} |"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--limit", type=float, default=1.0)
    options = parser.parse_args()
    programs = {}
    for name, source in (("one thread", ONE), ("two threads", TWO)):
        built = build_program(source, "spin.c").program
        assert built is not None
        programs[name] = built
    print(f"CPU-limit overshoot, {options.limit:g} s limit, {options.runs} runs each, on {os.uname().nodename}\n")
    print("| program, load | min ms | median ms | p90 ms | max ms |")
    print("|---|---:|---:|---:|---:|")
    for load in ("as the machine is", f"beside {BUSY_LOOPS} busy loops"):
        loops = []
        if load != "as the machine is":
            loops = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(BUSY_LOOPS)]
        try:
            for name, program in programs.items():
                print(row(f"{name}, {load}", overshoots_ms(program, options.limit, options.runs)), flush=True)
        finally:
            for loop in loops:
                loop.kill()
                loop.wait()


if __name__ == "__main__":
    from bench import common

    common.exit_on_signals()
    main()
