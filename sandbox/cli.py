"""What `manage.py run_program` does, as a function: build a file if needed, run it, report."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .conf import SandboxSettings
from .limits import Limits
from .programs import build_program, run_program
from .result import RunResult, Verdict


def judge_file(
    path: Path,
    *,
    language: str | None = None,
    limits: Limits | None = None,
    stdin: bytes = b"",
    args: Sequence[str] = (),
    settings: SandboxSettings | None = None,
) -> dict[str, Any]:
    """Build and run one program; the JSON-ready report. Raises SandboxError when the platform
    cannot judge (no jail, no toolchain), ValueError for an unknown language."""
    limits = limits or Limits()
    build = build_program(path.read_bytes(), path.name, language=language, settings=settings)
    report: dict[str, Any]
    if build.ok:
        assert build.program is not None
        result = run_program(build.program, stdin=stdin, args=args, limits=limits, settings=settings)
        report = {"stage": "run", **result.to_dict()}
    else:
        failed = build.run or RunResult(verdict=Verdict.RUNTIME_ERROR)
        report = {"stage": "build", **failed.to_dict(), "build_log": build.log}
        if build.run is None:
            report["note"] = build.log
    report.update(language=build.language, toolchain=build.toolchain, build_cached=build.cached)
    return report
