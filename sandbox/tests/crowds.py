"""A crowd of busy jails for the tests of a crowded host: more runnable programs than cores."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

from sandbox.conf import SandboxSettings
from sandbox.jail import Jail
from sandbox.limits import Limits
from sandbox.programs import Program, open_jail


@contextlib.contextmanager
def spinning(spin: Program, limits: Limits, count: int, settings: SandboxSettings | None = None) -> Iterator[None]:
    """``count`` jails, each running ``spin`` (a program that spins until its jail is closed)."""
    jails: list[Jail] = []
    pipes: list[int] = []
    try:
        for _ in range(count):
            jails.append(open_jail(spin, limits, settings=settings))
            *ends, error = jails[-1].spawn(spin.argv(limits))
            pipes += ends
            assert error is None, error
        yield
    finally:
        for jail in jails:
            jail.close()
        for fd in pipes:
            os.close(fd)
