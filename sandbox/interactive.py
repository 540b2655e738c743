"""A live program for a referee: write a line, read a reply by a deadline, CPU per move.

A program cannot think on its opponent's time. Its turn starts when the referee sends it
something (or asks it for a line) and ends when its reply arrives. After the reply it may go
on for a moment, until it waits for its next line (at most SETTLE_S, SETTLE_CPU_S): what it
writes to stderr meanwhile belongs to this move. Then, if it is still busy, it is frozen
(cgroup freezer) until its next turn. If it waits, it is left waiting, unfrozen: freezing
and thawing would cost more than the rest of a round trip. Whatever CPU it uses before its
next turn (a timer woke it, a thread slept and went on) is that turn's, counted from the end
of this one, and if it is more than OFF_TURN_CPU_S the program is charged it on its wall
clock too and frozen after every answer from then on: it gains nothing by it, once. A
session made with ``freeze=True`` freezes after every answer from the start. Its wall time
leaves out the platform's stalls (see StallClock).

    with Jail(limits) as jail:
        session = jail.start_session(["./prog"])
        session.send_line("Start")
        reply = session.read_line(wall_s=5, cpu_s=1)
        if reply.line is None: ...            # reply.verdict says why
        result = session.close()              # stderr, totals
"""

from __future__ import annotations

import os
import select
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .limits import Limits
from .monitor import HELD_FROM_S, POLL_S, Monitor, until_cpu_limit
from .result import RunResult, Verdict

if TYPE_CHECKING:
    from .jail import Jail

SETTLE_S = 0.1  # after its answer, how long a program may go on before it is frozen...
SETTLE_CPU_S = 0.01  # ...and how much CPU it may use meanwhile (its own: charged to the move)
SETTLE_POLL_S = 0.001
OFF_TURN_CPU_S = 0.001  # CPU between two turns beyond which a program is frozen between all its turns


@dataclass(frozen=True)
class Reply:
    """One move: the line (without newline) or None, and what the move cost."""

    line: str | None
    verdict: Verdict
    cpu_s: float
    wall_s: float  # the platform's stalls left out
    note: str = ""
    stalled_s: float = 0.0  # the platform's stalls during the move
    held_s: float = 0.0  # the time the host kept it from a CPU during the move (left out of wall_s)


