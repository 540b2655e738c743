"""The jail's native runner (``runner.c``): built once per host and installation with the
host's C compiler, into the installation's SANDBOX_ROOT (which every jail uid can reach),
named after the hash of its source so that a changed runner is built again.

The same binary is the launcher that starts bubblewrap (joins the cgroup, drops to the slot's
uid) and, inside the jail, the runner that is its pid 1.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from .errors import SandboxUnavailable

SOURCE = Path(__file__).with_name("runner.c")
FLAGS = ("-O2", "-pthread", "-Wall", "-Wextra")


def _compiler() -> str:
    for name in ("gcc", "cc", "clang"):
        found = shutil.which(name)
        if found:
            return found
    raise SandboxUnavailable("a C compiler (gcc) is needed on a worker host to build the jail's runner")


@functools.cache
def runner(root: Path) -> Path:
    """The runner's binary for the installation whose SANDBOX_ROOT is ``root``, built if it is
    not there yet (static where the C library allows, so nothing is looked up at its start)."""
    source = SOURCE.read_bytes()
    digest = hashlib.sha256(source + " ".join(FLAGS).encode()).hexdigest()[:16]
    folder = root / "bin"
    target = folder / f"runner-{digest}"
    if target.is_file() and os.access(target, os.X_OK):
        return target
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, 0o755)
    compiler = _compiler()
    errors = []
    with tempfile.TemporaryDirectory(prefix="arbiter-runner-") as tmp:
        built = Path(tmp) / "runner"
        for link in (["-static"], []):
            done = subprocess.run(
                [compiler, *FLAGS, *link, "-o", str(built), str(SOURCE)],
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode == 0:
                break
            errors.append(done.stderr.strip())
        else:
            raise SandboxUnavailable("the jail's runner does not build: " + "\n".join(errors)[-2000:])
        os.chmod(built, 0o755)
        staged = folder / f".runner-{digest}-{os.getpid()}"
        shutil.copyfile(built, staged)
        os.chmod(staged, 0o755)
        os.replace(staged, target)  # atomic: another process building it at once is harmless
    return target
