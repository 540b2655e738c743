"""Referee use: a live session with a line protocol, and a match-long jail with a fresh
process per move. Hostile acts happen in the middle of a game."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from sandbox.cgroups import Cgroup
from sandbox.conf import SandboxSettings
from sandbox.errors import Interrupted, PlatformStall
from sandbox.interactive import Session
from sandbox.interrupt import clear_stop, request_stop
from sandbox.jail import Endpoint, Jail
from sandbox.limits import Limits
from sandbox.monitor import DRAIN_S, STALL_LIMIT_S, Monitor
from sandbox.programs import open_jail
from sandbox.result import Verdict

from .conftest import BACKSTOP_WALL_S, LOADED_HOST_S, Builder

LIMITS = Limits(cpu_s=1, wall_s=30, memory_mb=128, pids=32, stdout_bytes=1 << 20, line_bytes=64 << 10)


def start_hostile(programs: Builder, sandbox_settings: SandboxSettings) -> tuple[Jail, Session]:
    program = programs.build("interactive_hostile.py")
    jail = open_jail(program, LIMITS, settings=sandbox_settings)
    return jail, jail.start_session(program.argv(LIMITS))


def test_line_protocol_and_cpu_per_move(programs: Builder, sandbox_settings: SandboxSettings) -> None:
    program = programs.build("echo_lines.c")
    with open_jail(program, LIMITS, settings=sandbox_settings) as jail:
        session = jail.start_session(program.argv(LIMITS))
        for n in range(50):
            assert session.send_line(f"move {n}")
            reply = session.read_line(wall_s=BACKSTOP_WALL_S)  # a reply comes at once, loaded host or not
            assert (reply.line, reply.verdict) == (f"echo move {n}", Verdict.OK)
            assert reply.cpu_s < 0.01
        assert session.send_line("quit")
        result = session.close()
        assert result.verdict is Verdict.OK and result.exit_code == 0
        assert result.extra["moves"] == 50


@pytest.mark.parametrize(
    ("command", "verdict"),
    [
        ("spin", Verdict.TIME_LIMIT),
        ("memory", Verdict.MEMORY_LIMIT),
        ("forkbomb", Verdict.TIME_LIMIT),
        ("flood", Verdict.OUTPUT_LIMIT),
        ("sleep", Verdict.WALL_LIMIT),
        ("closeout", Verdict.TIME_LIMIT),
    ],
)
def test_hostile_move_in_a_session(
    programs: Builder, sandbox_settings: SandboxSettings, command: str, verdict: Verdict
) -> None:
    jail, session = start_hostile(programs, sandbox_settings)
    with jail:
        session.send_line("ping")
        assert session.read_line(wall_s=5).line == "pong"
        session.send_line(command)
        # Only the limit under test may stop the move: a move that computes gets a backstop of a
        # wall limit, which a loaded host cannot make it reach before its CPU limit.
        wall_s = 1.5 if verdict is Verdict.WALL_LIMIT else BACKSTOP_WALL_S
        reply = session.read_line(wall_s=wall_s, cpu_s=0.5)
        assert reply.line is None
        assert reply.verdict is verdict, reply
        if verdict is Verdict.TIME_LIMIT:
            assert 0.5 <= reply.cpu_s <= 0.55
        if verdict is Verdict.WALL_LIMIT:  # no earlier than the limit; later only as far as load may make it
            assert 1.5 <= reply.wall_s < 1.5 + LOADED_HOST_S, reply
        assert not session.alive
        session.close()
        assert jail.cgroup is not None and jail.cgroup.pids() == jail._spare  # only bwrap and the runner


def test_frozen_between_turns(programs: Builder, sandbox_settings: SandboxSettings) -> None:
    jail, session = start_hostile(programs, sandbox_settings)
    with jail:
        session.send_line("background")
        assert session.read_line(wall_s=5).line == "thinking in the background"
        assert jail.cgroup is not None
        before = jail.cgroup.cpu_ns()
        # The opponent's turn: 0.2 s of this process's CPU (work, not a time: on a loaded host
        # a program left thawed would get its share of the cores meanwhile, all the same).
        spun = time.process_time()
        while time.process_time() - spun < 0.2:
            pass
        assert jail.cgroup.cpu_ns() - before < 1_000_000
        session.send_line("ping")
        reply = session.read_line(wall_s=5)
        assert reply.line == "pong"
        assert reply.cpu_s < 0.2  # the background thread ran only during this short turn
        session.close()


def test_kill_all_in_a_session_spares_the_jail(programs: Builder, sandbox_settings: SandboxSettings) -> None:
    jail, session = start_hostile(programs, sandbox_settings)
    with jail:
        session.send_line("killall")
        assert session.read_line(wall_s=5).line == "still here"
        session.send_line("daemon")
        assert session.read_line(wall_s=5).line == "daemon started"
        session.close()
        assert jail.cgroup is not None and jail.cgroup.pids() == jail._spare  # the daemon went with it
        assert jail.work is not None
        jail.work.write_file("session-closed", b"")  # the daemon's cue: had it survived, it writes now
        time.sleep(0.5)
        with pytest.raises(FileNotFoundError):
            jail.work.read_file("leaked.txt")
        again = jail.run(["sh", "-c", "echo next"], limits=LIMITS)  # the jail still serves
        assert again.stdout == b"next\n"


def test_match_long_jail_process_per_move(programs: Builder, sandbox_settings: SandboxSettings) -> None:
    kill_tricks = programs.build("kill_tricks.c")
    daemon = programs.build("daemon.c")
    with open_jail(kill_tricks, LIMITS, settings=sandbox_settings) as jail:
        assert jail.work is not None
        jail.work.write_file("daemon", (daemon.files / "prog").read_bytes(), 0o755)
        assert jail.cgroup is not None and jail._bwrap is not None
        bwrap, spare = jail._bwrap.pid, set(jail._spare)
        costs, cpu_costs = [], []
        for move in range(20):
            start, cpu = time.perf_counter(), _referee_and_jail_cpu(jail)
            result = jail.run(
                ["sh", "-c", f"mkdir -p support && echo {move} >> support/memory && wc -l < support/memory"]
            )
            costs.append(time.perf_counter() - start)
            cpu_costs.append(_referee_and_jail_cpu(jail) - cpu)
            assert result.verdict is Verdict.OK
            assert result.stdout_text.strip() == str(move + 1)  # files persist between moves
        # One jail for the match: the same bubblewrap and runner served every move...
        assert (jail._bwrap.pid, jail._spare) == (bwrap, spare)
        # ...and a move is cheap: its CPU, the referee's and the jail's, is a few ms (so is its
        # wall time on an idle host; a loaded one stretches that, so it is bounded only against a
        # move that waited for something, as long as DRAIN_S, in vain).
        assert sorted(cpu_costs)[10] < 0.05, cpu_costs
        assert sorted(costs)[10] < DRAIN_S / 2, costs
        assert jail.run(["./prog"]).stdout_text.strip() == "alive 0"
        assert jail.run(["./daemon"]).stdout_text == "parent done\n"
        assert jail.cgroup.pids() == jail._spare  # the daemon did not survive its move...
        time.sleep(1.3)  # ...so it does not write now, as it would have
        with pytest.raises(FileNotFoundError):
            jail.work.read_file("leaked.txt")
        spin = jail.run(["sh", "-c", "while :; do :; done"], limits=LIMITS.but(cpu_s=0.3))
        assert spin.verdict is Verdict.TIME_LIMIT and 0.3 <= spin.cpu_s <= 0.35
        after = jail.run(["sh", "-c", "echo fine"])
        assert after.verdict is Verdict.OK and after.stdout == b"fine\n"


def test_links_left_for_the_referee_are_not_followed(programs: Builder, sandbox_settings: SandboxSettings) -> None:
    program = programs.build("link_tricks.sh")
    with open_jail(program, LIMITS, settings=sandbox_settings) as jail:
        result = jail.run(program.argv(LIMITS))
        assert result.verdict is Verdict.OK
        assert "hard link refused" in result.stdout_text
        assert jail.work is not None
        for name in ("output.txt", "env.txt", "fifo.txt", "sub/up/etc/passwd", "parent/x"):
            with pytest.raises((ValueError, OSError)):
                jail.work.read_file(name)
        with pytest.raises(ValueError):
            jail.work.read_file("../etc/passwd")
        passwd = Path("/etc/passwd").read_bytes()
        jail.work.write_file("output.txt", b"referee's own")  # replaces the link, not its target
        assert jail.work.read_file("output.txt") == b"referee's own"
        assert Path("/etc/passwd").read_bytes() == passwd


def test_one_granted_endpoint(sandbox_settings: SandboxSettings, tmp_path: Path) -> None:
    path = tmp_path / "game.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(1)

    def serve() -> None:
        conn, _ = server.accept()
        conn.sendall(b"hello from the game server\n")
        conn.sendall(b"you said " + conn.recv(100))
        conn.close()

    threading.Thread(target=serve, daemon=True).start()
    client = (
        "import socket\n"
        "s = socket.create_connection(('127.0.0.1', 7777)); f = s.makefile('rb')\n"
        "print(f.readline().decode().strip()); s.sendall(b'move 1\\n'); print(f.readline().decode().strip())\n"
        "for port in (7778, 80):\n"
        "    try:\n        socket.create_connection(('127.0.0.1', port), timeout=1); print('CONNECTED', port)\n"
        "    except OSError as e:\n        print(port, e.strerror)\n"
    )
    with Jail(LIMITS, endpoint=Endpoint(7777, path), settings=sandbox_settings) as jail:
        result = jail.run(["python3", "-I", "-c", client], limits=LIMITS.but(cpu_s=3))
    server.close()
    assert result.verdict is Verdict.OK, result
    assert result.stdout_text.splitlines() == [
        "hello from the game server",
        "you said move 1",
        "7778 Connection refused",
        "80 Connection refused",
    ]


def test_a_program_waiting_for_its_input_is_left_unfrozen(programs: Builder, sandbox_settings: SandboxSettings) -> None:
    # Freezing and thawing would cost more than the rest of a round trip: a program that waits
    # for its next line cannot run anyway. Every bit of its CPU is still some move's.
    program = programs.build("echo_lines.c")
    with open_jail(program, LIMITS, settings=sandbox_settings) as jail:
        assert jail.cgroup is not None
        before = jail.cgroup.cpu_ns()
        session = jail.start_session(program.argv(LIMITS))
        charged = 0.0
        for n in range(20):
            assert session.send_line(f"move {n}")
            reply = session.read_line(wall_s=BACKSTOP_WALL_S)
            assert reply.line == f"echo move {n}"
            assert not session.frozen and not session.freeze_always
            charged += reply.cpu_s
        assert session.cpu_total == pytest.approx(charged)
        assert session.off_turn_s == 0.0
        # The runner's part of the jail's count is the few messages of the start.
        assert (jail.cgroup.cpu_ns() - before) / 1e9 - charged < 0.05
        assert session.send_line("quit")
        assert session.close().verdict is Verdict.OK


def test_the_look_at_whether_a_program_runs_follows_its_threads(sandbox_settings: SandboxSettings) -> None:
    code = (
        "import sys, threading\n"
        "stop = threading.Event()\n"
        "def spin():\n"
        "    while not stop.is_set(): pass\n"
        "for line in sys.stdin:\n"
        "    if line == 'thread\\n': threading.Thread(target=spin).start()\n"
        "    if line == 'stop\\n': stop.set()\n"
        "    print('ok', flush=True)\n"
    )

    def settles(cgroup: Cgroup, spare: frozenset[str]) -> bool:
        until = time.monotonic() + BACKSTOP_WALL_S
        while cgroup.busy(spare) and time.monotonic() < until:
            time.sleep(0.01)
        return not cgroup.busy(spare)

    def busy_soon(cgroup: Cgroup, spare: frozenset[str]) -> bool:
        """Busy within the backstop: a thread frozen as it waited for the interpreter's lock
        (the one the answering thread was handing over) is runnable only once it gets it."""
        until = time.monotonic() + BACKSTOP_WALL_S
        while not cgroup.busy(spare) and time.monotonic() < until:
            time.sleep(0.01)
        return cgroup.busy(spare)

    with Jail(LIMITS, settings=sandbox_settings) as jail:
        session = jail.start_session(["python3", "-I", "-S", "-c", code])
        cgroup, spare = session.cgroup, jail.spare_tids
        session.send_line("hello")
        assert session.read_line(wall_s=BACKSTOP_WALL_S).line == "ok"
        assert settles(cgroup, spare)  # it waits for its input (bwrap and the runner are not its)
        assert cgroup._lone is not None  # one thread: the next looks read it alone
        session.send_line("thread")
        assert session.read_line(wall_s=BACKSTOP_WALL_S).line == "ok"
        assert session.frozen  # still busy after its answer
        cgroup.thaw()
        assert busy_soon(cgroup, spare)  # the new thread, though the one it had waits
        assert cgroup._lone is None
        cgroup.freeze()
        session.send_line("stop")
        assert session.read_line(wall_s=BACKSTOP_WALL_S).line == "ok"
        cgroup.thaw()
        assert settles(cgroup, spare)  # the spinning thread ended
        session.close()


OFF_TURN = (
    "import sys, time\n"
    "def spin(s):\n"
    "    t = time.process_time()\n"
    "    while time.process_time() - t < s: pass\n"
    "for n in range(3):\n"
    "    sys.stdin.readline()\n"
    "    print(f'answer {n}', flush=True)\n"
    "    time.sleep(0.2)\n"  # waiting when the referee looks: left unfrozen...
    "    spin(0.3)\n"  # ...then thinking on the opponent's time
)


def test_thinking_off_turn_is_charged_and_frozen_from_then_on(sandbox_settings: SandboxSettings) -> None:
    with Jail(LIMITS, settings=sandbox_settings) as jail:
        assert jail.cgroup is not None
        session = jail.start_session(["python3", "-I", "-S", "-c", OFF_TURN])
        session.send_line("go")
        assert session.read_line(wall_s=BACKSTOP_WALL_S).line == "answer 0"
        assert not session.frozen
        before = jail.cgroup.cpu_ns()
        until = time.monotonic() + BACKSTOP_WALL_S
        while jail.cgroup.cpu_ns() - before < 300_000_000 and time.monotonic() < until:
            time.sleep(0.05)  # the opponent's turn, as long as its thinking takes
        session.send_line("go")
        reply = session.read_line(wall_s=BACKSTOP_WALL_S)
        assert reply.line == "answer 1"
        # What it used off its turn is its next move's, on the CPU and on the wall clock alike.
        assert reply.cpu_s >= 0.3 and reply.wall_s >= 0.3
        assert session.off_turn_s >= 0.3 and session.freeze_always
        assert session.frozen  # from now on, after every answer
        before = jail.cgroup.cpu_ns()
        spun = time.process_time()
        while time.process_time() - spun < 0.4:  # work, not time: a thawed program would get its share
            pass
        assert jail.cgroup.cpu_ns() - before < 1_000_000
        session.send_line("go")
        reply = session.read_line(wall_s=BACKSTOP_WALL_S)
        assert reply.line == "answer 2"
        assert reply.cpu_s >= 0.3  # its thinking, done in its own turn this time
        assert session.cpu_total == pytest.approx(session.close().cpu_s, abs=0.05)


def test_off_turn_thinking_past_the_limit_of_a_move_is_a_time_limit(sandbox_settings: SandboxSettings) -> None:
    with Jail(LIMITS, settings=sandbox_settings) as jail:
        assert jail.cgroup is not None
        # It thinks on the opponent's time and is still thinking when its turn comes.
        session = jail.start_session(["python3", "-I", "-S", "-c", OFF_TURN.replace("spin(0.3)", "spin(5)")])
        session.send_line("go")
        assert session.read_line(wall_s=BACKSTOP_WALL_S).line == "answer 0"
        before = jail.cgroup.cpu_ns()
        until = time.monotonic() + BACKSTOP_WALL_S
        while jail.cgroup.cpu_ns() - before < 300_000_000 and time.monotonic() < until:
            time.sleep(0.05)
        session.send_line("go")
        reply = session.read_line(wall_s=BACKSTOP_WALL_S, cpu_s=0.5)
        assert (reply.line, reply.verdict) == (None, Verdict.TIME_LIMIT)
        assert 0.5 <= reply.cpu_s <= 0.55  # its move's limit, counted from the end of its last turn
        session.close()


def test_a_second_line_of_one_turn_is_not_charged_again(sandbox_settings: SandboxSettings) -> None:
    code = (
        "import sys, time\n"
        "sys.stdin.readline()\n"
        "t = time.process_time()\n"
        "while time.process_time() - t < 0.2: pass\n"
        "print('a'); print('b', flush=True)\n"
        "sys.stdin.readline()\n"
    )
    with Jail(LIMITS, settings=sandbox_settings) as jail:
        session = jail.start_session(["python3", "-I", "-S", "-c", code])
        session.send_line("go")
        first, second = session.read_line(wall_s=BACKSTOP_WALL_S), session.read_line(wall_s=BACKSTOP_WALL_S)
        assert (first.line, second.line) == ("a", "b")
        assert 0.2 <= first.cpu_s < 0.3
        assert second.cpu_s == 0.0  # it was already waiting: no turn ran for it
        assert session.cpu_total == first.cpu_s
        session.close()


def test_a_stop_as_the_program_ends_leaves_the_jail_usable(sandbox_settings: SandboxSettings) -> None:
    # A limit is hit just as the program exits: nothing is left to kill, and the runner, frozen
    # halfway through its reply, must be thawed, or the next move fails as the platform's fault.
    with Jail(LIMITS, settings=sandbox_settings) as jail:
        assert jail.run(["true"]).verdict is Verdict.OK
        Monitor(jail, LIMITS).stop(Verdict.WALL_LIMIT, "the program had just ended")
        started = time.monotonic()
        assert jail.run(["sh", "-c", "echo next"]).stdout == b"next\n"
        # A runner left frozen is waited for until the 30 s wall limit; a loaded host adds far less.
        assert time.monotonic() - started < LOADED_HOST_S


def test_output_over_the_cap_is_always_output_limit(sandbox_settings: SandboxSettings) -> None:
    # The program writes one byte too many and exits at once: whichever the host sees first,
    # the cut output or the end, the verdict is the same and the jail serves the next move.
    limits = LIMITS.but(stdout_bytes=1000)
    with Jail(limits, settings=sandbox_settings) as jail:
        for _ in range(60):
            result = jail.run(["sh", "-c", "head -c 1001 /dev/zero"])
            assert (result.verdict, result.stdout_truncated) == (Verdict.OUTPUT_LIMIT, True), result
            assert result.wall_s < LOADED_HOST_S  # seen at once, not waited out to the 30 s wall limit


PAUSER = (
    "import os, signal, sys, time\n"
    "pid, after, pause = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])\n"
    "time.sleep(after)\n"
    "stopped = time.monotonic()\n"
    "os.kill(pid, signal.SIGSTOP)\n"
    "time.sleep(pause)\n"
    "os.kill(pid, signal.SIGCONT)\n"
    "print(time.monotonic() - stopped)\n"
)


class Pause:
    """Stop this process (the referee) with SIGSTOP after ``after_s`` seconds for ``for_s``
    seconds, as a paused or starved worker is stopped; the programs in its jails run on.
    ``end()`` says for how long at most it was held stopped (``for_s`` or, on a loaded host,
    more) and how long this thread waited for a CPU meanwhile, as the scheduler counts it."""

    def __init__(self, after_s: float, for_s: float) -> None:
        self.for_s = for_s
        self.queued = _run_queue_s()
        self.ended: tuple[float, float] | None = None
        argv = [sys.executable, "-I", "-S", "-c", PAUSER, str(os.getpid()), str(after_s), str(for_s)]
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)

    def end(self) -> tuple[float, float]:
        """Wait for the pauser (once): how long it held this process, how long this thread waited."""
        if self.ended is None:
            out, _ = self.process.communicate()
            queued = _run_queue_s()
            waited = LOADED_HOST_S if queued is None or self.queued is None else queued - self.queued
            self.ended = float(out), waited
        return self.ended


def _run_queue_s() -> float | None:
    """How long this thread has waited, runnable, for a CPU (schedstat): what a loaded host adds
    to its wall time besides its own sleeps. None where the kernel does not count it."""
    try:
        with open("/proc/thread-self/schedstat") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


SLOW_ANSWER = (
    "import sys, time\nsys.stdin.readline()\ntime.sleep({})\nprint('answer', flush=True)\nsys.stdin.readline()\n"
)


def _assert_stall_left_out(wall_s: float, stalled_s: float, pause: Pause) -> None:
    """A program took 1.7 s of a move with a wall limit of 1.5 s, while ``pause`` stopped this
    process for 1 s. Bounds a loaded host cannot break: it lengthens the pause and this
    thread's wait for a CPU after it, both measured, and the bounds with them."""
    held, waited = pause.end()
    # the stall is the pause, and only it (a look at the clock every few ms besides)
    assert pause.for_s - 0.05 <= stalled_s <= held + waited + 0.05, (stalled_s, held, waited)
    assert wall_s + stalled_s >= 1.7, (wall_s, stalled_s)  # the move lasted the program's 1.7 s...
    assert wall_s < 1.5, wall_s  # ...of which the stall was left out, so it is within its limit


