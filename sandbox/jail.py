"""The jail: bubblewrap + cgroups + seccomp, with a trusted native runner as its pid 1.

A :class:`Jail` is started once (per run, or per match) and runs one program at a time in it:

    with Jail(Limits(cpu_s=1, memory_mb=256)) as jail:
        jail.work.write_file("input.txt", b"...")
        result = jail.run(["./prog"], stdin=b"3 4\\n")

bubblewrap is started by the runner's launcher mode (``runner.c``) as the slot's
unprivileged host uid (so the program is that uid on the host too, not a remapped root), in
the jail's cgroup, with rlimits set; it gets its arguments and the seccomp program through
file descriptors, and the runner bound read-only from the installation's root.
"""

from __future__ import annotations

import functools
import json
import os
import re
import resource
import select
import shutil
import socket
import stat
import subprocess
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from . import native, seccomp
from .cgroups import Cgroup, Layout, discover
from .conf import SandboxSettings, get_settings
from .errors import SandboxError, SandboxUnavailable
from .limits import MB, Limits
from .monitor import WIPE_S, runner_paths
from .result import RunResult
from .slots import Reservation, Slot, acquire_slot, holding, own_folder, reserve, reserve_arena
from .workdir import MORE, WorkDir

if TYPE_CHECKING:
    from .interactive import Session

RUNNER_PATH = "/.arbiter/runner"
TMP_FOLDERS = ("/tmp", "/dev/shm")  # emptied between two programs of a match
ENDPOINT_PATH = "/run/arbiter/endpoint.sock"
OVERHEAD_PIDS = 2  # bwrap outside and the runner inside
_USER_NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")

BASE_ENV = {
    "PATH": "/usr/local/bin:/usr/bin:/bin",
    "HOME": "/work",
    "TMPDIR": "/tmp",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
}
# Read-only from the host, when present; toolchains add their own with Bind.
SYSTEM_BINDS = ("/usr", "/etc/alternatives")
# Copied from the host into the jail's own (read-only) root at each start, when present: a
# copy is no mount, and each mount costs bubblewrap a mount and a read of the mount table
# (five binds were 0.5 ms of a 5 ms start). /etc/protocols and /etc/services: a client
# written for the Solitaire 500 in Perl asks getprotobyname("tcp") (the Perl of the page's
# era), which warns and passes undef without them.
SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/protocols", "/etc/services")


@dataclass(frozen=True)
class Bind:
    """A host folder shown read-only at `dst` in the jail."""

    src: Path
    dst: str


@dataclass(frozen=True)
class Endpoint:
    """The one TCP endpoint a program may reach: 127.0.0.1:`port` inside the jail is relayed to
    the referee's Unix socket `socket` on the host."""

    port: int
    socket: Path


@functools.cache
def bwrap_path() -> str:
    path = shutil.which("bwrap")
    if path is None:
        raise SandboxUnavailable("bubblewrap (bwrap) is not installed")
    return path


@functools.cache
def bwrap_version() -> tuple[int, ...]:
    out = subprocess.run([bwrap_path(), "--version"], capture_output=True, text=True, check=False).stdout
    try:
        return tuple(int(x) for x in out.split()[-1].split("."))
    except (IndexError, ValueError):
        return (0,)


@functools.cache
def cgroup_layout(parent: str) -> Layout:
    return discover(parent)


def _accessible_to_others(path: Path) -> bool:
    """Whether a uid with no special rights can reach `path` (every ancestor o+x)."""
    for folder in [path, *path.parents]:
        try:
            if not os.stat(folder).st_mode & 0o001:
                return False
        except OSError:
            return False
    return True


def _pipe_with(data: bytes) -> int:
    """A pipe's read end already holding `data` (must fit the pipe buffer)."""
    r, w = os.pipe2(os.O_CLOEXEC)
    try:
        if len(data) > 60000:
            raise SandboxError("bwrap payload too large for a pipe")
        os.write(w, data)
    finally:
        os.close(w)
    return r


