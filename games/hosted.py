"""A game the platform has no code for: an organiser's referee program and its manifest
(docs/referee-protocol.md). Plain values over the archive's files, as the other games' rules
are: no I/O and no Django; the uploaded versions live in the database (contests.GameVersion),
the referee is run by judging/uploaded/program_referee.py.

A hosted game is known by its name and version, ``connect-four@2``: a contest is pinned to
one version until its organiser moves it, and a replay names the version that judged it.
"""

from __future__ import annotations

import io
import math
import re
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

from games.base import (
    FAULTS,
    LOSS,
    STRING_PARAM_MAX,
    WIN,
    Column,
    Game,
    GameInfo,
    Param,
    ParamError,
    count_place,
    count_status,
    ordinal,
    total_points,
)
from sandbox.languages import LANGUAGES, language_for

MANIFEST = "game.json"
NAME = re.compile(r"^[a-z][a-z0-9-]{0,29}$")
KEY = re.compile(r"^([a-z][a-z0-9-]{0,29})@([1-9][0-9]{0,5})$")
PARAM_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,39}$")
PARAM_BOUND = 10**9
MAX_SEATS = 16
# A game's programs and referee, together, well inside a worker task's hour (TASK_TIME_LIMIT).
MAX_CLOCK_S, MAX_REFEREE_LINE_S, MAX_REFEREE_CPU_S = 600, 120, 600
# The referee's limits when the manifest sets none (docs/referee-protocol.md).
REFEREE_SECONDS, REFEREE_CPU_SECONDS, REFEREE_MEMORY_MB = 10.0, 60.0, 512
KEYS = {
    "name",
    "title",
    "seats",
    "referee",
    "referee_language",
    "clock",
    "memory_mb",
    "params",
    "rules",
    "viewer",
    "players",
    "referee_seconds",
    "referee_cpu_seconds",
    "referee_memory_mb",
    "requirements",
    "outcome",
}
# What a game's results may be (docs/referee-protocol.md, "`result`"), strictest first; a
# result that its game's cannot be is the referee's fault, never counted.
OUTCOMES = ("zero_sum", "one_winner", "ranking", "free")


class ManifestError(ValueError):
    """A manifest the platform cannot host, in words for its organiser."""


@dataclass(frozen=True)
class ProgramSource:
    """A program of the archive, as an entry is submitted: one file, or a folder packed as an
    archive entry (its Makefile and runme)."""

    path: str  # in the archive
    filename: str
    source: bytes
    language: str | None = None  # None: as its file name says


@dataclass(frozen=True)
class ReferencePlayer:
    name: str
    program: ProgramSource
    opponent: bool = False


@dataclass(frozen=True)
class RefereeProgram:
    """How a hosted game is run: its referee program beside the players, for the whole game."""

    program: ProgramSource
    seconds: float = REFEREE_SECONDS  # the longest it may take for its next line
    cpu_seconds: float = REFEREE_CPU_SECONDS  # its CPU in a game
    memory_mb: int = REFEREE_MEMORY_MB
    # A Python referee's libraries: a pip requirements file's text, installed from wheels into a
    # read-only folder on its path (judging/uploaded/libraries.py); "" for none.
    requirements: str = ""


@dataclass(frozen=True)
class Manifest:
    name: str
    title: str
    seats: tuple[int, int]  # the fewest and the most players of a game
    referee: RefereeProgram
    clock: dict[str, Any]  # in games.clocks.Clock's names
    params: tuple[Param, ...]
    players: tuple[ReferencePlayer, ...]
    rules: str = ""  # Markdown
    viewer: str = ""  # the game's own viewer script
    outcome: str = "one_winner"  # one of OUTCOMES
    raw: dict[str, Any] = field(default_factory=dict)


def _text(data: Mapping[str, Any], key: str, limit: int, required: bool = True) -> str:
    value = data.get(key, "")
    if not isinstance(value, str) or (required and not value.strip()):
        raise ManifestError(
            (gettext("%(key)s must be a non-empty string") if required else gettext("%(key)s must be a string"))
            % {"key": repr(key)}
        )
    if len(value) > limit:
        raise ManifestError(gettext("%(key)s is longer than %(limit)s characters") % {"key": repr(key), "limit": limit})
    return value.strip()


