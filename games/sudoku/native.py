"""The solution counter, in C (count.c) for speed, compiled once with the host's C compiler
into the virtual environment and loaded through ctypes. A host without a compiler cannot
judge Sudoku: :class:`NativeUnavailable` is then an infrastructure fault, not a player's."""

from __future__ import annotations

import ctypes
import functools
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

SOURCE = Path(__file__).with_name("count.c")


class NativeUnavailable(RuntimeError):
    pass


def library_path() -> Path:
    digest = hashlib.sha256(SOURCE.read_bytes()).hexdigest()[:16]
    base = Path(os.environ.get("ARBITER_NATIVE_DIR") or Path(sys.prefix) / "arbiter-native")
    return base / f"sudoku-count-{digest}.so"


@functools.cache
def load() -> ctypes.CDLL:
    path = library_path()
    if not path.exists():
        compiler = shutil.which("cc") or shutil.which("gcc")
        if compiler is None:
            raise NativeUnavailable("no C compiler on this host to build the Sudoku solution counter")
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        done = subprocess.run(
            [compiler, "-O2", "-std=c99", "-shared", "-fPIC", "-o", str(partial), str(SOURCE)],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise NativeUnavailable(f"building the Sudoku solution counter failed:\n{done.stderr}")
        os.replace(partial, path)  # atomic: another process may be doing the same
    lib = ctypes.CDLL(str(path))
    lib.sudoku_count.argtypes = [ctypes.c_char_p, ctypes.c_long, ctypes.c_int, ctypes.c_int]
    lib.sudoku_count.restype = ctypes.c_long
    return lib


def count(grid: bytes, limit: int = 2, exclude: tuple[int, int] | None = None) -> int:
    """min(number of solutions, limit) of an 81-byte grid (0 for empty); with ``exclude`` =
    (cell, digit), solutions having that digit in that cell are not counted."""
    if len(grid) != 81:
        raise ValueError("a sudoku grid has 81 cells")
    cell, digit = exclude if exclude else (-1, 0)
    return int(load().sudoku_count(bytes(grid), limit, cell, digit))