def test_a_short_stall_of_the_platform_is_not_the_programs_time(sandbox_settings: SandboxSettings) -> None:
    # The referee is stopped for 1 s while the program thinks for 1.7 s of a 1.5 s move: the
    # stall moves the deadline and is left out of the program's wall time.
    with Jail(LIMITS, settings=sandbox_settings) as jail:
        session = jail.start_session(["python3", "-I", "-S", "-c", SLOW_ANSWER.format(1.7)])
        session.send_line("go")
        pause = Pause(0.3, 1.0)
        reply = session.read_line(wall_s=1.5)
        pause.end()
        assert (reply.line, reply.verdict) == ("answer", Verdict.OK), reply
        _assert_stall_left_out(reply.wall_s, reply.stalled_s, pause)
        session.send_line("quit")
        assert session.close().stalled_s == reply.stalled_s


def test_a_long_stall_of_the_platform_cannot_be_judged(sandbox_settings: SandboxSettings) -> None:
    with Jail(LIMITS, settings=sandbox_settings) as jail:
        session = jail.start_session(["python3", "-I", "-S", "-c", SLOW_ANSWER.format(1.0)])
        session.send_line("go")
        pause = Pause(0.3, STALL_LIMIT_S + 0.5)
        with pytest.raises(PlatformStall, match=r"the platform stalled for \d+\.\d s") as stalled:
            session.read_line(wall_s=5)
        held, waited = pause.end()
        # the pause, as long as it held this process (0.05 s more either way: the message's rounding)
        seconds = float(str(stalled.value).split("stalled for ")[1].split()[0])
        assert pause.for_s - 0.1 <= seconds <= held + waited + 0.1, (stalled.value, held, waited)
        assert not session.alive  # given up, never a verdict of the program
        session.close()
        assert jail.cgroup is not None and jail.cgroup.pids() == jail._spare