def _number(data: Mapping[str, Any], key: str, default: float, limit: float) -> float:
    value = data.get(key, default)
    # A whole number too large for a float (JSON allows 4,300 digits) is compared as it is.
    if isinstance(value, bool) or not isinstance(value, int | float) or not -math.inf < value < math.inf:
        raise ManifestError(
            gettext("%(key)s must be a number, not %(value)s") % {"key": repr(key), "value": repr(value)}
        )
    if not 0 < value <= limit:
        shown = (
            repr(value)
            if abs(value) < 10**18
            else gettext("a number of %(digits)s digits") % {"digits": len(str(abs(int(value))))}
        )
        raise ManifestError(
            gettext("%(key)s must be more than 0 and at most %(limit)s, not %(shown)s")
            % {"key": repr(key), "limit": f"{limit:g}", "shown": shown}
        )
    return value


def _seats(value: Any) -> tuple[int, int]:
    if isinstance(value, int) and not isinstance(value, bool):
        low = high = value
    elif isinstance(value, dict) and set(value) <= {"min", "max"}:
        low, high = value.get("min"), value.get("max")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high)):
            raise ManifestError(gettext('\'seats\' must be a number or {"min": A, "max": B} of whole numbers'))
    else:
        raise ManifestError(gettext('\'seats\' must be a number or {"min": A, "max": B}'))
    if not 1 <= low <= high <= MAX_SEATS:
        raise ManifestError(gettext("'seats' must be from 1 to %(most)s, the fewest first") % {"most": MAX_SEATS})
    return low, high


def _clock(value: Any, memory_mb: int) -> dict[str, Any]:
    if not isinstance(value, dict) or not set(value) <= {"kind", "seconds", "measure"}:
        raise ManifestError(gettext('\'clock\' must be {"kind": "total" | "per_move", "seconds": S}'))
    kind, measure = value.get("kind"), value.get("measure", "wall")
    if kind not in ("total", "per_move"):
        raise ManifestError(
            gettext("the clock's kind must be 'total' or 'per_move', not %(kind)s") % {"kind": repr(kind)}
        )
    if measure not in ("wall", "cpu"):
        raise ManifestError(
            gettext("the clock's measure must be 'wall' or 'cpu', not %(measure)s") % {"measure": repr(measure)}
        )
    seconds = _number(value, "seconds", 0, MAX_CLOCK_S)
    return {"time_limit" if kind == "total" else "move_limit_s": seconds, "measure": measure, "memory_mb": memory_mb}


def _params(value: Any) -> tuple[Param, ...]:
    """The manifest's parameters: each ``{"default": D, "min": A, "max": B, "choices": [...],
    "help": "…"}`` or a bare default (``"heaps": "3 4 5"``); its kind is its default's
    (a whole number, a number, a string, true or false)."""
    if not isinstance(value, dict) or len(value) > 20:
        raise ManifestError(gettext("'params' must be an object of at most 20 parameters"))
    params = []
    for name, spec in value.items():
        if not PARAM_NAME.match(name):
            raise ManifestError(
                gettext("parameter %(name)s: a name is letters, digits and _, at most 40") % {"name": repr(name)}
            )
        if not isinstance(spec, dict):
            spec = {"default": spec}
        if not set(spec) <= {"default", "min", "max", "help", "choices"}:
            raise ManifestError(
                gettext("parameter %(name)s: its keys are default, min, max, choices and help") % {"name": repr(name)}
            )
        params.append(_param(name, spec))
    return tuple(params)


KINDS = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"))


