"""Languages, the build cache, archives and compile bombs."""

from __future__ import annotations

import dataclasses
import io
import stat
import tarfile
import zipfile

import pytest

from sandbox.conf import SandboxSettings
from sandbox.languages import available
from sandbox.limits import BUILD_LIMITS, Limits
from sandbox.programs import build_program, cache_key, run_program
from sandbox.result import Verdict

from .conftest import BACKSTOP_WALL_S, LOADED_HOST_S, PROGRAMS

SUM = {
    "c": ("a.c", b'#include <stdio.h>\nint main(void){int a,b;scanf("%d %d",&a,&b);printf("%d\\n",a+b);return 0;}'),
    "cpp": ("a.cpp", b"#include <iostream>\nint main(){int a,b;std::cin>>a>>b;std::cout<<a+b<<std::endl;}"),
    "python3": ("a.py", b"a, b = map(int, input().split())\nprint(a + b)\n"),
    "java": (
        "Sum.java",
        b"import java.util.*;public class Sum{public static void main(String[] x){Scanner s=new Scanner(System.in);System.out.println(s.nextInt()+s.nextInt());}}",
    ),
    "perl": ("a.pl", b'my ($a, $b) = split " ", <STDIN>; print $a + $b, "\\n";'),
    "rust": (
        "a.rs",
        b'use std::io::*;fn main(){let mut s=String::new();stdin().read_line(&mut s).unwrap();let v:Vec<i64>=s.split_whitespace().map(|x|x.parse().unwrap()).collect();println!("{}",v[0]+v[1]);}',
    ),
    "javascript": (
        "a.js",
        b'const [a, b] = require("fs").readFileSync(0, "utf8").split(" ").map(Number);\nconsole.log(a + b);\n',
    ),
    "shell": ("a.sh", b"read a b\necho $((a + b))\n"),
}
QUICK_BUILD = BUILD_LIMITS.but(cpu_s=5, wall_s=10, memory_mb=512, file_size_mb=32)


@pytest.mark.parametrize("language", sorted(SUM))
def test_every_detected_language_builds_and_runs(sandbox_settings: SandboxSettings, language: str) -> None:
    if language not in available():
        pytest.skip(f"no {language} toolchain on this host")  # only offered where present
    name, source = SUM[language]
    build = build_program(source, name, settings=sandbox_settings)
    assert build.ok, build.log
    assert build.toolchain == available()[language].version
    assert build.program is not None
    result = run_program(
        build.program,
        stdin=b"2 40\n",
        limits=Limits(cpu_s=3, wall_s=BACKSTOP_WALL_S, memory_mb=512),  # a JVM's start is CPU, slow when loaded
        settings=sandbox_settings,
    )
    assert result.verdict is Verdict.OK, result
    assert result.stdout == b"42\n"


def test_build_cache(sandbox_settings: SandboxSettings) -> None:
    source = b"int main(void) { return 7; }\n"
    first = build_program(source, "seven.c", settings=sandbox_settings)
    second = build_program(source, "other-name.c", settings=sandbox_settings)
    assert first.ok and not first.cached
    assert second.cached and second.program == first.program
    assert cache_key(source, "c", first.toolchain) != cache_key(source, "c", "gcc 99")
    assert cache_key(source, "c", first.toolchain) != cache_key(source, "cpp", first.toolchain)
    assert second.program is not None
    assert run_program(second.program, settings=sandbox_settings).exit_code == 7


def test_a_build_that_prints_nul_and_escapes_keeps_a_log_that_saves(sandbox_settings: SandboxSettings) -> None:
    source = b'#error "\x00\x1b[2J bad"\nint main(void) { return 0; }\n'
    build = build_program(source, "nul.c", settings=sandbox_settings)
    assert not build.ok and "\x00" not in build.log and "\x1b" not in build.log and "\\x1b[2J" in build.log


def test_failed_build_returns_its_log(sandbox_settings: SandboxSettings) -> None:
    build = build_program(b"int main(void) { return nope; }\n", "bad.c", settings=sandbox_settings)
    assert not build.ok and build.program is None
    assert "nope" in build.log and "error" in build.log
    # The contestant's words first, the compiler's message under them (not "build failed: runtime_error").
    assert build.log.startswith("compilation failed (exit code 1):\n") and "runtime_error" not in build.log
    again = build_program(b"int main(void) { return nope; }\n", "bad.c", settings=sandbox_settings)
    assert again.cached and not again.ok and again.log == build.log


def test_static_executable(sandbox_settings: SandboxSettings) -> None:
    built = build_program(b"int main(void) { return 3; }\n", "x.c", settings=sandbox_settings)
    assert built.program is not None
    binary = (built.program.files / "prog").read_bytes()
    static = build_program(binary, "entry", settings=sandbox_settings)
    assert static.ok and static.language == "static"
    assert static.program is not None
    assert run_program(static.program, settings=sandbox_settings).exit_code == 3
    not_elf = build_program(b"#!/bin/sh\necho hi\n", "entry", language="static", settings=sandbox_settings)
    assert not not_elf.ok and "ELF" in not_elf.log


