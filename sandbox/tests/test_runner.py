"""The jail's native runner and launcher (sandbox/runner.c, built by sandbox/native.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sandbox import native
from sandbox.conf import SandboxSettings
from sandbox.errors import SandboxError, SandboxUnavailable
from sandbox.jail import Jail
from sandbox.limits import Limits
from sandbox.result import Verdict

from .conftest import BACKSTOP_WALL_S, LOADED_HOST_S, Builder


def test_the_cpu_recorded_is_the_programs_and_its_childrens_not_the_runners(programs: Builder) -> None:
    result = programs.run("orphan_spins.c", Limits(cpu_s=2, wall_s=BACKSTOP_WALL_S))
    assert result.verdict is Verdict.OK, result
    assert 0.29 <= result.cpu_s <= 0.4  # the orphan's CPU, reaped by the runner, counted
    trivial = programs.run("echo_lines.c", Limits(cpu_s=1))  # reads nothing: ends at once
    assert trivial.cpu_s < 0.01


def test_a_child_nobody_waits_for_still_counts(programs: Builder) -> None:
    # its SIGCHLD ignored: no wait reports it
    result = programs.run("sigchld_ignored.c", Limits(cpu_s=2, wall_s=BACKSTOP_WALL_S))
    assert result.verdict is Verdict.OK, result
    assert 0.29 <= result.cpu_s <= 0.4


def test_emptying_a_full_tmp_is_charged_to_nobody_and_leaves_nothing(sandbox_settings: SandboxSettings) -> None:
    # Thousands of files, a chain of folders deeper than the runner walks, a folder locked
    # against its own owner and a name that is not UTF-8: all gone before the next program.
    mess = (
        "cd /tmp && mkdir many && (cd many && seq 4000 | xargs touch);"
        " d=/tmp; for i in $(seq 60); do d=$d/deep; done; mkdir -p $d; chmod 0 /tmp/deep/deep;"
        " mkdir locked && : > locked/x && chmod 0 locked; : > \"$(printf 'bad\\377name')\""
    )
    with Jail(Limits(cpu_s=5, wall_s=20), settings=sandbox_settings) as jail:
        result = jail.run(["sh", "-c", mess], fresh_tmp=True)
        assert result.verdict is Verdict.OK, result
        # what it found, named as os names it (a byte that is not UTF-8 kept as a lone surrogate)
        bad = os.fsdecode(b"/tmp/bad\xffname")
        assert result.extra["tmp_left"] == ([bad, "/tmp/deep", "/tmp/locked", "/tmp/many"], 4)
        assert result.cpu_s < 2.0  # the wipe is the runner's, after the program's end
        after = jail.run(["sh", "-c", "ls -A /tmp | wc -l"], fresh_tmp=True)
        assert after.stdout_text == "0\n" and after.extra["tmp_left"] == ([], 0)


def test_nothing_in_tmp_outlives_the_wipe_however_it_is_hidden(sandbox_settings: SandboxSettings) -> None:
    # the folder that is moved up from deep down locked against its owner, a name of the
    # runner's own taken first, and /tmp's own mode, times and attributes as a message
    hide = (
        "d=/tmp; for i in $(seq 30); do d=$d/deep; done; mkdir -p $d && echo secret > $d/s;"
        " chmod 555 /tmp$(for i in $(seq 24); do printf /deep; done); mkdir /tmp/.arbiter-deep-0;"
        " python3 -c \"import os; os.setxattr('/tmp', 'user.k', b'secret')\" 2>/dev/null;"
        " touch -d 2001-01-01 /tmp; chmod 700 /tmp"
    )
    look = "ls -A /tmp | wc -l; stat -c '%a %Y' /tmp; python3 -c \"import os; print(os.listxattr('/tmp'))\""
    with Jail(Limits(cpu_s=5, wall_s=20), settings=sandbox_settings) as jail:
        assert jail.run(["sh", "-c", hide], fresh_tmp=True).verdict is Verdict.OK
        assert jail.run(["sh", "-c", look]).stdout_text == "0\n1777 0\n[]\n"
        assert jail.run(["sh", "-c", "chmod 0 /tmp"]).verdict is Verdict.OK  # then a wipe of its own
        jail.fresh_tmp()
        assert jail.run(["sh", "-c", "touch /tmp/x && ls -A /tmp"]).stdout_text == "x\n"


def test_a_wipe_that_does_not_end_in_time_costs_a_fresh_jail_not_the_programs_time(
    sandbox_settings: SandboxSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sandbox import monitor

    with Jail(Limits(cpu_s=5, wall_s=20), settings=sandbox_settings) as jail:
        monkeypatch.setattr(monitor, "WIPE_S", 0.0)  # as if emptying took longer than it may
        result = jail.run(["sh", "-c", "cd /tmp && seq 3000 | xargs touch"], fresh_tmp=True)
        assert result.verdict is Verdict.OK and result.extra["tmp_left"] == (["/tmp (too much to empty)"], 1)
        assert result.cpu_s < 1.0
        monkeypatch.undo()
        after = jail.run(["sh", "-c", "ls -A /tmp | wc -l"], fresh_tmp=True)  # a fresh jail, an empty /tmp
        assert after.stdout_text == "0\n" and after.extra["tmp_left"] == ([], 0)


def test_a_build_too_big_to_list_is_installed_afresh_every_move(
    sandbox_settings: SandboxSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sandbox import workdir

    monkeypatch.setattr(workdir, "SNAPSHOT_LIMIT", 3)
    build = tmp_path / "build"
    build.mkdir()
    for name in "abcdef":
        (build / name).write_text(name)
    with Jail(Limits(cpu_s=2), settings=sandbox_settings) as jail:
        jail.install(build)
        jail.run(["sh", "-c", "rm -f f; echo changed > f"])  # past the listing's end
        jail.reset_work(build)
        assert jail.run(["cat", "f"]).stdout_text == "f"


def test_an_empty_argument_reaches_the_program(sandbox_settings: SandboxSettings) -> None:
    with Jail(Limits(cpu_s=2), settings=sandbox_settings) as jail:
        result = jail.run(
            ["sh", "-c", 'echo "$#:$1:$2:$3"', "zero", "", "b", ""], env={"EMPTY": "", "PATH": ":/usr/bin:/bin"}
        )
        assert result.verdict is Verdict.OK, result
        assert result.stdout_text == "3::b:\n"


def test_the_runner_is_built_once_per_installation_and_again_when_it_changes(
    sandbox_settings: SandboxSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = native.runner(sandbox_settings.root)
    assert first.parent == sandbox_settings.root / "bin" and first.stat().st_mode & 0o755 == 0o755
    assert native.runner(sandbox_settings.root) == first
    changed = tmp_path / "runner.c"
    changed.write_bytes(native.SOURCE.read_bytes() + b"\n/* a change */\n")
    monkeypatch.setattr(native, "SOURCE", changed)
    native.runner.cache_clear()
    try:
        second = native.runner(sandbox_settings.root)
        assert second != first and second.is_file()
    finally:
        native.runner.cache_clear()


def test_no_compiler_means_no_jail_said_in_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native.shutil, "which", lambda name: None)
    native.runner.cache_clear()
    try:
        with pytest.raises(SandboxUnavailable, match="a C compiler"):
            native.runner(tmp_path / "fresh-root")
    finally:
        native.runner.cache_clear()


def test_a_nul_byte_in_an_argument_is_refused_and_the_jail_goes_on(sandbox_settings: SandboxSettings) -> None:
    with Jail(Limits(cpu_s=2), settings=sandbox_settings) as jail:
        jail.run(["true"])  # its cgroup's files are opened once, and kept
        open_before = len(os.listdir("/proc/self/fd"))
        with pytest.raises(SandboxError, match="NUL byte"):
            jail.run(["echo", "a\0b"])
        assert len(os.listdir("/proc/self/fd")) == open_before  # no pipe made for it, none left open
        with pytest.raises(SandboxError, match="NUL byte"):
            jail.run(["true"], env={"X": "1\0"})
        result = jail.run(["sh", "-c", 'echo "$0:$X"', "ok"], env={"X": "é ünïcode"})
        assert result.verdict is Verdict.OK and result.stdout_text == "ok:é ünïcode\n"


def test_a_program_that_cannot_start_is_named(sandbox_settings: SandboxSettings) -> None:
    with Jail(Limits(cpu_s=2), settings=sandbox_settings) as jail:
        result = jail.run(["./no-such-program"])
        assert result.verdict is Verdict.RUNTIME_ERROR
        assert result.note == "cannot start ./no-such-program: No such file or directory"
        assert jail.run(["true"]).verdict is Verdict.OK


def test_many_arguments_and_a_long_environment_reach_the_program(sandbox_settings: SandboxSettings) -> None:
    args = [f"arg{i}" for i in range(2000)]
    env = {f"V{i}": "x" * 100 for i in range(200)}
    with Jail(Limits(cpu_s=2), settings=sandbox_settings) as jail:
        result = jail.run(["sh", "-c", 'echo $# ${#V199}; echo "${2000}"', "zero", *args[:1999], "last"], env=env)
    assert result.verdict is Verdict.OK, result
    assert result.stdout_text.splitlines() == ["2000 100", "last"]


def test_a_move_finds_its_folder_as_installed_whatever_the_last_one_did(
    sandbox_settings: SandboxSettings, tmp_path: Path
) -> None:
    build = tmp_path / "build"
    (build / "support").mkdir(parents=True)
    (build / "data").write_text("pristine\n")
    (build / "run.sh").write_text("cat data\n")
    with Jail(Limits(cpu_s=2), settings=sandbox_settings) as jail:
        jail.install(build)
        assert jail.changes() == ([], [])
        # the build's files are read-only to it: no edit in place, whatever the clock's grain
        result = jail.run(["sh", "-c", "echo tampered > data || echo refused; cat data"])
        assert result.stdout_text == "refused\npristine\n"
        assert jail.changes() == ([], [])
        # a replacement with its modification time put back: the inode and change time tell
        sneaky = (
            "cp -p data /tmp/t; rm -f data; echo tampered > data; touch -r /tmp/t data;"
            " chmod 700 .; touch -d 2001-01-01 .; echo kept > support/memo"
        )
        assert jail.run(["sh", "-c", sneaky], fresh_tmp=True).verdict is Verdict.OK
        written, removed = jail.changes(keep="support")
        assert written == ["data"] and removed == []
        jail.reset_work(build, keep="support")
        assert jail.changes(keep="support") == ([], [])
        result = jail.run(["sh", "-c", "cat data support/memo; stat -c '%a %Y' .; ls /tmp"], fresh_tmp=True)
        assert result.stdout_text == "pristine\nkept\n755 0\n"  # the folder the game lets it keep, kept
        assert result.extra["tmp_left"] == ([], 0)
        jail.run(["sh", "-c", "rm run.sh; mkdir -p new/deeper; : > new/deeper/x"])
        written, removed = jail.changes(keep="support")
        assert written == ["new", "new/deeper", "new/deeper/x"] and removed == ["run.sh"]
        jail.reset_work(build, keep="support")
        assert jail.run(["sh", "-c", "ls"]).stdout_text.split() == ["data", "run.sh", "support"]


def test_a_runner_gone_before_the_program_started_is_the_platforms_fault(
    sandbox_settings: SandboxSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    import os
    import signal
    import time

    with Jail(Limits(cpu_s=2), settings=sandbox_settings) as jail:
        runner = next(pid for pid in jail._spare if pid != jail._bwrap.pid)
        os.kill(runner, signal.SIGKILL)
        # the runner dead and bubblewrap, its parent, ended with it: however long a loaded host takes
        until = time.monotonic() + LOADED_HOST_S
        while time.monotonic() < until and (_running(runner) or jail._bwrap.poll() is None):
            time.sleep(0.01)
        assert not _running(runner) and jail._bwrap.poll() is not None
        monkeypatch.setattr(jail, "_ensure_runner", lambda: None)  # as if it died just after this look
        with pytest.raises(SandboxError, match="runner"):  # gone at the request, or before its answer
            jail.run(["true"])
        monkeypatch.undo()
        assert jail.run(["true"]).verdict is Verdict.OK  # a fresh runner, and the jail goes on


def _running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] != "Z"
    except FileNotFoundError:
        return False
