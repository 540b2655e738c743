"""The conformance kit: games an uploaded referee must judge well before its game is hosted.

The reference players play each other (every order, two seeds) at the fewest and the most
seats, once at every seat count between, and once with each parameter at its bounds (its
minimum and maximum, each of its choices, true and false; the others at their defaults; at most
``MAX_VARIANTS`` of them, spread over the list); then each of four broken players takes every
seat in turn beside a reference: one that crashes, one that never answers, one that writes
garbage, one that exits at once. Each game of the report names its parameters. The kit checks that the referee ends every
game with a well-formed result (the platform refuses any other, docs/referee-protocol.md),
that no reference program is charged with a fault, and that a broken program is never
scored above a seat that played by the rules: the referee never blames the wrong seat.
"""

from __future__ import annotations

import itertools
import logging
import time
import traceback
from typing import Any

from django.conf import settings
from django.utils.translation import gettext, gettext_lazy

from games.base import FAULTS
from games.clocks import Clock
from games.hosted import HostedGame
from judging.play.referee import Player, play
from judging.uploaded.program_referee import RefereeFault, build_referee
from sandbox.programs import build_program

log = logging.getLogger(__name__)

SEEDS = (1, 2)
MAX_REFERENCE_GAMES = 8
# The clock of a game with a broken program: its sleeper is timed out at once (the suite, whose
# references answer in milliseconds, sets less: CONFORMANCE_CLOCK_S).
BROKEN = {
    "crashes": ("crash", b"import sys\nsys.exit(3)\n"),
    "never answers": ("timeout", b"import sys\nfor line in sys.stdin:\n    pass\n"),
    "writes garbage": (
        None,
        b"import sys\nfor line in sys.stdin:\n    print('}{ \\u00ff garbage ~~ 0 0 0 -1 !!', flush=True)\n",
    ),
    "exits at once": ("exit", b"import sys\nsys.stdin.readline()\nsys.exit(0)\n"),
}

# Each broken program's kind, as the report says it.
BROKEN_WORDS = {
    "crashes": gettext_lazy("crashes"),
    "never answers": gettext_lazy("never answers"),
    "writes garbage": gettext_lazy("writes garbage"),
    "exits at once": gettext_lazy("exits at once"),
}


def _built(name: str, source: bytes, filename: str, language: str | None) -> Player:
    build = build_program(source, filename, language=language)
    if not build.ok or build.program is None:
        raise ValueError(gettext("%(name)s does not build: %(log)s") % {"name": name, "log": build.log[-1000:]})
    return Player(name=name, program=build.program)


def _kit_clock(clock: dict[str, Any]) -> Clock:
    cut = settings.CONFORMANCE_CLOCK_S
    short = {k: min(v, cut) if k in ("time_limit", "move_limit_s") else v for k, v in clock.items()}
    return Clock.from_json(short)


def _lineups(references: list[Player], seats: int) -> list[list[Player]]:
    """Every order of the references in the seats, each lineup of ``seats`` players (fewer
    references than seats take the rest in turn; one plays itself when it is alone)."""
    if len(references) == 1 or seats == 1:
        return [[references[0]] * seats] if seats > 1 else [[r] for r in references]
    orders = itertools.permutations(references, min(seats, len(references)))
    return [[order[i % len(order)] for i in range(seats)] for order in orders][:MAX_REFERENCE_GAMES]


MAX_VARIANTS = 24  # games of the references with one parameter at a bound


def variants(game: HostedGame) -> list[dict[str, Any]]:
    """The parameter sets the kit plays beside the defaults: every number at its minimum
    together and at its maximum together (a board of the most pits and the most seeds, which
    no parameter alone reaches), then each parameter in turn at its bounds, the others at
    their defaults; a sample of ``MAX_VARIANTS`` spread evenly over them when there are more,
    the two sets of all bounds kept."""
    defaults = {p.name: p.default for p in game.info.params}
    numbers = [p for p in game.info.params if p.kind in ("integer", "number") and not p.choices]
    together = []
    if len(numbers) > 1:
        for bound in ("minimum", "maximum"):
            values = {p.name: getattr(p, bound) for p in numbers if getattr(p, bound) is not None}
            if {**defaults, **values} != defaults and {**defaults, **values} not in together:
                together.append({**defaults, **values})
    found = []
    for p in game.info.params:
        if p.choices:
            values = list(p.choices)
        elif p.kind == "boolean":
            values = [True, False]
        elif p.kind in ("integer", "number"):
            values = [v for v in (p.minimum, p.maximum) if v is not None]
        else:
            values = []
        for value in values:
            if value != p.default and {**defaults, p.name: value} not in found + together:
                found.append({**defaults, p.name: value})
    room = MAX_VARIANTS - len(together)
    if len(found) > room:
        step = len(found) / room
        found = [found[int(i * step)] for i in range(room)]
    return together + found


