"""Language tables: each contest's own commands, scripts by their `#!` line, archives that use
any toolchain, the memory a contest gives, and what is kept of standard error."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from sandbox.comments import code_size
from sandbox.conf import SandboxSettings
from sandbox.jail import Jail
from sandbox.languages import LANGUAGES, TABLES, available, language_for
from sandbox.limits import MB, Limits
from sandbox.programs import build_program, run_program
from sandbox.result import Verdict

from .conftest import BACKSTOP_WALL_S

OPTIMISED = b'#include <stdio.h>\nint main(void){\n#ifdef __OPTIMIZE__\nputs("optimised");\n#else\nputs("plain");\n#endif\nreturn 0;}\n'


def _run(program, stdin: bytes = b"", args=(), settings=None, limits=None):
    limits = limits or Limits(cpu_s=3, wall_s=BACKSTOP_WALL_S)  # a JVM's start is CPU, much on a loaded host
    return run_program(program, stdin=stdin, args=args, limits=limits, settings=settings)


@pytest.mark.parametrize(
    ("filename", "first_line", "language"),
    [
        ("chomp", b"#!/usr/bin/awk -f\n", "awk"),
        ("chomp.awk", b"BEGIN { }\n", "awk"),
        ("chomp", b"#!/usr/local/bin/perl -w\n", "perl"),
        ("chomp.pl", b"print 1;\n", "perl"),
        ("chomp.sh", b"#!/bin/bash\n", "bash"),
        ("chomp", b"#! /bin/sh\n", "shell"),
        ("chomp.sh", b"echo hi\n", "shell"),
        ("chomp", b"#!/usr/bin/env python3.11\n", "python3"),
        ("chomp.py", b"print(1)\n", "python3"),
    ],
)
def test_scripts_are_known_by_their_first_line_or_extension(filename: str, first_line: bytes, language: str) -> None:
    assert language_for(filename, first_line + b"# the rest\n").name == language


def test_a_cpp_file_is_of_the_standard_the_contest_offers() -> None:
    assert language_for("a.cpp", b"int main(){}").name == "cpp"
    assert language_for("a.cpp", b"int main(){}", TABLES["codecup"].commands).name == "cpp20"


def test_only_languages_of_a_table_are_offered() -> None:
    assert set(available("codecup")) <= set(TABLES["codecup"].commands)
    assert "archive" not in TABLES["codecup"]  # "The source code must consist of one single file"
    assert {"cpp98", "cpp11", "cpp17", "cpp20"} <= set(TABLES["codecup"].commands)
    assert {"awk", "perl", "shell"} <= set(TABLES["potm"].commands)


def test_code_size_leaves_out_comments_not_strings() -> None:
    c = b'/* header */\nint x; // note\nchar *s = "// not a comment /* either */";\n'
    assert code_size(c, "c") == len(c) - len(b"/* header */") - len(b"// note")
    sh = b'#!/bin/sh\n# say hi\necho "# not a comment" $# ${#x} # trailing\n'
    assert code_size(sh, "hash") == len(sh) - len(b"#!/bin/sh") - len(b"# say hi") - len(b"# trailing")
    assert code_size(c, "") == len(c)  # a language with no comment syntax known: every byte


def test_potm_builds_without_optimisation(sandbox_settings: SandboxSettings) -> None:
    plain = build_program(OPTIMISED, "a.c", table_name="potm", settings=sandbox_settings)
    optimised = build_program(OPTIMISED, "a.c", settings=sandbox_settings)
    assert plain.ok and optimised.ok, (plain.log, optimised.log)
    assert _run(plain.program, settings=sandbox_settings).stdout == b"plain\n"
    assert _run(optimised.program, settings=sandbox_settings).stdout == b"optimised\n"


def test_an_awk_script_with_its_script_line_builds_and_runs(sandbox_settings: SandboxSettings) -> None:
    if "awk" not in available("potm"):
        pytest.skip("no awk on this host")
    script = b"#!/usr/bin/awk -f\n# reads ROWS COLS from its arguments\nBEGIN { print ARGV[1] * ARGV[2]; exit }\n"
    build = build_program(script, "chomp", table_name="potm", settings=sandbox_settings)
    assert build.ok and build.language == "awk", build.log
    assert _run(build.program, args=("7", "9"), settings=sandbox_settings).stdout == b"63\n"


def test_cpp20_for_codecup(sandbox_settings: SandboxSettings) -> None:
    source = (
        b"#include <span>\n#include <cstdio>\nint main(){int a[3]={1,2,3};std::span<int> s(a);"
        b'long t=0;for(int x:s)t+=x;std::printf("%ld\\n",t);}\n'
    )
    build = build_program(source, "player.cpp", language="cpp20", table_name="codecup", settings=sandbox_settings)
    assert build.ok, build.log
    assert _run(build.program, settings=sandbox_settings).stdout == b"6\n"


RUST_SSE41 = b"""
#[cfg(not(target_feature = "sse4.1"))]
compile_error!("simd module requires SSE4.1");
use std::arch::x86_64::*;
fn main() {
    let m = unsafe {
        let a = _mm_setr_epi32(1, 9, 3, 4);
        let b = _mm_setr_epi32(5, 2, 7, 8);
        _mm_extract_epi32::<1>(_mm_max_epi32(a, b)) // pmaxsd and pextrd: SSE4.1
    };
    println!("{}", m);
}
"""


def _rust_or_skip() -> None:
    if "rust" not in available():
        pytest.skip("no rustc on this host (Debian: apt-get install rustc)")


def test_rust_builds_for_the_cpu_codecup_had(sandbox_settings: SandboxSettings) -> None:
    _rust_or_skip()
    build = build_program(RUST_SSE41, "nine_digits.rs", table_name="codecup", settings=sandbox_settings)
    assert build.ok, build.log
    assert _run(build.program, settings=sandbox_settings).stdout == b"9\n"


def test_an_archive_may_build_with_every_toolchain(sandbox_settings: SandboxSettings) -> None:
    _rust_or_skip()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("Makefile", "runme: main.rs\n\trustc -O -o runme main.rs\n")
        z.writestr("main.rs", 'fn main() { println!("built by rustc"); }\n')
    build = build_program(out.getvalue(), "entry.zip", settings=sandbox_settings)
    assert build.ok, build.log
    assert _run(build.program, settings=sandbox_settings).stdout == b"built by rustc\n"


TOUCH = b"""#include <stdlib.h>
#include <string.h>
#include <stdio.h>
int main(int argc, char **argv) {
    size_t n = (size_t)atoi(argv[1]) << 20;
    char *p = malloc(n);
    if (!p) return 3;
    memset(p, 1, n);
    printf("%d\\n", p[n - 1]);
    return 0;
}
"""


def test_the_contests_memory_is_the_jails_cgroup_limit(sandbox_settings: SandboxSettings) -> None:
    with Jail(Limits(memory_mb=1536), settings=sandbox_settings) as jail:
        assert jail.cgroup is not None
        folder = jail.cgroup._dir(jail.cgroup.layout.memory)
        limit = (folder / "memory.max").read_text() if (folder / "memory.max").exists() else None
        limit = limit or (folder / "memory.limit_in_bytes").read_text()
        assert int(limit) == 1536 * MB
    build = build_program(TOUCH, "touch.c", settings=sandbox_settings)
    assert build.ok, build.log
    gib = _run(build.program, args=("1024",), limits=Limits(cpu_s=5, memory_mb=1536), settings=sandbox_settings)
    assert gib.verdict is Verdict.OK and gib.stdout == b"1\n", gib
    small = _run(build.program, args=("1024",), limits=Limits(cpu_s=5, memory_mb=256), settings=sandbox_settings)
    assert small.verdict is Verdict.MEMORY_LIMIT, small


def test_about_ten_thousand_characters_of_stderr_are_kept(sandbox_settings: SandboxSettings) -> None:
    build = build_program(b"import sys\nsys.stderr.write('x' * 50000)\n", "noisy.py", settings=sandbox_settings)
    result = _run(build.program, settings=sandbox_settings)
    assert result.verdict is Verdict.OK, result
    assert len(result.stderr) == 10_000


def test_every_language_names_its_comment_syntax_where_it_has_one() -> None:
    for lang in LANGUAGES.values():
        assert lang.comments in ("", "c", "hash"), lang.name
    assert Path(__file__).exists()