class Session:
    def __init__(
        self, jail: Jail, argv: Sequence[str], env: Mapping[str, str] | None, limits: Limits, freeze: bool = False
    ) -> None:
        self.jail = jail
        self.limits = limits
        self.monitor = Monitor(jail, limits)
        in_w, out_r, err_r, error = jail.spawn(argv, env)
        self.monitor.attach(in_w, out_r, err_r)
        self.monitor.feed_stdin(b"", close_after=False)
        self.cgroup = self.monitor.cgroup
        self.cgroup.freeze()  # its start-up is its first move's
        self.frozen = True
        self.in_turn = False
        self.freeze_always = freeze  # else only once it is seen running between its turns
        self.off_turn_s = 0.0  # CPU it used between its turns, charged to the turns after
        self.error = error
        self.cpu_total = 0.0
        self.moves = 0
        self._turn_cpu0 = 0
        self._cpu_at_end = 0  # the cgroup's CPU when its last turn ended
        self._closed: RunResult | None = None
        self._stderr_seen = 0
        if error is not None:
            self.monitor.status = {"exit_code": None, "signal": None}
            self.monitor.note = error

    # -- turns ------------------------------------------------------------------------------

    def _begin_turn(self) -> None:
        if self.in_turn:
            return
        self.in_turn = True
        if self.frozen:
            self._turn_cpu0 = self.cgroup.cpu_ns()
            self.monitor.clock.restart()
            self.cgroup.thaw()
            self.frozen = False
            return
        # Left waiting after its last answer: whatever it used since is this turn's.
        self._turn_cpu0 = self._cpu_at_end
        off_turn_ns = self.cgroup.cpu_ns() - self._cpu_at_end
        self.monitor.clock.restart()
        if off_turn_ns > OFF_TURN_CPU_S * 1e9:  # it ran when it was not its turn
            self.off_turn_s += off_turn_ns / 1e9
            self.monitor.clock.t0 -= off_turn_ns / 1e9  # on its wall clock too, as if thought now
            self.freeze_always = True

    def _end_turn(self, now: float | None = None, settle: bool = False) -> tuple[float, float, float, float]:
        """End the turn, freezing the program unless it waits (see the module's docstring):
        (CPU, wall, stalled, held) of the turn, its wall time ending at ``now`` (a look at the
        stall clock, when the reply was seen)."""
        self.moves += 1
        if not self.in_turn:  # a line already waiting from the last turn: this reply cost nothing
            return 0.0, 0.0, 0.0, 0.0
        self.in_turn = False
        if now is None:
            now = self.monitor.look()
        clock = self.monitor.clock
        if now - clock.t0 >= HELD_FROM_S:  # a quick answer is not worth the reading
            self.monitor.catch_up()
        wall = clock.elapsed(now)
        waits = settle and self._settle()
        if not waits or self.freeze_always:
            self.cgroup.freeze()
            self.frozen = True
            self.monitor.drain()  # all it wrote up to now belongs to this move
        # else it waits: what it wrote is in the pipes, for take_stderr
        self._cpu_at_end = self.cgroup.cpu_ns()
        cpu = (self._cpu_at_end - self._turn_cpu0) / 1e9
        self.cpu_total += cpu
        return cpu, wall, clock.stalled, clock.held

    def _settle(self) -> bool:
        """Let the program finish what it does after its answer (typically a line to stderr)
        until it waits for something, or SETTLE_S or SETTLE_CPU_S have passed (then False).
        This wall time is not the program's; the CPU is."""
        spare = self.jail.spare_tids  # bwrap and the runner: never busy for the program
        if not self.cgroup.busy(spare):
            return True
        until = time.monotonic() + SETTLE_S
        cpu_until = self.cgroup.cpu_ns() + SETTLE_CPU_S * 1e9
        while not self.monitor.ended and self.cgroup.busy(spare):
            if time.monotonic() >= until or self.cgroup.cpu_ns() >= cpu_until:
                return False
            self.monitor.pump(SETTLE_POLL_S)
        return True

    @property
    def alive(self) -> bool:
        return not self.monitor.ended and self.monitor.stopped is None

    def send_line(self, line: str | bytes, timeout_s: float = 1.0) -> bool:
        """Give the program a line; its turn starts now. False if it cannot take it (it has
        ended, closed its input, or left it full for `timeout_s`)."""
        if not self.alive or self.monitor.stdin_fd < 0:
            return False
        data = line.encode() if isinstance(line, str) else line
        if not data.endswith(b"\n"):
            data += b"\n"
        self._begin_turn()
        deadline = time.monotonic() + timeout_s
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self.monitor.stdin_fd, view) :]
                continue
            except BlockingIOError:
                pass
            except BrokenPipeError:
                return False
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            select.select([], [self.monitor.stdin_fd], [], min(remaining, POLL_S))
            self.monitor.pump(0)
            self.monitor.look()  # a stall here is checked in read_line
        return True

    def read_line(self, *, wall_s: float, cpu_s: float | None = None) -> Reply:
        """Wait for the program's next line, for at most `wall_s` seconds of its turn and
        `cpu_s` seconds of CPU in this turn (default: the session's cpu limit)."""
        cpu_limit = self.limits.cpu_s if cpu_s is None else cpu_s
        monitor = self.monitor
        line = monitor.stdout.take_line()
        if line is not None:
            return self._reply(line)
        if not self.alive:
            return self._ended_reply()
        self._begin_turn()
        clock = monitor.clock
        now = monitor.tick()
        wait = POLL_S
        while True:
            monitor.pump(min(wait, max(0.0, clock.deadline(wall_s) - now)))
            now = monitor.tick()  # raises PlatformStall for a move the platform stalled too long
            line = monitor.stdout.take_line()
            if line is not None:
                return self._reply(line, now)
            if monitor.stdout.truncated:
                return self._stop(Verdict.OUTPUT_LIMIT, "line too long", now)
            if monitor.ended:
                return self._ended_reply(now)
            left = monitor.cpu_left(cpu_limit, self._turn_cpu0)
            if left <= 0:
                return self._stop(Verdict.TIME_LIMIT, f"more than {cpu_limit:g} s of CPU for a move", now)
            wait = until_cpu_limit(left)
            if monitor.past_deadline(now, wall_s):
                return self._stop(Verdict.WALL_LIMIT, f"no reply in {wall_s:g} s", now)

    def _reply(self, line: bytes, now: float | None = None) -> Reply:
        cpu, wall, stalled, held = self._end_turn(now, settle=True)
        return Reply(line.decode("utf-8", errors="replace"), Verdict.OK, cpu, wall, stalled_s=stalled, held_s=held)

    def _stop(self, verdict: Verdict, note: str, now: float) -> Reply:
        cpu, wall, stalled, held = self._end_turn(now)
        self.monitor.stop(verdict, note)
        return Reply(None, verdict, cpu, wall, note, stalled, held)

    def _ended_reply(self, now: float | None = None) -> Reply:
        cpu, wall, stalled, held = self._end_turn(now) if self.in_turn else (0.0, 0.0, 0.0, 0.0)
        result = self.close()
        verdict = result.verdict if result.verdict is not Verdict.OK else Verdict.RUNTIME_ERROR
        return Reply(None, verdict, cpu, wall, result.note or "the program ended", stalled, held)

    def take_stderr(self) -> bytes:
        """What the program wrote to stderr since the last call (for a per-move record)."""
        if self.frozen:
            self.monitor.drain()
        else:
            self.monitor.pump(0)
        data = self.monitor.stderr.getvalue()
        new = data[self._stderr_seen :]
        self._stderr_seen = len(data)
        return new

    # -- the end ----------------------------------------------------------------------------

    def close(self, grace_s: float = 0.5) -> RunResult:
        """End the session: close the program's input, let it exit for `grace_s` seconds, kill
        what remains. The result has the totals and the captured stderr."""
        if self._closed is not None:
            return self._closed
        monitor = self.monitor
        monitor.close_stdin()
        if self.frozen:
            self.cgroup.thaw()
            self.frozen = False
        until = time.monotonic() + grace_s
        while not monitor.ended and monitor.stopped is None and time.monotonic() < until:
            monitor.pump(min(POLL_S, until - time.monotonic()))
        killed_at_close = not monitor.ended and monitor.stopped is None
        if killed_at_close:
            monitor.ended_now()
            self.jail.kill_programs()
        monitor.cpu_end = self.cpu_total
        # CPU limits of a session are per move, judged in read_line, not on the total.
        monitor.limits = monitor.limits.but(cpu_s=float("inf"))
        result = monitor.finish()
        if killed_at_close and result.verdict is Verdict.RUNTIME_ERROR and result.signal == 9:
            result.verdict, result.note = Verdict.OK, "still running at the end of the session: killed"
        result.extra["moves"] = self.moves
        self._closed = result
        return result
