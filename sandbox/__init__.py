"""Run one untrusted program: build it, jail it, limit it, account its time and memory, kill
all of it. No knowledge of games or Django models; see docs/security.md.

The public API:
    build_program(source, filename, language=None) -> BuildResult
    run_program(program, stdin=b"", args=(), limits=Limits(), files=None, endpoint=None) -> RunResult
    open_jail(program, limits, endpoint=None) -> Jail   # match-long: jail.run(...), jail.start_session(...)
    reserve_slots(count) -> Reservation                  # every jail of a match at once: open_jail(..., slot=r[i])
    isolation_level() / require_isolation()              # the fail-closed self-check
"""

from .errors import SandboxError, SandboxUnavailable, UnsafeArchive
from .interactive import Reply, Session
from .jail import Endpoint, Jail, reserve_slots, sweep
from .languages import available as available_languages
from .limits import BUILD_LIMITS, Limits
from .programs import BuildResult, Program, build_program, open_jail, run_program
from .result import RunResult, Verdict
from .selfcheck import isolation_level, require_isolation, run_selfcheck

__all__ = [
    "BUILD_LIMITS",
    "BuildResult",
    "Endpoint",
    "Jail",
    "Limits",
    "Program",
    "Reply",
    "RunResult",
    "SandboxError",
    "SandboxUnavailable",
    "Session",
    "UnsafeArchive",
    "Verdict",
    "available_languages",
    "build_program",
    "isolation_level",
    "open_jail",
    "require_isolation",
    "reserve_slots",
    "run_program",
    "run_selfcheck",
    "sweep",
]