@pytest.mark.parametrize("name", ["dev_random.c", "template_bomb.cpp", "huge_array.c"])
def test_compile_bombs_fail_the_build(sandbox_settings: SandboxSettings, name: str, tmp_path) -> None:
    # A cache of its own: another test of this process may have built the same bomb, and a
    # failed build is cached (with no run to look at).
    settings = dataclasses.replace(sandbox_settings, cache_dir=tmp_path / "cache")
    build = build_program((PROGRAMS / name).read_bytes(), name, limits=QUICK_BUILD, settings=settings)
    assert not build.ok
    assert build.run is not None and build.run.verdict is not Verdict.OK
    # within its CPU limit (CPU time: as exact loaded or not), and stopped by its wall limit if
    # it waits; how soon after that limit is the host's load, so that side is bounded generously
    assert build.run.cpu_s <= QUICK_BUILD.cpu_s + 0.1
    assert build.run.wall_s <= QUICK_BUILD.wall + LOADED_HOST_S


def _zip(members: dict[str, bytes], links: dict[str, str] | None = None) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFREG | 0o755) << 16
            z.writestr(info, data)
        for name, target in (links or {}).items():
            info = zipfile.ZipInfo(name)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            z.writestr(info, target)
    return out.getvalue()


def _zip_special(name: str, kind: int) -> bytes:
    """A zip made on Unix holding one member of file type ``kind`` (a device, FIFO, socket)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("runme", b"#!/bin/sh\n")
        info = zipfile.ZipInfo(name)
        info.create_system = 3
        info.external_attr = (kind | 0o644) << 16
        z.writestr(info, b"")
    return out.getvalue()


def _tgz(*members: tuple[tarfile.TarInfo, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as t:
        for info, data in members:
            info.size = len(data)
            t.addfile(info, io.BytesIO(data) if info.isreg() else None)
    return out.getvalue()


def _info(name: str, kind: bytes = tarfile.REGTYPE, mode: int = 0o755, link: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.mode, info.linkname = kind, mode, link
    return info


def test_archive_with_makefile_and_support_folder(sandbox_settings: SandboxSettings) -> None:
    data = _zip(
        {
            "README": b"an entry",
            "src/main.c": b'#include <stdio.h>\nint main(void){FILE*f=fopen("support/notes","r");char b[32]={0};fgets(b,32,f);printf("W2 %s",b);return 0;}',
            "Makefile": b"runme: src/main.c\n\tgcc -O2 -o runme src/main.c\n",
            "support/notes": b"remembered\n",
        }
    )
    build = build_program(data, "entry.zip", settings=sandbox_settings)
    assert build.ok, build.log
    assert build.program is not None
    result = run_program(build.program, settings=sandbox_settings)
    assert result.stdout == b"W2 remembered\n"


def test_tar_gz_with_build_script(sandbox_settings: SandboxSettings) -> None:
    data = _tgz(
        (_info("build"), b"printf '#!/bin/sh\\necho built\\n' > runme\n"),
        (_info("data.txt", mode=0o644), b"x"),
    )
    build = build_program(data, "entry.tar.gz", settings=sandbox_settings)
    assert build.ok, build.log
    assert build.program is not None
    assert run_program(build.program, settings=sandbox_settings).stdout == b"built\n"


MAKEFILE_ENTRY = {
    "Makefile": b"runme: main.c\n\tgcc -O2 -o runme main.c\n",
    "main.c": b'#include <stdio.h>\nint main(void){puts("built");return 0;}',
}


def test_a_zip_written_by_pythons_writestr_builds(sandbox_settings: SandboxSettings) -> None:
    """writestr(name, data) stores permissions with no file type (0o600 << 16): a regular file."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("src/", b"")
        for name, data in MAKEFILE_ENTRY.items():
            z.writestr(name, data)
    assert zipfile.ZipFile(out).getinfo("Makefile").external_attr >> 16 == 0o600
    build = build_program(out.getvalue(), "entry.zip", settings=sandbox_settings)
    assert build.ok, build.log
    assert build.program is not None
    assert run_program(build.program, settings=sandbox_settings).stdout == b"built\n"


