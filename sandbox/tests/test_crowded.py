"""Wall clocks on a crowded host: the time the host keeps a program from a CPU is not on its
wall clock (the jail cgroup's CPU pressure: monitor.StallClock), so a move is decided as it
would be on a quiet host. The crowd is jails beside jails, more busy programs than cores,
started through the sandbox as a worker's other matches would be."""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Iterator

import pytest

from sandbox import monitor
from sandbox.conf import SandboxSettings
from sandbox.jail import cgroup_layout
from sandbox.limits import Limits
from sandbox.monitor import StallClock
from sandbox.programs import Program, open_jail
from sandbox.result import Verdict

from .conftest import BACKSTOP_WALL_S, Builder
from .crowds import spinning

pytestmark = pytest.mark.alone  # the crowd takes every core for a few seconds

LIMITS = Limits(cpu_s=5, wall_s=BACKSTOP_WALL_S, memory_mb=64, pids=16)
THINK_S = 0.5  # the program's CPU a move...
WALL_LIMIT_S = 0.8  # ...under a wall limit a little above it: on a quiet host, in time
CORES = len(os.sched_getaffinity(0))
CROWD = CORES + 1  # busy jails beside the one under test: two runnable programs a core at least


@pytest.fixture
def crowded(sandbox_settings: SandboxSettings) -> SandboxSettings:
    """The tests' installation, with a slot for every jail of the crowd and the one under test."""
    if not cgroup_layout(sandbox_settings.cgroup_parent).pressure:
        pytest.skip("this kernel keeps no CPU pressure for cgroups (PSI): wall clocks are not corrected here")
    return dataclasses.replace(sandbox_settings, slots=max(sandbox_settings.slots, CROWD + 1))


@pytest.fixture
def crowd(programs: Builder, crowded: SandboxSettings) -> Iterator[None]:
    """CROWD jails, each running a program that spins until its jail is closed."""
    with spinning(programs.build("spin.c"), LIMITS, CROWD, settings=crowded):
        yield


def thinker(programs: Builder, how: str, seconds: float) -> tuple[Program, list[str]]:
    program = programs.build("think.c")
    return program, program.argv(LIMITS, [how, str(seconds)])


def test_a_move_that_computes_is_not_charged_for_the_crowd(
    programs: Builder, crowded: SandboxSettings, crowd: None
) -> None:
    program, argv = thinker(programs, "cpu", THINK_S)
    with open_jail(program, LIMITS, settings=crowded) as jail:
        session = jail.start_session(argv)
        for _ in range(2):
            assert session.send_line("go")
            started = time.monotonic()
            reply = session.read_line(wall_s=WALL_LIMIT_S)
            took = time.monotonic() - started
            assert (reply.line, reply.verdict) == ("done", Verdict.OK), reply
            # the crowd held it (else this shows nothing): it took longer than its limit...
            assert took > WALL_LIMIT_S, took
            # ...and what it is charged is its own: its CPU and little more, as on a quiet host
            assert THINK_S <= reply.wall_s < WALL_LIMIT_S, reply
            assert reply.held_s > took - WALL_LIMIT_S, reply
            assert reply.wall_s + reply.held_s + reply.stalled_s == pytest.approx(took, abs=0.05), (reply, took)
        session.send_line("quit")
        result = session.close()
        assert result.held_s >= 2 * (WALL_LIMIT_S - THINK_S), result


def test_a_run_that_computes_is_not_charged_for_the_crowd(
    programs: Builder, crowded: SandboxSettings, crowd: None
) -> None:
    program, argv = thinker(programs, "cpu", THINK_S)
    with open_jail(program, LIMITS, settings=crowded) as jail:
        started = time.monotonic()
        result = jail.run(argv, stdin=b"go\n", limits=LIMITS.but(wall_s=WALL_LIMIT_S))
        took = time.monotonic() - started
        assert (result.verdict, result.stdout) == (Verdict.OK, b"done\n"), result
        assert took > WALL_LIMIT_S, took
        assert THINK_S <= result.wall_s < WALL_LIMIT_S, result
        assert result.held_s > took - WALL_LIMIT_S, result


def test_a_program_that_sleeps_past_its_limit_still_times_out(
    programs: Builder, crowded: SandboxSettings, crowd: None
) -> None:
    # Asleep, a program is not runnable: the crowd cannot hold it, its sleep is its own time.
    program, argv = thinker(programs, "sleep", 2 * WALL_LIMIT_S)
    with open_jail(program, LIMITS, settings=crowded) as jail:
        session = jail.start_session(argv)
        assert session.send_line("go")
        reply = session.read_line(wall_s=WALL_LIMIT_S)
        assert reply.verdict is Verdict.WALL_LIMIT, reply
        assert WALL_LIMIT_S <= reply.wall_s < 2 * WALL_LIMIT_S, reply
        session.close()
        result = jail.run(argv, stdin=b"go\n", limits=LIMITS.but(wall_s=WALL_LIMIT_S))
        assert result.verdict is Verdict.WALL_LIMIT, result
        assert WALL_LIMIT_S <= result.wall_s < 2 * WALL_LIMIT_S, result


class Counter:
    """A stand-in for the cgroup's pressure total and the monotonic clock, moved by hand."""

    def __init__(self) -> None:
        self.now = 100.0
        self.held_us = 0

    def wait(self, seconds: float, held_s: float = 0.0) -> None:
        self.now += seconds
        self.held_us += round(held_s * 1e6)


def test_the_clock_leaves_out_held_time_once_even_inside_a_stall(monkeypatch: pytest.MonkeyPatch) -> None:
    host = Counter()
    monkeypatch.setattr(monitor.time, "monotonic", lambda: host.now)
    clock = StallClock(lambda: host.held_us)  # the first reading, at the start
    start = clock.t0
    host.wait(0.002, held_s=0.001)
    clock.tick()
    host.wait(0.002, held_s=0.002)
    now = clock.tick()
    assert clock.elapsed(now) == pytest.approx(0.004)  # not counted yet: counted at the end...
    clock.catch_up()
    assert clock.elapsed(now) == pytest.approx(0.001)  # ...then left out
    assert clock.deadline(1.0) == pytest.approx(start + 1.003)
    # A look 0.2 s on reads what held the program meanwhile (a look reads at least every
    # HELD_EVERY_S). Then a stall of the platform (no look for 1 s) in which the program was
    # held 0.8 s: the gap is left out, and of the holding since the last reading only what
    # the gap could not hold (none here) is left out besides.
    host.wait(0.2, held_s=0.1)
    clock.tick()
    assert clock.held == pytest.approx(0.103)
    host.wait(1.0, held_s=0.8)
    clock.tick()
    assert clock.stalled == pytest.approx(1.0)
    assert clock.held == pytest.approx(0.103)
    host.wait(0.2, held_s=0.15)
    clock.tick()
    clock.catch_up()
    assert clock.held == pytest.approx(0.253)
    assert clock.elapsed(host.now) == pytest.approx(0.004 + 0.4 - 0.253)
    # Without a pressure to read (a kernel that keeps none) only stalls are left out.
    bare = StallClock(None)
    host.wait(0.2, held_s=0.2)
    bare.catch_up()
    assert bare.elapsed(bare.tick()) == pytest.approx(0.2)