def _game(
    game: HostedGame,
    players: list[Player],
    seed: int,
    clock: Clock,
    broken: int | None,
    kind: str,
    params: dict[str, Any] | None = None,
) -> dict:
    """One game of the kit and what is wrong with it ([] if nothing)."""
    defaults = {p.name: p.default for p in game.info.params}
    params = params if params is not None else defaults
    entry: dict[str, Any] = {"players": [p.name for p in players], "seed": seed, "params": params, "problems": []}
    entry["changed"] = {name: value for name, value in params.items() if value != defaults.get(name)}
    started = time.monotonic()
    try:
        record = play(game, params, seed, players, clock)
    except RefereeFault as e:
        entry["problems"].append(str(e))
        return entry
    except Exception as e:  # a platform fault while checking: the kit failed, not the referee
        log.exception("conformance kit: %s", game.info.name)
        entry["problems"].append(f"the platform failed to play it: {type(e).__name__}: {e}")
        entry["traceback"] = traceback.format_exc(limit=4)
        return entry
    finally:
        entry["seconds"] = round(time.monotonic() - started, 2)
    outcome = record.outcome
    entry["result"] = outcome.to_json()
    entry["referee"] = record.replay.get("referee", {})
    entry["moves"] = len(record.replay.get("moves", []))
    for seat, status in enumerate(outcome.statuses):
        if seat != broken and status in FAULTS:
            entry["problems"].append(
                gettext("seat %(seat)s (%(name)s) played by the rules, and was given %(status)s")
                % {"seat": seat, "name": players[seat].name, "status": status}
            )
    if broken is not None:
        expected = BROKEN[kind][0]
        status = outcome.statuses[broken]
        if expected and status != expected:
            entry["problems"].append(
                gettext("the seat that %(kind)s was given %(status)s, not %(expected)s")
                % {"kind": BROKEN_WORDS[kind], "status": status, "expected": expected}
            )
        if expected is None and status not in ("illegal", "loss"):
            entry["problems"].append(
                gettext("the seat that %(kind)s was given %(status)s, not illegal or a loss")
                % {"kind": BROKEN_WORDS[kind], "status": status}
            )
        better = [s for s in range(len(players)) if s != broken and outcome.points[s] <= outcome.points[broken]]
        if better:
            entry["problems"].append(
                gettext(
                    "the seat that %(kind)s scored %(points)s, as much as seat %(seat)s "
                    "(%(theirs)s), which played by the rules"
                )
                % {
                    "kind": BROKEN_WORDS[kind],
                    "points": f"{outcome.points[broken]:g}",
                    "seat": better[0],
                    "theirs": f"{outcome.points[better[0]]:g}",
                }
            )
    return entry


def run_kit(game: HostedGame) -> dict[str, Any]:
    """The kit's report on one version: ``passed``, every game with its problems, and the
    problems in one list for the organiser's page."""
    started = time.monotonic()
    report: dict[str, Any] = {"passed": False, "games": [], "problems": []}
    try:
        build_referee(game.interaction)
        references = [
            _built(f"{p.name}", p.program.source, p.program.filename, p.program.language) for p in game.manifest.players
        ]
        broken = {
            kind: _built(
                gettext("a program that %(kind)s") % {"kind": BROKEN_WORDS[kind]}, source, "broken.py", "python3"
            )
            for kind, (_, source) in BROKEN.items()
        }
    except (RefereeFault, ValueError) as e:
        report["problems"].append(str(e))
        report["seconds"] = round(time.monotonic() - started, 2)
        return report
    low, high = game.seat_range or (game.info.seats, game.info.seats)
    clock = Clock.from_json(game.default_clock)
    for seats in sorted({low, high}):
        for lineup, seed in itertools.product(_lineups(references, seats), SEEDS):
            report["games"].append({"what": "references", **_game(game, lineup, seed, clock, None, "")})
    for seats in range(low + 1, high):  # every count between, once
        report["games"].append(
            {
                "what": gettext("references, %(seats)s seats") % {"seats": seats},
                **_game(game, _lineups(references, seats)[0], SEEDS[0], clock, None, ""),
            }
        )
    for params in variants(game):  # each parameter at its bounds, at the fewest seats
        report["games"].append(
            {"what": "references", **_game(game, _lineups(references, low)[0], SEEDS[0], clock, None, "", params)}
        )
    if any(entry["problems"] for entry in report["games"]):
        report["skipped"] = gettext("the games with broken programs: the references' own games must pass first")
        return _concluded(report, started)
    opponent = next((r for r, p in zip(references, game.manifest.players, strict=True) if p.opponent), references[0])
    for kind, player in broken.items():
        for seat in range(min(low, 4)):
            lineup = [player if s == seat else opponent for s in range(low)]
            report["games"].append(
                {
                    "what": gettext("a program that %(kind)s") % {"kind": BROKEN_WORDS[kind]},
                    **_game(game, lineup, SEEDS[0], _kit_clock(game.default_clock), seat, kind),
                }
            )
    return _concluded(report, started)


def _concluded(report: dict[str, Any], started: float) -> dict[str, Any]:
    for entry in report["games"]:
        for problem in entry["problems"]:
            changed = ", ".join(f"{k}={v}" for k, v in entry.get("changed", {}).items())
            report["problems"].append(
                f"{entry['what']} ({' v '.join(entry['players'])}, seed {entry['seed']}"
                f"{', ' + changed if changed else ''}): {problem}"
            )
    report["passed"] = not report["problems"]
    report["seconds"] = round(time.monotonic() - started, 2)
    return report
