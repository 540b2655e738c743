"""Fail closed: before untrusted code runs, prove on this host that the jail holds.

Levels:
  full      every probe passed
  degraded  the jail confines (no host files, no network, no privileges, no escape), but a
            limit or accounting probe failed, e.g. the work folder has no size cap
  none      no jail can be made, or a confinement probe failed

Untrusted code runs only at "full", or at "degraded" when the development setting
ARBITER_INSECURE_ALLOW_DEGRADED_SANDBOX is on (and then every run logs a warning).
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass, field

from .conf import INSECURE_SETTING, SandboxSettings, get_settings
from .errors import SandboxUnavailable
from .limits import Limits
from .result import Verdict
from .slots import Slot

log = logging.getLogger(__name__)

FULL, DEGRADED, NONE = "full", "degraded", "none"
RECHECK_AFTER_S = 60.0  # a report short of full is trusted this long, then the probes run again

# Each probe: a Python program run as the contestant would be, and what must come out.
CONFINEMENT_PROBES: dict[str, str] = {
    "unprivileged": "import os; print(os.getuid(), os.geteuid(), open('/proc/self/status').read().split('CapEff:')[1].split()[0])",
    "no host secrets": (
        "import os\n"
        "bad = [p for p in ('/etc/shadow', '/root', '/home', '/var', '/srv', '/run/secrets') if os.path.exists(p)]\n"
        "print('ok' if not bad and len(os.environ) <= 8 else ('seen', bad, dict(os.environ)))"
    ),
    "no network": (
        "import socket\n"
        "s = socket.socket(); s.settimeout(1)\n"
        "try:\n    s.connect(('192.0.2.1', 80)); print('connected')\n"
        "except OSError as e:\n    print('ok' if e.errno in (101, 113) else e)"
    ),
    "seccomp": (
        "import ctypes, os\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "r = libc.ptrace(0, 0, 0, 0), libc.unshare(0x10000000), libc.syscall(425, 1, 0)\n"  # io_uring_setup
        "print('ok' if r == (-1, -1, -1) else r)"
    ),
    "read-only root": (
        "import os\n"
        "bad = []\n"
        "for p in ('/x', '/usr/x', '/etc/x', '/proc/sys/kernel/hostname'):\n"
        "    try:\n        open(p, 'w').write('x'); bad.append(p)\n"
        "    except OSError:\n        pass\n"
        "print('ok' if not bad else bad)"
    ),
    "private pids": "import os; print('ok' if sorted(int(p) for p in os.listdir('/proc') if p.isdigit())[0] == 1 and len([p for p in os.listdir('/proc') if p.isdigit()]) <= 3 else os.listdir('/proc'))",
}


@dataclass
class SelfCheck:
    level: str
    passed: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0

    def to_dict(self) -> dict[str, object]:
        return {"level": self.level, "passed": self.passed, "failed": self.failed, "seconds": round(self.seconds, 2)}


def run_selfcheck(settings: SandboxSettings | None = None, slot: Slot | None = None) -> SelfCheck:
    """Run the probes in real jails (about a second), in ``slot`` if given, else in a free one."""
    from .jail import Jail, cgroup_layout

    settings = settings or get_settings()
    report = SelfCheck(NONE)
    started = time.monotonic()
    limits = Limits(cpu_s=0.3, wall_s=5, memory_mb=64, pids=16, work_mb=4)
    try:
        with Jail(limits, settings=settings, slot=slot, _trusted_check=True) as jail:
            assert jail.work is not None and jail.slot is not None
            for name, code in CONFINEMENT_PROBES.items():
                result = jail.run(["python3", "-I", "-S", "-c", code], limits=limits.but(cpu_s=5))
                out = result.stdout_text.strip()
                expect = f"{jail.slot.uid} {jail.slot.uid} 0000000000000000" if name == "unprivileged" else "ok"
                _record(report, name, out == expect, out or result.stderr_text[-300:])
            # Files the program writes are its own uid's on the host.
            jail.run(["sh", "-c", "echo x > owned"])
            owner = os.stat(jail.work.path / "owned").st_uid
            _record(report, "host uid", owner == jail.slot.uid, f"file owned by {owner}")
            confined = not report.failed
            # Limits and accounting.
            for _ in range(3):
                # If this process itself was held up (paused, starved) while the probe spun, the
                # probe ran on unwatched: its wall time says so, and it is measured again.
                spin = jail.run(["sh", "-c", "while :; do :; done"])
                if spin.wall_s < 2.0:
                    break
            _record(
                report,
                "cpu limit",
                spin.verdict is Verdict.TIME_LIMIT and 0.3 <= spin.cpu_s <= 0.36,
                f"{spin.verdict.value} {spin.cpu_s:.3f} s of CPU in {spin.wall_s:.3f} s",
            )
            hog = jail.run(["python3", "-I", "-S", "-c", "b = bytearray(200 << 20); print(len(b))"])
            _record(report, "memory limit", hog.verdict is Verdict.MEMORY_LIMIT, hog.verdict.value)
            jail.run(["sh", "-c", "(setsid sh -c 'sleep 100' &) ; exit 0"])
            left = jail.cgroup.pids() - jail._spare if jail.cgroup else set()
            _record(report, "kill all", not left, f"left running: {sorted(left)}")
            _record(report, "work folder cap", jail.work.capped, "work folder is not a size-capped tmpfs")
            layout = cgroup_layout(settings.cgroup_parent)
            report.passed.append(f"cgroups: {layout.describe()}")
    except SandboxUnavailable as e:
        report.failed["jail"] = str(e)
        report.seconds = time.monotonic() - started
        return report
    except Exception as e:
        report.failed["jail"] = f"{type(e).__name__}: {e}"
        report.seconds = time.monotonic() - started
        return report
    report.level = FULL if not report.failed else DEGRADED if confined else NONE
    report.seconds = time.monotonic() - started
    return report


def _record(report: SelfCheck, name: str, ok: bool, detail: str) -> None:
    if ok:
        report.passed.append(name)
    else:
        report.failed[name] = detail


_reports: dict[SandboxSettings, tuple[SelfCheck, float]] = {}


def isolation_level(settings: SandboxSettings | None = None, slot: Slot | None = None) -> SelfCheck:
    """The self-check report for this host: run once per process and settings when it finds
    full isolation, and again after RECHECK_AFTER_S when it did not (a host that was only
    overloaded for a moment gets its jails back). In ``slot`` when the caller already holds
    every slot it may use."""
    settings = settings or get_settings()
    report, at = _reports.get(settings, (None, 0.0))
    if report is None or (report.level != FULL and time.monotonic() - at > RECHECK_AFTER_S):
        report = run_selfcheck(settings, slot)
        _reports[settings] = (report, time.monotonic())
        if report.level != FULL:
            log.error("SANDBOX SELF-CHECK: isolation level %s: %s", report.level, report.failed)
    return report


def require_isolation(settings: SandboxSettings | None = None, slot: Slot | None = None) -> SelfCheck:
    """Raise SandboxUnavailable unless untrusted code may run here."""
    settings = settings or get_settings()
    report = isolation_level(settings, slot)
    if report.level == FULL:
        return report
    if report.level == DEGRADED and settings.allow_degraded:
        log.warning(
            "INSECURE: running untrusted code in a DEGRADED sandbox (%s is on): %s", INSECURE_SETTING, report.failed
        )
        return report
    raise SandboxUnavailable(f"sandbox isolation is {report.level!r} on this host: {report.failed}")