def test_a_zip_made_without_unix_modes_builds(sandbox_settings: SandboxSettings) -> None:
    """Zips from Windows tools (or Java's) carry MS-DOS attributes only: files and folders,
    whatever the high bits hold; a would-be link among them is written as a plain file."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name, data in MAKEFILE_ENTRY.items():
            info = zipfile.ZipInfo(name)
            info.create_system, info.external_attr = 0, 0x20  # MS-DOS, "archive" attribute
            z.writestr(info, data)
        folder = zipfile.ZipInfo("support/")
        folder.create_system, folder.external_attr = 0, 0x10  # MS-DOS directory
        z.writestr(folder, b"")
        stray = zipfile.ZipInfo("support/notes")
        stray.create_system, stray.external_attr = 11, (stat.S_IFLNK | 0o777) << 16  # NTFS: no Unix meaning
        z.writestr(stray, b"/etc/passwd")
    build = build_program(out.getvalue(), "entry.zip", settings=sandbox_settings)
    assert build.ok, build.log
    assert build.program is not None
    notes = build.program.files / "support" / "notes"
    assert not notes.is_symlink() and notes.read_bytes() == b"/etc/passwd"


@pytest.mark.parametrize(
    "data",
    [
        _zip({"../evil": b"x", "runme": b"x"}),
        _zip({"/tmp/evil": b"x"}),
        _zip({"runme": b"x"}, links={"up": "../../etc"}),
        _zip({"runme": b"x"}, links={"abs": "/etc/passwd"}),
        _zip({"zeros": bytes(200 << 20)}),
        _zip({f"f{n}": b"" for n in range(3000)}),
        _zip_special("dev", stat.S_IFCHR),
        _zip_special("disk", stat.S_IFBLK),
        _zip_special("fifo", stat.S_IFIFO),
        _zip_special("socket", stat.S_IFSOCK),
        _tgz((_info("../evil"), b"x")),
        _tgz((_info("dev", tarfile.CHRTYPE), b"")),
        _tgz((_info("fifo", tarfile.FIFOTYPE), b"")),
        _tgz((_info("a"), b"x"), (_info("hard", tarfile.LNKTYPE, link="a"), b"")),
        _tgz((_info("link", tarfile.SYMTYPE, link="/"), b"")),
        _tgz((_info("d", tarfile.SYMTYPE, link="."), b""), (_info("d/../../escape"), b"x")),
        _tgz(
            (_info("x", tarfile.DIRTYPE), b""),
            (_info("q", tarfile.SYMTYPE, link="x/.."), b""),  # each link stays inside on its own,
            (_info("e", tarfile.SYMTYPE, link="q/.."), b""),  # together they lead out
            (_info("runme"), b"x"),
        ),
        b"PK\x03\x04 broken",
    ],
    ids=[
        "zip-slip",
        "absolute",
        "link-up",
        "link-abs",
        "zip-bomb",
        "too-many",
        "zip-device",
        "zip-block-device",
        "zip-fifo",
        "zip-socket",
        "tar-slip",
        "device",
        "fifo",
        "hard-link",
        "tar-link-root",
        "tar-dotdot",
        "tar-link-chain",
        "broken",
    ],
)
def test_unsafe_archives_are_refused(sandbox_settings: SandboxSettings, data: bytes) -> None:
    build = build_program(data, "entry.zip", settings=sandbox_settings)
    assert not build.ok
    assert "archive refused" in build.log


def test_an_archives_install_script_runs_once_in_the_build_jail_and_what_it_writes_is_kept(
    sandbox_settings: SandboxSettings,
) -> None:
    """The Solitaire 500: "If you include an INSTALL script (say, to install any modules you
    might include with your entry), it will be run." It never was: an entry needing its file crashed."""
    data = _tgz(
        (_info("INSTALL", mode=0o644), b"#!/usr/bin/perl -w\nopen(F, '>', 'Module.pm'); print F \"1;\\n\"; print \"installed\\n\";\n"),
        (_info("runme"), b"#!/bin/sh\ntest -f Module.pm && echo ready\n"),
    )  # fmt: skip
    build = build_program(data, "entry.tar.gz", settings=sandbox_settings, install="INSTALL")
    assert build.ok, build.log
    assert "$ ./INSTALL\ninstalled" in build.log
    assert build.program is not None and run_program(build.program, settings=sandbox_settings).stdout == b"ready\n"
    plain = build_program(data, "entry.tar.gz", settings=sandbox_settings)  # a game without one: not run
    assert plain.ok and not plain.cached and "INSTALL" not in plain.log
    assert run_program(plain.program, settings=sandbox_settings).stdout == b""


def test_a_failing_install_script_fails_the_build_in_words(sandbox_settings: SandboxSettings) -> None:
    data = _tgz((_info("INSTALL"), b"echo 'no compiler for XS' >&2\nexit 3\n"), (_info("runme"), b"#!/bin/sh\n"))
    build = build_program(data, "entry.tar.gz", settings=sandbox_settings, install="INSTALL")
    assert (
        not build.ok and build.log.startswith("INSTALL failed (exit code 3):\n") and "no compiler for XS" in build.log
    )
    folder = _tgz(
        (_info("INSTALL", tarfile.DIRTYPE), b""), (_info("runme"), b"#!/bin/sh\n")
    )  # a folder in its place: words, not a platform fault
    refused = build_program(folder, "entry.tar.gz", settings=sandbox_settings, install="INSTALL")
    assert not refused.ok and "INSTALL cannot be run" in refused.log