def _param(name: str, spec: Mapping[str, Any]) -> Param:
    default = spec.get("default")
    kind = next((kind for type_, kind in KINDS if isinstance(default, type_)), None)
    if kind is None:
        raise ManifestError(
            gettext("parameter %(name)s: its default must be a whole number, a number, a string, true or false")
            % {"name": repr(name)}
        )
    numeric = kind in ("integer", "number")
    low, high = spec.get("min"), spec.get("max")
    if (low is not None or high is not None) and not numeric:
        raise ManifestError(
            gettext("parameter %(name)s: min and max are for numbers, and its default is a %(kind)s")
            % {"name": repr(name), "kind": kind}
        )
    if numeric:
        low = -PARAM_BOUND if low is None else low
        high = PARAM_BOUND if high is None else high
        allowed = (int,) if kind == "integer" else (int, float)
        if not all(
            isinstance(v, allowed) and not isinstance(v, bool) and abs(v) <= PARAM_BOUND for v in (default, low, high)
        ):
            what = gettext("whole numbers") if kind == "integer" else gettext("numbers")
            raise ManifestError(
                gettext("parameter %(name)s: default, min and max are %(what)s up to %(bound)s")
                % {"name": repr(name), "what": what, "bound": f"{PARAM_BOUND:,}"}
            )
        if not low <= default <= high:
            raise ManifestError(
                gettext("parameter %(name)s: its default %(default)s is not between %(low)s and %(high)s")
                % {"name": repr(name), "default": default, "low": low, "high": high}
            )
    if kind == "string" and (len(default) > STRING_PARAM_MAX or "\n" in default or "\r" in default):
        raise ManifestError(
            gettext("parameter %(name)s: a string's default is one line of at most %(most)s")
            % {"name": repr(name), "most": STRING_PARAM_MAX}
        )
    choices = spec.get("choices", [])
    if not isinstance(choices, list) or len(choices) > 100:
        raise ManifestError(
            gettext("parameter %(name)s: its choices are a list of at most 100 values") % {"name": repr(name)}
        )
    param = Param(name, default, low, high, "", kind, tuple(choices))
    for choice in choices:
        try:
            Param(name, choice, low, high, "", kind).check(choice)
        except ParamError:
            raise ManifestError(
                gettext("parameter %(name)s: its choice %(choice)s is not of its kind (%(kind)s)")
                % {"name": repr(name), "choice": repr(choice), "kind": kind}
            ) from None
    if choices and default not in choices:
        raise ManifestError(
            gettext("parameter %(name)s: its default %(default)s is not one of its choices")
            % {"name": repr(name), "default": repr(default)}
        )
    help_text = spec.get("help", "")
    if not isinstance(help_text, str) or len(help_text) > 200:
        raise ManifestError(
            gettext("parameter %(name)s: its help is a string of at most 200 characters") % {"name": repr(name)}
        )
    return Param(name, default, param.minimum, param.maximum, help_text, kind, param.choices)


def _outcome(data: Mapping[str, Any], seats: tuple[int, int]) -> str:
    """The declared outcome, else the strictest that fits every game: one winner at most when a
    game has two seats at most, a ranking by points when it may have more."""
    value = data.get("outcome", "one_winner" if seats[1] <= 2 else "ranking")
    if value not in OUTCOMES:
        shown = repr(value) if isinstance(value, str) and len(value) <= 40 else "this"
        raise ManifestError(
            gettext("'outcome' must be one of %(outcomes)s, not %(shown)s")
            % {"outcomes": ", ".join(OUTCOMES), "shown": shown}
        )
    return value


def impossible(outcome: str, points: tuple[float, ...], statuses: tuple[str, ...]) -> str:
    """Why a result (each seat's points and word, the platform's word for a seat it saw fail)
    cannot be one of a game of this outcome, in words; "" when it can. Every outcome but
    ``free``: a seat that won scores more than every seat that lost (``loss`` or a fault);
    ``one_winner`` and ``zero_sum``: one seat wins at most; ``zero_sum``: the points add up to
    0; ``ranking``: a seat that won has the most points (several only when tied for them)."""
    if outcome == "free":
        return ""
    wins = [p for p, s in zip(points, statuses, strict=True) if s == WIN]
    lost = [p for p, s in zip(points, statuses, strict=True) if s == LOSS or s in FAULTS]
    if wins and lost and min(wins) <= max(lost):
        return f"a seat that won has {min(wins):g} points, no more than a seat that lost ({max(lost):g})"
    if outcome in ("one_winner", "zero_sum") and len(wins) > 1:
        return f"{len(wins)} seats won, and one wins at most"
    if outcome == "zero_sum" and abs(sum(points)) > 1e-9 * max(1.0, *map(abs, points)):
        return f"its points add up to {sum(points):g}, not 0"
    if outcome == "ranking" and wins and min(wins) < max(points):
        return f"a seat that won has {min(wins):g} points, fewer than the most ({max(points):g})"
    return ""


