"""Jails made ahead of need (sandbox/pool.py): each is fresh and used once, and a ready jail's
slot goes back to a reservation that needs it, from another process too."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from sandbox.conf import SandboxSettings
from sandbox.limits import Limits
from sandbox.pool import Pool, close_pools, pool_for
from sandbox.programs import build_program, run_program
from sandbox.result import Verdict
from sandbox.slots import WANT_POLL_S, reserve

from .conftest import LOADED_HOST_S, Builder

LIMITS = Limits(cpu_s=2, wall_s=30, memory_mb=64, pids=16)
LEAVES_A_MARK = (
    "import os\n"
    "print(os.listdir('/tmp'), os.path.exists('/work/mark'))\n"
    "open('/tmp/mark', 'w').write('x'); open('/work/mark', 'w').write('x')\n"
)


@pytest.fixture
def pooled(sandbox_settings: SandboxSettings) -> Iterator[SandboxSettings]:
    settings = dataclasses.replace(sandbox_settings, pool=True, slots=2)
    try:
        yield settings
    finally:
        close_pools()  # before the check that nothing of the sandbox is left


def ready(pool: Pool, made: int) -> None:
    """Wait until the pool has made ``made`` jails ahead."""
    until = time.monotonic() + LOADED_HOST_S
    while pool.made < made:
        assert time.monotonic() < until, "no jail made ahead"
        time.sleep(0.01)


def test_a_ready_jail_is_fresh_and_serves_once(pooled: SandboxSettings) -> None:
    built = build_program(LEAVES_A_MARK.encode(), "mark.py", settings=pooled)
    assert built.program is not None, built.log
    first = run_program(built.program, limits=LIMITS, settings=pooled)
    pool = pool_for(pooled)
    assert pool is not None
    ready(pool, 1)
    second = run_program(built.program, limits=LIMITS, settings=pooled)
    assert pool.taken == 1  # the second run had the jail made ahead...
    # ...in which nothing had run: no trace of the first run's files
    for result in (first, second):
        assert (result.verdict, result.stdout) == (Verdict.OK, b"[] False\n"), result
    ready(pool, 2)  # and the next is made ahead in turn
    assert pool.taken == 1


RESERVE = """
import json, sys, time
from pathlib import Path
from sandbox.conf import SandboxSettings
from sandbox.slots import reserve
given = json.loads(sys.argv[1])
settings = SandboxSettings(root=Path(given["root"]), cache_dir=Path(given["cache"]), slots=given["slots"],
                           uid_base=given["uid_base"], uid_count=given["uid_count"])
started = time.monotonic()
with reserve(settings, given["slots"], timeout=10) as slots:
    print(json.dumps({"waited": time.monotonic() - started, "slots": sorted(s.number for s in slots)}))
"""


def test_a_ready_jail_gives_its_slot_back_to_a_reservation(programs: Builder, pooled: SandboxSettings) -> None:
    # The zygote's flaw: a jail kept ready holds a slot, and a match that needs every slot
    # would wait on it for ever. A match in another process asks, and has it at once.
    program = programs.build("echo_lines.c")
    run_program(program, limits=LIMITS, settings=pooled)
    pool = pool_for(pooled)
    assert pool is not None
    ready(pool, 1)
    given = {
        "root": str(pooled.root),
        "cache": str(pooled.cache_dir),
        "slots": pooled.slots,
        "uid_base": pooled.uid_base,
        "uid_count": pooled.uid_count,
    }
    done = subprocess.run(
        [sys.executable, "-c", RESERVE, json.dumps(given)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["slots"] == [0, 1]
    assert answer["waited"] < LOADED_HOST_S, answer  # a keeper's look and a jail's close, on a quiet host 0.1 s
    assert pool.given_back == 1
    assert pool.made == 1  # none made while the match held every slot


def test_a_pool_never_takes_a_ready_jails_slot_for_another(programs: Builder, pooled: SandboxSettings) -> None:
    # Only a reservation asks a ready jail for its slot: a keeper short of a free slot makes
    # nothing ahead, or two shapes would take each other's slot in turn, for ever.
    program = programs.build("echo_lines.c")
    run_program(program, limits=LIMITS, settings=pooled)
    pool = pool_for(pooled)
    assert pool is not None
    ready(pool, 1)
    with reserve(pooled, 1):  # the one free slot, held as a match holds it
        assert pool.take(LIMITS.but(cpu_s=3), program.binds) is None  # another shape, none ready
        time.sleep(30 * WANT_POLL_S)  # the keeper's looks
        assert (pool.made, pool.given_back) == (1, 0)
    jail = pool.take(LIMITS, program.binds)
    assert jail is not None  # the first shape's is still there
    jail.close()
