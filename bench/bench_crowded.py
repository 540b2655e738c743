"""Wall clocks on a crowded host, as a markdown table (no pass/fail; the machine is shared).

    python bench/bench_crowded.py [--moves 5] [--think 0.3]

A program that computes ``--think`` seconds of CPU a move (a line protocol's session, as a
Sudoku entry plays), alone and beside more busy jails than cores (each a spinning program
started through the sandbox, as a worker's other matches are). For each crowd: the wall time
a move took, the wall time it was charged (sandbox/monitor.py leaves out the time its jail's
cgroup was held from every CPU: ``cpu.pressure``), and the time left out. The baseline is
the program's own CPU a move; a fair clock charges about that, whatever the crowd.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sandbox import Limits, build_program, open_jail  # noqa: E402
from sandbox.conf import SandboxSettings, get_settings  # noqa: E402
from sandbox.jail import Jail, cgroup_layout  # noqa: E402

PROGRAMS = ROOT / "sandbox/tests/programs"
LIMITS = Limits(cpu_s=10, wall_s=60, memory_mb=64, pids=16)
CORES = len(os.sched_getaffinity(0))


def crowd(size: int, settings: SandboxSettings) -> tuple[list[Jail], list[int]]:
    spin = build_program((PROGRAMS / "spin.c").read_bytes(), "spin.c").program
    assert spin is not None
    jails, pipes = [], []
    for _ in range(size):
        jail = open_jail(spin, LIMITS, settings=settings)
        jails.append(jail)
        *ends, error = jail.spawn(spin.argv(LIMITS))
        pipes += ends
        assert error is None, error
    return jails, pipes


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=5)
    parser.add_argument("--think", type=float, default=0.3)
    args = parser.parse_args()
    sizes = (0, CORES + 1, 2 * CORES + 2)
    settings = dataclasses.replace(get_settings(), slots=max(sizes) + 1)  # a slot for each jail
    if not cgroup_layout(settings.cgroup_parent).pressure:
        print("this kernel keeps no CPU pressure for cgroups: wall clocks are not corrected here")
        return
    think = build_program((PROGRAMS / "think.c").read_bytes(), "think.c").program
    assert think is not None
    load = os.getloadavg()[0]
    rows = []
    for size in sizes:
        jails, pipes = crowd(size, settings)
        try:
            with open_jail(think, LIMITS, settings=settings) as jail:
                session = jail.start_session(think.argv(LIMITS, ["cpu", str(args.think)]))
                took, charged, held, cpu = [], [], [], []
                for _ in range(args.moves):
                    session.send_line("go")
                    started = time.monotonic()
                    reply = session.read_line(wall_s=30)
                    took.append(time.monotonic() - started)
                    assert reply.line == "done", reply
                    charged.append(reply.wall_s)
                    held.append(reply.held_s)
                    cpu.append(reply.cpu_s)
                session.close()
        finally:
            for crowded in jails:
                crowded.close()
            for fd in pipes:
                os.close(fd)
        rows.append((size, cpu, took, charged, held))
    med = statistics.median
    print(
        f"A session computing {args.think:g} s of CPU a move, {args.moves} moves, beside busy jails, "
        f"{CORES} cores; load average {load:.2f} before\n"
    )
    print("| busy jails beside | CPU a move (baseline) | wall taken | wall charged | left out (held) | charged / CPU |")
    print("|---:|---:|---:|---:|---:|---:|")
    for size, cpu, took, charged, held in rows:
        print(
            f"| {size} | {med(cpu):.3f} s | {med(took):.3f} s ({min(took):.3f}–{max(took):.3f}) "
            f"| {med(charged):.3f} s ({min(charged):.3f}–{max(charged):.3f}) | {med(held):.3f} s "
            f"| {med(charged) / med(cpu):.3f}× |"
        )


if __name__ == "__main__":
    from bench import common

    common.exit_on_signals()
    main()