def _system_files() -> tuple[list[str], list[int]]:
    """bubblewrap's options copying SYSTEM_FILES into the jail (a folder's plain files, one
    level down), and the descriptors they read from."""
    args: list[str] = []
    fds: list[int] = []
    for src in SYSTEM_FILES:
        names = [src]
        if os.path.isdir(src):
            args += ["--dir", src]
            names = sorted(os.path.join(src, n) for n in os.listdir(src))
        for name in names:
            try:
                fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            except OSError:
                continue  # absent on this host
            if stat.S_ISREG(os.fstat(fd).st_mode):
                args += ["--perms", "0444", "--file", str(fd), name]
                fds.append(fd)
            else:
                os.close(fd)
    return args, fds


class Jail:
    """One jail: a work folder, a cgroup, and bubblewrap running the trusted runner."""

    def __init__(
        self,
        limits: Limits | None = None,
        *,
        binds: Sequence[Bind] = (),
        endpoint: Endpoint | None = None,
        user: str | None = None,
        settings: SandboxSettings | None = None,
        slot: Slot | None = None,
        _trusted_check: bool = False,
    ) -> None:
        self.limits = limits or Limits()
        self._trusted_check = _trusted_check  # the self-check's own jail skips the gate
        self.binds = tuple(binds)
        self.endpoint = endpoint
        if user is not None and not _USER_NAME.fullmatch(user):
            raise ValueError(f"{user!r} cannot be a login name (a-z, 0-9, _ and -, 1 to 32, a letter first)")
        self.user = user  # the name the jail's uid has (whoami), in an /etc/passwd of its own
        self.settings = settings or get_settings()
        self.id = uuid.uuid4().hex[:12]
        self.slot: Slot | None = slot
        self._own_slot = slot is None  # a slot given by a reservation is the reservation's to release
        self.work: WorkDir | None = None  # type: ignore[assignment]
        self.cgroup: Cgroup | None = None
        self._bwrap: subprocess.Popen[bytes] | None = None
        self._control: socket.socket | None = None
        self._spare: set[int] = set()
        self.spare_tids: frozenset[str] = frozenset()  # the same as /proc names threads: never the program's
        self._private_mounts: list[tuple[str, str]] = []
        self._pristine: dict[str, tuple[int, ...]] | None = None
        self._writable: str | None = None  # the folder of the build the program may change (install)
        self._changes: tuple[str | None, tuple[list[str], list[str]]] | None = None  # until something runs
        self.counters: tuple[int, int] | None = None  # OOM kills and pids-limit hits after the last run
        self.runner_lost = False

    # -- lifetime ---------------------------------------------------------------------------

    def __enter__(self) -> Jail:
        if self.cgroup is None:
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> Jail:
        s = self.settings
        if not self._trusted_check:
            from .selfcheck import require_isolation

            require_isolation(s, slot=self.slot)  # in the jail's own slot, if it was given one
        try:
            own_folder(s.root, 0o711)
            root = own_folder(s.root / "work", 0o711)
            if not _accessible_to_others(root):
                raise SandboxUnavailable(
                    f"SANDBOX_ROOT {s.root}: the jails' uids cannot reach it (every folder above it must be "
                    "open to others, o+x); put it under /tmp or /var/lib"
                )
            if self._own_slot:
                sweep(s)
                self.slot = acquire_slot(s)
            assert self.slot is not None and self.slot.held
            name = f"{self.slot.number}-{self.id}"
            _reclaim(root, cgroup_layout(s.cgroup_parent), self.slot.number)
            self.work = WorkDir(root / name, self.slot.uid, self.limits.work_mb)
            self.work.create()
            self.cgroup = Cgroup.create(cgroup_layout(s.cgroup_parent), name)
            self.cgroup.set_limits(self.limits.memory_mb * MB, self.limits.pids + OVERHEAD_PIDS)
            self._launch()
        except BaseException:
            self.close()
            raise
        return self

    def close(self) -> None:
        """Kill everything in the jail and remove its cgroup and work folder."""
        errors: list[str] = []
        if self.cgroup is not None:
            try:
                self.cgroup.kill()  # bwrap, the runner and whatever the program left, at once
            except (SandboxError, OSError) as e:
                errors.append(str(e))
        if self._control is not None:
            self._control.close()
            self._control = None
        if self._bwrap is not None:
            try:
                self._bwrap.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._bwrap.kill()
                self._bwrap.wait()
            if self._bwrap.stderr:
                self._bwrap.stderr.close()
            self._bwrap = None
        if self.cgroup is not None:
            try:
                if self.cgroup.pids():
                    self.cgroup.kill()
                self.cgroup.remove()
            except (SandboxError, OSError) as e:
                errors.append(str(e))
            self.cgroup = None
        if self.work is not None:
            try:
                self.work.destroy()
            except (SandboxError, OSError) as e:
                errors.append(str(e))
            self.work = None
        if self.slot is not None and self._own_slot:
            self.slot.release()
            self.slot = None
        if errors:
            raise SandboxError("; ".join(errors))

    # -- starting bubblewrap ----------------------------------------------------------------

    def _bwrap_args(
        self, seccomp_fd: int, runner: Path, copies: Sequence[str] = (), data: Sequence[tuple[int, str]] = ()
    ) -> list[str]:
        """bubblewrap's options; ``copies``: those of _system_files; ``data``: (a descriptor to
        read, the file in the jail it fills)."""
        assert self.slot is not None and self.work is not None
        uid = str(self.slot.uid)
        args = ["--unshare-all", "--unshare-user", "--as-pid-1", "--die-with-parent", "--new-session"]
        if bwrap_version() >= (0, 8):
            args.append("--disable-userns")
        args += ["--uid", uid, "--gid", uid, "--hostname", "arbiter"]
        for src in SYSTEM_BINDS:
            if os.path.exists(src):
                args += ["--ro-bind", src, src]
        args += copies
        for top in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
            host = Path("/", top)
            if host.is_symlink():
                args += ["--symlink", os.readlink(host), str(host)]
            elif host.is_dir():
                args += ["--ro-bind", str(host), str(host)]
        self._private_mounts = []
        for i, bind in enumerate(self.binds):
            args += ["--ro-bind", self._reachable(bind.src, f"{i}"), bind.dst]
        args += ["--proc", "/proc", "--dev", "/dev"]
        args += ["--size", str(self.limits.tmp_mb * MB), "--perms", "1777", "--tmpfs", "/dev/shm"]
        args += ["--remount-ro", "/dev"]
        args += ["--size", str(self.limits.tmp_mb * MB), "--perms", "1777", "--tmpfs", "/tmp"]
        args += ["--bind", str(self.work.path), "/work"]
        args += ["--ro-bind", str(runner), RUNNER_PATH]
        for fd, path in data:
            args += ["--perms", "0444", "--file", str(fd), path]
        if self.endpoint is not None:
            args += ["--bind", self._reachable(self.endpoint.socket, "endpoint"), ENDPOINT_PATH]
        args += ["--remount-ro", "/", "--chdir", "/work"]
        args += ["--clearenv", "--setenv", "PATH", BASE_ENV["PATH"], "--seccomp", str(seccomp_fd)]
        return args

    def _reachable(self, src: Path, tag: str) -> str:
        """`src` itself if the slot's uid can reach it; else a stand-in onto which bwrap's
        parent binds it in its own private mount namespace (see _child_setup), so toolchains
        under /root or a referee's socket in a private folder can be shown in the jail."""
        assert self.slot is not None
        if _accessible_to_others(src.parent) and (src.is_dir() or _accessible_to_others(src)):
            return str(src)
        stage_root = self.settings.root / "mnt"
        stage_root.mkdir(parents=True, exist_ok=True)
        os.chmod(stage_root, 0o711)
        stage = stage_root / f"{self.slot.number}-{tag}"
        if src.is_dir():
            stage.mkdir(exist_ok=True)
        else:
            stage.touch(exist_ok=True)
        self._private_mounts.append((str(src), str(stage)))
        return str(stage)

    def _runner_command(self, control_fd: int) -> list[str]:
        # Only options go through --args; bwrap wants the command on its command line, which
        # shows no host path and none of the program's arguments.
        command = ["--", RUNNER_PATH, "--control", str(control_fd)]
        if self.endpoint is not None:
            command += ["--forward", str(self.endpoint.port), ENDPOINT_PATH]
        return command

    def _launch(self) -> None:
        assert self.cgroup is not None and self.slot is not None
        runner = native.runner(self.settings.root)
        if self.endpoint is not None:
            os.chmod(self.endpoint.socket, 0o666)
        parent_end, child_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        copies, fds = _system_files()
        try:
            seccomp_fd = _pipe_with(seccomp.compiled_filter())
            fds += [seccomp_fd, child_end.fileno()]
            data = []
            if self.user is not None:
                uid = self.slot.uid
                data = [
                    (_pipe_with(f"{self.user}:x:{uid}:{uid}:{self.user}:/work:/bin/sh\n".encode()), "/etc/passwd"),
                    (_pipe_with(f"{self.user}:x:{uid}:\n".encode()), "/etc/group"),
                ]
                fds += [fd for fd, _ in data]
            args = self._bwrap_args(seccomp_fd, runner, copies, data)
            args_fd = _pipe_with(b"".join(a.encode() + b"\0" for a in args))
            fds.append(args_fd)
            # The launcher (no fork of this process with a Python hook: a plain spawn) joins the
            # cgroup, stages the private mounts, sets the rlimits and drops to the slot's uid.
            launch = [str(runner), "--launch"]
            for path in self.cgroup.procs_files():
                launch += ["--cgroup", path]
            for src, dst in self._private_mounts:
                launch += ["--mount", f"{src}:{dst}"]
            for which, value in _rlimits(self.limits):
                launch += ["--rlimit", f"{which}:{value}"]
            launch += ["--uid", str(self.slot.uid), "--", bwrap_path(), "--args", str(args_fd)]
            self._bwrap = subprocess.Popen(
                [*launch, *self._runner_command(child_end.fileno())],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                env={},
                pass_fds=fds,
                cwd="/",
            )
        except (OSError, subprocess.SubprocessError) as e:
            parent_end.close()
            raise SandboxError(f"cannot start bwrap: {e}") from e
        finally:
            for fd in fds:
                os.close(fd)
            child_end.detach()
        self._control = parent_end
        ready = self._receive(time.monotonic() + 10.0)
        if ready != {"ready": True}:
            err = b""
            try:
                self._bwrap.wait(timeout=1)
                err = self._bwrap.stderr.read() if self._bwrap.stderr else b""
            except subprocess.TimeoutExpired:
                pass
            raise SandboxError(f"jail did not start: {err.decode(errors='replace').strip() or ready}")
        # Right now the cgroup holds bwrap and the runner only: those are spared between moves.
        self._spare = self.cgroup.pids()
        self.spare_tids = frozenset(str(pid) for pid in self._spare)
        self.runner_lost = False

    def _receive(self, deadline: float) -> dict[str, object] | None:
        """The runner's next message, or None if it is gone or silent until `deadline`."""
        assert self._control is not None
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            ready, _, _ = select.select([self._control], [], [], remaining)
            if ready:
                message = self._poll_message()
                if message is not None or self.runner_lost:
                    return message

    def _poll_message(self) -> dict[str, object] | None:
        """The runner's next message if one is waiting (sets runner_lost at end of file)."""
        if self._control is None:
            return None
        try:
            data = self._control.recv(1 << 16, socket.MSG_DONTWAIT)
        except BlockingIOError:
            return None
        except OSError:
            data = b""
        if not data:
            self.runner_lost = True
            return None
        try:
            return json.loads(data)
        except ValueError as e:
            raise SandboxError(f"the jail's runner said what cannot be read: {data[:200]!r}") from e

    def _send(self, request: bytes, fds: Sequence[int] = ()) -> None:
        """Send the runner a request (with ``fds``). A runner found gone as it is sent to (a
        program ended it, and bubblewrap is not yet reaped, so ``_ensure_runner`` saw it alive)
        is replaced and asked once more: nothing had started. Twice gone: a platform fault."""
        for again in (False, True):
            assert self._control is not None
            try:
                if fds:
                    socket.send_fds(self._control, [request], list(fds))
                else:
                    self._control.sendall(request)
                return
            except OSError as e:
                if again:
                    raise SandboxError(f"cannot reach the jail's runner: {e}") from e
                self.runner_lost = True
                self._ensure_runner()

    def _ensure_runner(self) -> None:
        """A program can end its own jail (e.g. run out of pids); start a fresh runner then,
        keeping the work folder, so a match goes on."""
        if self.cgroup is None:
            raise SandboxError("jail is not started")
        if not self.runner_lost and self._bwrap is not None and self._bwrap.poll() is None:
            return
        self.cgroup.kill()
        if self._control is not None:
            self._control.close()
        if self._bwrap is not None:
            self._bwrap.wait()
            if self._bwrap.stderr:  # the old bubblewrap's pipe, before a new one takes its place
                self._bwrap.stderr.close()
        self._launch()

    # -- running ----------------------------------------------------------------------------

    def spawn(
        self, argv: Sequence[str], env: Mapping[str, str] | None = None, wipe: Sequence[str] = (), wait: bool = True
    ) -> tuple[int, int, int, str | None]:
        """Start `argv` in the jail; returns the host ends of its (stdin, stdout, stderr) and an
        error text if it could not be started. The runner empties the folders ``wipe`` once
        the program and all it started have ended, and says what it found there. Without
        ``wait`` the runner's first answer ("spawned", or why not) is left for the caller's
        monitor to read, which meanwhile may already write the program's input."""
        self._ensure_runner()
        assert self._control is not None
        self._changes = None
        child_env = dict(BASE_ENV)
        child_env.update(env or {})
        request = _request(b"R", list(argv), [f"{k}={v}" for k, v in child_env.items()], list(wipe))
        in_r, in_w = os.pipe2(os.O_CLOEXEC)
        out_r, out_w = os.pipe2(os.O_CLOEXEC)
        err_r, err_w = os.pipe2(os.O_CLOEXEC)
        try:
            self._send(request, (in_r, out_w, err_w))
        except SandboxError:
            for fd in (in_w, out_r, err_r):
                os.close(fd)
            raise
        finally:
            for fd in (in_r, out_w, err_w):
                os.close(fd)
        if not wait:
            return in_w, out_r, err_r, None
        reply = self._receive(time.monotonic() + 5.0)
        if reply is None:
            for fd in (in_w, out_r, err_r):
                os.close(fd)
            raise SandboxError("the jail's runner did not answer")
        error = str(reply["error"]) if "error" in reply else None
        return in_w, out_r, err_r, error

    def run(
        self,
        argv: Sequence[str],
        *,
        stdin: bytes = b"",
        env: Mapping[str, str] | None = None,
        limits: Limits | None = None,
        fresh_tmp: bool = False,
    ) -> RunResult:
        """Run one program to its end (or its limits) and judge it. With ``fresh_tmp`` the
        jail's /tmp and /dev/shm are emptied after it (a move's end), what it left there in
        the result's ``extra["tmp_left"]``: (the paths, at most 20, and how many)."""
        from .monitor import Monitor

        limits = limits or self.limits
        assert self.cgroup is not None
        monitor = Monitor(self, limits)
        # Not waiting for the runner's word that the program started: its input goes into the
        # pipe meanwhile, and the monitor reads that word (or why it could not start) with the rest.
        in_w, out_r, err_r, _ = self.spawn(argv, env, wipe=TMP_FOLDERS if fresh_tmp else (), wait=False)
        return monitor.run_to_end(in_w, out_r, err_r, stdin)

    def start_session(
        self,
        argv: Sequence[str],
        *,
        env: Mapping[str, str] | None = None,
        limits: Limits | None = None,
        freeze: bool = False,
    ) -> Session:
        """Start a program for a referee to talk to line by line (see interactive.py; with
        ``freeze``, it is frozen after every answer, even when it waits)."""
        from .interactive import Session

        return Session(self, argv, env, limits or self.limits, freeze)

    def install(self, files: Path, keep: str | None = None, writable: str | None = None, sealed: bool = False) -> None:
        """Put ``files`` (the program's build) in the work folder, as it was made, and note
        what it holds then (its pristine state, for ``changes`` and ``reset_work``). A folder
        ``keep`` is left as it is (not copied); a folder ``writable``'s files are the program's
        to change (Hearts and Flowers' ``support/``)."""
        assert self.work is not None
        # Its files the root's, read-only to the program: a change in place, however quick and
        # whatever the clock's grain, cannot pass for the pristine file; replacing one can't either.
        self.work.copy_in(files, skip=keep, files_owner=0, writable=writable)
        self._writable = writable  # for reset_work's copy
        self.work.restore_top()
        if sealed:  # no file made beside them either (a referee's folder)
            self.work.seal()
        self._pristine = self.work.snapshot(skip=keep)
        self._changes = None

    def changes(self, keep: str | None = None) -> tuple[list[str], list[str]]:
        """The paths of the work folder (but in ``keep``) that are not as ``install`` left
        them: (made or changed, even with their times put back, since the change time cannot
        be; removed), each sorted."""
        assert self.work is not None
        if self._changes is not None and self._changes[0] == keep:
            return self._changes[1]  # nothing has run since the last look
        now = self.work.snapshot(skip=keep)
        pristine = {p: seen for p, seen in (self._pristine or {}).items() if not keep or p.partition("/")[0] != keep}
        written = sorted(p for p, seen in now.items() if pristine.get(p) != seen)
        found = written, sorted(pristine.keys() - now.keys())
        self._changes = (keep, found)
        return found

    def reset_work(self, files: Path, keep: str | None = None) -> None:
        """A fresh work folder holding only ``files`` (the program's build), between the moves
        of a game: nothing the program wrote survives, except in the folder ``keep`` (Hearts
        and Flowers' ``support/``), which stays as the program left it. A folder found as it
        was installed (the usual move) is left alone: no copy."""
        assert self.work is not None
        self.kill_programs()
        # A build too big to list whole (``MORE``) is copied afresh every time: what lies past
        # the listing's end could have changed unseen.
        changed = self._pristine is None or MORE in self._pristine or any(self.changes(keep))
        self._changes = None  # the next look looks again
        if not changed:
            self.work.restore_top()  # its mode, times and attributes are the program's to change
            return
        self.work.clear(keep=keep)
        self.install(files, keep=keep, writable=self._writable)

    def fresh_tmp(self) -> tuple[list[str], int]:
        """Empty the jail's /tmp and /dev/shm between two programs (the runner does it, as the
        programs' uid, after the last one's end); the paths it found there (at most 20) and
        how many. What the runner cannot remove goes with the jail's runner: a fresh one, its
        /tmp a fresh mount, takes its place at once (the work folder is kept)."""
        self._ensure_runner()
        self._send(_request(b"C", list(TMP_FOLDERS)))
        reply = self._receive(time.monotonic() + WIPE_S)
        if reply is None or "cleaned" not in reply:
            raise SandboxError(f"the jail's runner did not clean /tmp: {reply}")
        if reply.get("stuck"):
            self.runner_lost = True
            self._ensure_runner()
        return runner_paths(reply["cleaned"]), int(reply["count"])  # type: ignore[arg-type,call-overload]

    def kill_programs(self) -> None:
        """Kill everything in the jail except bwrap and the runner."""
        assert self.cgroup is not None
        self.cgroup.kill(spare=self._spare)


