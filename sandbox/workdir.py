"""The jail's writable work folder, as the host sees it.

Where the host allows it, the folder is its own size-capped tmpfs. Everything the host does
inside it (reading a program's output file, copying files in and out) goes through file
descriptors opened without following links, so a program cannot make the referee read or
write anything outside the folder with symlinks, hard links or FIFOs.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import stat
from pathlib import Path

from .errors import SandboxError

MS_NOSUID, MS_NODEV, MS_NOATIME = 0x2, 0x4, 0x400
KINDS = {
    stat.S_IFDIR: "a folder",
    stat.S_IFLNK: "a symbolic link",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFSOCK: "a socket",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
}
MORE = "(more paths than a snapshot lists)"  # a snapshot cut short
SNAPSHOT_LIMIT = 10_000
DEPTH_LIMIT = 32  # folders open at once in a walk of the folder: its paths are listed and copied this deep
# A kept path's length below its folder, in bytes: 32 folders of 255-byte names would pass
# the host's PATH_MAX (4096) where a build's files are kept, and then wherever they are read.
PATH_LIMIT = 1024
MNT_DETACH = 0x2
O_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC

_libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)


def mount(source: str, target: str, fstype: str | None, flags: int, data: str | None) -> None:
    rc = _libc.mount(
        source.encode(),
        target.encode(),
        fstype.encode() if fstype else None,
        ctypes.c_ulong(flags),
        data.encode() if data else None,
    )
    if rc != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"mount {target}: {os.strerror(err)}")


def umount(target: str) -> None:
    if _libc.umount2(target.encode(), MNT_DETACH) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"umount {target}: {os.strerror(err)}")


class WorkDir:
    """A folder owned by the jail's uid, ideally a tmpfs of `size_mb`."""

    def __init__(self, path: Path, uid: int, size_mb: int) -> None:
        self.path = path
        self.uid = uid
        self.size_mb = size_mb
        self.capped = False

    def create(self) -> None:
        self.path.mkdir(mode=0o755, parents=False)
        inodes = max(1024, self.size_mb * 64)
        try:
            mount(
                "arbiter-work",
                str(self.path),
                "tmpfs",
                MS_NOSUID | MS_NODEV | MS_NOATIME,  # no access times: no mark a move could leave by reading
                f"size={self.size_mb}m,nr_inodes={inodes},mode=0755,uid={self.uid},gid={self.uid}",
            )
            self.capped = True
        except OSError:
            os.chown(self.path, self.uid, self.uid)

    def destroy(self) -> None:
        if self.capped:
            try:
                umount(str(self.path))
            except OSError as e:
                raise SandboxError(f"cannot unmount work folder {self.path}: {e}") from e
            self.capped = False
        if self.path.exists():
            _remove_tree(self.path)

    # -- safe host-side access --------------------------------------------------------------

    def _open_parent(self, relpath: str, create: bool = False) -> tuple[int, str]:
        parts = [p for p in Path(relpath).parts if p not in ("", ".")]
        if not parts or any(p == ".." or p.startswith("/") for p in parts):
            raise ValueError(f"bad path in work folder: {relpath!r}")
        fd = os.open(self.path, O_DIR)
        try:
            for part in parts[:-1]:
                if create:
                    try:
                        os.mkdir(part, 0o755, dir_fd=fd)
                        os.chown(part, self.uid, self.uid, dir_fd=fd, follow_symlinks=False)
                    except FileExistsError:
                        pass
                new = os.open(part, O_DIR, dir_fd=fd)
                os.close(fd)
                fd = new
        except BaseException:
            os.close(fd)
            raise
        return fd, parts[-1]

    def read_file(self, relpath: str, max_bytes: int = 64 << 20) -> bytes:
        """Read a regular, singly linked file the program left, never following links.

        Raises FileNotFoundError, or ValueError, in words, for whatever else the program left
        in its place or on its way: a folder, a link, a FIFO, a socket, a hard link, a file
        larger than ``max_bytes``, a file where a folder of the path should be."""
        dirfd = -1
        try:
            dirfd, name = self._open_parent(relpath)
            _check_plain(relpath, os.stat(name, dir_fd=dirfd, follow_symlinks=False), max_bytes)
            fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dirfd)
        except FileNotFoundError:
            raise
        except OSError as e:  # a file or a link on its path; a file swapped meanwhile
            raise ValueError(f"{relpath} cannot be opened: {e.strerror}") from None
        finally:
            if dirfd >= 0:
                os.close(dirfd)
        try:
            _check_plain(relpath, os.fstat(fd), max_bytes)  # what was opened, whatever was looked at
            with open(fd, "rb", closefd=False) as f:
                return f.read(max_bytes + 1)[:max_bytes]
        finally:
            os.close(fd)

    def write_file(self, relpath: str, data: bytes, mode: int = 0o644) -> None:
        """Create or replace a file for the program (replacing, never writing through, a link)."""
        dirfd, name = self._open_parent(relpath, create=True)
        try:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(name, dir_fd=dirfd)
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=dirfd)
        finally:
            os.close(dirfd)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            os.fchown(f.fileno(), self.uid, self.uid)
            os.fchmod(f.fileno(), mode)

    def mkdir(self, relpath: str) -> None:
        dirfd, name = self._open_parent(relpath, create=True)
        try:
            os.mkdir(name, 0o755, dir_fd=dirfd)
            os.chown(name, self.uid, self.uid, dir_fd=dirfd, follow_symlinks=False)
        except FileExistsError:
            os.close(os.open(name, O_DIR, dir_fd=dirfd))  # must be a real folder, not a link
        finally:
            os.close(dirfd)

    def symlink(self, relpath: str, target: str) -> None:
        dirfd, name = self._open_parent(relpath, create=True)
        try:
            os.symlink(target, name, dir_fd=dirfd)
            os.chown(name, self.uid, self.uid, dir_fd=dirfd, follow_symlinks=False)
        finally:
            os.close(dirfd)

    def copy_in(
        self, source: Path, skip: str | None = None, files_owner: int | None = None, writable: str | None = None
    ) -> None:
        """Copy a trusted tree (a build from the cache) into the folder, its folders owned by
        the jail, its files by ``files_owner`` (default the jail too; root: files the program
        may read and run but never change in place) except those in the top-level folder
        ``writable``, the jail's; a top-level entry named ``skip`` is left out."""
        fd = os.open(self.path, O_DIR)
        try:
            copy_tree(source, fd, self.uid, self.size_mb << 20, skip=skip, files_owner=files_owner, writable=writable)
        finally:
            os.close(fd)

    def seal(self) -> None:
        """Every folder of it the root's: the program reads and runs its files but makes no file
        there (a referee's folder: it writes in /tmp)."""
        fd = os.open(self.path, O_DIR)
        try:
            os.fchown(fd, 0, 0)
        finally:
            os.close(fd)
        for folder, folders, _ in os.walk(self.path):
            for name in folders:
                os.chown(os.path.join(folder, name), 0, 0, follow_symlinks=False)

    def restore_top(self) -> None:
        """The folder itself as it was mounted (its mode, times and extended attributes are the
        program's to change, and could carry something from one move to the next)."""
        fd = os.open(self.path, O_DIR)
        try:
            os.fchmod(fd, 0o755)
            os.utime(fd, ns=(0, 0))
            for name in os.listxattr(fd):
                with contextlib.suppress(OSError):
                    os.removexattr(fd, name)
        finally:
            os.close(fd)

    def snapshot(self, skip: str | None = None, limit: int | None = None) -> dict[str, tuple[int, ...]]:
        """Every path in the folder (a top-level ``skip`` left out), relative to it, with what
        any change alters: type and mode, inode, size, and the modification and change times
        (a program may put the first back, never the second). Links are listed, not followed.
        Past ``limit`` paths (``SNAPSHOT_LIMIT``) or ``DEPTH_LIMIT`` folders deep the walk
        stops and says so with the key ``MORE``: what lies beyond is not compared
        (``Jail.reset_work`` then copies afresh)."""
        limit = SNAPSHOT_LIMIT if limit is None else limit
        found: dict[str, tuple[int, ...]] = {}

        def walk(fd: int, prefix: str, depth: int) -> None:
            with os.scandir(fd) as entries:
                for entry in entries:
                    if len(found) >= limit or depth > DEPTH_LIMIT:
                        found[MORE] = (limit,)
                        return
                    if not prefix and entry.name == skip:
                        continue
                    st = entry.stat(follow_symlinks=False)
                    path = prefix + entry.name
                    found[path] = (st.st_mode, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
                    if stat.S_ISDIR(st.st_mode):
                        sub = os.open(entry.name, O_DIR, dir_fd=fd)
                        try:
                            walk(sub, path + "/", depth + 1)
                        finally:
                            os.close(sub)

        top = os.open(self.path, O_DIR)
        try:
            walk(top, "", 1)
        finally:
            os.close(top)
        return found

    def clear(self, keep: str | None = None) -> None:
        """Remove everything in the folder but the entry named ``keep`` (links are removed,
        never followed; folders nested however deep)."""
        fd = os.open(self.path, O_DIR)
        try:
            _empty(fd, keep)
        finally:
            os.close(fd)

    def copy_out(self, dest: Path, max_bytes: int) -> None:
        """Copy what the program left (untrusted) to `dest`: folders, regular files and
        symlinks (as links, never followed); anything else is skipped."""
        src = os.open(self.path, O_DIR)
        try:
            dest.mkdir(parents=True, exist_ok=True)
            _copy_fd_tree(src, dest, max_bytes, [0], 1, 0)
        finally:
            os.close(src)


def _copy_fd_tree(src_fd: int, dest: Path, max_bytes: int, total: list[int], depth: int, length: int) -> None:
    with os.scandir(src_fd) as entries:  # closed however the copy ends
        for entry in entries:
            if depth > DEPTH_LIMIT:
                raise ValueError(f"build output has folders nested more than {DEPTH_LIMIT} deep")
            if length + 1 + len(os.fsencode(entry.name)) > PATH_LIMIT:
                raise ValueError(f"build output has a path longer than {PATH_LIMIT} bytes")
            st = entry.stat(follow_symlinks=False)
            target = dest / entry.name
            if stat.S_ISDIR(st.st_mode):
                target.mkdir(mode=0o755)
                sub = os.open(entry.name, O_DIR, dir_fd=src_fd)
                try:
                    _copy_fd_tree(sub, target, max_bytes, total, depth + 1, length + 1 + len(os.fsencode(entry.name)))
                finally:
                    os.close(sub)
            elif stat.S_ISLNK(st.st_mode):
                os.symlink(os.readlink(entry.name, dir_fd=src_fd), target)
            elif stat.S_ISREG(st.st_mode):
                total[0] += st.st_size
                if total[0] > max_bytes:
                    raise ValueError(f"build output is larger than {max_bytes} bytes")
                fd = os.open(entry.name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=src_fd)
                with os.fdopen(fd, "rb") as fin, open(target, "xb") as fout:
                    if not stat.S_ISREG(os.fstat(fin.fileno()).st_mode):
                        continue
                    while chunk := fin.read(1 << 20):
                        fout.write(chunk)
                os.chmod(target, 0o755 if st.st_mode & 0o111 else 0o644)


def copy_tree(
    source: Path,
    dest_fd: int,
    uid: int,
    max_bytes: int,
    skip: str | None = None,
    files_owner: int | None = None,
    writable: str | None = None,
) -> None:
    """Copy a trusted host tree into an open folder, its folders and links chowned to `uid`,
    its files to ``files_owner`` (default `uid`), but for the files under the folder named
    ``writable``, `uid`'s too."""
    owner = uid if files_owner is None else files_owner
    total = 0
    for entry in os.scandir(source):
        if entry.name == skip:
            continue
        st = entry.stat(follow_symlinks=False)
        if stat.S_ISDIR(st.st_mode):
            os.mkdir(entry.name, 0o755, dir_fd=dest_fd)
            sub = os.open(entry.name, O_DIR, dir_fd=dest_fd)
            try:
                os.fchown(sub, uid, uid)
                copy_tree(Path(entry.path), sub, uid, max_bytes, files_owner=uid if entry.name == writable else owner)
            finally:
                os.close(sub)
        elif stat.S_ISLNK(st.st_mode):
            os.symlink(os.readlink(entry.path), entry.name, dir_fd=dest_fd)
            os.chown(entry.name, uid, uid, dir_fd=dest_fd, follow_symlinks=False)
        elif stat.S_ISREG(st.st_mode):
            total += st.st_size
            if total > max_bytes:
                raise SandboxError(f"{source} does not fit in the work folder")
            fd = os.open(
                entry.name,
                os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
                st.st_mode & 0o755,
                dir_fd=dest_fd,
            )
            with open(entry.path, "rb") as fin, os.fdopen(fd, "wb") as fout:
                while chunk := fin.read(1 << 20):
                    fout.write(chunk)
                os.fchown(fout.fileno(), owner, owner)
                os.fchmod(fout.fileno(), st.st_mode & 0o755)


def _check_plain(relpath: str, st: os.stat_result, max_bytes: int) -> None:
    """Refuse, in words, anything but a regular, singly linked file of at most ``max_bytes``."""
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"{relpath} is {KINDS.get(stat.S_IFMT(st.st_mode), 'not a regular file')}")
    if st.st_nlink != 1:
        raise ValueError(f"{relpath} has {st.st_nlink} hard links")
    if st.st_size > max_bytes:
        raise ValueError(f"{relpath} is larger than {max_bytes} bytes")


