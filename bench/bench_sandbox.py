"""Sandbox overheads, as a markdown table (medians of many runs; no pass/fail).

    python bench/bench_sandbox.py [--runs 200]

1. one run of a trivial C program: plain subprocess vs a fresh jail per run
2. one move of a process-per-move game inside a match-long jail vs a plain subprocess
3. an interactive round trip (write a line, read a line) vs a raw pipe round trip
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sandbox import Limits, build_program, open_jail, run_program

TRIVIAL = b"int main(void) { return 0; }\n"
ECHO = (Path(__file__).resolve().parents[1] / "sandbox/tests/programs/echo_lines.c").read_bytes()


def median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=200)
    runs = parser.parse_args().runs
    limits = Limits(cpu_s=1, memory_mb=64)
    trivial = build_program(TRIVIAL, "trivial.c").program
    echo = build_program(ECHO, "echo.c").program
    assert trivial is not None and echo is not None
    host_prog = str(trivial.files / "prog")
    host_echo = str(echo.files / "prog")
    with tempfile.TemporaryDirectory() as tmp:
        plain = median_ms(
            lambda: subprocess.run([host_prog], stdin=subprocess.DEVNULL, capture_output=True, cwd=tmp, check=True),
            runs,
        )
    fresh = median_ms(lambda: run_program(trivial, limits=limits), runs)
    with open_jail(trivial, limits) as jail:
        argv = trivial.argv(limits)
        jail.run(argv)
        move = median_ms(lambda: jail.run(argv), runs)

    proc = subprocess.Popen([host_echo], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    assert proc.stdin is not None and proc.stdout is not None
    stdin_fd, stdout_fd = proc.stdin.fileno(), proc.stdout.fileno()

    def raw_round_trip() -> None:
        os.write(stdin_fd, b"ping\n")
        data = b""
        while not data.endswith(b"\n"):
            data += os.read(stdout_fd, 4096)

    raw = median_ms(raw_round_trip, runs * 5)
    proc.stdin.close()
    proc.wait()
    with open_jail(echo, limits) as jail:
        session = jail.start_session(echo.argv(limits))

        def jailed_round_trip() -> None:
            session.send_line("ping")
            assert session.read_line(wall_s=1).line == "echo ping"

        jailed = median_ms(jailed_round_trip, runs * 5)
        session.close()

    print(f"Sandbox overheads, medians of {runs} runs ({runs * 5} round trips), on {os.uname().nodename}\n")
    print("| what | plain | sandboxed | overhead | ratio |")
    print("|---|---:|---:|---:|---:|")
    print(
        f"| run of a trivial C program, fresh jail each time | {plain:.2f} ms | {fresh:.2f} ms | {fresh - plain:+.2f} ms | {fresh / plain:.1f}× |"
    )
    print(
        f"| move in a match-long jail (goal ≤ +2 ms) | {plain:.2f} ms | {move:.2f} ms | {move - plain:+.2f} ms | {move / plain:.1f}× |"
    )
    print(
        f"| interactive round trip (goal ≤ +100 µs) | {raw * 1000:.0f} µs | {jailed * 1000:.0f} µs | {(jailed - raw) * 1000:+.0f} µs | {jailed / raw:.1f}× |"
    )


if __name__ == "__main__":
    main()