def _clean_path(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > 200:
        raise ManifestError(gettext("%(what)s must be a path in the archive") % {"what": what})
    parts = [p for p in value.strip().split("/") if p not in ("", ".")]
    if not parts or ".." in parts or value.startswith("/"):
        raise ManifestError(
            gettext("%(what)s %(value)s must be a path inside the archive") % {"what": what, "value": repr(value)}
        )
    return "/".join(parts)


def program(files: Mapping[str, bytes], path: Any, what: str, language: Any = None) -> ProgramSource:
    """The program at ``path``: a file of the archive, or a folder of it packed as an archive
    entry is (what its build runs: a Makefile, a runme)."""
    path = _clean_path(path, what)
    if language is not None and (not isinstance(language, str) or language not in LANGUAGES):
        shown = repr(language) if isinstance(language, str) and len(language) <= 40 else "this"
        raise ManifestError(
            gettext("%(what)s's language %(shown)s is not one of the platform's: %(languages)s")
            % {"what": what, "shown": shown, "languages": ", ".join(LANGUAGES)}
        )
    if path in files:
        return ProgramSource(path, path.rsplit("/", 1)[-1], files[path], language)
    inside = {name[len(path) + 1 :]: data for name, data in files.items() if name.startswith(path + "/")}
    if not inside:
        raise ManifestError(gettext("%(what)s %(path)s is not in the archive") % {"what": what, "path": repr(path)})
    return ProgramSource(path, path.rsplit("/", 1)[-1] + ".zip", pack(inside), language or "archive")


def pack(files: Mapping[str, bytes]) -> bytes:
    """Files as a zip, in name order and with fixed dates: the same files, the same bytes (so
    the build cache knows a program it built already)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=(2000, 1, 1, 0, 0, 0))
            executable = files[name].startswith((b"#!", b"\x7fELF")) or name.rsplit("/", 1)[-1] == "runme"
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, files[name])
    return out.getvalue()


def _players(value: Any, files: Mapping[str, bytes]) -> tuple[ReferencePlayer, ...]:
    if not isinstance(value, list) or len(value) > 10:
        raise ManifestError(gettext("'players' must be a list of at most 10 programs"))
    players = []
    for i, spec in enumerate(value):
        if isinstance(spec, str):  # a path: named by its file, its language by its extension
            spec = {
                "name": spec.rstrip("/").rsplit("/", 1)[-1].rsplit(".", 1)[0][:40] or f"player{i + 1}",
                "source": spec,
            }
        if not isinstance(spec, dict) or not set(spec) <= {"name", "source", "language", "opponent"}:
            raise ManifestError(
                gettext("player %(number)s must be a path, or {name, source, language, opponent}") % {"number": i + 1}
            )
        name = _text(spec, "name", 40)
        if any(p.name == name for p in players):
            raise ManifestError(gettext("two players are named %(name)s") % {"name": repr(name)})
        opponent = spec.get("opponent", False)
        if not isinstance(opponent, bool):
            raise ManifestError(gettext("player %(name)s: 'opponent' is true or false") % {"name": repr(name)})
        players.append(
            ReferencePlayer(
                name, program(files, spec.get("source"), f"player {name!r}", spec.get("language")), opponent
            )
        )
    if sum(p.opponent for p in players) > 1:
        raise ManifestError(gettext("at most one player is the system test's opponent"))
    return tuple(players)


def _document(files: Mapping[str, bytes], data: Mapping[str, Any], key: str, limit: int) -> str:
    if key not in data:
        return ""
    path = _clean_path(data[key], f"{key!r}")
    if path not in files:
        raise ManifestError(
            gettext("%(key)s: %(path)s is not a file of the archive") % {"key": repr(key), "path": repr(path)}
        )
    if len(files[path]) > limit:
        raise ManifestError(
            gettext("%(key)s: %(path)s is larger than %(kib)s KiB")
            % {"key": repr(key), "path": repr(path), "kib": limit // 1024}
        )
    try:
        return files[path].decode("utf-8")
    except UnicodeDecodeError:
        raise ManifestError(
            gettext("%(key)s: %(path)s is not UTF-8 text") % {"key": repr(key), "path": repr(path)}
        ) from None


def read_manifest(data: Any, files: Mapping[str, bytes]) -> Manifest:
    """The manifest ``data`` (game.json, parsed) of an archive holding ``files``, checked; a
    ManifestError says the first thing wrong."""
    if not isinstance(data, dict):
        raise ManifestError(gettext("%(manifest)s must hold a JSON object") % {"manifest": MANIFEST})
    unknown = sorted(set(data) - KEYS)
    if unknown:
        raise ManifestError(
            gettext("%(manifest)s has unknown keys %(unknown)s (known: %(known)s)")
            % {"manifest": MANIFEST, "unknown": ", ".join(unknown), "known": ", ".join(sorted(KEYS))}
        )
    name = data.get("name")
    if not isinstance(name, str) or not NAME.match(name):
        raise ManifestError(
            gettext(
                "'name' must be a lower-case letter then lower-case letters, digits and -, at most 30: not %(name)s"
            )
            % {"name": repr(name)}
        )
    memory = _number(data, "memory_mb", 256, 16384)
    if "clock" not in data:
        raise ManifestError(gettext('\'clock\' is required: {"kind": "total" | "per_move", "seconds": S}'))
    referee = RefereeProgram(
        program(files, data.get("referee"), "the referee", data.get("referee_language")),
        seconds=_number(data, "referee_seconds", REFEREE_SECONDS, MAX_REFEREE_LINE_S),
        cpu_seconds=_number(data, "referee_cpu_seconds", REFEREE_CPU_SECONDS, MAX_REFEREE_CPU_S),
        memory_mb=int(_number(data, "referee_memory_mb", REFEREE_MEMORY_MB, 16384)),
        requirements=_document(files, data, "requirements", 64 << 10),
    )
    if referee.requirements and (referee.program.language or _language_of(referee.program.filename)) != "python3":
        raise ManifestError(gettext("'requirements': libraries are installed for a Python referee (referee.py) only"))
    seats = _seats(data.get("seats"))
    return Manifest(
        name=name,
        title=_text(data, "title", 100),
        seats=seats,
        referee=referee,
        clock=_clock(data["clock"], int(memory)),
        params=_params(data.get("params", {})),
        players=_players(data.get("players", []), files),
        rules=_document(files, data, "rules", 256 << 10),
        viewer=_document(files, data, "viewer", 256 << 10),
        outcome=_outcome(data, seats),
        raw=dict(data),
    )


def _language_of(filename: str) -> str | None:
    try:
        return language_for(filename).name
    except (KeyError, ValueError):
        return None


def key(name: str, version: int) -> str:
    return f"{name}@{version}"


def standings(seats: int) -> tuple[Column, ...]:
    """A hosted game's table: points, then wins in a game of two; in a game of more seats, the
    places its games gave by points (first places, then seconds… as tie-breaks, the last place
    shown but not ranking: fewer of them is what the others already say)."""
    if seats <= 2:
        return (Column("points", "Points", total_points), Column("wins", "Wins", count_status("win")))
    placed = tuple(
        Column(f"place{n}", ordinal(n), count_place(n), ranks=n < seats, help=f"Games finished {ordinal(n)} by points")
        for n in range(1, seats + 1)
    )
    return (Column("points", "Points", total_points), *placed)


class _InWords(dict):
    """A referee's own names for results in words: THREE_IN_A_ROW reads "three in a row"."""

    def get(self, key, default=None):
        return " ".join(str(key).replace("_", " ").split()).lower() if key else default


class HostedGame(Game):
    """An uploaded game, one version of it: what its manifest says, run by its referee."""

    result_words = _InWords()

    def __init__(self, manifest: Manifest, version: int) -> None:
        self.manifest = manifest
        low, high = manifest.seats
        self.info = GameInfo(key(manifest.name, version), manifest.title, version, low, manifest.params)
        self.seat_range = (low, high)
        self.interaction = manifest.referee
        self.default_clock = manifest.clock
        self.standings = standings(high)

    @property
    def head_to_head(self) -> bool:
        low, high = self.seat_range
        return low <= 2 <= high

    @property
    def in_groups(self) -> bool:
        return self.seat_range[1] >= 2

    @property
    def opponent(self) -> ReferencePlayer | None:
        """The reference player of the system test: the one marked so, else the first."""
        players = self.manifest.players
        return next((p for p in players if p.opponent), players[0] if players else None)

    def frame(self, state: Any) -> dict[str, Any]:
        return dict(state) if isinstance(state, dict) else {}
