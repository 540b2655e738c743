"""Sandbox overheads, as a markdown table (medians and 90th percentiles of many runs against
baselines measured in the same run; no pass/fail).

    python bench/bench_sandbox.py [--runs 300]

1. a fresh jail (start, run a trivial C program, close), started on the spot and taken from
   a pool (sandbox/pool.py: made ahead by a thread while the others are timed), vs
   bubblewrap alone with the jail's own options (the same namespaces, binds, copied files,
   tmpfs and seccomp filter, made by ``Jail._bwrap_args``), as an unprivileged uid, running
   the same program;
2. one move of a process-per-move game in a match-long jail vs ``os.posix_spawn`` of the
   program with the same three pipes, read to their end, and a wait;
3. the CPU a run of a trivial program is charged: the runner's count of the program alone
   vs the jail's cgroup (program and runner);
4. an interactive round trip (write a line, read a line) vs a raw pipe round trip;
5. the CPU a fresh jail (either way) and a bare bubblewrap cost the whole machine (both cores, the kernel's
   own workers too, which tear namespaces down after the caller has its answer): /proc/stat
   over a block of each, so only meaningful when nothing else runs.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import common
from sandbox import Limits, build_program, native, open_jail, run_program, seccomp
from sandbox.conf import get_settings
from sandbox.jail import Jail, _pipe_with, _system_files, bwrap_path
from sandbox.pool import close_pools, pool_for
from sandbox.slots import Slot
from sandbox.workdir import WorkDir

TRIVIAL = b"int main(void) { return 0; }\n"
ECHO = (Path(__file__).resolve().parents[1] / "sandbox/tests/programs/echo_lines.c").read_bytes()
BARE_UID = 65000  # an unprivileged uid for the baseline, as the jails' own are


def times_ms(fn: Callable[[], object], runs: int) -> list[float]:
    found = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        found.append((time.perf_counter() - start) * 1000)
    return found


def interleaved_ms(*ways: Callable[[], object], runs: int) -> list[list[float]]:
    """Each timed in turn, run after run, so that the machine's moods fall on all alike."""
    found: list[list[float]] = [[] for _ in ways]
    for _ in range(runs):
        for way, times in zip(ways, found, strict=True):
            times += times_ms(way, 1)
    return found


def machine_cpu_ms(fn: Callable[[], object], runs: int) -> float:
    """The CPU the whole machine spent per call of ``fn`` (every core, user and kernel), from
    /proc/stat before and after ``runs`` calls and a moment for work left behind."""

    def busy() -> float:
        with open("/proc/stat", encoding="ascii") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        idle = fields[3] + fields[4]  # idle and iowait
        return (sum(fields[:8]) - idle) * 1000 / os.sysconf("SC_CLK_TCK")

    before = busy()
    for _ in range(runs):
        fn()
    time.sleep(0.2)  # namespaces still being torn down
    return (busy() - before) / runs


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1]


def same_options(folder: Path, limits: Limits) -> Callable[[], tuple[list[str], list[int]]]:
    """bubblewrap's command line with the jail's own options (``folder`` as the work folder),
    running the program in it directly, and the descriptors it reads (made anew each call:
    bubblewrap reads them to their end, as the jail's own are)."""
    probe = Jail(limits)
    probe.slot = Slot(0, BARE_UID, -1)
    probe.work = WorkDir(folder, BARE_UID, 0)
    runner = native.runner(probe.settings.root)

    def command() -> tuple[list[str], list[int]]:
        copies, fds = _system_files()
        fds.append(_pipe_with(seccomp.compiled_filter()))
        return [bwrap_path(), *probe._bwrap_args(fds[-1], runner, copies), "--", "/work/prog"], fds

    return command


