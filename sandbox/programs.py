"""Building entries (in the jail, cached) and running them: the sandbox's front door.

build = build_program(source_bytes, "main.cpp")        # or language="cpp"
if not build.ok: show(build.log)
result = run_program(build.program, stdin=b"...", limits=Limits(cpu_s=1))

with open_jail(build.program, limits) as jail:         # one jail for a whole match
    move = jail.run(build.program.argv(limits), stdin=board)
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from . import archive
from .conf import SandboxSettings, get_settings
from .errors import SandboxUnavailable, UnsafeArchive
from .jail import Bind, Endpoint, Jail
from .languages import (
    DEFAULT_TABLE,
    JAIL_PATH,
    LANGUAGES,
    Commands,
    Language,
    Toolchain,
    java_class,
    language_for,
    table,
)
from .limits import BUILD_LIMITS, Limits
from .pool import pool_for
from .result import RunResult, Verdict
from .selfcheck import require_isolation
from .slots import Slot
from .text import printable

CACHE_FORMAT = 1


@dataclass(frozen=True)
class Program:
    """A built entry: files to put in the work folder and the command that runs it."""

    language: str
    toolchain: str
    files: Path  # folder in the build cache
    command: tuple[str, ...]
    binds: tuple[Bind, ...] = ()
    env: tuple[tuple[str, str], ...] = ()

    def argv(self, limits: Limits, args: Sequence[str] = ()) -> list[str]:
        lang = LANGUAGES[self.language]
        options = lang.run_options(limits)
        return [self.command[0], *options, *self.command[1:], *args]


def program_size(program: Program) -> int:
    """The size of a built program as the MSO page counted "executable size": every file of
    the build, plus the interpreter or virtual machine its command starts when that is not
    one of the build's files ("if we have to run JAVA.EXE in order to execute your class file,
    your executable size will be the sum of those two sizes")."""
    size = sum(p.stat().st_size for p in program.files.rglob("*") if p.is_file() and not p.is_symlink())
    first = program.command[0]
    if "/" not in first or first.startswith("/"):
        found = shutil.which(first, path=JAIL_PATH) if "/" not in first else first
        if found and os.path.isfile(found):
            size += os.path.getsize(os.path.realpath(found))
    return size


@dataclass
class BuildResult:
    ok: bool
    language: str
    toolchain: str
    log: str
    program: Program | None = None
    cached: bool = False
    run: RunResult | None = None  # the compiler's run, when it ran now
    extra: dict[str, object] = field(default_factory=dict)


# An archive's runme made again from its sources, as the Hearts and Flowers page promises ("If
# the supplied executable does not work, we will attempt to rebuild your program from the
# sources you provide"): the supplied runme is removed first, so it cannot survive a Makefile
# that makes nothing; a src/Makefile may leave runme in src/ or write ../runme itself.
REBUILD_FROM_SOURCES = (
    "sh",
    "-c",
    "rm -f runme && make -C src && { [ -e runme ] || cp src/runme runme; }",
)


