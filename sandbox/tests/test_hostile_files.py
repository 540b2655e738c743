"""What the host does with a program's work folder (``WorkDir``: list it, read a file, copy it
out as a build, empty it between moves, remove it), whatever the program left there: plans for
the hostile program (hostile.py: names of any bytes, folders of any depth, links to anywhere,
FIFOs, sockets, hard links, sparse files, locked folders, a child that goes on changing
files) run in a real jail, then every path it left is listed and read. Each step ends in
data or a ValueError in words, never another exception; the jail works on afterwards; the
folder the links point at is untouched; and the autouse fixture checks that nothing is left
running, mounted or in a cgroup. MAX_EXAMPLES plans: about 5 s on two cores.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from sandbox.conf import SandboxSettings
from sandbox.limits import Limits
from sandbox.programs import open_jail
from sandbox.result import Verdict
from sandbox.workdir import MORE

from .conftest import BACKSTOP_WALL_S, Builder
from .hostile import canary, canary_untouched, plans

MAX_EXAMPLES = 40


@pytest.fixture(scope="module", autouse=True)
def _canary() -> Iterator[None]:
    with canary():
        yield


@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(plan=plans(first=b"support"))
def test_the_host_lists_reads_copies_and_empties_whatever_a_program_left(
    programs: Builder, sandbox_settings: SandboxSettings, tmp_path: Path, plan: str
) -> None:
    program = programs.build("hostile.c")
    limits = Limits(cpu_s=2, wall_s=BACKSTOP_WALL_S)
    with open_jail(program, limits, settings=sandbox_settings) as jail:
        assert jail.work is not None
        result = jail.run(program.argv(limits), env={"HOSTILE": plan}, fresh_tmp=True)
        assert isinstance(result.verdict, Verdict)

        listed = jail.work.snapshot()
        for path, seen in listed.items():
            if path == MORE:
                continue
            try:
                data = jail.work.read_file(path, max_bytes=1 << 20)
            except ValueError:  # not a plain file: said in words
                continue
            assert stat.S_ISREG(seen[0]) and len(data) == seen[2]

        out = tmp_path / uuid.uuid4().hex
        with contextlib.suppress(ValueError):  # too large, or too deep, to keep: a failed build
            jail.work.copy_out(out, max_bytes=8 << 20)  # as a build's files are kept
        for folder, _, names in os.walk(out):
            for name in names:
                kind = os.lstat(os.path.join(folder, name)).st_mode
                assert stat.S_ISREG(kind) or stat.S_ISLNK(kind)  # links kept as links, never followed
        shutil.rmtree(out, ignore_errors=True)

        jail.reset_work(program.files, keep="support")  # as between two moves
        assert jail.changes(keep="support") == ([], [])
        assert jail.run(program.argv(limits), env={"HOSTILE": ""}).verdict is Verdict.OK
        jail.work.clear()
        assert os.listdir(jail.work.path) == []
    assert canary_untouched()


def test_a_deep_folder_of_long_names_fails_the_build_in_words_not_the_host(tmp_path: Path) -> None:
    """Found by the plans above: 17 folders of 250-byte names pass the host's PATH_MAX (4096)
    where a build's files are kept, and the copy raised OSError (a platform fault)."""
    from sandbox.workdir import PATH_LIMIT, WorkDir

    work = tmp_path / "work"
    work.mkdir()
    fd = os.open(work, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(17):  # made as a program makes them: one folder at a time, by its handle
            os.mkdir("x" * 250, dir_fd=fd)
            inner = os.open("x" * 250, os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
            os.close(fd)
            fd = inner
        os.close(os.open("program", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd))
    finally:
        os.close(fd)
    with pytest.raises(ValueError, match=f"a path longer than {PATH_LIMIT} bytes"):
        WorkDir(work, os.getuid(), 64).copy_out(tmp_path / "kept", max_bytes=1 << 20)
    shallow = tmp_path / "shallow"
    (shallow / ("y" * 250) / ("y" * 250)).mkdir(parents=True)
    (shallow / ("y" * 250) / ("y" * 250) / "f").write_bytes(b"kept")
    WorkDir(shallow, os.getuid(), 64).copy_out(tmp_path / "kept2", max_bytes=1 << 20)
    assert (tmp_path / "kept2" / ("y" * 250) / ("y" * 250) / "f").read_bytes() == b"kept"
