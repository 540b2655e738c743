"""Languages: how to detect a toolchain on this host, build a source in the jail, and run it.

Only toolchains found on the host are offered; each build records its toolchain version.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .jail import Bind
from .limits import Limits

JAIL_PATH = "/usr/local/bin:/usr/bin:/bin"
RUST_ROOT = "/opt/rust"


@dataclass(frozen=True)
class Toolchain:
    version: str
    binds: tuple[Bind, ...] = ()
    env: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Language:
    name: str
    title: str
    extensions: tuple[str, ...]
    source_name: str  # what the source is called in the build folder
    detect: Callable[[], Toolchain | None]
    build: tuple[str, ...] | None  # command in the jail (cwd /work); None: nothing to build
    run: tuple[str, ...]
    outputs: tuple[str, ...] = ()  # files a successful build must leave
    memory_marker: bytes | None = None  # stderr text meaning the runtime ran out of its memory
    run_options: Callable[[Limits], tuple[str, ...]] = field(default=lambda limits: ())

    def toolchain(self) -> Toolchain | None:
        return _detect(self.name)


def _which(name: str) -> str | None:
    """A tool the jail can see: it must live under /usr (or the /bin symlinks)."""
    return shutil.which(name, path=JAIL_PATH)


def _first_line(argv: list[str], stream: str = "stdout") -> str | None:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=20, check=False, env={"PATH": JAIL_PATH})
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = (done.stdout if stream == "stdout" else done.stderr) or done.stdout or done.stderr
    lines = text.strip().splitlines()
    return lines[0].strip() if done.returncode == 0 and lines else None


def _simple(tool: str, *version_argv: str) -> Callable[[], Toolchain | None]:
    def detect() -> Toolchain | None:
        path = _which(tool)
        if path is None:
            return None
        version = _first_line([path, *version_argv])
        return Toolchain(f"{tool} {version}") if version else None

    return detect


def _detect_java() -> Toolchain | None:
    if _which("javac") is None or _which("java") is None:
        return None
    version = _first_line(["javac", "-version"])
    binds = tuple(
        Bind(Path(p), p)
        for p in ("/etc/java-17-openjdk", "/etc/java-21-openjdk", "/etc/java-11-openjdk")
        if os.path.isdir(p)
    )
    return Toolchain(version or "javac", binds) if version else None


def _detect_rust() -> Toolchain | None:
    """rustc, usually from rustup under /root: its sysroot is bound at /opt/rust."""
    rustc = shutil.which("rustc") or shutil.which("rustc", path=os.path.expanduser("~/.cargo/bin"))
    if rustc is None or _which("cc") is None:
        return None
    try:
        sysroot = subprocess.run(
            [rustc, "--print", "sysroot"], capture_output=True, text=True, timeout=20, check=True
        ).stdout.strip()
        version = subprocess.run(
            [rustc, "--version"], capture_output=True, text=True, timeout=20, check=True
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    if not Path(sysroot, "bin", "rustc").exists():
        return None
    return Toolchain(version, (Bind(Path(sysroot), RUST_ROOT),), (("PATH", f"{RUST_ROOT}/bin:{JAIL_PATH}"),))


def _detect_shell() -> Toolchain | None:
    sh = _which("sh")
    return Toolchain(f"sh ({Path(os.path.realpath(sh)).name})") if sh else None


def _detect_archive() -> Toolchain | None:
    make, sh = _which("make"), _which("sh")
    if make is None or sh is None:
        return None
    parts = [_first_line([make, "--version"]) or "make"]
    for tool in ("gcc", "g++"):
        if _which(tool):
            parts.append(f"{tool} {_first_line([tool, '-dumpfullversion'])}")
    return Toolchain("; ".join(parts))


def _java_options(limits: Limits) -> tuple[str, ...]:
    # The JVM cannot see the cgroup from inside the jail: tell it the memory it has, so a
    # memory bomb ends with a recognisable OutOfMemoryError rather than a random OOM kill.
    return (f"-XX:MaxRAM={limits.memory_mb}m", "-XX:MaxRAMPercentage=70", "-XX:+ExitOnOutOfMemoryError")


def _java_class(source: bytes) -> str:
    match = re.search(rb"public\s+(?:final\s+|abstract\s+)*class\s+([A-Za-z_$][\w$]*)", source)
    return match.group(1).decode() if match else "Main"


LANGUAGES: dict[str, Language] = {
    lang.name: lang
    for lang in (
        Language(
            "c",
            "C (gcc)",
            (".c",),
            "main.c",
            _simple("gcc", "-dumpfullversion"),
            ("gcc", "-O2", "-std=gnu17", "-pipe", "-o", "prog", "main.c", "-lm"),
            ("./prog",),
            ("prog",),
        ),
        Language(
            "cpp",
            "C++ (g++)",
            (".cpp", ".cc", ".cxx", ".C"),
            "main.cpp",
            _simple("g++", "-dumpfullversion"),
            ("g++", "-O2", "-std=gnu++17", "-pipe", "-o", "prog", "main.cpp"),
            ("./prog",),
            ("prog",),
        ),
        Language(
            "python3",
            "Python 3",
            (".py",),
            "main.py",
            _simple("python3", "--version"),
            ("python3", "-I", "-m", "py_compile", "main.py"),
            ("python3", "-I", "main.py"),
            memory_marker=b"MemoryError",
        ),
        Language(
            "java",
            "Java",
            (".java",),
            "Main.java",
            _detect_java,
            ("javac", "-J-XX:+UseSerialGC", "-J-Xss8m", "-encoding", "UTF-8", "-d", ".", "Main.java"),
            ("java", "-XX:+UseSerialGC", "-Xss64m", "-cp", ".", "Main"),
            memory_marker=b"java.lang.OutOfMemoryError",
            run_options=_java_options,
        ),
        Language(
            "perl",
            "Perl",
            (".pl",),
            "main.pl",
            _simple("perl", "-e", "print $^V"),
            ("perl", "-c", "main.pl"),
            ("perl", "main.pl"),
        ),
        Language(
            "rust",
            "Rust",
            (".rs",),
            "main.rs",
            _detect_rust,
            ("rustc", "-O", "--edition", "2021", "-o", "prog", "main.rs"),
            ("./prog",),
            ("prog",),
        ),
        Language(
            "javascript",
            "JavaScript (node)",
            (".js", ".mjs"),
            "main.js",
            _simple("node", "--version"),
            ("node", "--check", "main.js"),
            ("node", "main.js"),
            memory_marker=b"JavaScript heap out of memory",
        ),
        Language(
            "shell", "POSIX shell", (".sh",), "main.sh", _detect_shell, ("sh", "-n", "main.sh"), ("sh", "main.sh")
        ),
        Language(
            "static",
            "static Linux executable",
            ("", ".bin", ".exe", ".elf"),
            "prog",
            lambda: Toolchain("static-elf"),
            None,
            ("./prog",),
        ),
        Language(
            "archive",
            "archive with Makefile or build script and runme",
            (".zip", ".tar.gz", ".tgz"),
            "",
            _detect_archive,
            None,
            ("./runme",),
        ),
    )
}


@functools.cache
def _detect(name: str) -> Toolchain | None:
    return LANGUAGES[name].detect()


def available() -> dict[str, Toolchain]:
    """The languages this host offers, with their toolchain versions."""
    found = {}
    for name in LANGUAGES:
        toolchain = _detect(name)
        if toolchain is not None:
            found[name] = toolchain
    return found


def language_for(filename: str, data: bytes | None = None) -> Language:
    """The language of a file by its extension (an ELF file without one is a static executable)."""
    lower = filename.lower()
    for lang in LANGUAGES.values():
        for ext in lang.extensions:
            if ext and lower.endswith(ext.lower()):
                return lang
    if data is not None and data.startswith(b"\x7fELF"):
        return LANGUAGES["static"]
    raise ValueError(f"cannot tell the language of {filename!r}; say which")


def java_class(source: bytes) -> str:
    return _java_class(source)