def _host_cpu() -> str:
    """This CPU's model and features: a build for ``-march=native`` is this machine's only."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            lines = [line for line in f if line.startswith(("model name", "flags"))]
    except OSError:
        return "unknown"
    return hashlib.sha256("".join(sorted(set(lines))).encode()).hexdigest()[:16]


def cache_key(source: bytes, language: str, toolchain: str, commands: Commands | None = None, variant: str = "") -> str:
    digest = hashlib.sha256()
    command = ""
    if commands is not None:
        command = json.dumps([commands.build, commands.run])
        if "native" in command:  # -march=native, target-cpu=native
            command += _host_cpu()
    parts = [str(CACHE_FORMAT).encode(), hashlib.sha256(source).digest(), language.encode(), toolchain.encode()]
    if variant:  # keys without one stay as they were
        parts.append(variant.encode())
    for part in (*parts, *([command.encode()] if command else [])):
        digest.update(len(part).to_bytes(8, "big") + part)
    return digest.hexdigest()


def _toolchain(lang: Language) -> Toolchain:
    toolchain = lang.toolchain()
    if toolchain is None:
        raise SandboxUnavailable(f"this host has no toolchain for {lang.title}")
    return toolchain


def build_program(
    source: bytes,
    filename: str = "",
    *,
    language: str | None = None,
    table_name: str = DEFAULT_TABLE,
    limits: Limits = BUILD_LIMITS,
    settings: SandboxSettings | None = None,
    from_sources: bool = False,
    install: str = "",
) -> BuildResult:
    """Build a source (or archive, or executable) in the jail with the command its contest's
    language table gives, or take it from the cache.

    ``from_sources``: an archive's runme is made again with ``src/Makefile`` (the supplied one
    is discarded), for an entry whose supplied runme does not run; other languages refuse it.
    ``install``: the name of a script an archive may hold that is run once, in the build jail,
    after its build (the Solitaire 500's ``INSTALL``: "it will be run"); what it prints goes
    into the build log, what it writes into the program's folder is kept, and its failure is
    the build's."""
    settings = settings or get_settings()
    languages = table(table_name)
    lang = LANGUAGES[language] if language else language_for(filename, source, languages.commands)
    if from_sources and lang.name != "archive":
        raise ValueError(f"only an archive is rebuilt from its sources, not {lang.title}")
    toolchain = _toolchain(lang)
    if lang.name not in languages:
        offered = ", ".join(languages.commands)
        return BuildResult(False, lang.name, toolchain.version, f"{lang.title} is not offered here ({offered})")
    commands = languages.commands[lang.name]
    extra = ("from-sources" if from_sources else "") + (
        f"install:{install}" if install and lang.name == "archive" else ""
    )
    key = cache_key(source, lang.name, toolchain.version, commands, extra)
    final = settings.cache_dir / key
    cached = _load(final, lang, toolchain)
    if cached is not None:
        cached.cached = True
        return cached
    require_isolation(settings)
    settings.cache_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    staging = settings.cache_dir / f".tmp-{uuid.uuid4().hex}"
    staging.mkdir(mode=0o700)
    try:
        result = _build(source, lang, commands, toolchain, limits, settings, staging, from_sources, install)
        (staging / "build.json").write_text(json.dumps(_meta(result)), encoding="utf-8")
        try:
            os.rename(staging, final)
        except OSError:  # another worker built it first: theirs is as good
            shutil.rmtree(staging)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    loaded = _load(final, lang, toolchain)
    assert loaded is not None
    loaded.run = result.run
    return loaded


def _meta(result: BuildResult) -> dict[str, object]:
    program = result.program
    return {
        "ok": result.ok,
        "language": result.language,
        "toolchain": result.toolchain,
        "log": result.log,
        "command": list(program.command) if program else None,
    }


def _load(folder: Path, lang: Language, toolchain: Toolchain) -> BuildResult | None:
    try:
        meta = json.loads((folder / "build.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    program = None
    if meta["ok"]:
        program = Program(
            lang.name, toolchain.version, folder / "files", tuple(meta["command"]), toolchain.binds, toolchain.env
        )
    return BuildResult(meta["ok"], lang.name, toolchain.version, meta["log"], program)


def _build(
    source: bytes,
    lang: Language,
    commands: Commands,
    toolchain: Toolchain,
    limits: Limits,
    settings: SandboxSettings,
    staging: Path,
    from_sources: bool = False,
    install: str = "",
) -> BuildResult:
    files = staging / "files"
    command = commands.run
    build_argv = commands.build
    fail = BuildResult(False, lang.name, toolchain.version, "")
    with Jail(limits, binds=toolchain.binds, settings=settings) as jail:
        assert jail.work is not None
        if lang.name == "archive":
            try:
                archive.extract(source, jail.work)
            except UnsafeArchive as e:
                fail.log = f"archive refused: {e}"
                return fail
            build_argv = _archive_build_command(jail)
            if from_sources:
                if not (jail.work.path / "src" / "Makefile").is_file():
                    fail.log = "no src/Makefile to rebuild runme from"
                    return fail
                build_argv = REBUILD_FROM_SOURCES
        elif lang.name == "static":
            if not source.startswith(b"\x7fELF"):
                fail.log = "not a Linux executable (no ELF header)"
                return fail
            jail.work.write_file(lang.source_name, source, 0o755)
        elif lang.name == "java":
            name = java_class(source)
            jail.work.write_file(f"{name}.java", source)
            build_argv = tuple(f"{name}.java" if a == "Main.java" else a for a in build_argv or ())
            command = tuple(name if a == "Main" else a for a in command)
        else:
            jail.work.write_file(lang.source_name, source)
        run = None
        if build_argv:
            run = jail.run(build_argv, env=dict(toolchain.env))
            log = printable(run.stdout + run.stderr, lines=True)
            if run.verdict is not Verdict.OK:
                fail.log = (
                    f"{build_failed('the build' if lang.name == 'archive' else 'compilation', run)}\n{log}".strip()
                )
                fail.run = run
                return fail
        else:
            log = ""
        if install and lang.name == "archive" and os.path.lexists(jail.work.path / install):
            try:
                argv = _install_command(jail, install)
            except ValueError as e:
                fail.log = f"{log}\n{install} cannot be run: {e}".strip()
                return fail
            run = jail.run(argv, env=dict(toolchain.env))
            log = f"{log}\n$ ./{install}\n{printable(run.stdout + run.stderr, lines=True)}".strip()
            if run.verdict is not Verdict.OK:
                fail.log = f"{build_failed(install, run)}\n{log}"
                fail.run = run
                return fail
        for needed in (*lang.outputs, *(["runme"] if lang.name == "archive" else [])):
            try:
                jail.work.read_file(needed, max_bytes=limits.file_size_mb << 20)
            except (OSError, ValueError) as e:
                fail.log = f"{log}\nbuild left no usable {needed}: {e}".strip()
                fail.run = run
                return fail
        try:
            jail.work.copy_out(files, max_bytes=limits.work_mb << 20)
        except ValueError as e:  # too large, or too deep, to keep
            shutil.rmtree(files, ignore_errors=True)  # what was copied before it was seen
            fail.log = f"{log}\n{e}".strip()
            fail.run = run
            return fail
        if lang.name == "archive":
            os.chmod(files / "runme", 0o755)
    program = Program(lang.name, toolchain.version, files, tuple(command), toolchain.binds, toolchain.env)
    return BuildResult(True, lang.name, toolchain.version, log, program, run=run)


def build_failed(what: str, run: RunResult) -> str:
    """The first line of a failed build's log, as a contestant reads it: "compilation failed
    (exit code 1):" above the compiler's own message."""
    if run.verdict is Verdict.RUNTIME_ERROR:
        how = f"exit code {run.exit_code}" if run.exit_code else run.note
        return f"{what} failed" + (f" ({how})" if how else "") + ":"
    stopped = {
        Verdict.TIME_LIMIT: "took too long",
        Verdict.WALL_LIMIT: "took too long",
        Verdict.MEMORY_LIMIT: "ran out of memory",
        Verdict.OUTPUT_LIMIT: "printed too much",
    }.get(run.verdict, "failed")
    return f"{what} {stopped}" + (f" ({run.note})" if run.note else "") + ":"


def _install_command(jail: Jail, name: str) -> tuple[str, ...]:
    """An archive's install script run as its ``#!`` line says (the interpreter's name: the
    jail has its own paths), else by sh. Read without following a link; nothing on the host
    is changed for it. ValueError, in words, for what cannot be such a script."""
    assert jail.work is not None
    first = jail.work.read_file(name, max_bytes=1 << 20).split(b"\n", 1)[0]
    if not first.startswith(b"#!"):
        return ("sh", f"./{name}")
    words = first[2:].decode("utf-8", "replace").split()
    if not words:
        return ("sh", f"./{name}")
    interpreter, *args = words
    interpreter = interpreter.rpartition("/")[2]
    if interpreter == "env" and args:
        interpreter, *args = args
    return (interpreter, *args, f"./{name}")


def _archive_build_command(jail: Jail) -> tuple[str, ...] | None:
    assert jail.work is not None
    present = {p.name for p in jail.work.path.iterdir()}
    if "build" in present:
        return ("sh", "./build")
    if "Makefile" in present or "makefile" in present:
        return ("make",)
    if "runme" not in present and (jail.work.path / "src" / "Makefile").is_file():
        return ("sh", "-c", "make -C src && cp src/runme runme")
    return None


def open_jail(
    program: Program,
    limits: Limits,
    *,
    endpoint: Endpoint | None = None,
    user: str | None = None,
    settings: SandboxSettings | None = None,
    slot: Slot | None = None,
    writable: str | None = None,
    sealed: bool = False,
) -> Jail:
    """A started jail holding `program`'s files in its work folder (close it, or use `with`);
    in ``slot`` if given (one of a match's reservation), else in a slot of its own. The files
    are read-only to the program but those in its folder ``writable`` (``Jail.install``); with
    ``sealed`` it makes no file among them either."""
    jail = None
    if slot is None and endpoint is None and user is None:  # a shape a pool can make ahead
        pool = pool_for(settings or get_settings())
        jail = pool.take(limits, program.binds) if pool is not None else None
    if jail is None:
        jail = Jail(limits, binds=program.binds, endpoint=endpoint, user=user, settings=settings, slot=slot)
        jail.start()
    try:
        jail.install(program.files, writable=writable, sealed=sealed)
    except BaseException:
        jail.close()
        raise
    return jail


def run_program(
    program: Program,
    *,
    stdin: bytes = b"",
    args: Sequence[str] = (),
    limits: Limits | None = None,
    files: dict[str, bytes] | None = None,
    endpoint: Endpoint | None = None,
    settings: SandboxSettings | None = None,
) -> RunResult:
    """Run a built program once in a fresh jail."""
    limits = limits or Limits()
    with open_jail(program, limits, endpoint=endpoint, settings=settings) as jail:
        assert jail.work is not None
        for name, data in (files or {}).items():
            jail.work.write_file(name, data)
        result = jail.run(program.argv(limits, args), stdin=stdin, env=dict(program.env))
        return judge_language(program, result, limits)


def judge_language(program: Program, result: RunResult, limits: Limits) -> RunResult:
    """Runtimes that fail an allocation themselves (JVM, Python, node) did hit the memory limit."""
    marker = LANGUAGES[program.language].memory_marker
    if marker and result.verdict is Verdict.RUNTIME_ERROR and (marker in result.stderr or marker in result.stdout):
        result.verdict = Verdict.MEMORY_LIMIT
        result.note = f"memory limit of {limits.memory_mb} MB exceeded ({marker.decode()})"
    return result