def test_a_stall_during_a_run_is_not_the_programs_time(sandbox_settings: SandboxSettings) -> None:
    with Jail(LIMITS, settings=sandbox_settings) as jail:
        pause = Pause(0.3, 1.0)
        result = jail.run(["sleep", "1.7"], limits=LIMITS.but(wall_s=1.5))
        pause.end()
        assert result.verdict is Verdict.OK, result
        _assert_stall_left_out(result.wall_s, result.stalled_s, pause)
        pause = Pause(0.3, STALL_LIMIT_S + 0.5)
        with pytest.raises(PlatformStall):
            jail.run(["sleep", "5"], limits=LIMITS.but(wall_s=10))
        pause.end()
        assert jail.run(["sh", "-c", "echo next"]).stdout == b"next\n"  # the jail still serves


def test_stderr_written_after_the_answer_belongs_to_its_move(sandbox_settings: SandboxSettings) -> None:
    code = (
        "import sys, time\n"
        "for n in range(3):\n"
        "    sys.stdin.readline()\n"
        "    print(f'answer {n}', flush=True)\n"
        "    t = time.process_time()\n"
        "    while time.process_time() - t < 0.003: pass\n"
        "    print(f'after answer {n}', file=sys.stderr, flush=True)\n"
    )
    with Jail(LIMITS, settings=sandbox_settings) as jail:
        session = jail.start_session(["python3", "-I", "-S", "-c", code])
        for n in range(3):
            session.send_line("go")
            assert session.read_line(wall_s=5).line == f"answer {n}"
            assert session.take_stderr() == f"after answer {n}\n".encode()
        session.close()


