"""The code this site runs, as one archive a contestant downloads to play at home (``make kit``
in it): the default of ``SOURCE_URL``, so that a contest's "Play at home" always says where
Arbiter comes from, even on an installation that names no public repository.

The archive holds what the checkout tracks (``git ls-files``), else the project's folder less
what is this installation's own (its ``var/`` folder, ``.venv/``, ``.env`` and caches): never
a secret, an upload or a database. It is made once per version of the code, in the var
folder, and served as a file.
"""

from __future__ import annotations

import hashlib
import io
import os
import subprocess
import tarfile
import tempfile
from pathlib import Path

from django.conf import settings
from django.http import FileResponse, HttpRequest
from django.views.decorators.http import require_GET

NAME = "arbiter"  # the folder the archive unpacks to: the page's `cd arbiter && make kit`
# Never in the archive: the installation's own folders (at the top), build leftovers (anywhere).
TOP_LEFT_OUT = {".git", ".venv", "var"}
LEFT_OUT_DIRS = {"__pycache__", "node_modules", ".pytest_cache", ".ruff_cache", ".hypothesis"}
LEFT_OUT_FILES = {".env"}


def _tracked(root: Path) -> list[str] | None:
    """The files git tracks in ``root`` (None when it is no checkout or git is missing)."""
    if not (root / ".git").exists():
        return None
    try:
        listed = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z"], capture_output=True, check=True, timeout=30
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return sorted(name for name in listed.decode().split("\0") if name)


def _walked(root: Path) -> list[str]:
    found = []
    for folder, dirs, files in os.walk(root):
        top = Path(folder) == root
        dirs[:] = sorted(
            d
            for d in dirs
            if d not in LEFT_OUT_DIRS and not (top and d in TOP_LEFT_OUT) and not d.endswith(".egg-info")
        )
        for name in sorted(files):
            if name in LEFT_OUT_FILES or name.endswith((".pyc", ".sqlite3")):
                continue
            found.append(str((Path(folder) / name).relative_to(root)))
    return found


def files(root: Path | None = None) -> list[str]:
    """The archive's files, relative to the project's folder."""
    root = root or settings.BASE_DIR
    listed = _tracked(root)
    listed = _walked(root) if listed is None else listed
    own = Path(settings.VAR_DIR).resolve()  # wherever ARBITER_VAR_DIR points, inside the folder too
    keep = []
    for name in listed:
        parts = Path(name).parts
        if parts[0] in TOP_LEFT_OUT or set(parts) & LEFT_OUT_DIRS or parts[-1] in LEFT_OUT_FILES:
            continue
        if not (root / name).is_file() or (root / name).resolve().is_relative_to(own):
            continue
        keep.append(name)
    return keep


_made: dict[Path, Path] = {}  # this process's archive of each root: the code does not change under it


def archive(root: Path | None = None) -> Path:
    """The archive's path, made if this version of the code has none yet (its name is a hash
    of the files' names, sizes and times: a new deployment makes a new one)."""
    root = root or settings.BASE_DIR
    if root in _made and _made[root].exists():
        return _made[root]
    _made[root] = _archive(root)
    return _made[root]


def _archive(root: Path) -> Path:
    names = files(root)
    stamp = hashlib.sha256()
    for name in names:
        info = (root / name).stat()
        stamp.update(f"{name}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    folder = settings.VAR_DIR / "kit"
    path = folder / f"{NAME}-{stamp.hexdigest()[:16]}.tar.gz"
    if path.exists():
        return path
    folder.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name in names:
            member = tar.gettarinfo(str(root / name), arcname=f"{NAME}/{name}")
            member.uid = member.gid = 0
            member.uname = member.gname = ""
            with open(root / name, "rb") as f:
                tar.addfile(member, f)
    with tempfile.NamedTemporaryFile(dir=folder, delete=False, suffix=".part") as out:  # whole or not at all
        out.write(buffer.getvalue())
    os.replace(out.name, path)
    for old in folder.glob(f"{NAME}-*.tar.gz"):
        if old != path:
            old.unlink(missing_ok=True)
    return path


@require_GET
def download(request: HttpRequest) -> FileResponse:
    """``/kit/arbiter.tar.gz``: anyone's, as the code of a public site is."""
    return FileResponse(archive().open("rb"), as_attachment=True, filename=f"{NAME}.tar.gz")
