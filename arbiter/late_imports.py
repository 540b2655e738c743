"""No late import hides a cycle (issue 36): in the judging layer, a function that imports one of
the project's own modules says why with a ``# late:`` comment above it in the function — an app's
``ready`` wiring a registry, never a cycle between modules, which import-linter's contracts
(pyproject.toml) forbid instead. ``make lint`` runs this.

Run ``python -m arbiter.late_imports`` to check.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ("judging",)
OWN = {"accounts", "arbiter", "contests", "games", "judging", "sandbox", "web"}
NOT_CHECKED = ("/migrations/", "/tests/")


def late_imports(path: Path, source: str) -> list[tuple[int, str]]:
    """(line, module) for each function-level import of the project's own modules that does
    not say why (``# late:``)."""
    lines = source.splitlines()
    found = []
    for function in ast.walk(ast.parse(source, str(path))):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            if not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            module = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
            if not module or module.split(".")[0] not in OWN:
                continue
            said = lines[function.lineno - 1 : node.end_lineno]  # from the def to the import
            if not any("# late:" in line for line in said):
                found.append((node.lineno, module))
    return found


def unexplained(root: Path = ROOT) -> list[str]:
    said = []
    for package in CHECKED:
        for path in sorted((root / package).rglob("*.py")):
            relative = path.relative_to(root).as_posix()
            if any(part in f"/{relative}" for part in NOT_CHECKED):
                continue
            for line, module in late_imports(path, path.read_text()):
                said.append(f"{relative}:{line}: {module} imported inside a function without '# late:' and why")
    return sorted(set(said))


def main() -> int:
    said = unexplained()
    for line in said:
        print(line)
    return 1 if said else 0


if __name__ == "__main__":
    sys.exit(main())
