"""Stopping a process that judges, from a signal handler, at a safe point.

A handler that raises can fire anywhere: inside a finalizer, where the exception is printed
and dropped (and the game goes on), or halfway through closing a jail (which then stays). So a
handler only calls ``request_stop()``; the loops that wait for a program (``Monitor.tick``) or
for sandbox slots raise ``Interrupted`` at their next turn, a few milliseconds later, and
every jail is closed on the way out as after any other exception.
"""

from __future__ import annotations

from .errors import Interrupted

# A plain flag, not a threading.Event: Event.set takes a lock, which the interrupted code may
# hold; a handler runs between two bytecodes of the main thread, and an assignment is atomic.
_requested = False


def request_stop() -> None:
    """Ask this process to stop judging (safe in a signal handler: it only sets a flag)."""
    global _requested
    _requested = True


def stop_requested() -> bool:
    return _requested


def clear_stop() -> None:
    global _requested
    _requested = False


def check_stop() -> None:
    """Raise ``Interrupted`` if a stop was requested."""
    if _requested:
        raise Interrupted("asked to stop")