def spawned(program: str) -> float:
    """The program run by ``os.posix_spawn``, its stdin, stdout and stderr pipes, the output
    read to its end and the program waited for: what a move does, with nothing around it.
    The program's CPU (ms)."""
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    dup = os.POSIX_SPAWN_DUP2
    pid = os.posix_spawn(program, [program], {}, file_actions=[(dup, in_r, 0), (dup, out_w, 1), (dup, err_w, 2)])
    for fd in (in_r, in_w, out_w, err_w):
        os.close(fd)
    for fd in (out_r, err_r):
        while os.read(fd, 65536):
            pass
        os.close(fd)
    usage = os.wait4(pid, 0)[2]
    return (usage.ru_utime + usage.ru_stime) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=300)
    runs = parser.parse_args().runs
    load_before = os.getloadavg()
    limits = Limits(cpu_s=1, memory_mb=64)
    trivial = build_program(TRIVIAL, "trivial.c").program
    echo = build_program(ECHO, "echo.c").program
    assert trivial is not None and echo is not None
    host_prog = trivial.files / "prog"
    host_echo = str(echo.files / "prog")
    shown = str(common.scratch("bare"))  # where the baseline's uid can read the program
    os.chmod(shown, 0o755)
    shutil.copy2(host_prog, shown)
    bare_command = same_options(Path(shown), limits)

    def bare_run() -> None:
        command, fds = bare_command()
        try:
            subprocess.run(
                command, user=BARE_UID, group=BARE_UID, extra_groups=[], capture_output=True, check=True, pass_fds=fds
            )
        finally:
            for fd in fds:
                os.close(fd)

    def fresh_run() -> None:
        run_program(trivial, limits=limits)

    pooled = dataclasses.replace(get_settings(), pool=True)

    def pooled_run() -> None:
        run_program(trivial, limits=limits, settings=pooled)

    bare, fresh, from_pool = interleaved_ms(bare_run, fresh_run, pooled_run, runs=runs)
    cpu_bare, cpu_fresh = machine_cpu_ms(bare_run, runs // 2), machine_cpu_ms(fresh_run, runs // 2)
    cpu_pooled = machine_cpu_ms(pooled_run, runs // 2)
    pool = pool_for(pooled)
    assert pool is not None
    served = pool.taken / (3 * runs // 2)
    close_pools()
    shutil.rmtree(shown)
    with open_jail(trivial, limits) as jail:
        argv = trivial.argv(limits)
        jail.run(argv)
        charged: list[tuple[float, float]] = []

        def move() -> None:
            before = jail.cgroup.cpu_ns()
            result = jail.run(argv)
            charged.append((result.cpu_s * 1000, (jail.cgroup.cpu_ns() - before) / 1e6))

        outside: list[float] = []
        host_cpu = {"spawn": 0.0, "move": 0.0}  # this process's own CPU (s), each way

        def own_cpu(name: str, way: Callable[[], object]) -> Callable[[], None]:
            def timed() -> None:
                before = time.process_time()
                way()
                host_cpu[name] += time.process_time() - before

            return timed

        plain, moves = interleaved_ms(
            own_cpu("spawn", lambda: outside.append(spawned(str(host_prog)))), own_cpu("move", move), runs=runs
        )

    proc = subprocess.Popen([host_echo], stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    assert proc.stdin is not None and proc.stdout is not None
    stdin_fd, stdout_fd = proc.stdin.fileno(), proc.stdout.fileno()

    def raw_round_trip() -> None:
        os.write(stdin_fd, b"ping\n")
        data = b""
        while not data.endswith(b"\n"):
            data += os.read(stdout_fd, 4096)

    raw = times_ms(raw_round_trip, runs * 5)
    proc.stdin.close()
    proc.wait()
    with open_jail(echo, limits) as jail:
        session = jail.start_session(echo.argv(limits))

        def jailed_round_trip() -> None:
            session.send_line("ping")
            assert session.read_line(wall_s=1).line == "echo ping"

        jailed = times_ms(jailed_round_trip, runs * 5)
        session.close()

    med = statistics.median
    print(
        f"Sandbox overheads, {runs} runs each ({runs * 5} round trips), on {os.uname().nodename}; "
        f"load average {load_before[0]:.2f} before, {os.getloadavg()[0]:.2f} after\n"
    )
    print("| what | baseline | median | ratio | p90 | ratio at p90 |")
    print("|---|---|---:|---:|---:|---:|")
    rows = [
        (
            "a fresh jail: start, a trivial C program, close (goal ≤ 1.5×, p90 ≤ 2×)",
            "bwrap alone, the jail's options",
            bare,
            fresh,
        ),
        ("the same, the jail made ahead by a pool", "bwrap alone, the jail's options", bare, from_pool),
        ("a move in a match-long jail (goal ≤ 1.15×)", "os.posix_spawn", plain, moves),
        ("an interactive round trip (goal ≤ +10 µs)", "raw pipe", raw, jailed),
    ]
    for what, name, base, ours in rows:
        print(
            f"| {what} | {name} {med(base):.3f} ms | {med(ours):.3f} ms | {med(ours) / med(base):.2f}× "
            f"| {p90(ours):.3f} ms | {p90(ours) / p90(base):.2f}× |"
        )
    print(f"\nRound trip over the raw pipe at the median: +{(med(jailed) - med(raw)) * 1000:.1f} µs.")
    print(
        f"\nCPU of the whole machine per fresh jail: {cpu_fresh:.2f} ms started on the spot, {cpu_pooled:.2f} ms "
        f"from the pool, against {cpu_bare:.2f} ms per bare bwrap ({cpu_fresh / cpu_bare:.2f}×, {cpu_pooled / cpu_bare:.2f}×; "
        f"{runs // 2} of each in a block, /proc/stat: counts whatever else runs). The pool served {served:.0%} of its runs."
    )
    own, cgroup = med(c[0] for c in charged), med(c[1] for c in charged)
    print(
        f"\nCPU charged to a move of the trivial program (median): {own:.3f} ms recorded "
        f"(the cgroup's count less the runner's own: the program alone) against {cgroup:.3f} ms in the jail's cgroup (program and runner); "
        f"the same program by os.posix_spawn outside any jail: {med(outside):.3f} ms (its rusage)."
    )
    print(
        f"\nThis process's own CPU (user and system) per move: {host_cpu['move'] / runs * 1e6:.0f} µs, "
        f"per os.posix_spawn: {host_cpu['spawn'] / runs * 1e6:.0f} µs (means)."
    )


if __name__ == "__main__":
    common.exit_on_signals()
    main()
