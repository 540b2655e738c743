"""Who may write a result's state (issue 36): each field of a stage, match, attempt, seat,
entry and submission that the standings, counts and fits are derived from has owner modules,
and no other module of the project writes it. ``make lint`` runs this; the admin's forms, which
no source shows, are held by ``web/tests/test_admin.py``.

A write is ``x.FIELD = ...`` (or in a tuple of targets), ``setattr(x, "FIELD", ...)``, or a
queryset's ``update(FIELD=...)`` / ``bulk_update(..., ["FIELD"])`` whose chain starts at the
model's name. Creating a row (``objects.create``) is not a change of state and is not checked.
An attribute assignment names no model, so it counts for every model that guards the field
when its object's name is one this project gives that model's rows (``match``, ``seat``...).

Run ``python -m arbiter.owners`` to check; ``--list`` prints every write it finds and whose it is.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("accounts", "arbiter", "contests", "games", "judging", "sandbox", "web")

# The lifecycle of each state: the only modules that change it. matches.py opens, ends and
# re-queues a match's attempts; lifecycle.py moves stages and matches between states;
# verification.py rewrites a seat's points on a judge's decision; builds.py and system_test.py
# move a version from upload to ready; contests/services.py holds entries' statuses; the
# watchdog takes back a build a dead worker held.
OWNERS: dict[str, tuple[frozenset[str], set[str], set[str]]] = {
    # model: (the fields guarded, the names its rows go by, the modules that own them)
    "Stage": (
        frozenset({"status", "started_at", "finished_at", "ended_by", "kind", "contest", "contest_id"}),
        {"stage"},
        {"judging/record/lifecycle.py"},
    ),
    "Match": (
        frozenset(
            {"status", "stage", "stage_id", "round", "result_attempt", "result_attempt_id", "finished_at", "contest"}
        ),
        {"match"},
        {"judging/record/lifecycle.py", "judging/play/matches.py"},
    ),
    "MatchAttempt": (
        frozenset({"outcome", "result", "finished_at"}),
        {"attempt"},
        {"judging/record/lifecycle.py", "judging/play/matches.py"},
    ),
    "MatchSeat": (
        frozenset({"points", "score", "status", "entry", "entry_id", "submission", "submission_id"}),
        {"seat"},
        {"judging/play/matches.py", "judging/record/verification.py"},
    ),
    "Entry": (
        frozenset({"status"}),
        {"entry"},
        {"contests/services.py"},
    ),
    "Submission": (
        frozenset({"status", "is_active"}),
        {"submission", "version"},
        {"judging/play/builds.py", "judging/schedule/system_test.py", "judging/watchdog.py"},
    ),
}
# Modules that are not the project's running code: its migrations (history, replayed as it
# was), its tests (which set up any state they test) and the demo's loader (rows made whole).
NOT_CHECKED = ("/migrations/", "/tests/", "web/demo/")


def _root_name(node: ast.AST) -> str | None:
    """The name a chain of calls and attributes starts from (``Match`` in
    ``Match.objects.filter(...).update(...)``)."""
    while True:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        elif isinstance(node, ast.Name):
            return node.id
        else:
            return None


def _object_name(node: ast.AST) -> str | None:
    """The name of the object an attribute is set on: ``match`` for ``match.status`` and for
    ``self.match.status``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _models_guarding(field: str, name: str | None) -> list[str]:
    if name is None:
        return []
    name = name.lower().lstrip("_")
    return [
        model
        for model, (fields, names, _) in OWNERS.items()
        if field in fields and (name in names or name == model.lower())
    ]


def _queryset_model(name: str | None) -> str | None:
    """The model a queryset's chain starts from: its class (``Match.objects...``) or a name
    this project gives a set of its rows (``versions.filter(...)``, ``seats``)."""
    if name in OWNERS:
        return name
    for model, (_, names, _) in OWNERS.items():
        if name and name.lower().lstrip("_") in {plural(n) for n in names}:
            return model
    return None


def plural(name: str) -> str:
    return name[:-1] + "ies" if name.endswith("y") else name + ("es" if name.endswith("ch") else "s")


def writes(path: Path, source: str) -> list[tuple[int, str, str]]:
    """(line, model, field) for each write of a guarded field in a module's source."""
    found: list[tuple[int, str, str]] = []
    for node in ast.walk(ast.parse(source, str(path))):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for each in ast.walk(target):
                    if isinstance(each, ast.Attribute) and isinstance(each.ctx, ast.Store):
                        for model in _models_guarding(each.attr, _object_name(each.value)):
                            found.append((node.lineno, model, each.attr))
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id == "setattr" and len(node.args) >= 2:
                field = node.args[1]
                if isinstance(field, ast.Constant) and isinstance(field.value, str):
                    for model in _models_guarding(field.value, _object_name(node.args[0])):
                        found.append((node.lineno, model, field.value))
            elif isinstance(func, ast.Attribute) and func.attr in ("update", "bulk_update"):
                model = _queryset_model(_root_name(func.value))
                if model is None:
                    continue
                fields = [k.arg for k in node.keywords if k.arg]
                if (
                    func.attr == "bulk_update"
                    and len(node.args) >= 2
                    and isinstance(node.args[1], (ast.List, ast.Tuple))
                ):
                    fields += [e.value for e in node.args[1].elts if isinstance(e, ast.Constant)]
                found += [(node.lineno, model, f) for f in fields if f in OWNERS[model][0]]
    return found


def modules() -> list[Path]:
    paths = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if not any(part in f"/{relative}" for part in NOT_CHECKED):
                paths.append(path)
    return paths


def trespasses(listing: bool = False) -> list[str]:
    """Each write outside its state's owners, as ``path:line: Model.field is X's to write``."""
    said = []
    for path in modules():
        relative = path.relative_to(ROOT).as_posix()
        for line, model, field in writes(path, path.read_text()):
            owners = OWNERS[model][2]
            if relative not in owners:
                said.append(f"{relative}:{line}: {model}.{field} is written only by {', '.join(sorted(owners))}")
            elif listing:
                print(f"{relative}:{line}: {model}.{field} (its owner)")
    return said


def main(argv: list[str]) -> int:
    said = trespasses(listing="--list" in argv)
    for line in said:
        print(line)
    if said:
        print(f"{len(said)} writes of a result's state outside its owner (arbiter/owners.py says whose each is).")
    return 1 if said else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
