"""Languages: how to detect a toolchain on this host, build a source in the jail, and run it.

Only toolchains found on the host are offered; each build records its toolchain version.
A contest names a language table (``TABLES``): the languages it offers and the exact build
and run command of each, as its original page stated them (CodeCup's technical rules, the
POTM's "compiled WITHOUT ANY OPTIMIZATION"). ``arbiter`` is the platform's own table.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterable
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
    comments: str = ""  # comment syntax, for contests whose source limit counts code only (comments.py)
    interpreters: tuple[str, ...] = ()  # what a script's `#!` line may name

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


def _detect_awk() -> Toolchain | None:
    awk = _which("awk")
    if awk is None:
        return None
    name = Path(os.path.realpath(awk)).name  # mawk, gawk or busybox, through Debian's alternatives
    version = _first_line([awk, "-W", "version"]) or _first_line([awk, "--version"])
    return Toolchain(f"awk ({name}{' ' + version if version and name not in version else ''})".strip())


def _detect_go() -> Toolchain | None:
    go = _which("go")
    version = _first_line([go, "version"]) if go else None
    # go build needs a cache and a home it can write: the jail's /tmp.
    env = (("GOCACHE", "/tmp/go-cache"), ("GOPATH", "/tmp/go"), ("HOME", "/tmp"), ("GO111MODULE", "off"))
    return Toolchain(version, (), env) if version else None


def _detect_archive() -> Toolchain | None:
    """make and sh, with every other toolchain of the host: an archive's Makefile or build
    script may call any compiler the platform offers (rustc, javac...), and its runme any
    interpreter, so the jail gets the binds and PATH of all of them."""
    make, sh = _which("make"), _which("sh")
    if make is None or sh is None:
        return None
    parts = [_first_line([make, "--version"]) or "make"]
    binds: list[Bind] = []
    env: dict[str, str] = {}
    path = JAIL_PATH.split(":")
    for name in LANGUAGES:
        if name in ("archive", "static"):
            continue
        toolchain = _detect(name)
        if toolchain is None:
            continue
        binds.extend(b for b in toolchain.binds if b not in binds)
        for key, value in toolchain.env:
            if key == "PATH":
                path = [*(p for p in value.split(":") if p not in path), *path]
            else:
                env.setdefault(key, value)
    parts += [t.version for t in map(_detect, ("c", "cpp", "rust")) if t is not None]
    return Toolchain("; ".join(dict.fromkeys(parts)), tuple(binds), (("PATH", ":".join(path)), *env.items()))


def _java_options(limits: Limits) -> tuple[str, ...]:
    # The JVM cannot see the cgroup from inside the jail: tell it the memory it has, so a
    # memory bomb ends with a recognisable OutOfMemoryError rather than a random OOM kill.
    return (f"-XX:MaxRAM={limits.memory_mb}m", "-XX:MaxRAMPercentage=70", "-XX:+ExitOnOutOfMemoryError")


def _java_class(source: bytes) -> str:
    match = re.search(rb"public\s+(?:final\s+|abstract\s+)*class\s+([A-Za-z_$][\w$]*)", source)
    return match.group(1).decode() if match else "Main"


def _cpp(name: str, std: str) -> Language:
    return Language(
        name,
        f"C++ ({std}, g++)",
        (".cpp", ".cc", ".cxx", ".C"),
        "main.cpp",
        _simple("g++", "-dumpfullversion"),
        ("g++", "-O2", f"-std={std}", "-pipe", "-o", "prog", "main.cpp"),
        ("./prog",),
        ("prog",),
        comments="c",
    )


# The order matters where extensions are shared: a file is of the first language that claims
# its extension among those a contest offers (a .cpp is C++17 on the platform's own table,
# C++20 where a table offers the standards one by one, as CodeCup's).
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
            comments="c",
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
            comments="c",
        ),
        _cpp("cpp20", "c++20"),
        _cpp("cpp17", "c++17"),
        _cpp("cpp11", "c++11"),
        _cpp("cpp98", "c++98"),
        Language(
            "python3",
            "Python 3",
            (".py",),
            "main.py",
            _simple("python3", "--version"),
            ("python3", "-I", "-m", "py_compile", "main.py"),
            ("python3", "-I", "main.py"),
            memory_marker=b"MemoryError",
            comments="hash",
            interpreters=("python3", "python"),
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
            comments="c",
        ),
        Language(
            "perl",
            "Perl",
            (".pl",),
            "main.pl",
            _simple("perl", "-e", "print $^V"),
            ("perl", "-c", "main.pl"),
            ("perl", "main.pl"),
            comments="hash",
            interpreters=("perl",),
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
            comments="c",
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
            comments="c",
            interpreters=("node", "nodejs"),
        ),
        Language(
            "pascal",
            "Pascal (Free Pascal)",
            (".pas", ".pp", ".p"),
            "main.pas",
            _simple("fpc", "-iW"),
            ("fpc", "-O2", "-oprog", "main.pas"),
            ("./prog",),
            ("prog",),
        ),
        Language(
            "haskell",
            "Haskell (GHC)",
            (".hs",),
            "main.hs",
            _simple("ghc", "--numeric-version"),
            ("ghc", "-O2", "-o", "prog", "main.hs"),
            ("./prog",),
            ("prog",),
        ),
        Language(
            "ocaml",
            "OCaml",
            (".ml",),
            "main.ml",
            _simple("ocamlopt", "-version"),
            ("ocamlopt", "-O3", "-o", "prog", "main.ml"),
            ("./prog",),
            ("prog",),
        ),
        Language(
            "go",
            "Go",
            (".go",),
            "main.go",
            _detect_go,
            ("go", "build", "-o", "prog", "main.go"),
            ("./prog",),
            ("prog",),
            comments="c",
        ),
        Language(
            "shell",
            "POSIX shell",
            (".sh",),
            "main.sh",
            _detect_shell,
            ("sh", "-n", "main.sh"),
            ("sh", "main.sh"),
            comments="hash",
            interpreters=("sh", "dash"),
        ),
        Language(
            "bash",
            "Bash",
            (".bash",),
            "main.sh",
            _simple("bash", "-c", "echo $BASH_VERSION"),
            ("bash", "-n", "main.sh"),
            ("bash", "main.sh"),
            comments="hash",
            interpreters=("bash",),
        ),
        Language(
            "awk",
            "awk",
            (".awk",),
            "main.awk",
            _detect_awk,
            None,  # awk has no check-only mode: a syntax error shows in the first game
            ("awk", "-f", "main.awk"),  # what `#!/usr/bin/awk -f` runs: `./main.awk ARGS`
            comments="hash",
            interpreters=("awk", "mawk", "gawk", "nawk"),
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


@dataclass(frozen=True)
class Commands:
    """How one contest builds and runs one language: argv in the jail, cwd /work."""

    build: tuple[str, ...] | None
    run: tuple[str, ...]

    def shown(self) -> tuple[str, str]:
        """The commands as a contestant reads them (a build in the work folder)."""
        return (" ".join(self.build) if self.build else "", " ".join(self.run))


@dataclass(frozen=True)
class LanguageTable:
    """The languages a contest offers, each with its build and run command, as its page stated."""

    name: str
    title: str
    source: str  # where the commands come from
    commands: dict[str, Commands]

    def __contains__(self, language: str) -> bool:
        return language in self.commands


def _own(*names: str) -> dict[str, Commands]:
    return {n: Commands(LANGUAGES[n].build, LANGUAGES[n].run) for n in names}


_CODECUP_GCC = ("-Wall", "-pipe", "-O2", "-march=native", "-g")

TABLES: dict[str, LanguageTable] = {
    table.name: table
    for table in (
        LanguageTable("arbiter", "Arbiter's own", "this platform", _own(*LANGUAGES)),
        LanguageTable(
            "codecup",
            "CodeCup (technical rules of 2023 and 2024)",
            "https://archive.codecup.nl/2024/52/rules_tech.html",
            {
                "c": Commands(("gcc", *_CODECUP_GCC, "--std=c99", "-o", "prog", "main.c", "-lm"), ("./prog",)),
                **{
                    f"cpp{std}": Commands(
                        ("g++", *_CODECUP_GCC, f"--std=c++{std}", "-o", "prog", "main.cpp", "-lm"), ("./prog",)
                    )
                    for std in ("20", "17", "11", "98")
                },
                # The machines' own CPU, as gcc's -march=native: SSE4.1 and more for Rust's SIMD.
                "rust": Commands(
                    ("rustc", "-O", "--edition", "2021", "-C", "target-cpu=native", "-o", "prog", "main.rs"),
                    ("./prog",),
                ),
                "pascal": Commands(("fpc", "-Sog", "-O2", "-viwn", "-g", "-Cr-t-", "-oprog", "main.pas"), ("./prog",)),
                **_own("python3", "java", "javascript", "haskell", "ocaml", "go"),
            },
        ),
        LanguageTable(
            "potm",
            "POTM (compiled without any optimisation, math library loaded)",
            "the contest's page, section I b",
            {
                "c": Commands(("gcc", "-o", "prog", "main.c", "-lm"), ("./prog",)),
                "cpp": Commands(("g++", "-o", "prog", "main.cpp", "-lm"), ("./prog",)),
                "rust": Commands(("rustc", "--edition", "2021", "-o", "prog", "main.rs"), ("./prog",)),
                **_own("awk", "perl", "shell", "bash", "python3", "java", "javascript"),
            },
        ),
    )
}
DEFAULT_TABLE = "arbiter"


def table(name: str) -> LanguageTable:
    try:
        return TABLES[name]
    except KeyError:
        raise ValueError(f"no language table {name!r} (known: {', '.join(TABLES)})") from None


@functools.cache
def _detect(name: str) -> Toolchain | None:
    return LANGUAGES[name].detect()


def available(table_name: str = DEFAULT_TABLE) -> dict[str, Toolchain]:
    """The languages of a table this host offers, with their toolchain versions."""
    found = {}
    for name in table(table_name).commands:
        toolchain = _detect(name)
        if toolchain is not None:
            found[name] = toolchain
    return found


_SHEBANG = re.compile(rb"#![ \t]*(\S+)(?:[ \t]+(\S+))?")


def _by_shebang(data: bytes) -> list[Language]:
    """Languages whose interpreter a script's first line names (`#!/usr/bin/awk -f`,
    `#!/usr/bin/env perl`)."""
    match = _SHEBANG.match(data[:256])
    if not match:
        return []
    program = match.group(1).rsplit(b"/", 1)[-1].decode("ascii", errors="replace")
    if program == "env" and match.group(2):
        program = match.group(2).rsplit(b"/", 1)[-1].decode("ascii", errors="replace")
    program = re.sub(r"[\d.]+$", "", program) or program  # python3.11, perl5
    return [lang for lang in LANGUAGES.values() if program in lang.interpreters or program + "3" in lang.interpreters]


def language_for(filename: str, data: bytes | None = None, offered: Iterable[str] | None = None) -> Language:
    """The language of a file: by its script line (`#!`) if it names an interpreter, else by
    its extension (an ELF file without one is a static executable). Where several languages
    claim it (.cpp), the first of ``offered`` in the registry's order."""
    allowed = set(offered) if offered is not None else None
    lower = filename.lower()
    candidates = _by_shebang(data) if data else []
    if not candidates:
        candidates = [
            lang for lang in LANGUAGES.values() if any(ext and lower.endswith(ext.lower()) for ext in lang.extensions)
        ]
    if not candidates and data is not None and data.startswith(b"\x7fELF"):
        candidates = [LANGUAGES["static"]]
    for lang in candidates:
        if allowed is None or lang.name in allowed:
            return lang
    if candidates:
        return candidates[0]
    raise ValueError(f"cannot tell the language of {filename!r}; say which")


def java_class(source: bytes) -> str:
    return _java_class(source)
