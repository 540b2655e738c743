"""Control groups: the handle on every process of a run, for limits, accounting and killing.

Works with cgroup v2 where its controllers are available, with v1 hierarchies otherwise, and
with the common hybrid (controllers on v1, a bare v2 mount used only for freezing and killing,
which is 20× faster to freeze than the v1 freezer).
"""

from __future__ import annotations

import contextlib
import errno
import os
import signal
import time
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .errors import SandboxError, SandboxUnavailable
from .workdir import mount as mount_fs

REQUIRED = ("cpu", "memory", "pids", "freezer")
_state_file = "syscall"  # what tells whether a thread runs: see Cgroup._running


@dataclass(frozen=True)
class Hierarchy:
    mount: Path
    version: int
    controllers: frozenset[str]


@dataclass(frozen=True)
class Layout:
    """Which hierarchy serves which purpose on this host."""

    cpu: Hierarchy | None
    memory: Hierarchy | None
    pids: Hierarchy | None
    freezer: Hierarchy | None
    can_kill: bool  # cgroup.kill on the freezer's v2 hierarchy
    parent: str
    quick_moves: bool = False  # favordynmods: a move into a cgroup waits for no grace period
    # cpu.pressure on the freezer's v2 hierarchy (PSI): how long the host kept a cgroup's
    # runnable threads from every CPU, which a program's wall clock leaves out (monitor.py)
    pressure: bool = False

    def missing(self) -> list[str]:
        return [name for name in REQUIRED if getattr(self, name) is None]

    def describe(self) -> dict[str, str]:
        out = {}
        for name in REQUIRED:
            h: Hierarchy | None = getattr(self, name)
            out[name] = f"v{h.version} {h.mount}" if h else "missing"
        out["kill"] = "cgroup.kill" if self.can_kill else "freeze and signal"
        out["moves"] = "favordynmods" if self.quick_moves else "an RCU grace period at times"
        out["wall clocks"] = "less cpu.pressure (full)" if self.pressure else "not corrected for a crowded host"
        return out


