"""Exceptions of the sandbox.

A contestant's program that crashes, loops or floods its output is *not* an exception: it is
a verdict in a :class:`~sandbox.result.RunResult`. Exceptions here mean the platform itself
could not judge (retry the task elsewhere or fail it as an infrastructure fault).
"""


class SandboxError(Exception):
    """The platform could not run or measure the program (an infrastructure fault)."""


class PlatformStall(SandboxError):
    """The platform itself stopped (paused, starved) while a program's clock ran: the game is
    replayed as an infrastructure fault, never charged to the program."""


class Interrupted(BaseException):
    """The process was asked to stop (``sandbox.interrupt.request_stop``, from a SIGTERM
    handler): raised at a safe point of a loop that waits for a program, so that every jail is
    closed on the way out. Not an ``Exception``: nothing records it as a result or a fault."""


class SandboxUnavailable(SandboxError):
    """This host cannot give the isolation that untrusted code requires."""


class UnsafeArchive(Exception):
    """An uploaded archive was refused (path escape, link, device, bomb). The author's fault."""
