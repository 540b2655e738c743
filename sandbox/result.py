"""What a run produced, as plain data."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any


class Verdict(StrEnum):
    OK = "ok"
    TIME_LIMIT = "time_limit"
    WALL_LIMIT = "wall_limit"
    MEMORY_LIMIT = "memory_limit"
    OUTPUT_LIMIT = "output_limit"
    RUNTIME_ERROR = "runtime_error"


@dataclass
class RunResult:
    verdict: Verdict
    exit_code: int | None = None
    signal: int | None = None
    cpu_s: float = 0.0
    wall_s: float = 0.0
    peak_memory_mb: float = 0.0
    stdout: bytes = b""
    stderr: bytes = b""
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    note: str = ""  # why the verdict, for people ("CPU limit of 1.0 s exceeded")
    stalled_s: float = 0.0  # the platform's stalls during the run, left out of wall_s
    held_s: float = 0.0  # time the host kept the program from a CPU (cpu.pressure), left out of wall_s
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.verdict is Verdict.OK

    @property
    def stdout_text(self) -> str:
        return self.stdout.decode("utf-8", errors="replace")

    @property
    def stderr_text(self) -> str:
        return self.stderr.decode("utf-8", errors="replace")

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["verdict"] = self.verdict.value
        data["stdout"] = self.stdout_text
        data["stderr"] = self.stderr_text
        data["cpu_s"] = round(self.cpu_s, 4)
        data["wall_s"] = round(self.wall_s, 4)
        data["stalled_s"] = round(self.stalled_s, 4)
        data["held_s"] = round(self.held_s, 4)
        data["peak_memory_mb"] = round(self.peak_memory_mb, 2)
        return data

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=False)
