"""Fixtures for the sandbox tests: real programs in real jails (root and bubblewrap needed)."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.conf import SandboxSettings
from sandbox.limits import BUILD_LIMITS, Limits
from sandbox.programs import Program, build_program, run_program
from sandbox.result import RunResult

PROGRAMS = Path(__file__).parent / "programs"
# Everything of this test session is its own: folder, cgroups (derived from the folder) and
# uids. Other sessions on the same host (a worker, another test run) then never show up in
# the leak checks below.
SESSION = os.getpid()
TEST_ROOT = Path(f"/tmp/arbiter-sandbox-tests-{SESSION}")
# The processes of one `make test` (pytest-xdist's gw0, gw1, ...) share a parent: each takes
# its own block of uids by its number, so none sees another's jails in its pool.
_PROCESS = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
TEST_UID_BASE = 62000 + ((os.getppid() % 60) * 8 + _PROCESS % 8) * 16  # above the default pool (60000 + 1024)
TEST_UID_COUNT = 16
# Wall clocks and a loaded host (these tests run on 2 cores beside other work). A program
# stopped by its CPU limit may take many times that CPU in wall time there, so its wall limit,
# which is not what such a test is about, is this generous backstop: only the limit under test
# can stop it. A test of a wall-clock limit asserts the direction load cannot break (stopped,
# and no earlier than the limit) and, the other way, only "within LOADED_HOST_S": a host busy
# beside the tests stretches a span by far less, a check that failed would wait out a backstop.
BACKSTOP_WALL_S = 30.0
LOADED_HOST_S = 5.0

if os.geteuid() != 0 or shutil.which("bwrap") is None:
    pytest.skip("the sandbox tests need root and bubblewrap", allow_module_level=True)


@pytest.fixture(scope="session")
def sandbox_settings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SandboxSettings]:
    yield SandboxSettings(
        root=TEST_ROOT,
        cache_dir=tmp_path_factory.mktemp("build-cache"),
        slots=4,
        uid_base=TEST_UID_BASE,
        uid_count=TEST_UID_COUNT,
    )
    shutil.rmtree(TEST_ROOT, ignore_errors=True)
    for parent in Path("/sys/fs/cgroup").glob(f"*/{SandboxSettings(TEST_ROOT, TEST_ROOT).cgroup_parent}"):
        parent.rmdir()


def sandbox_processes(settings: SandboxSettings) -> list[str]:
    """Host processes running as any uid of the pool (zombies aside: a killed holder's bwrap is
    reparented to pid 1, which in some containers never reaps it, and a zombie holds nothing)."""
    uids = set(settings.uids())
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status") as f:
                status = f.read()
        except OSError:
            continue
        uid_line = next((line for line in status.splitlines() if line.startswith("Uid:")), "")
        zombie = any(line.startswith("State:\tZ") for line in status.splitlines())
        if uid_line and int(uid_line.split()[1]) in uids and not zombie:
            name = status.splitlines()[0]
            found.append(f"{entry} {name}")
    return found


def leftover_cgroups(settings: SandboxSettings) -> list[str]:
    found = []
    for parent in Path("/sys/fs/cgroup").glob(f"*/{settings.cgroup_parent}"):
        found += [str(p) for p in parent.iterdir() if p.is_dir()]
    return found


def leftover_mounts() -> list[str]:
    with open("/proc/mounts") as f:
        return [line for line in f if str(TEST_ROOT) in line]


@pytest.fixture(autouse=True)
def host_unaffected(sandbox_settings: SandboxSettings) -> Iterator[None]:
    """Every test: nothing of the sandbox is left running, mounted or in a cgroup after it."""
    yield
    # A jail's runner killed with its cgroup leaves the cgroup's list at once, but as its pid
    # namespace's init it exits only once all it held is reaped: on a loaded host that can
    # outlast close() by a moment. A process still there after LOADED_HOST_S is left running.
    until = time.monotonic() + LOADED_HOST_S
    while sandbox_processes(sandbox_settings) and time.monotonic() < until:
        time.sleep(0.01)
    assert sandbox_processes(sandbox_settings) == []
    assert leftover_cgroups(sandbox_settings) == []
    assert leftover_mounts() == []


class Builder:
    def __init__(self, settings: SandboxSettings) -> None:
        self.settings = settings

    def build(self, name: str, limits: Limits = BUILD_LIMITS) -> Program:
        result = build_program((PROGRAMS / name).read_bytes(), name, limits=limits, settings=self.settings)
        assert result.ok, result.log
        assert result.program is not None
        return result.program

    def run(self, name: str, limits: Limits | None = None, **kwargs: object) -> RunResult:
        return run_program(self.build(name), limits=limits or Limits(), settings=self.settings, **kwargs)  # type: ignore[arg-type]


@pytest.fixture
def programs(sandbox_settings: SandboxSettings) -> Builder:
    return Builder(sandbox_settings)
