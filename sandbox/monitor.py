"""Watching one program in a jail: feed its stdin, capture its output, sample its CPU time,
stop it at its limits, and judge it."""

from __future__ import annotations

import contextlib
import errno
import os
import select
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from .capture import Capture
from .errors import PlatformStall, SandboxError
from .interrupt import check_stop, stop_requested
from .limits import MB, Limits
from .result import RunResult, Verdict

if TYPE_CHECKING:
    from .jail import Jail

POLL_S = 0.003  # CPU time is sampled at least this often while the program runs...
POLL_MIN_S = 0.0002  # ...and more often near its limit: as often as all its threads could reach it
CORES = len(os.sched_getaffinity(0))  # how fast a program's CPU time may grow, at most, per second
# A running thread's CPU time reaches the cgroup's count at the scheduler's ticks (250 a second
# here) or when it stops running: this close to a limit, the count is read with it frozen.
ACCOUNTING_LAG_S = 0.004
DRAIN_S = 1.0  # after the end, how long to wait for output still in flight
WIPE_S = 30.0  # how long the runner may take to empty a move's /tmp before the jail is made afresh
STALL_S = 0.25  # two looks at a running program this far apart: the platform stalled in between
STALL_LIMIT_S = 2.0  # stalled this long in one run or move: it cannot be judged (PlatformStall)
HELD_FROM_S = 0.001  # an interactive move shorter than this is charged whatever held it (not read)
HELD_EVERY_S = 0.01  # while a move lasts, its held time is read at a look at least this often
# With Limits.wall_waiting_only, a run that never waits still ends by this much wall time
# beyond its wall limit, in multiples of its CPU limit: one given under a tenth of a core.
WAIT_BACKSTOP = 10


def runner_paths(named: list[object]) -> list[str]:
    """The paths the runner names, as ``os`` names them: it writes each byte of a name past
    ASCII as ``\\u00XX``, so each character is one of the name's own bytes (UTF-8 or not)."""
    return [os.fsdecode(str(p).encode("latin-1")) for p in named]


def until_cpu_limit(left_s: float) -> float:
    """How long to wait before the next look at a program's CPU, with ``left_s`` left of its
    limit: no longer than its threads need to use that up on every core, so it is stopped
    within about one look's latency of its limit, loaded host or not."""
    return min(POLL_S, max(left_s / CORES, POLL_MIN_S))


class StallClock:
    """The wall clock of one run or move, less the platform's own stalls and less the time the
    host kept the program from running.

    A loop that watches a running program looks at this clock at least every POLL_S. When two
    looks are more than STALL_S apart, the platform stopped in between (its process paused or
    starved, its host swapping): the whole gap is the platform's, not the program's. It is
    left out of the program's wall time and moves its deadline; past STALL_LIMIT_S in one move
    the move cannot be judged at all.

    The host's other work is left out too: ``held`` reads the jail cgroup's CPU pressure (the
    "full" total of ``cpu.pressure``, microseconds in which the program's runnable threads all
    waited for a CPU that others had) at the move's start, then at its end and before a wall
    deadline is taken as reached. A program that computes 0.5 s on a crowded host is charged
    the same wall time as on a quiet one; one that sleeps is not runnable, so its sleep stays
    its own. An interactive move shorter than HELD_FROM_S is not read at its end (a reading
    is a tenth of a line's round trip): the host's holding it, less than that, stays on its
    clock. CPU time is the program's own and is not touched."""

    def __init__(self, held: Callable[[], int] | None = None) -> None:
        self._held = held
        self.restart()

    def restart(self) -> float:
        """A new move starts now."""
        self.t0 = self.last = time.monotonic()
        self.stalled = 0.0
        self.held = 0.0  # seconds the host held the program from a CPU, outside the stalls
        self._mark: int | None = None  # the pressure's total at the last reading...
        self._read_at = self.t0  # ...and when
        self._count_held(inside_s=0.0)  # the first reading
        return self.t0

    def tick(self) -> float:
        """Look at the clock: the time now, noting the gap since the last look if it is a stall."""
        now = time.monotonic()
        gap, self.last = now - self.last, now
        if gap > STALL_S:
            self.stalled += gap
            # Whatever held the program inside the gap is in the gap, already left out: only
            # the part of the pressure since the last reading that the gap cannot hold counts.
            self._count_held(inside_s=gap)
        elif now - self._read_at >= HELD_EVERY_S:
            # Read often, so that a stall's gap, in which what held the program is left out
            # with the gap, can take little of the holding before it
            self._count_held(inside_s=0.0)
        return now

    def catch_up(self) -> None:
        """Count the time the host held the program since the last reading (at the move's end,
        and before a deadline is taken as reached)."""
        self._count_held(inside_s=0.0)

    def _count_held(self, inside_s: float) -> None:
        if self._held is None:
            return
        now_us = self._held()
        self._read_at = time.monotonic()
        if self._mark is not None:
            self.held += max((now_us - self._mark) / 1e6 - inside_s, 0.0)
        self._mark = now_us

    def elapsed(self, now: float) -> float:
        """The program's wall time from the start of the move until ``now`` (held time as
        last counted)."""
        return max(now - self.t0 - self.stalled - self.held, 0.0)

    def deadline(self, wall_s: float) -> float:
        """When the program has had ``wall_s`` seconds of its own, stalls and held time moving
        it on (held time as last counted: ``catch_up`` before taking it as reached)."""
        return self.t0 + wall_s + self.stalled + self.held


