"""What every game states once: its metadata and its rules, as pure functions of state.

No I/O and no Django here or in any ``games/<name>/rules.py``: a referee feeds the rules
what programs said and records what the rules answer. States are immutable values, so a
replay is re-derived by applying its moves again from the initial state.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypedDict, TypeVar, runtime_checkable

State = TypeVar("State")
Move = TypeVar("Move")


class ParamError(ValueError):
    """A game parameter is unknown, of the wrong type or out of bounds."""


@dataclass(frozen=True)
class Param:
    """A game parameter: a whole number (``integer``, the built-in games' only kind), a
    ``number``, a ``string`` or a ``boolean``, with its default, bounds for numbers and, for
    any kind, the values it may take (``choices``; empty: any)."""

    name: str
    default: Any
    minimum: float | None = None
    maximum: float | None = None
    help: str = ""
    kind: str = "integer"
    choices: tuple[Any, ...] = ()

    def check(self, value: Any) -> Any:
        """The value, checked against the parameter's kind, bounds and choices (ParamError)."""
        if self.kind == "boolean":
            if not isinstance(value, bool):
                raise ParamError(f"{self.name} must be true or false, not {value!r}")
        elif self.kind == "string":
            if not isinstance(value, str) or len(value) > STRING_PARAM_MAX or "\n" in value or "\r" in value:
                raise ParamError(f"{self.name} must be one line of text of at most {STRING_PARAM_MAX} characters")
        else:
            whole = self.kind == "integer"
            if isinstance(value, bool) or not isinstance(value, int if whole else (int, float)):
                raise ParamError(f"{self.name} must be a {'whole number' if whole else 'number'}, not {value!r}")
            if not math.isfinite(value) or not (
                (self.minimum is None or self.minimum <= value) and (self.maximum is None or value <= self.maximum)
            ):
                raise ParamError(f"{self.name} must be {self.says()}, not {value}")
        if self.choices and value not in self.choices:
            raise ParamError(f"{self.name} must be {self.says()}, not {value!r}")
        return value

    def says(self) -> str:
        """What values it takes, in words: "4 to 12", "one of hex, go", "true or false"."""
        if self.choices:
            return "one of " + ", ".join(map(_shown, self.choices))
        if self.kind == "boolean":
            return "true or false"
        if self.kind == "string":
            return "a line of text"
        low = "any" if self.minimum is None else _shown(self.minimum)
        high = "any" if self.maximum is None else _shown(self.maximum)
        return f"between {low} and {high}"

    def line(self, value: Any) -> str:
        """The value as a referee reads it after ``param NAME ``: the rest of its line."""
        return ("true" if value else "false") if isinstance(value, bool) else str(value)


STRING_PARAM_MAX = 200


def _shown(value: Any) -> str:
    return (
        ("true" if value else "false")
        if isinstance(value, bool)
        else f"{value:g}"
        if isinstance(value, float)
        else str(value)
    )


@dataclass(frozen=True)
class GameInfo:
    name: str  # the short name in the registry
    title: str
    version: int  # bumped whenever a rule changes what a replay means
    seats: int  # 0: any number of one or more (a race: every entry of a stage at once)
    params: tuple[Param, ...]


# The one vocabulary of a seat's result, the same for every game, so that the platform (the
# system test, the standings, the pages) never has to learn a new game's words. The game's own
# name for a result goes beside it as a detail: CodeCup's NO_SOLUTIONS_LEFT is a "loss".
WIN, LOSS, DRAW = "win", "loss", "draw"
ILLEGAL, TIMEOUT, CRASH, EXIT = "illegal", "timeout", "crash", "exit"
# A one-seat run of an output-only game whose output the game's verifier accepted.
VALID = "valid"
SEAT_STATUSES = (WIN, LOSS, DRAW, VALID, ILLEGAL, TIMEOUT, CRASH, EXIT)
# A program that did not play by the rules (it fails the system test); a loss is not one.
FAULTS = frozenset({ILLEGAL, TIMEOUT, CRASH, EXIT})
# A round sat out (a Swiss bye): a seat of the platform's, not of a game; its points count in
# the standings, but it is no game played.
BYE = "bye"


@dataclass(frozen=True)
class Illegal:
    """A reply the rules refuse: a status of the seat that gave it, never an exception."""

    reason: str
    status: str = ILLEGAL
    detail: str = ""  # the game's own name for this mistake (Sudoku: DOUBLED_SOMEWHERE)


@dataclass(frozen=True)
class GameResult:
    """The end of a game: one value per seat, in seat order."""

    points: tuple[float, ...]  # what the standings add up
    scores: tuple[float, ...]  # the game's own measure (cookies eaten, ...)
    statuses: tuple[str, ...]  # each seat's result, one of SEAT_STATUSES
    reason: str
    details: tuple[str, ...] = ()  # each seat's result as the game names it ("" if the same)

    def __post_init__(self) -> None:
        unknown = [s for s in self.statuses if s not in SEAT_STATUSES]
        if unknown:
            raise ValueError(
                f"seat statuses {unknown} are not in the vocabulary {SEAT_STATUSES}: put the game's own name in details"
            )
        if not self.details:
            object.__setattr__(self, "details", ("",) * len(self.statuses))
        if not len(self.points) == len(self.scores) == len(self.statuses) == len(self.details):
            raise ValueError("an outcome has one point, score, status and detail per seat")

    def to_json(self) -> dict[str, Any]:
        return {
            "points": list(self.points),
            "scores": list(self.scores),
            "statuses": list(self.statuses),
            "details": list(self.details),
            "reason": self.reason,
        }


@dataclass(frozen=True)
class SeatRecord:
    """One seat of one finished game, as the standings see it."""

    points: float
    score: float
    status: str
    moves: int
    detail: str = ""  # the game's own name for the result, when it has one
    wall_seconds: float = 0.0
    place: int = 0  # 1 for the most points of its game (tied seats share it); 0 for a bye


def places(points: Sequence[float | None], statuses: Sequence[str]) -> list[int]:
    """Each seat's place in its game, by points: one more than the seats with more points, so
    tied seats share the better place ("1, 1, 3"); 0 for a bye, which has no game to place in.
    A sum over seats as every total is: a column counts an entry's first places, seconds…"""
    scored = [p or 0.0 for p in points]
    return [
        0 if status == BYE else 1 + sum(other > mine for other in scored)
        for mine, status in zip(scored, statuses, strict=True)
    ]


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th… 11th, 12th, 13th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


TOTALLED = ("points", "score", "moves", "wall_seconds")  # the fields of a seat a column may add up


@dataclass(frozen=True)
class Total:
    """How a column adds up an entry's seats: the sum of one field (``of``: points, score or
    moves), or with ``of`` empty the number of seats; either over the seats whose status is
    one of ``statuses`` (every seat when empty) and, when ``detail`` is given, whose result
    the game names so.

    A total is data rather than a function so that the platform can have the database add
    it up where the seats are, and it is a sum over seats, so that one game's result
    changing changes it by that game's difference. Called on records, it adds them up here.
    """

    of: str = ""
    statuses: tuple[str, ...] = ()
    detail: str = ""
    place: int = 0  # only the seats of this place in their games (``places``); 0: any

    def __post_init__(self) -> None:
        if self.of and self.of not in TOTALLED:
            raise ValueError(f"a column adds up one of {TOTALLED}, not {self.of!r}")
        unknown = [s for s in self.statuses if s not in (*SEAT_STATUSES, BYE)]
        if unknown:
            raise ValueError(f"seat statuses {unknown} are not in the vocabulary {SEAT_STATUSES}")

    def counts(self, seat: SeatRecord) -> bool:
        return (
            (not self.statuses or seat.status in self.statuses)
            and (not self.detail or seat.detail == self.detail)
            and (not self.place or seat.place == self.place)
        )

    def __call__(self, seats: Sequence[SeatRecord]) -> float:
        chosen = [s for s in seats if self.counts(s)]
        return sum(getattr(s, self.of) for s in chosen) if self.of else len(chosen)


MEASURES = ("programming_s", "execution_s", "program_bytes")  # what a Formula may weigh


@dataclass(frozen=True)
class Formula:
    """A rating over every entry of the table: the sum, over ``terms`` (measure, divisor), of
    the entry's measure / the smallest in the table / divisor; lower is better. The MSO
    contests broke ties so: "(your programming time / fastest programming time / 5) + (your
    execution time / fastest execution time) + (your program size / smallest program size)".
    Measures: ``programming_s``, from the contest's opening to the submission that played;
    ``execution_s``, the seats' wall time; ``program_bytes``, the program's size as built
    (``Submission.program_bytes``). Not a sum over seats: the platform computes it after the
    totals, from one more query."""

    terms: tuple[tuple[str, float], ...]

    def __post_init__(self) -> None:
        unknown = [m for m, _ in self.terms if m not in MEASURES]
        if unknown:
            raise ValueError(f"a formula weighs {MEASURES}, not {unknown}")

    def __call__(self, measures: dict[str, float], smallest: dict[str, float]) -> float:
        return sum((measures[m] / smallest[m] if smallest[m] > 0 else 1.0) / divisor for m, divisor in self.terms)


@dataclass(frozen=True)
class Column:
    """One column of the standings; the columns in order are the ranking and its tie-breaks,
    except those with ``ranks`` False, shown for information (a claimed score beside the
    verified one)."""

    key: str
    label: str
    total: Total | Formula
    higher_is_better: bool = True
    ranks: bool = True
    help: str = ""


total_points = Total("points")
total_score = Total("score")
total_moves = Total("moves")


def count_status(*statuses: str) -> Total:
    """The number of seats with one of these results."""
    return Total(statuses=statuses)


def count_place(place: int) -> Total:
    """The number of seats that finished their games in this place (``places``)."""
    return Total(place=place)


def count_detail(detail: str, *statuses: str) -> Total:
    """The number of seats whose result the game names ``detail`` (Sudoku: NO_SOLUTIONS_LEFT)."""
    return Total(statuses=statuses, detail=detail)


@dataclass(frozen=True)
class ProcessPerMove:
    """How a game whose program is started afresh for every move talks to it."""

    args: Callable[[Any, int], list[str]]  # (state, seat) -> command-line arguments
    stdin: Callable[[Any, int], str]  # (state, seat) -> what the program reads
    read: Callable[[Any, int, str], Any]  # (state, seat, stdout) -> Move | Illegal
    keep: str | None = None  # a folder the program may keep between its moves; None: a fresh folder every move
    # (state, seat, stdout) -> what the referee forgave in a legal reply, as warnings a judge writes back
    forgiven: Callable[[Any, int, str], list[str]] | None = None
    # True: a file left in /tmp (or /dev/shm) or written in its folder makes the reply illegal
    # (Chomp: "All files that are created MUST be removed on completion of your move").
    tidy: bool = False


@dataclass(frozen=True)
class LineProtocol:
    """How a game whose program runs for the whole game talks to it: the first player reads
    ``start``, then each reads the opponent's move (in the game's notation) and answers with
    its own on one line; every program reads ``quit`` at the end."""

    start: str
    quit: str


@dataclass(frozen=True)
class Batch:
    """How a game whose program runs once, alone, on input files in its folder, is run (an
    output-only contest): the game writes the inputs (``BatchGame.write_inputs``), the
    program writes ``output`` within the clock's ``seconds``, and the game judges that file
    (``BatchGame.judge``)."""

    output: str


@dataclass(frozen=True)
class Race:
    """How a game whose programs are clients of the game's own server is run: every seat's
    program at once, each in a jail whose one network endpoint is the server, reached at
    127.0.0.1:``port`` inside the jail (``RaceGame.server`` makes the server)."""

    port: int


class Game(ABC):
    """What every game states: its name and parameters, how its programs are run, its clock
    and its standings."""

    info: GameInfo
    interaction: ProcessPerMove | LineProtocol | Batch | Race | None = None
    # The time limits and memory of the original contest (see games.clocks.Clock for the names).
    default_clock: Mapping[str, float] = {}
    # The language table of the original contest (sandbox.languages.TABLES): its compilers'
    # commands and flags, what `play` builds with when no contest is named.
    original_table: str = "arbiter"
    # An archive entry's script run once in the build jail after its build, if the entry has
    # one (the Solitaire 500: "If you include an INSTALL script ... it will be run").
    install_script: str = ""
    # The game's own names for results (a seat's ``detail``) in a contestant's words:
    # {"NO_SOLUTIONS_LEFT": "left no solution"}; a detail not named here is shown as it is.
    result_words: Mapping[str, str] = {}
    # The standings: the first column ranks, the others break ties in order.
    standings: tuple[Column, ...] = (Column("points", "Points", total_points),)
    # An archive entry (runme, src/Makefile) whose supplied runme cannot run is made again from
    # its sources and tested once more, where the contest's page promises it.
    rebuilds_from_sources: bool = False
    # The fewest and the most players of one game, when it may have any number between
    # (an uploaded game's manifest); None: exactly ``info.seats``.
    seat_range: tuple[int, int] | None = None

    @property
    def head_to_head(self) -> bool:
        """Whether its programs play each other two at a time (round robins, Swiss, continuous
        pairings): a game of turns, or an uploaded game that two may play."""
        return False

    @property
    def in_groups(self) -> bool:
        """Whether its programs play each other in groups (a round robin of pairs, or of
        groups of more): a game two may play; an uploaded game that takes two or more."""
        return self.head_to_head

    @property
    def default_seats(self) -> int:
        """The players of one game when a stage does not say: two where the game takes two,
        else its fewest (0: a race, every entry at once)."""
        if self.seat_range is not None:
            low, high = self.seat_range
            return 2 if low <= 2 <= high else low
        return self.info.seats

    def seats_wrong(self, count: int) -> str:
        """Why a game cannot have ``count`` players ("" if it can)."""
        if self.seat_range is not None:
            low, high = self.seat_range
            players = f"{low}" if low == high else f"{low} to {high}"
            return "" if low <= count <= high else f"{self.info.name} needs {players} players, not {count}"
        seats = self.info.seats
        if not seats:
            return "" if count else f"{self.info.name} needs at least one player"
        return "" if count == seats else f"{self.info.name} needs {seats} player{'s' * (seats != 1)}, not {count}"

    def resolve_params(self, params: Mapping[str, Any] | None = None) -> dict[str, int]:
        """The full parameter set: defaults filled in, every value checked, unknown names refused."""
        params = dict(params or {})
        known = {p.name: p for p in self.info.params}
        unknown = sorted(set(params) - set(known))
        if unknown:
            raise ParamError(
                f"{self.info.name} has no parameter {', '.join(unknown)} (it has: {', '.join(known) or 'none'})"
            )
        return {name: p.check(params.get(name, p.default)) for name, p in known.items()}

    @abstractmethod
    def frame(self, state: Any) -> dict[str, Any]:
        """A state as JSON for the replay viewer."""

    def reproduced(self, replay: Mapping[str, Any]) -> dict[str, Any]:
        """What of a replay a deterministic program makes again, the same, when its game is
        played again (``arbiter replay --check``): every move or fault in order, each seat's
        points, score and status, and how the game ended; never a time."""
        result = replay.get("result") or {}
        return {
            "moves": [[m.get("seat"), m.get("move"), m.get("status")] for m in replay.get("moves", [])],
            **{key: result.get(key) for key in ("points", "scores", "statuses", "reason")},
        }


class TurnGame(Game, Generic[State, Move]):
    """A game of moves and turns: states, the seat to move, legal moves and their notation."""

    @property
    def head_to_head(self) -> bool:
        return self.info.seats == 2

    @abstractmethod
    def initial_state(self, params: Mapping[str, int], seed: int) -> State: ...

    @abstractmethod
    def to_move(self, state: State) -> int | None:
        """The seat whose turn it is, or None when the game is over."""

    @abstractmethod
    def legal_moves(self, state: State) -> list[Move]: ...

    @abstractmethod
    def parse_move(self, state: State, text: str) -> Move | Illegal:
        """A move in the game's canonical notation (as ``move_text`` writes it)."""

    @abstractmethod
    def move_text(self, state: State, move: Move) -> str: ...

    @abstractmethod
    def apply(self, state: State, move: Move) -> State:
        """The state after the seat to move plays ``move``, which must be legal."""

    @abstractmethod
    def outcome(self, state: State) -> GameResult | None:
        """How the game ended, or None while it goes on."""

    @abstractmethod
    def forfeit(self, state: State, seat: int, status: str, reason: str, detail: str = "") -> GameResult:
        """The outcome when ``seat`` loses by its program's fault: ``status`` is one of FAULTS,
        ``detail`` the game's own name for it when it has one (an Illegal's detail)."""

    @abstractmethod
    def max_moves(self, params: Mapping[str, int]) -> int:
        """No game with these parameters is longer than this."""


class BatchGame(Game):
    """A game played by one program run once on input files (``Batch``): no turns, no moves
    to enumerate; an output file to judge."""

    practice_seed: int = 0  # the inputs contestants may download and test on

    def check_data(self, data: bytes) -> None:
        """Refuse (ValueError, in words) a contest data file the game cannot use."""

    @abstractmethod
    def write_inputs(
        self, folder: Path, params: Mapping[str, int], seed: int, seconds: int, data: bytes | None
    ) -> None:
        """Every input file of a run into ``folder``; ``data``: the contest's own data file
        (Crossed Words: the organisers' word list), None for the game's default."""

    @abstractmethod
    def judge(
        self, params: Mapping[str, int], seed: int, output: bytes | None, data: bytes | None
    ) -> tuple[GameResult, dict[str, Any]]:
        """The outcome of a run that wrote ``output`` (None: it wrote no output file) and the
        game's report on it (for the judges' page; JSON)."""

    @abstractmethod
    def forfeit_run(self, status: str, reason: str, detail: str = "") -> GameResult:
        """The outcome of a run that broke a limit (``status`` one of FAULTS)."""

    @abstractmethod
    def frames(self, seed: int, report: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The replay's moves and frames, from the report."""


class RaceProgress(TypedDict):
    """What a race's server says of one entrant at a moment (``RaceServer.snapshot``): the keys
    the platform reads; a game adds its own (Wheels: deck, discarded, round, illegal...)."""

    name: str  # the entrant's login name
    moves: int  # moves made
    instructions: int  # lines (commands) its program sent
    time_s: float  # the race's seconds it has used so far
    finished_s: float | None  # when it finished the race, or None
    connected: bool  # connected now
    connections: int  # connections it has made (0: it never logged in)


@dataclass(frozen=True)
class LiveColumn:
    """One column of a race's live table on its match page: the entrant's progress under
    ``key``, shown "N of ``of``" when ``of`` is given."""

    label: str
    key: str
    of: int | None = None


@runtime_checkable
class RaceServer(Protocol):
    """A race's server, run by the referee on an asyncio loop of its own, in one thread."""

    async def start_unix(self, path: Path) -> None:
        """Listen on this Unix socket (each jail's one network endpoint)."""

    async def green_flag(self) -> None:
        """Wait for every entrant to log in (or the start timeout), then start the race."""

    async def close(self) -> None: ...

    def snapshot(self) -> list[RaceProgress]:
        """Each entrant's progress now."""

    def withdraw(self, login: str) -> None:
        """The entrant's program has ended: the race does not wait for it."""

    def logs(self) -> dict[str, str]:
        """Each entrant's dialogue with the server, by login name (for the replay)."""


class RaceGame(Game):
    """A game played by all of a stage's programs at once against the game's own server
    (``Race``): no turns; the server's account of each entrant's progress is the result. The
    referee (``judging.play.race``) reads only what this class and ``RaceServer`` declare; Wheels
    (``games.wheels``) is one implementation."""

    @abstractmethod
    def server(
        self,
        params: Mapping[str, int],
        seed: int,
        logins: Mapping[str, str],
        start_timeout_s: float,
        on_finish: Callable[[str], None] | None = None,
    ) -> RaceServer:
        """The game's server for one race: ``logins`` maps each entrant's login name to its
        password; ``on_finish`` is told (in the server's thread) of each entrant that finishes."""

    @abstractmethod
    def client_env(self, login: str, password: str, port: int) -> dict[str, str]:
        """What a program is told in its environment to find and log in to the server."""

    @abstractmethod
    def over(self, params: Mapping[str, int], snapshot: Sequence[RaceProgress]) -> bool:
        """Whether the race is over by its rules (the referee also ends it at its time limit,
        or when no program is left running)."""

    @abstractmethod
    def race_outcome(self, params: Mapping[str, int], seats: Sequence[dict[str, Any]]) -> GameResult:
        """The race's outcome from each seat's final progress (a ``RaceProgress``, with
        ``stopped``: the referee ended the program, and ``fault``: (status, reason) when the
        program broke a limit or left before it finished)."""

    @abstractmethod
    def live_columns(self, params: Mapping[str, int]) -> list[LiveColumn]:
        """The columns of the race's live table, beside each entrant's name and state."""

    def kit(self) -> dict[str, bytes]:
        """Files contestants download to race at home (the server, a reference client):
        path in the zip -> content."""
        return {}