def _mounts() -> list[tuple[str, Path, set[str]]]:
    found = []
    with open("/proc/self/mounts", encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 4 and parts[2] in ("cgroup", "cgroup2"):
                found.append((parts[2], Path(parts[1]), set(parts[3].split(","))))
    return found


def _read(path: Path) -> str:
    return path.read_text(encoding="ascii").strip()


def _write(path: Path, value: str) -> None:
    with open(path, "w", encoding="ascii") as f:
        f.write(value)


def discover(parent: str = "arbiter-sandbox") -> Layout:
    """Find usable hierarchies and create the parent folder in each."""
    v1: dict[str, Hierarchy] = {}
    v2: Hierarchy | None = None
    for kind, mount, options in _mounts():
        if not os.access(mount, os.W_OK):
            continue
        if kind == "cgroup2" and v2 is None:
            try:
                controllers = frozenset(_read(mount / "cgroup.controllers").split())
            except OSError:
                continue
            v2 = Hierarchy(mount, 2, controllers)
        elif kind == "cgroup":
            for name in ("cpuacct", "memory", "pids", "freezer"):
                if name in options and name not in v1:
                    v1[name] = Hierarchy(mount, 1, frozenset({name}))

    def pick(v2_name: str | None, v1_name: str) -> Hierarchy | None:
        usable = v2 is not None and (v2_name is None or (v2_name in v2.controllers and _enable_v2(v2, parent, v2_name)))
        return v2 if usable else v1.get(v1_name)

    # cpu.stat's usage is always there on v2, but v1 cpuacct gives nanoseconds, cheaper.
    cpu = v1.get("cpuacct") or (v2 if v2 else None)
    memory = pick("memory", "memory")
    pids = pick("pids", "pids")
    freezer: Hierarchy | None = None
    can_kill = pressure = False
    quick_moves = v2 is not None and _favor_dynmods(v2.mount)
    if v2 is not None and _ensure_dir(v2.mount / parent) and (v2.mount / parent / "cgroup.freeze").exists():
        freezer = v2
        can_kill = (v2.mount / parent / "cgroup.kill").exists()
        pressure = _pressure_readable(v2.mount / parent / "cpu.pressure")
    elif "freezer" in v1:
        freezer = v1["freezer"]
    for h in {cpu, memory, pids, freezer} - {None}:
        assert h is not None
        if not _ensure_dir(h.mount / parent):
            return Layout(None, None, None, None, False, parent)
    return Layout(cpu, memory, pids, freezer, can_kill, parent, quick_moves, pressure)


def _pressure_readable(path: Path) -> bool:
    """Whether the kernel keeps CPU pressure (PSI) for cgroups: the file is there and reads
    (a kernel booted with ``psi=0`` hides it or refuses the read)."""
    try:
        return b"full " in path.read_bytes()
    except OSError:
        return False


# A mount's own flags as /proc/self/mountinfo names them, which a remount must give again.
MOUNT_FLAGS = {
    "ro": 0x1,
    "nosuid": 0x2,
    "nodev": 0x4,
    "noexec": 0x8,
    "nosymfollow": 0x100,
    "noatime": 0x400,
    "nodiratime": 0x800,
    "relatime": 0x200000,
    "strictatime": 0x1000000,
}
MS_REMOUNT = 0x20


def _favor_dynmods(mount: Path) -> bool:
    """Remount the v2 hierarchy with ``favordynmods`` (keeping its other options), where the
    kernel knows it and this process may: each jail's launcher moves itself into the jail's
    cgroups, and without it a move waits for an RCU grace period whenever the cgroups have been
    still for a moment (here 9 to 24 ms, on more than one start in ten). The kernel documents the
    price as dearer forks and exits (cgroup-v2.rst); on a judging host moves are the hot path.
    On kernels from 6.18 the setting cannot be taken back until the host restarts. Whether
    it is on."""
    try:
        with open("/proc/self/mountinfo", encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return False
    for line in lines:
        fields = line.split()
        if len(fields) < 10 or fields[4] != str(mount) or "-" not in fields:
            continue
        per_mount, tail = fields[5].split(","), fields[fields.index("-") + 1 :]
        if tail[0] != "cgroup2":
            return False
        options = [o for o in tail[2].split(",") if o not in ("rw", "ro")] if len(tail) > 2 else []
        if "favordynmods" in options:
            return True
        flags = MS_REMOUNT
        for name in per_mount:
            flags |= MOUNT_FLAGS.get(name, 0)
        try:
            mount_fs("none", str(mount), None, flags, ",".join([*options, "favordynmods"]))
        except OSError:  # an older kernel, a container: moves stay as they are
            return False
        return True
    return False


def _ensure_dir(path: Path) -> bool:
    try:
        path.mkdir(exist_ok=True)
        return True
    except OSError:
        return False


def _enable_v2(h: Hierarchy, parent: str, controller: str) -> bool:
    """Enable a v2 controller for children of the parent folder."""
    try:
        for folder in (h.mount, h.mount / parent):
            folder.mkdir(exist_ok=True)
            enabled = _read(folder / "cgroup.subtree_control").split()
            if controller not in enabled:
                _write(folder / "cgroup.subtree_control", f"+{controller}")
        return True
    except OSError:
        return False


@dataclass
class Cgroup:
    """One cgroup (a folder in each hierarchy in use) holding every process of one jail."""

    layout: Layout
    name: str
    folders: list[Path] = field(default_factory=list)
    _cpu_fd: int = -1
    _freeze_fd: int = -1
    _peak_seen: int = 0
    _kept: dict[tuple[Path, str, int], int] = field(default_factory=dict)
    _dirs: dict[Path, Path] = field(default_factory=dict)
    _state_fds: dict[str, int] = field(default_factory=dict)
    _lone: str | None = None  # the one thread besides the spared ones, at the last look

    @classmethod
    def create(cls, layout: Layout, name: str) -> Cgroup:
        missing = layout.missing()
        if missing:
            raise SandboxUnavailable(f"cgroup controllers missing: {', '.join(missing)}")
        cg = cls(layout, name)
        try:
            for h in cg._hierarchies():
                folder = h.mount / layout.parent / name
                folder.mkdir()
                cg.folders.append(folder)
            cg._cpu_fd = os.open(cg._cpu_file(), os.O_RDONLY | os.O_CLOEXEC)
            cg._freeze_fd = os.open(cg._freeze_file(), os.O_WRONLY | os.O_CLOEXEC)
        except OSError as e:
            cg.remove()
            raise SandboxError(f"cannot create cgroup {name}: {e}") from e
        return cg

    @classmethod
    def leftovers(cls, layout: Layout, prefix: str, open_files: bool = True) -> list[Cgroup]:
        """Cgroups named `prefix`* under the parent (left by a dead holder), opened for kill()
        and remove() unless ``open_files`` is false (to list them only)."""
        found: dict[str, Cgroup] = {}
        probe = cls(layout, "")
        for h in probe._hierarchies():
            parent = h.mount / layout.parent
            if not parent.is_dir():
                continue
            with os.scandir(parent) as entries:  # names first, then the entry's own type: no stat each
                for entry in entries:
                    if entry.name.startswith(prefix) and "." not in entry.name and entry.is_dir():
                        cg = found.setdefault(entry.name, cls(layout, entry.name))
                        cg.folders.append(parent / entry.name)
        for cg in found.values() if open_files else ():
            with contextlib.suppress(OSError):
                cg._freeze_fd = os.open(cg._freeze_file(), os.O_WRONLY | os.O_CLOEXEC)
        return list(found.values())

    def _hierarchies(self) -> list[Hierarchy]:
        seen: list[Hierarchy] = []
        for h in (self.layout.cpu, self.layout.memory, self.layout.pids, self.layout.freezer):
            if h is not None and h not in seen:
                seen.append(h)
        return seen

    def _dir(self, h: Hierarchy | None) -> Path:
        assert h is not None
        found = self._dirs.get(h.mount)
        if found is None:
            found = self._dirs[h.mount] = h.mount / self.layout.parent / self.name
        return found

    def _cpu_file(self) -> Path:
        h = self.layout.cpu
        assert h is not None
        return self._dir(h) / ("cpu.stat" if h.version == 2 else "cpuacct.usage")

    def _freeze_file(self) -> Path:
        h = self.layout.freezer
        assert h is not None
        return self._dir(h) / ("cgroup.freeze" if h.version == 2 else "freezer.state")

    # -- setting up -------------------------------------------------------------------------

    def procs_files(self) -> list[str]:
        """Files a new process writes its pid into (in the child, before exec)."""
        return [str(folder / "cgroup.procs") for folder in self.folders]

    def set_limits(self, memory_bytes: int, pids: int) -> None:
        mem, pid = self._dir(self.layout.memory), self._dir(self.layout.pids)
        try:
            if self.layout.memory and self.layout.memory.version == 2:
                _write(mem / "memory.max", str(memory_bytes))
                if (mem / "memory.swap.max").exists():
                    _write(mem / "memory.swap.max", "0")
            else:
                _write(mem / "memory.limit_in_bytes", str(memory_bytes))
                if (mem / "memory.memsw.limit_in_bytes").exists():
                    _write(mem / "memory.memsw.limit_in_bytes", str(memory_bytes))
            _write(pid / "pids.max", str(pids))
        except OSError as e:
            raise SandboxError(f"cannot set cgroup limits: {e}") from e

    # -- measuring --------------------------------------------------------------------------

    def cpu_ns(self) -> int:
        data = os.pread(self._cpu_fd, 4096, 0)
        if self.layout.cpu is not None and self.layout.cpu.version == 2:
            for line in data.split(b"\n"):
                if line.startswith(b"usage_usec "):
                    return int(line.split()[1]) * 1000
            return 0
        return int(data)

    def cpu_held_us(self) -> int:
        """Microseconds in which every runnable thread of the cgroup waited for a CPU that the
        host gave to others: the "full" total of its ``cpu.pressure`` (PSI; the kernel keeps
        it per CPU and weighs each CPU by the cgroup's busy time there, so a thread queued
        behind its own program's other thread is not in it, and a program of two threads with
        one held counts half that time). Only where ``Layout.pressure``."""
        data = os.pread(self._kept_fd(self.layout.freezer, "cpu.pressure"), 256, 0)
        return int(data.rpartition(b"total=")[2])  # "full" is the last line

    def _kept_fd(self, h: Hierarchy | None, name: str, flags: int = os.O_RDONLY) -> int:
        """A descriptor of a control file, kept open for the cgroup's life: the files a run
        looks at before and after every move."""
        assert h is not None
        key = (h.mount, name, flags)
        fd = self._kept.get(key)
        if fd is None:
            fd = self._kept[key] = os.open(self._dir(h) / name, flags | os.O_CLOEXEC)
        return fd

    def _read_kept(self, h: Hierarchy | None, name: str) -> str:
        """A control file's content, read again from its start each time."""
        return os.pread(self._kept_fd(h, name), 65536, 0).decode()

    def memory_bytes(self) -> int:
        h = self.layout.memory
        name = "memory.current" if h and h.version == 2 else "memory.usage_in_bytes"
        value = int(self._read_kept(h, name))
        self._peak_seen = max(self._peak_seen, value)
        return value

    def memory_peak(self) -> int:
        h = self.layout.memory
        if h and h.version == 1:
            return int(self._read_kept(h, "memory.max_usage_in_bytes"))
        try:
            return int(self._read_kept(h, "memory.peak"))
        except OSError:
            return max(self._peak_seen, self.memory_bytes())

    def reset_peak(self) -> None:
        h = self.layout.memory
        self._peak_seen = 0
        if h and h.version == 1:
            os.pwrite(self._kept_fd(h, "memory.max_usage_in_bytes", os.O_WRONLY), b"0", 0)

    def oom_kills(self) -> int:
        h = self.layout.memory
        name = "memory.events" if h and h.version == 2 else "memory.oom_control"
        for line in self._read_kept(h, name).splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def pids_limit_hits(self) -> int:
        try:
            text = self._read_kept(self.layout.pids, "pids.events")
        except OSError:
            return 0
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "max":
                return int(value)
        return 0

    def pids(self) -> set[int]:
        text = self._read_kept(self.layout.freezer, "cgroup.procs")
        return {int(p) for p in text.split()}

    def busy(self, spare: Collection[str] = ()) -> bool:
        """Whether a thread in the cgroup, but those of ``spare``, is running or ready to run,
        rather than waiting for something (its input, a sleep, a child). A referee asks after
        every answer of a long-lived program, so this is cheap: each thread's /proc file is
        kept open while it lives, and while the cgroup holds one thread besides ``spare``
        (its count says so) that thread alone is looked at, not the list."""
        if self._lone is not None:
            count = self._read_kept(self.layout.pids, "pids.current")
            if int(count) == len(spare) + 1:
                running = self._running(self._lone)
                if running is not None:
                    return running
        h = self.layout.freezer
        assert h is not None
        tids = [
            t for t in self._read_kept(h, "cgroup.threads" if h.version == 2 else "tasks").split() if t not in spare
        ]
        self._lone = tids[0] if len(tids) == 1 else None
        found = False
        for tid in tids:
            if self._running(tid):
                found = True
                break
        if len(self._state_fds) > len(tids):  # threads that ended
            for tid in self._state_fds.keys() - set(tids):
                os.close(self._state_fds.pop(tid))
        return found

    def _running(self, tid: str) -> bool | None:
        """Whether thread ``tid`` runs or may run now; None if it is gone. Its /proc
        ``syscall`` says "running" for exactly the threads its ``stat`` calls R, in a third
        of the time (the stat file is the stand-in where ``syscall`` is refused)."""
        global _state_file
        fd = self._state_fds.get(tid)
        try:
            if fd is None:
                fd = self._state_fds[tid] = os.open(f"/proc/{tid}/{_state_file}", os.O_RDONLY | os.O_CLOEXEC)
            state = os.pread(fd, 4096, 0)
        except PermissionError:  # no right to trace it (the platform runs as root, but)
            _state_file = "stat"
            os.close(self._state_fds.pop(tid))
            return self._running(tid)
        except OSError:
            return None
        if _state_file == "syscall":
            return state.startswith(b"running")
        end = state.rfind(b")")
        return state[end + 2 : end + 3] == b"R"

    # -- controlling ------------------------------------------------------------------------

    def freeze(self) -> None:
        v2 = self.layout.freezer is not None and self.layout.freezer.version == 2
        os.write(self._freeze_fd, b"1" if v2 else b"FROZEN")

    def thaw(self) -> None:
        v2 = self.layout.freezer is not None and self.layout.freezer.version == 2
        os.write(self._freeze_fd, b"0" if v2 else b"THAWED")

    def kill(self, spare: Iterable[int] = (), timeout: float = 5.0) -> None:
        """SIGKILL every process in the cgroup except `spare`, and wait until they are gone.

        Frozen processes cannot fork, so one frozen snapshot of the list is complete."""
        spare = set(spare)
        deadline = time.monotonic() + timeout
        if not spare and self.layout.can_kill:
            _write(self._dir(self.layout.freezer) / "cgroup.kill", "1")
        while True:
            victims = self.pids() - spare
            if not victims:
                return
            if time.monotonic() > deadline:
                raise SandboxError(f"processes {sorted(victims)} of cgroup {self.name} survive SIGKILL")
            if spare or not self.layout.can_kill:
                self.freeze()
                for pid in self.pids() - spare:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                self.thaw()
            time.sleep(0.0002)  # killed: gone from the list within a few hundred microseconds

    def remove(self, timeout: float = 5.0) -> None:
        for fd in (self._cpu_fd, self._freeze_fd, *self._kept.values(), *self._state_fds.values()):
            if fd >= 0:
                os.close(fd)
        self._cpu_fd = self._freeze_fd = -1
        self._kept, self._state_fds = {}, {}
        deadline = time.monotonic() + timeout
        for folder in self.folders:
            while True:
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError as e:
                    if e.errno != errno.EBUSY or time.monotonic() > deadline:
                        raise SandboxError(f"cannot remove cgroup {folder}: {e}") from e
                    time.sleep(0.005)
        self.folders = []