def _empty(top: int, keep: str | None = None) -> None:
    """Remove everything in the open folder ``top`` but its entry ``keep``, never following a
    link, with at most ``DEPTH_LIMIT`` folders open at once: a folder deeper down is moved up
    into ``top`` whole (as the runner empties /tmp), to be removed in a later pass."""
    while True:
        with os.scandir(top) as found:
            entries = [entry for entry in found if entry.name != keep]
        if not entries:
            return
        for entry in entries:
            _remove(top, top, entry, 1)


def _remove(top: int, parent: int, entry: os.DirEntry[str], depth: int) -> None:
    if not entry.is_dir(follow_symlinks=False):
        os.unlink(entry.name, dir_fd=parent)
    elif depth > DEPTH_LIMIT:
        os.rename(entry.name, f"{_new_folder(top)}/deep", src_dir_fd=parent, dst_dir_fd=top)
    else:
        fd = os.open(entry.name, O_DIR, dir_fd=parent)
        try:
            with os.scandir(fd) as found:
                inside = list(found)
            for sub in inside:
                _remove(top, fd, sub, depth + 1)
        finally:
            os.close(fd)
        os.rmdir(entry.name, dir_fd=parent)


def _new_folder(top: int) -> str:
    """A folder made in ``top`` under a name nothing there had."""
    n = 0
    while True:
        try:
            os.mkdir(f".arbiter-deep-{n}", 0o700, dir_fd=top)
            return f".arbiter-deep-{n}"
        except FileExistsError:
            n += 1


def _remove_tree(path: Path) -> None:
    """Remove a folder a program wrote into, without following its links."""
    fd = os.open(path, O_DIR)
    try:
        _empty(fd)
    finally:
        os.close(fd)
    os.rmdir(path)