def _request(kind: bytes, *parts: Sequence[str]) -> bytes:
    """A request to the runner: its kind, then each list as its count and its strings, all
    NUL-terminated (runner.c reads it this way; an empty string is one like any other). A NUL
    inside a string cannot be sent."""
    out = [kind]
    for part in parts:
        out.append(b"%d\0" % len(part))
        for item in part:
            encoded = item.encode()
            if b"\0" in encoded:
                raise SandboxError(f"an argument or variable holds a NUL byte: {item[:40]!r}")
            out.append(encoded + b"\0")
    return b"".join(out)


def _reclaim(work_root: Path, layout: Layout, slot: int) -> None:
    """Remove what a dead holder left in this slot (the caller holds the slot's lock)."""
    prefix = f"{slot}-"
    for folder in work_root.iterdir() if work_root.is_dir() else ():
        if folder.name.startswith(prefix):
            work = WorkDir(folder, 0, 0)
            work.capped = os.path.ismount(folder)
            work.destroy()
    for leftover in Cgroup.leftovers(layout, prefix):
        leftover.kill()
        leftover.remove()


def _slot_of(name: str) -> int | None:
    number, dash, _ = name.partition("-")
    return int(number) if dash and number.isascii() and number.isdigit() else None


def sweep(settings: SandboxSettings | None = None) -> int:
    """Remove the work folders (tmpfs mounts) and cgroups that holders of this installation's
    slots left when they died (SIGKILL, a crash, the OOM killer), for every slot nobody holds
    now; returns how many slots were cleaned. Cheap: two folder listings when nothing is left.
    Other installations' folders and cgroups are never looked at (they have their own root
    and cgroup parent)."""
    s = settings or get_settings()
    work_root = s.root / "work"
    layout = cgroup_layout(s.cgroup_parent)
    names: set[str] = set()
    if work_root.is_dir():
        names.update(p.name for p in work_root.iterdir())
    names.update(cg.name for cg in Cgroup.leftovers(layout, "", open_files=False))
    cleaned = 0
    for number in sorted({n for n in map(_slot_of, names) if n is not None}):
        with holding(s, number) as slot:
            if slot is None:
                continue  # in use: its holder is alive (the kernel drops a dead one's lock)
            _reclaim(work_root, layout, number)
            cleaned += 1
    return cleaned


