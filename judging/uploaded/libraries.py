"""A Python referee's libraries (its manifest's ``requirements``): installed once for each text
of requirements, from wheels only, so that no package's code runs at install (``pip install
--only-binary :all:``), from the package index the host's pip is configured to use
(``PIP_INDEX_URL``, pip's configuration, or PyPI), into a folder made read-only and kept under
``REFEREE_LIBRARIES_DIR`` by the requirements' SHA-256. The referee's jail shows it read-only at
``MOUNT`` and its Python finds it first on its path (``run_with``).

On the site the check of an upload installs them (a version whose requirements cannot be
installed is refused with pip's own words); a worker that finds them missing (a host that did
not check it) installs them as the check did; ``arbiter play`` at home does the same in its own
folder. Two processes installing the same text at once each install in a folder of their own
and the first to finish is kept.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from django.conf import settings

from sandbox.jail import Bind
from sandbox.programs import Program

MOUNT = "/opt/referee-libraries"
PIP_TIMEOUT_S = 900
DONE = ".installed"
# The referee run as ``python3 -I main.py`` would be, with its libraries first on its path.
LAUNCH = (
    f"import runpy, sys; sys.path.insert(0, {MOUNT!r}); sys.argv = ['main.py']; "
    "runpy.run_path('main.py', run_name='__main__')"
)


class LibraryError(Exception):
    """The requirements could not be installed; the message says why (pip's last lines)."""


def folder(requirements: str) -> Path:
    digest = hashlib.sha256(requirements.encode()).hexdigest()[:32]
    return Path(settings.REFEREE_LIBRARIES_DIR) / digest


def installed(requirements: str) -> bool:
    return (folder(requirements) / DONE).exists()


def ensure(requirements: str) -> Path:
    """The installed folder of these requirements, installing them if no process has."""
    target = folder(requirements)
    if (target / DONE).exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        _install(requirements, work)
        _read_only(work)
        try:
            work.rename(target)  # atomically: another process's finished one may be there already
        except OSError:
            if not (target / DONE).exists():
                raise
    finally:
        if work.exists():
            _writable(work)
            shutil.rmtree(work, ignore_errors=True)
    return target


def _install(requirements: str, work: Path) -> None:
    listed = work / "requirements.txt"
    listed.write_text(requirements)
    libraries = work / "lib"
    command = [
        sys.executable, "-m", "pip", "install", "--only-binary", ":all:", "--target", str(libraries),
        "--no-compile", "--no-input", "--disable-pip-version-check", "--no-warn-script-location",
        "--requirement", str(listed),
    ]  # fmt: skip
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=PIP_TIMEOUT_S, env=_pip_env())
    except subprocess.TimeoutExpired:
        raise LibraryError(f"pip took longer than {PIP_TIMEOUT_S} s to install the requirements") from None
    if done.returncode != 0:
        said = [line for line in (done.stderr or done.stdout).splitlines() if line.strip()]
        raise LibraryError("pip could not install the requirements: " + "\n".join(said[-8:]))
    size = sum(p.stat().st_size for p in libraries.rglob("*") if p.is_file() and not p.is_symlink())
    limit = settings.REFEREE_LIBRARIES_MAX_MB << 20
    if size > limit:
        raise LibraryError(
            f"the requirements install to {size >> 20} MiB, over this site's {settings.REFEREE_LIBRARIES_MAX_MB} MiB"
            " (REFEREE_LIBRARIES_MAX_MB)"
        )
    # the folder as the jail shows it: the libraries at its top
    for entry in libraries.iterdir():
        entry.rename(work / entry.name)
    libraries.rmdir()
    (work / DONE).write_text(requirements)


def _pip_env() -> dict[str, str]:
    """pip as the host has it configured (its index, proxies, certificates), never a user's
    site-packages nor this process's own Python path."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PIP_USER")}
    env["PIP_NO_CACHE_DIR"] = env.get("PIP_NO_CACHE_DIR", "1")
    return env


def _read_only(top: Path) -> None:
    for path in [top, *top.rglob("*")]:
        if not path.is_symlink():
            path.chmod(0o555 if path.is_dir() else 0o444)


def _writable(top: Path) -> None:
    for path in [top, *top.rglob("*")]:
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o755)


def run_with(program: Program, libraries: Path) -> Program:
    """The referee's program with its libraries shown read-only at MOUNT, first on its path."""
    return dataclasses.replace(
        program,
        binds=(*program.binds, Bind(libraries, MOUNT)),
        command=(program.command[0], "-I", "-c", LAUNCH),
    )
