"""Hostile programs, each run once in a fresh jail: verdict, and the host unaffected (the
autouse fixture checks that nothing is left running, mounted or in a cgroup)."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import threading
from pathlib import Path

import pytest

from sandbox.conf import SandboxSettings
from sandbox.jail import Jail
from sandbox.limits import Limits
from sandbox.result import Verdict

from .conftest import BACKSTOP_WALL_S, LOADED_HOST_S, Builder

PROJECT = Path(__file__).resolve().parents[2]


def test_fork_bomb_is_contained(programs: Builder) -> None:
    result = programs.run("fork_bomb.c", Limits(cpu_s=1, wall_s=3, pids=32))
    assert result.verdict in (Verdict.TIME_LIMIT, Verdict.WALL_LIMIT)
    assert "process limit of 32 reached" in result.note


def test_thread_bomb_is_contained(programs: Builder) -> None:
    result = programs.run("thread_bomb.c", Limits(cpu_s=1, wall_s=BACKSTOP_WALL_S, pids=32))
    assert result.verdict is Verdict.TIME_LIMIT
    assert "process limit" in result.note
    assert result.cpu_s < 1.1


@pytest.mark.parametrize("name", ["memory_bomb.c", "memory_bomb.py", "MemoryBomb.java"])
def test_memory_bomb(programs: Builder, name: str) -> None:
    result = programs.run(name, Limits(cpu_s=5, wall_s=BACKSTOP_WALL_S, memory_mb=128))
    assert result.verdict is Verdict.MEMORY_LIMIT, result
    assert result.peak_memory_mb <= 128.5


def test_cpu_limit_is_accurate(programs: Builder) -> None:
    result = programs.run("spin.c", Limits(cpu_s=1, wall_s=BACKSTOP_WALL_S))
    assert result.verdict is Verdict.TIME_LIMIT
    assert 1.00 <= result.cpu_s <= 1.05
    assert result.signal == 9


def test_cpu_of_two_processes_is_summed(programs: Builder) -> None:
    result = programs.run("spin_two.c", Limits(cpu_s=1, wall_s=BACKSTOP_WALL_S))
    assert result.verdict is Verdict.TIME_LIMIT
    assert 1.00 <= result.cpu_s <= 1.05
    # Each process reported its own CPU as it went: each had well under the limit, together
    # they had it all (a load on the host changes how long that took, not this).
    last = {}
    for line in result.stdout_text.splitlines():
        who, seconds = line.split()
        last[who] = float(seconds)
    assert set(last) == {"a", "b"}
    assert all(seconds < 0.95 for seconds in last.values()), last
    assert sum(last.values()) > 0.9, last


@pytest.mark.parametrize("name", ["sleep_forever.c", "stop_self.c"])
def test_wall_limit(programs: Builder, name: str) -> None:
    result = programs.run(name, Limits(cpu_s=1, wall_s=0.5))
    assert result.verdict is Verdict.WALL_LIMIT
    # Stopped, and no earlier than its limit: load cannot break that. How much later is up to
    # the host's load, so that side is only bounded generously.
    assert 0.5 <= result.wall_s < 0.5 + LOADED_HOST_S
    assert result.cpu_s < 0.1


def test_endless_stdout_is_cut(programs: Builder) -> None:
    result = programs.run("endless_stdout.c", Limits(cpu_s=5, stdout_bytes=1 << 20))
    assert result.verdict is Verdict.OUTPUT_LIMIT
    assert result.stdout_truncated
    assert len(result.stdout) == 1 << 20
    assert result.cpu_s < 2


def test_gigabyte_line_is_cut(programs: Builder) -> None:
    result = programs.run("long_line.c", Limits(cpu_s=5, line_bytes=64 << 10))
    assert result.verdict is Verdict.OUTPUT_LIMIT
    assert result.stdout_truncated
    assert len(result.stdout) == 64 << 10


def test_binary_garbage_is_kept_exactly(programs: Builder) -> None:
    result = programs.run("garbage.c", Limits(cpu_s=2, line_bytes=1 << 20))
    assert result.verdict is Verdict.OK
    assert result.stdout == bytes(range(256)) * 4096
    json.loads(result.to_json())  # still one valid JSON object


def test_two_gigabyte_file_stops_at_file_size_limit(programs: Builder) -> None:
    result = programs.run("big_file.c", Limits(cpu_s=5, file_size_mb=16, work_mb=64))
    assert result.verdict is Verdict.RUNTIME_ERROR
    assert result.signal == 25  # SIGXFSZ


def test_filling_tmp_and_work_folder_hits_their_caps(programs: Builder) -> None:
    result = programs.run("fill_disk.sh", Limits(cpu_s=10, wall_s=20, tmp_mb=16, work_mb=24, memory_mb=256))
    assert result.verdict is Verdict.OK, result
    filled = dict(line.split() for line in result.stdout_text.splitlines())
    assert int(filled["/tmp"]) <= 16
    assert int(filled["/work"]) <= 24


def test_cannot_write_outside_the_work_folder(programs: Builder, tmp_path: Path) -> None:
    marker = f"arbiter-escape-{os.getpid()}"
    result = programs.run("write_outside.sh", Limits(cpu_s=2), args=[marker, str(PROJECT)])
    assert result.verdict is Verdict.OK
    assert result.stdout_text.splitlines() == [f"wrote /tmp/{marker}", "done"]  # its private /tmp only
    assert not Path("/tmp", marker).exists()
    assert not (PROJECT / "evil").exists()
    assert not Path("/evil").exists()


def test_no_secret_is_visible(programs: Builder, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARBITER_TEST_SECRET", "hunter2-secret")
    wanted = [str(PROJECT / "arbiter" / "settings.py"), str(PROJECT / "var" / "arbiter.sqlite3"), str(PROJECT / ".env")]
    result = programs.run("read_secrets.py", Limits(cpu_s=2), args=wanted)
    assert result.verdict is Verdict.OK
    assert "found []" in result.stdout_text
    assert "hunter2" not in result.stdout_text
    assert "ARBITER" not in result.stdout_text and "DJANGO" not in result.stdout_text


def test_no_network_but_nothing_reaches_the_host(programs: Builder) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    server.settimeout(0.05)
    port = server.getsockname()[1]
    accepted: list[object] = []
    ran = threading.Event()

    def accept() -> None:  # for as long as the program runs, however long that takes
        while not ran.is_set():
            with contextlib.suppress(OSError):
                accepted.append(server.accept())

    waiter = threading.Thread(target=accept)
    waiter.start()
    try:
        limits = Limits(cpu_s=2, wall_s=BACKSTOP_WALL_S)
        result = programs.run("network.py", limits, args=[str(port), "6379", "5432", "8000"])
    finally:
        ran.set()
        waiter.join()
    server.close()
    assert result.verdict is Verdict.OK
    assert "CONNECTED" not in result.stdout_text and "SOCKET" not in result.stdout_text
    assert f"127.0.0.1:{port} Connection refused" in result.stdout_text
    assert "192.0.2.1:80 Network is unreachable" in result.stdout_text
    assert accepted == []


def test_kills_reach_nothing_outside(programs: Builder) -> None:
    # The host's pids, to try inside: but not 1, the jail's init, whose kill the kernel accepts
    # and ignores (a pytest started in the background has init for its parent: "alive 1").
    host = [pid for pid in (os.getpid(), os.getppid()) if pid > 1]
    result = programs.run("kill_tricks.c", Limits(cpu_s=2), args=[str(pid) for pid in host])
    assert result.verdict is Verdict.OK
    assert result.stdout_text.strip() == "alive 0"


def test_ptrace_and_process_vm_readv_are_denied(programs: Builder) -> None:
    result = programs.run("ptrace.c", Limits(cpu_s=2))
    assert result.verdict is Verdict.OK
    lines = result.stdout_text.splitlines()
    assert lines == [
        "ptrace -1 Operation not permitted",
        "traceme -1 Operation not permitted",
        "process_vm_readv -1 Operation not permitted",
    ]


def test_no_privileges_to_gain(programs: Builder, sandbox_settings: SandboxSettings) -> None:
    result = programs.run("privileges.py", Limits(cpu_s=5, wall_s=10))
    assert result.verdict is Verdict.OK
    out = result.stdout_text
    uid = int(out.split()[1])
    assert uid in sandbox_settings.uids()  # a uid leased from the pool
    for line in ("unshare -1 -1", "mount -1", "setuid -1", "chroot -1"):
        assert line in out
    for tool in ("su", "mount", "unshare", "newgrp"):
        line = next(x for x in out.splitlines() if x.startswith(tool + " ") and "-1" not in x)
        assert " 0 " not in line + " " or tool == "newgrp", line
    assert "su 0 0" not in out


def test_proc_shows_only_the_jail(programs: Builder) -> None:
    result = programs.run("proc_snoop.py", Limits(cpu_s=2))
    assert result.verdict is Verdict.OK
    out = result.stdout_text
    pids = json.loads(out.splitlines()[0].split(" ", 1)[1])
    assert pids[0] == 1 and len(pids) <= 2  # the runner and this program
    assert "READ" not in out
    assert "/proc/1/environ Permission denied" in out
    assert "/proc/1/fd Permission denied" in out
    cmdline = out.splitlines()[1]
    assert str(PROJECT) not in cmdline and "/tmp/" not in cmdline


def test_daemon_dies_with_the_run(programs: Builder, sandbox_settings: object) -> None:
    result = programs.run("daemon.c", Limits(cpu_s=2))
    assert result.verdict is Verdict.OK
    assert result.stdout_text == "parent done\n"
    # The autouse fixture checks no process of the slot uid is left on the host.


def test_program_that_closes_stdout_and_spins(programs: Builder) -> None:
    result = programs.run("close_stdout_spin.c", Limits(cpu_s=0.5, wall_s=BACKSTOP_WALL_S))
    assert result.verdict is Verdict.TIME_LIMIT
    assert 0.5 <= result.cpu_s <= 0.55


def test_seccomp_arguments_cannot_be_dodged_with_upper_bits(programs: Builder) -> None:
    # The kernel reads socket()'s domain and ioctl()'s request as 32-bit: AF_VSOCK (not
    # namespaced: the hypervisor host) must stay denied with garbage in the upper half.
    result = programs.run("syscall_tricks.c", Limits(cpu_s=2))
    assert result.stdout_text.splitlines() == [
        "vsock -1 Operation not permitted",
        "vsock_high_bits -1 Operation not permitted",
        "tiocsti_high_bits -1 Operation not permitted",
        "clone_newuser -1 Operation not permitted",
        "clone_newnet_high_bits -1 Operation not permitted",
    ]
    assert result.verdict is Verdict.RUNTIME_ERROR and result.signal == 31  # x32 syscall: SIGSYS


def test_program_gets_no_descriptor_but_its_own_stdio(sandbox_settings: SandboxSettings) -> None:
    # The runner's copies of the pipes (and anything else it holds) must not be inherited.
    code = "import os; print(sorted(int(fd) for fd in os.listdir('/proc/self/fd')))"
    with Jail(Limits(cpu_s=2), settings=sandbox_settings) as jail:
        for _ in range(2):
            result = jail.run(["python3", "-I", "-S", "-c", code])
            assert result.stdout_text.strip() == "[0, 1, 2, 3]"  # 3: the folder being listed
