"""The pieces: capture, results, the seccomp program, the self-check, the command."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox.capture import Capture
from sandbox.cli import judge_file
from sandbox.conf import SandboxSettings
from sandbox.errors import SandboxUnavailable
from sandbox.jail import Jail
from sandbox.limits import Limits
from sandbox.result import RunResult, Verdict
from sandbox.seccomp import compiled_filter
from sandbox.selfcheck import FULL, require_isolation, run_selfcheck
from sandbox.text import printable

from .conftest import BACKSTOP_WALL_S, PROGRAMS

PROJECT = Path(__file__).resolve().parents[2]


def test_capture_cuts_long_lines_and_total() -> None:
    c = Capture(max_bytes=20, max_line=5)
    c.feed(b"abc\nabcdefgh\nxy")
    c.feed(b"z\n")
    assert c.getvalue() == b"abc\nabcde\nxyz\n"
    assert c.truncated
    assert c.take_line() == b"abc"
    c.feed(b"0123\n" * 10)
    assert len(c.getvalue()) == 20


def test_capture_keeps_short_output_whole() -> None:
    c = Capture(max_bytes=100, max_line=10)
    c.feed(b"12345")
    c.feed(b"67890\n")
    assert (c.getvalue(), c.truncated) == (b"1234567890\n", False)


def test_a_program_s_bytes_and_names_become_text_that_prints() -> None:
    name = os.fsdecode(b"bad\xff\nname")  # as os.scandir names it
    assert printable(name) == "bad\\xff\\nname"
    assert printable(b"ok \xc3\xa9\x00\x1b[2J\r\n\tend\xed\xa0\x80", lines=True) == (
        "ok é\\x00\\x1b[2J\r\n\tend\\xed\\xa0\\x80"  # UTF-8 kept; NUL, escapes, a surrogate's bytes quoted
    )
    assert printable("\u202eevil\u2028") == "\\u202eevil\\u2028"
    assert printable(printable(name)) == printable(name)  # text already safe stays as it is


def test_result_json_has_the_documented_fields() -> None:
    result = RunResult(Verdict.TIME_LIMIT, signal=9, cpu_s=1.0123456, stdout=b"\xff\x00ok")
    data = json.loads(result.to_json())
    for field in (
        "verdict",
        "exit_code",
        "signal",
        "cpu_s",
        "wall_s",
        "peak_memory_mb",
        "stdout",
        "stderr",
        "stdout_truncated",
        "stderr_truncated",
    ):
        assert field in data
    assert data["verdict"] == "time_limit" and data["cpu_s"] == 1.0123


def test_seccomp_program_denies_and_kills_other_architectures() -> None:
    bpf = compiled_filter()
    insns = [struct.unpack("HBBI", bpf[i : i + 8]) for i in range(0, len(bpf), 8)]
    constants = {k for _, _, _, k in insns}
    assert 0xC000003E in constants  # AUDIT_ARCH_X86_64 checked
    assert 0x40000000 in constants  # x32 syscall numbers checked
    assert 0x80000000 in constants  # SECCOMP_RET_KILL_PROCESS for a foreign architecture
    for nr in (
        101,
        310,
        311,
        250,
        321,
        298,
        323,
        425,
        165,
        272,
    ):  # ptrace, process_vm_*, keyctl, bpf, perf, uffd, io_uring, mount, unshare
        assert nr in constants
    assert 0x00050001 in constants  # SECCOMP_RET_ERRNO | EPERM


def test_selfcheck_reports_full_isolation_here(sandbox_settings: SandboxSettings) -> None:
    report = run_selfcheck(sandbox_settings)
    assert report.level == FULL, report.failed
    assert {"unprivileged", "no network", "seccomp", "cpu limit", "memory limit", "kill all"} <= set(report.passed)
    assert require_isolation(sandbox_settings).level == FULL


def test_no_jail_means_no_untrusted_code(tmp_path: Path) -> None:
    # No cgroup can be made under a parent that does not exist: the jail cannot start.
    broken = SandboxSettings(root=tmp_path / "root", cache_dir=tmp_path / "cache", cgroup_parent="no/such/parent")
    report = run_selfcheck(broken)
    assert report.level == "none"
    with pytest.raises(SandboxUnavailable):
        require_isolation(broken)
    with pytest.raises(SandboxUnavailable):
        require_isolation(SandboxSettings(**{**broken.__dict__, "allow_degraded": True}))


def test_judge_file_reports_json_ready_fields(sandbox_settings: SandboxSettings) -> None:
    limits = Limits(cpu_s=0.2, wall_s=BACKSTOP_WALL_S)  # stopped by its CPU limit, on a loaded host too
    report = judge_file(PROGRAMS / "spin.c", limits=limits, settings=sandbox_settings)
    assert report["stage"] == "run" and report["verdict"] == "time_limit" and report["language"] == "c"
    json.dumps(report)
    failed = judge_file(PROGRAMS / "dev_random.c", limits=Limits(cpu_s=0.2), settings=sandbox_settings)
    assert failed["stage"] == "build" and failed["verdict"] != "ok"


@pytest.mark.skipif(not (PROJECT / "manage.py").exists(), reason="the project's manage.py is not there yet")
def test_run_program_command(tmp_path: Path) -> None:
    stdin = tmp_path / "in.txt"
    stdin.write_text("20 22\n")
    source = tmp_path / "sum.py"
    source.write_text("import sys\na, b = map(int, input().split())\nprint(a + b, sys.argv[1:])\n")
    env = dict(os.environ)
    done = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "run_program",
            str(source),
            "--cpu",
            "2",
            "--mem",
            "128",
            "--stdin",
            str(stdin),
            "--",
            "x",
            "y",
        ],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["verdict"] == "ok"
    assert report["stdout"] == "42 ['x', 'y']\n"
    spin = subprocess.run(
        [sys.executable, "manage.py", "run_program", str(PROGRAMS / "spin.c"), "--cpu", "0.3", "--wall", "30"],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert spin.returncode == 0 and json.loads(spin.stdout)["verdict"] == "time_limit"


def test_a_sandbox_root_made_by_another_user_is_refused(sandbox_settings: SandboxSettings, tmp_path: Path) -> None:
    # Under the shared /tmp, another local user could make the folder first and then swap a
    # work folder for a link to a host folder before bwrap binds it writable into the jail.
    root = tmp_path / "root"
    root.mkdir()
    os.chown(root, 65534, 65534)
    settings = SandboxSettings(**{**sandbox_settings.__dict__, "root": root})
    with pytest.raises(SandboxUnavailable):
        Jail(Limits(), settings=settings, _trusted_check=True).start()
    assert list(root.iterdir()) == []  # nothing made in it: no slot locks, no work folder