class Monitor:
    def __init__(self, jail: Jail, limits: Limits) -> None:
        assert jail.cgroup is not None
        self.jail = jail
        self.cgroup = jail.cgroup
        self.limits = limits
        self.cgroup.reset_peak()
        self.cpu0 = self.cgroup.cpu_ns()
        # The counters as the last run of this jail ended them (nothing runs in between), else read.
        self.oom0, self.pids0 = jail.counters or (self.cgroup.oom_kills(), self.cgroup.pids_limit_hits())
        held = self.cgroup.cpu_held_us if self.cgroup.layout.pressure and not limits.wall_real else None
        self.clock = StallClock(held)
        self.t0 = self.clock.t0
        self.stalled_s = 0.0  # the platform's stalls over the run (or the session's turns)
        self.held_s = 0.0  # the time the host held the program from a CPU, likewise
        self.waited_s = 0.0  # wall time with no thread of the program runnable (wall_waiting_only)
        self._looked = self.t0
        self._checked = self.t0  # the last look at the CPU and the waiting
        self.check_every = POLL_S  # until the next look: shorter as the CPU limit nears
        self.t_end: float | None = None
        self.cpu_end: float | None = None
        self.stdout = Capture(limits.stdout_bytes, limits.line_bytes)
        self.stderr = Capture(limits.stderr_bytes, limits.line_bytes)
        self.status: dict[str, object] | None = None
        # A run's recorded CPU is the cgroup's count, taken once the runner is done, less the
        # runner's own CPU over the run (``runner_ns``): the program and everything it started,
        # whether or not anyone waited for them. The cgroup's count, the runner's included, is
        # what the limits are watched with while it runs. A session's turns keep their cgroup
        # counts (the runner is idle then).
        self.own_cpu = False
        self.spawn_error = ""  # why the runner could not start the program
        self.awaiting_final = False  # the runner empties /tmp after the program's end, then says so
        self.cpu_at_exit: float | None = None
        self.final: dict[str, object] = {}
        self.awaiting_spawn = False
        self.stopped: Verdict | None = None
        self.note = ""
        self.poller = select.poll()
        self._control_watched = False
        self.reading: dict[int, Capture] = {}
        self.stdin_fd = -1
        self._stdin_data = memoryview(b"")

    # -- plumbing ---------------------------------------------------------------------------

    def attach(self, in_w: int, out_r: int, err_r: int, control_after_output: bool = False) -> None:
        """Watch the program's pipes, and the runner's messages: at once, or (a run to its end)
        only once the program's stdout and stderr have both ended. The runner's last word on
        a run always comes after that (the program and all it started are dead by then), and
        its word that the program started then waits in the socket instead of waking this
        process in the middle of a short run."""
        for fd in (in_w, out_r, err_r):
            os.set_blocking(fd, False)
        self.stdin_fd = in_w
        self.reading = {out_r: self.stdout, err_r: self.stderr}
        for fd in (out_r, err_r):
            self.poller.register(fd, select.POLLIN)
        self._control_watched = False
        if not control_after_output:
            self.watch_control()

    def watch_control(self) -> None:
        """Wake for the runner's messages from now on."""
        if not self._control_watched and self.jail._control is not None and not self.jail.runner_lost:
            self.poller.register(self.jail._control.fileno(), select.POLLIN)
            self._control_watched = True

    def feed_stdin(self, data: bytes, close_after: bool) -> None:
        self._stdin_data = memoryview(data)
        self._close_stdin_after = close_after
        if data:
            self.poller.register(self.stdin_fd, select.POLLOUT)
            self._write_stdin()  # what fits in the pipe now needs no wake-up (the usual input)
        elif close_after:
            self.close_stdin()

    def close_stdin(self) -> None:
        if self.stdin_fd >= 0:
            with contextlib.suppress(KeyError):
                self.poller.unregister(self.stdin_fd)
            os.close(self.stdin_fd)
            self.stdin_fd = -1

    def pump(self, timeout: float) -> None:
        """Wait up to `timeout` seconds for something to happen and handle it."""
        control = self.jail._control.fileno() if self.jail._control else -1
        if 0 < timeout < 0.001:  # poll's grain is a millisecond: a shorter wait near a limit sleeps
            events = self.poller.poll(0)
            if not events:
                time.sleep(timeout)
                events = self.poller.poll(0)
        else:
            events = self.poller.poll(max(0.0, timeout) * 1000)
        for fd, _event in events:
            if fd == self.stdin_fd:
                self._write_stdin()
            elif fd in self.reading:
                self._read_output(fd)
            elif fd == control:
                self._read_control()

    def _read_output(self, fd: int) -> bool:
        """Read once from the program's stdout or stderr; False if nothing more is there now."""
        try:
            data = os.read(fd, 1 << 16)
        except BlockingIOError:
            return False
        if data:
            self.reading[fd].feed(data)
            return True
        self.poller.unregister(fd)
        os.close(fd)
        del self.reading[fd]
        if not self.reading:
            self.watch_control()
        return False

    def drain(self) -> None:
        """Read all the output already written (the program is frozen or has ended, so this
        ends: at most a pipe's buffer each)."""
        for fd in list(self.reading):
            while fd in self.reading and self._read_output(fd):
                pass

    def look(self) -> float:
        """Look at the stall clock: the time now, a stall since the last look noted."""
        before, held = self.clock.stalled, self.clock.held
        now = self.clock.tick()
        self.stalled_s += self.clock.stalled - before
        self.held_s += self.clock.held - held
        return now

    def catch_up(self) -> None:
        """Count the time the host held the program up to now (``StallClock.catch_up``)."""
        held = self.clock.held
        self.clock.catch_up()
        self.held_s += self.clock.held - held

    def past_deadline(self, now: float, wall_s: float) -> bool:
        """Whether the program has had ``wall_s`` of its own wall time at ``now``: the host's
        holding it is counted first, so a crowded host moves the deadline instead."""
        if now < self.clock.deadline(wall_s):
            return False
        self.catch_up()
        return now >= self.clock.deadline(wall_s)

    def ended_now(self) -> None:
        """The program's time ends now (it ended, or is stopped)."""
        if self.t_end is None:
            self.t_end = time.monotonic()
            self.catch_up()

    def tick(self) -> float:
        """In every turn of a loop that waits for the program: look at the stall clock (the
        time now), and stop here if the move stalled too long or this process is to stop."""
        now = self.look()
        if self.clock.stalled > STALL_LIMIT_S:
            self.abandon()
            raise PlatformStall(
                f"the platform stalled for {self.clock.stalled:.1f} s while a program's clock ran "
                f"(gaps over {STALL_S:g} s between two looks at it, at most {STALL_LIMIT_S:g} s a move)"
            )
        if stop_requested():
            self.abandon()
            check_stop()
        return now

    def abandon(self) -> None:
        """Give up on this run, which will not be judged: kill the program, close its pipes.
        The jail stays usable (its owner usually closes it on the way out)."""
        self.jail.counters = None  # whatever the run did to them, the next one reads them again
        self.watch_control()
        self.cgroup.freeze()
        self.stopped = self.stopped or Verdict.RUNTIME_ERROR
        self.note = self.note or "abandoned by the platform"
        with contextlib.suppress(SandboxError, OSError):
            self.jail.kill_programs()
        self.cgroup.thaw()
        self.close_stdin()
        until = time.monotonic() + DRAIN_S
        while self.status is None and not self.jail.runner_lost and time.monotonic() < until:
            self.pump(0.05)  # the runner's word on the killed program, not to be read as the next one's
        if self.awaiting_final or self.status is None:  # a word still to come: a fresh runner next time
            self.jail.runner_lost = True
        for fd in list(self.reading):
            with contextlib.suppress(KeyError):
                self.poller.unregister(fd)
            os.close(fd)
        self.reading = {}

    def _write_stdin(self) -> None:
        try:
            n = os.write(self.stdin_fd, self._stdin_data[: 1 << 16])
        except BlockingIOError:
            return
        except OSError as e:
            if e.errno != errno.EPIPE:
                raise
            self._stdin_data = memoryview(b"")
            self.close_stdin()
            return
        self._stdin_data = self._stdin_data[n:]
        if not self._stdin_data:
            if self._close_stdin_after:
                self.close_stdin()
            else:
                self.poller.unregister(self.stdin_fd)

    def _read_control(self) -> None:
        message = self.jail._poll_message()
        if message is None:
            if self.jail.runner_lost and self.jail._control is not None:
                self.poller.unregister(self.jail._control.fileno())
            return
        if "spawned" in message:
            self.awaiting_spawn = False
        elif "exit_code" in message:  # the program and all it started are dead: its time ends
            self.status = message
            self.ended_now()
            self.awaiting_final = bool(message.get("more"))
            if self.awaiting_final and self.own_cpu:  # the count to fall back on if the wipe never ends
                self.cpu_at_exit = self.cpu_s()
        elif "cleaned" in message:  # then its /tmp was emptied
            self.final = message
            self.awaiting_final = False
            if message.get("stuck"):  # something there would outlive the wipe: the next run gets a fresh jail
                self.jail.runner_lost = True
        elif "error" in message:  # the program could not be started
            self.status = {"exit_code": None, "signal": None}
            self.spawn_error = str(message["error"])
            self.ended_now()

    @property
    def ended(self) -> bool:
        return self.status is not None or self.jail.runner_lost

    def cpu_s(self) -> float:
        return (self.cgroup.cpu_ns() - self.cpu0) / 1e9

    def cpu_left(self, limit_s: float, since_ns: int) -> float:
        """The CPU time left of ``limit_s`` counted from the cgroup's count ``since_ns``; at
        most 0 once it is used up, and then the program is left frozen. Within a scheduler
        tick of the limit the count is read with the program frozen (then thawed if some is
        left), so a thread running now is in it whole."""
        left = limit_s - (self.cgroup.cpu_ns() - since_ns) / 1e9
        if left > ACCOUNTING_LAG_S:
            return left
        self.cgroup.freeze()
        left = limit_s - (self.cgroup.cpu_ns() - since_ns) / 1e9
        if left > 0:
            self.cgroup.thaw()
        return left

    # -- stopping and judging ---------------------------------------------------------------

    def stop(self, verdict: Verdict, note: str) -> None:
        """Freeze at once (no more CPU), then kill the program and all it started."""
        self.cgroup.freeze()
        self.t_end = None
        self.ended_now()
        self.cpu_end = self.cpu_s()
        self.stopped = verdict
        self.note = note
        self.jail.kill_programs()
        # kill_programs thaws only if it found something to kill; the program may have ended
        # just now, leaving the runner frozen halfway through its reply.
        self.cgroup.thaw()

    def check(self, cpu_limit: float, wall_s: float) -> bool:
        """Stop the program if it is over a limit; True if it was stopped. Its CPU and its
        waiting are looked at every POLL_S, not at each piece of output in between."""
        now = self.tick()
        if self.stdout.truncated:
            self.stop(Verdict.OUTPUT_LIMIT, "output limit exceeded (bytes or line length)")
            return True
        if now - self._checked < self.check_every and now < self.clock.deadline(wall_s):
            return False
        self._checked = now
        left = self.cpu_left(cpu_limit, self.cpu0)
        self.check_every = until_cpu_limit(left)
        if left <= 0:
            self.stop(Verdict.TIME_LIMIT, f"CPU time limit of {cpu_limit:g} s exceeded")
        elif self.limits.wall_waiting_only and self._waited_too_long(now, cpu_limit, wall_s):
            self.stop(Verdict.WALL_LIMIT, f"waited {wall_s:g} s without computing")
        elif not self.limits.wall_waiting_only and self.past_deadline(now, wall_s):
            self.stop(Verdict.WALL_LIMIT, f"wall time limit of {wall_s:g} s exceeded")
        else:
            return False
        return True

    def _waited_too_long(self, now: float, cpu_limit: float, wall_s: float) -> bool:
        """Count the time since the last look as waiting if no thread of the program can run
        now (a gap the stall clock took for the platform's is not counted); True once the
        waiting passes ``wall_s``, or the backstop passes."""
        gap, self._looked = now - self._looked, now
        if gap <= STALL_S and not self.cgroup.busy(self.jail.spare_tids):
            self.waited_s += gap
        return self.waited_s >= wall_s or now >= self.clock.deadline(wall_s + WAIT_BACKSTOP * cpu_limit)

    def run_to_end(self, in_w: int, out_r: int, err_r: int, stdin: bytes) -> RunResult:
        self.own_cpu = True  # the runner's count of the program's CPU is the one recorded
        self.awaiting_spawn = True  # until the runner says it started the program
        self.attach(in_w, out_r, err_r, control_after_output=True)
        self.feed_stdin(stdin, close_after=True)
        now = self.tick()
        while not self.ended:
            wait = POLL_S if self.limits.wall_waiting_only else self.clock.deadline(self.limits.wall) - now
            self.pump(min(self.check_every, wait))
            if self.ended:
                self.tick()  # a stall just before the end is not the program's either
                break
            if self.check(self.limits.cpu_s, self.limits.wall):
                break
            now = self.clock.last
        return self.finish()

    def finish(self) -> RunResult:
        """After the end or a stop: collect the status and the last output, then judge."""
        self.ended_now()
        self.watch_control()
        if self.cpu_end is None and not self.own_cpu:
            self.cpu_end = self.cpu_s()
        until = time.monotonic() + DRAIN_S + 2.0
        while self.status is None and not self.jail.runner_lost and time.monotonic() < until:
            self.pump(0.05)
        until = time.monotonic() + WIPE_S
        while self.awaiting_final and not self.jail.runner_lost and time.monotonic() < until:
            self.pump(0.05)
        if self.awaiting_final:  # a /tmp too full to empty in time: a fresh jail for the next run
            self.jail.runner_lost = True
            # the program's time as the runner's first answer found it, with the runner's CPU to then
            first = self.status.get("runner_ns") if self.status else None
            self.final = {"cleaned": ["/tmp (too much to empty)"], "count": 1, "runner_ns": first}
            if self.cpu_at_exit is not None:
                self.cpu_end = self.cpu_at_exit
        if self.cpu_end is None:  # the runner has finished: the cgroup holds the program's CPU and its own
            self.cpu_end = self.cpu_s()
        self.close_stdin()
        until = time.monotonic() + DRAIN_S
        while self.reading and time.monotonic() < until:
            self.pump(0.05)
        if self.reading:  # a writer survived the runner's kill(-1): kill by cgroup
            self.jail.kill_programs()
            while self.reading and time.monotonic() < until + DRAIN_S:
                self.pump(0.05)
        for fd in list(self.reading):
            os.close(fd)
        self.reading = {}
        if self.jail._control is not None and not self.jail.runner_lost:
            with contextlib.suppress(KeyError):
                self.poller.unregister(self.jail._control.fileno())
        return self.judge()

    def judge(self) -> RunResult:
        assert self.cpu_end is not None and self.t_end is not None
        if self.awaiting_spawn and self.status is None:  # the runner went before the program began
            raise SandboxError("the jail's runner ended before it started the program")
        cpu, wall = self.cpu_end, max(self.t_end - self.t0 - self.stalled_s - self.held_s, 0.0)
        # The runner's CPU over the same span as the cgroup's count: to its last answer.
        runner_ns = self.final.get("runner_ns", self.status.get("runner_ns") if self.status else None)
        if self.own_cpu and self.stopped is None and isinstance(runner_ns, int):
            cpu = max(cpu - runner_ns / 1e9, 0.0)  # the cgroup's count less the runner's own
        exit_code = signal = None
        if self.status is not None:
            exit_code = self.status.get("exit_code")  # type: ignore[assignment]
            signal = self.status.get("signal")  # type: ignore[assignment]
        ooms, hits = self.cgroup.oom_kills(), self.cgroup.pids_limit_hits()
        self.jail.counters = (ooms, hits)
        oom = ooms - self.oom0
        note = self.note
        if self.spawn_error:
            verdict, note = Verdict.RUNTIME_ERROR, self.spawn_error
        elif self.stopped is not None:
            verdict = self.stopped
        elif cpu > self.limits.cpu_s:
            verdict, note = Verdict.TIME_LIMIT, f"CPU time limit of {self.limits.cpu_s:g} s exceeded"
        elif oom > 0:
            verdict, note = Verdict.MEMORY_LIMIT, f"memory limit of {self.limits.memory_mb} MB exceeded"
        elif self.stdout.truncated:  # it ended before a check saw the cut: the same verdict
            verdict, note = Verdict.OUTPUT_LIMIT, "output limit exceeded (bytes or line length)"
        elif self.status is None:
            verdict, note = Verdict.RUNTIME_ERROR, "the program brought down its jail"
        elif signal is not None or exit_code != 0:
            verdict = Verdict.RUNTIME_ERROR
            note = f"killed by signal {signal}" if signal is not None else f"exit code {exit_code}"
        else:
            verdict = Verdict.OK
        if hits > self.pids0:
            note = (note + "; " if note else "") + f"process limit of {self.limits.pids} reached"
        extra = {}
        if "cleaned" in self.final:
            extra["tmp_left"] = (runner_paths(self.final["cleaned"]), int(self.final["count"]))  # type: ignore[arg-type,call-overload]
        return RunResult(
            verdict=verdict,
            exit_code=exit_code if isinstance(exit_code, int) else None,
            signal=signal if isinstance(signal, int) else None,
            cpu_s=cpu,
            wall_s=wall,
            peak_memory_mb=self.cgroup.memory_peak() / MB,
            stdout=self.stdout.getvalue(),
            stderr=self.stderr.getvalue(),
            stdout_truncated=self.stdout.truncated,
            stderr_truncated=self.stderr.truncated,
            note=note,
            stalled_s=self.stalled_s,
            held_s=self.held_s,
            extra=extra,
        )
