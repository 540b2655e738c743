"""An archive whose supplied runme does not run is built again from src/Makefile, as the
Hearts and Flowers page promises; the supplied runme never survives such a build."""

from __future__ import annotations

import io
import zipfile

import pytest

from sandbox.conf import SandboxSettings
from sandbox.programs import build_program, cache_key, run_program
from sandbox.result import Verdict

MAIN_C = b'#include <stdio.h>\nint main(void){puts("W1");return 0;}\n'
WRONG_FORMAT = b"\x7fELF\x02\x01\x01" + bytes(9) + b"\x02\x00\xb7\x00" + bytes(100)  # an AArch64 header
SEGFAULT = b"#!/bin/sh\nkill -SEGV $$\n"


def entry(runme: bytes | None, makefile: bytes | None = b"runme: main.c\n\tgcc -O2 -o runme main.c\n") -> bytes:
    """An entry as the page asks for: README, runme, src/Makefile, src/..."""
    files = {"README": (b"an entry", 0o644), "src/main.c": (MAIN_C, 0o644)}
    if runme is not None:
        files["runme"] = (runme, 0o755)
    if makefile is not None:
        files["src/Makefile"] = (makefile, 0o644)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, (data, mode) in files.items():
            info = zipfile.ZipInfo(name)
            info.create_system, info.external_attr = 3, (0o100000 | mode) << 16
            z.writestr(info, data)
    return out.getvalue()


@pytest.mark.parametrize(
    ("runme", "fails_with"), [(WRONG_FORMAT, "Exec format error"), (SEGFAULT, "killed by signal 11")]
)
def test_a_runme_that_does_not_run_is_rebuilt_from_src(sandbox_settings: SandboxSettings, runme, fails_with) -> None:
    data = entry(runme)
    supplied = build_program(data, "entry.zip", settings=sandbox_settings)
    assert supplied.ok and supplied.program is not None  # the supplied runme is taken as it is
    broken = run_program(supplied.program, settings=sandbox_settings)
    assert broken.verdict is Verdict.RUNTIME_ERROR and fails_with in broken.note

    rebuilt = build_program(data, "entry.zip", settings=sandbox_settings, from_sources=True)
    assert rebuilt.ok, rebuilt.log
    assert rebuilt.program is not None and rebuilt.program.files != supplied.program.files
    assert "gcc -O2 -o runme main.c" in rebuilt.log  # make's own log
    assert run_program(rebuilt.program, settings=sandbox_settings).stdout == b"W1\n"
    again = build_program(data, "entry.zip", settings=sandbox_settings, from_sources=True)
    assert again.cached and again.program.files == rebuilt.program.files


def test_a_makefile_may_write_the_runme_beside_src(sandbox_settings: SandboxSettings) -> None:
    data = entry(WRONG_FORMAT, b"../runme: main.c\n\tgcc -o ../runme main.c\n")
    rebuilt = build_program(data, "entry.zip", settings=sandbox_settings, from_sources=True)
    assert rebuilt.ok, rebuilt.log
    assert run_program(rebuilt.program, settings=sandbox_settings).stdout == b"W1\n"


@pytest.mark.parametrize(
    ("makefile", "log"),
    [
        (None, "no src/Makefile to rebuild runme from"),
        (b"all:\n\ttrue\n", "cannot stat 'src/runme'"),  # and the supplied runme is gone
        (b"runme: main.c\n\tgcc -o runme nosuch.c\n", "nosuch.c"),
    ],
)
def test_a_rebuild_that_makes_no_runme_fails_with_its_log(sandbox_settings: SandboxSettings, makefile, log) -> None:
    rebuilt = build_program(entry(SEGFAULT, makefile), "entry.zip", settings=sandbox_settings, from_sources=True)
    assert not rebuilt.ok and log in rebuilt.log


def test_only_an_archive_is_rebuilt_from_its_sources(sandbox_settings: SandboxSettings) -> None:
    with pytest.raises(ValueError, match="only an archive"):
        build_program(MAIN_C, "main.c", settings=sandbox_settings, from_sources=True)
    assert cache_key(b"x", "archive", "make 4") == cache_key(b"x", "archive", "make 4", variant="")
    assert cache_key(b"x", "archive", "make 4") != cache_key(b"x", "archive", "make 4", variant="from-sources")
