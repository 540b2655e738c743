"""Resource limits of a jail and of one run in it."""

from __future__ import annotations

from dataclasses import dataclass, replace

MB = 1 << 20


@dataclass(frozen=True)
class Limits:
    """Limits for one run. Jail-wide fields (memory, pids, files, folders) are fixed when a jail
    starts; time and output fields may differ for every run in a match-long jail."""

    cpu_s: float = 1.0
    wall_s: float | None = None  # None: 2 × cpu_s + 1 s
    # True: the wall limit counts only the time no thread of the program can run (it waits:
    # sleeps, reads, blocks), so a program computing on a loaded host is never cut by it; its
    # CPU limit stops it, or at worst WAIT_BACKSTOP × cpu_s of wall time (see monitor.py).
    wall_waiting_only: bool = False
    # True: the wall limit is real time; the host's holding the program from a CPU does not move
    # it on (a referee's limit: no seat is judged by it, and a hung referee is given up on time).
    wall_real: bool = False
    memory_mb: int = 256
    pids: int = 64
    file_size_mb: int = 64
    open_files: int = 64
    stack_mb: int | None = None  # None: as large as memory_mb
    stdout_bytes: int = 16 * MB
    # CodeCup logs "approximately 10 000 characters" of a program's standard error per game;
    # a match-long session (line protocol) is one game of one program, so it keeps as much.
    stderr_bytes: int = 10_000
    line_bytes: int = 1 * MB
    work_mb: int = 128
    tmp_mb: int = 64

    @property
    def wall(self) -> float:
        return self.wall_s if self.wall_s is not None else 2 * self.cpu_s + 1.0

    def but(self, **changes: object) -> Limits:
        return replace(self, **changes)  # type: ignore[arg-type]


BUILD_LIMITS = Limits(
    cpu_s=30.0,
    wall_s=60.0,
    memory_mb=1536,
    pids=128,
    file_size_mb=128,
    open_files=256,
    stdout_bytes=256 * 1024,
    stderr_bytes=256 * 1024,
    line_bytes=64 * 1024,
    work_mb=512,
    tmp_mb=256,
)
