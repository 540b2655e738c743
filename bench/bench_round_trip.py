"""The line protocol's round trip (write a line, read the answer), as a markdown table of
medians and 90th percentiles against a raw pipe measured in the same run (no pass/fail).

    python bench/bench_round_trip.py [--runs 3000]

The same echo program three ways, in turn, a hundred round trips at a time: outside any
jail through a raw pipe; in a jail through a session (a program that waits for its input is
left waiting); in a jail through a session that freezes it after every answer (as every
session did before). Once with everything pinned to one core (the program and the referee
take turns on it, as in a slot of one core), once as the scheduler places them (on this VM
an idle core wakes in tens of microseconds, which the raw pipe pays too when it is its turn).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sandbox import Limits, build_program, open_jail
from sandbox.interactive import Session

ECHO = (Path(__file__).resolve().parents[1] / "sandbox/tests/programs/echo_lines.c").read_bytes()
BLOCK = 100


def measure(runs: int) -> dict[str, list[float]]:
    limits = Limits(cpu_s=1, memory_mb=64)
    echo = build_program(ECHO, "echo.c").program
    assert echo is not None
    proc = subprocess.Popen([str(echo.files / "prog")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    assert proc.stdin is not None and proc.stdout is not None
    stdin_fd, stdout_fd = proc.stdin.fileno(), proc.stdout.fileno()

    def raw() -> None:
        os.write(stdin_fd, b"ping\n")
        data = b""
        while not data.endswith(b"\n"):
            data += os.read(stdout_fd, 4096)

    def through(session: Session) -> Callable[[], None]:
        def round_trip() -> None:
            session.send_line("ping")
            assert session.read_line(wall_s=5).line == "echo ping"

        return round_trip

    found: dict[str, list[float]] = {"raw pipe": [], "session": [], "session, frozen every turn": []}
    with open_jail(echo, limits) as waiting_jail, open_jail(echo, limits) as frozen_jail:
        waiting = waiting_jail.start_session(echo.argv(limits))
        frozen = frozen_jail.start_session(echo.argv(limits), freeze=True)
        ways = {"raw pipe": raw, "session": through(waiting), "session, frozen every turn": through(frozen)}
        for _ in range(max(runs // BLOCK, 1)):
            for name, way in ways.items():
                for _ in range(BLOCK):
                    started = time.perf_counter_ns()
                    way()
                    found[name].append((time.perf_counter_ns() - started) / 1000)
        waiting.close()
        frozen.close()
    proc.stdin.close()
    proc.wait()
    return found


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3000)
    runs = parser.parse_args().runs
    print(f"Line-protocol round trip, {runs} each, on {os.uname().nodename}\n")
    print("| placement | way | median µs | p90 µs | overhead at the median µs |")
    print("|---|---|---:|---:|---:|")
    everywhere = os.sched_getaffinity(0)
    for placement in ("pinned to one core", "placed by the scheduler"):
        if placement.startswith("pinned"):
            os.sched_setaffinity(0, {min(everywhere)})  # the jails and programs started next inherit it
        try:
            found = measure(runs)
        finally:
            os.sched_setaffinity(0, everywhere)
        base = statistics.median(found["raw pipe"])
        for name, values in found.items():
            med, p90 = statistics.median(values), statistics.quantiles(values, n=10, method="inclusive")[-1]
            print(f"| {placement} | {name} | {med:.1f} | {p90:.1f} | {med - base:.1f} |", flush=True)


if __name__ == "__main__":
    from bench import common

    common.exit_on_signals()
    main()