def test_a_requested_stop_ends_a_wait_for_a_program(sandbox_settings: SandboxSettings) -> None:
    with Jail(LIMITS, settings=sandbox_settings) as jail:
        session = jail.start_session(["sleep", "100"])
        session.send_line("go")
        started = time.monotonic()
        timer = threading.Timer(0.3, request_stop)
        timer.start()
        try:
            with pytest.raises(Interrupted):
                session.read_line(wall_s=30)
        finally:
            clear_stop()
        # when asked, and at once: not at the read's 30 s limit (a loaded host adds far less)
        assert 0.3 <= time.monotonic() - started < 0.3 + LOADED_HOST_S
        session.close()
        assert jail.cgroup is not None and jail.cgroup.pids() == jail._spare


def _referee_and_jail_cpu(jail: Jail) -> float:
    """CPU seconds used so far by this process (the referee) and by everything in the jail."""
    assert jail.cgroup is not None
    return time.process_time() + jail.cgroup.cpu_ns() / 1e9


def test_a_runner_gone_before_bubblewrap_is_reaped_is_replaced_not_a_fault(
    programs: Builder, sandbox_settings: SandboxSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by a second engineer: a runner that had died (a program can end its jail) while
    bubblewrap was not yet reaped looked alive, and the next move's request failed as "cannot
    reach the jail's runner", a platform fault. It is replaced and the move runs."""
    import select
    import signal

    program = programs.build("daemon.c")
    with open_jail(program, LIMITS, settings=sandbox_settings) as jail:
        assert jail.run(["sh", "-c", "echo before"]).stdout == b"before\n"
        assert jail._bwrap is not None and jail._control is not None
        for pid in set(jail._spare) - {jail._bwrap.pid}:  # the runner (and bubblewrap's child)
            os.kill(pid, signal.SIGKILL)
        assert select.select([jail._control], [], [], BACKSTOP_WALL_S)[0]  # its end of the socket closed
        monkeypatch.setattr(jail._bwrap, "poll", lambda: None)  # bubblewrap not yet reaped: the race
        after = jail.run(["sh", "-c", "echo after"])
        assert after.verdict is Verdict.OK and after.stdout == b"after\n"
        assert jail.run(["sh", "-c", "echo again"]).stdout == b"again\n"