def reserve_slots(count: int, settings: SandboxSettings | None = None, **kwargs: object) -> Reservation:
    """Every slot a match needs, taken at once (see sandbox/slots.py), after cleaning up what
    dead holders left behind."""
    from .selfcheck import require_isolation

    s = settings or get_settings()
    require_isolation(s)  # before taking them: the self-check's own jail needs a slot too
    sweep(s)
    return reserve(s, count, **kwargs)  # type: ignore[arg-type]


def reserve_arena_slots(count: int, settings: SandboxSettings | None = None, **kwargs: object) -> Reservation:
    """A race's slots (see sandbox/slots.py ``reserve_arena``): one per entrant first, then
    every slot of the installation, held so that nothing else of it runs beside the race."""
    from .selfcheck import require_isolation

    s = settings or get_settings()
    require_isolation(s)
    sweep(s)
    return reserve_arena(s, count, **kwargs)  # type: ignore[arg-type]


def _rlimits(limits: Limits) -> list[tuple[int, int]]:
    stack = (limits.stack_mb or limits.memory_mb) * MB
    return [
        (resource.RLIMIT_FSIZE, limits.file_size_mb * MB),
        (resource.RLIMIT_NOFILE, max(limits.open_files, 16)),
        (resource.RLIMIT_CORE, 0),
        (resource.RLIMIT_STACK, stack),
        (resource.RLIMIT_MSGQUEUE, 0),
    ]
