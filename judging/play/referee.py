"""The referees: one loop per way a program is run, over one skeleton (``Referee``: the
seats and their totals, the jails in slots reserved at once, calling off, the replay), the
game's rules judging every reply. Plain Python over the sandbox and the games: no Django here.

Each referee is registered for the interaction it runs (``referee_for``), and ``play`` takes
the game's: a new way of running programs is a new interaction and a new referee, not an edit
here. Registered in this module:

- process per move (Chomp, Hearts and Flowers): one jail per seat for the whole match, one
  run per move;
- line protocol (CodeCup Sudoku): one process per seat for the whole game, frozen while the
  other thinks, on a chess clock.

And in ``judging/play/batch.py`` and ``judging/play/race.py`` (imported by ``judging.apps``): an
output-only run, and a race of every program at once against the game's own server.
"""

from __future__ import annotations

import contextlib
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.base import Game, GameResult, Illegal, LineProtocol, ProcessPerMove, TurnGame
from games.clocks import Clock
from sandbox.errors import PlatformStall
from sandbox.jail import reserve_slots
from sandbox.limits import Limits
from sandbox.programs import Program, judge_language, open_jail
from sandbox.result import RunResult, Verdict
from sandbox.text import printable

REPLAY_SCHEMA = 1
STDERR_PER_MOVE = 4096  # bytes of a program's stderr kept in the replay for each move
OUTPUT_EXCERPT = 200
NAME_SHOWN = 100  # characters of a path named in a reason


class RefereeFault(Exception):
    """A game's referee program broke the protocol or its limits: the platform's fault, not a
    seat's (``judging.uploaded.program_referee`` raises it; a match's worker reads it so)."""


@dataclass
class Player:
    name: str
    program: Program
    submission: dict[str, Any] = field(default_factory=dict)  # id, sha256, language: for the replay


@dataclass
class SeatTotals:
    moves: int = 0  # moves made; a reply that forfeited the game is not one, though its time counts
    cpu_s: float = 0.0
    wall_s: float = 0.0
    replies: int = 0  # every reply timed, the one that forfeited included
    warnings: list[str] = field(default_factory=list)  # what a judge writes back; nothing lost by it


@dataclass
class MatchRecord:
    outcome: GameResult
    seats: list[SeatTotals]
    replay: dict[str, Any]
    # The platform's own times, for its metrics (judging/metrics.py): each jail's start, and
    # each move's cost beyond the program's own wall time.
    timings: dict[str, list[float]] = field(default_factory=dict)


def _tail(data: bytes, limit: int = STDERR_PER_MOVE) -> str:
    text = printable(data[-limit:], lines=True)
    return ("…" + text) if len(data) > limit else text


def _named(path: str) -> str:
    """A path the program made, for a reason: printable, and cut short past NAME_SHOWN."""
    text = printable(path)
    return text if len(text) <= NAME_SHOWN else text[: NAME_SHOWN - 1] + "…"


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _fault(move_no: int, result: RunResult, limits: Limits) -> tuple[str, str]:
    """(status, reason) for a run that did not end normally."""
    where = f"move {move_no}"
    if result.verdict is Verdict.TIME_LIMIT:
        return "timeout", f"{where}: {result.cpu_s:.2f} s of CPU, over the {limits.cpu_s:g} s it had"
    if result.verdict is Verdict.WALL_LIMIT and limits.wall_waiting_only:
        return "timeout", f"{where}: no answer, waited {limits.wall:g} s without computing"
    if result.verdict is Verdict.WALL_LIMIT:
        return "timeout", f"{where}: no answer within {limits.wall:g} s"
    if result.verdict is Verdict.MEMORY_LIMIT:
        return "crash", f"{where}: over the memory limit of {limits.memory_mb} MB"
    if result.verdict is Verdict.OUTPUT_LIMIT:
        return "illegal", f"{where}: {result.note or 'too much output'}"
    if result.signal:
        return "crash", f"{where}: killed by {_signal_name(result.signal)}"
    if result.exit_code is not None:
        return "crash", f"{where}: exited with code {result.exit_code}"
    return "crash", f"{where}: {result.note or 'did not run'}"


class Cancelled(Exception):
    """The match was called off while it was played (``should_stop`` said so)."""


def _never() -> bool:
    return False


class Referee:
    """What every referee does around its loop: check the seats, resolve the parameters, keep
    each seat's totals, open the seats' jails in slots reserved at once, stop when the match
    is called off, and write the replay. A subclass plays the match in ``run``."""

    def __init__(
        self,
        game: Game,
        params: dict[str, int],
        seed: int,
        players: list[Player],
        clock: Clock,
        should_stop: Callable[[], bool] = _never,
        data: bytes | None = None,
        on_progress: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        wrong = game.seats_wrong(len(players))
        if wrong:
            raise ValueError(wrong)
        self.game, self.seed, self.players, self.clock = game, seed, players, clock
        self.should_stop, self.data = should_stop, data
        self.on_progress = on_progress  # told of a long match's progress as it goes (a race's live page)
        self.params = game.resolve_params(params)
        self.totals = [SeatTotals() for _ in players]
        self.moves: list[dict[str, Any]] = []
        self.frames: list[dict[str, Any]] = []
        self.timings: dict[str, list[float]] = {"jail_start_seconds": [], "move_overhead_seconds": []}

    def play(self) -> MatchRecord:
        with contextlib.ExitStack() as stack:
            outcome = self.run(stack)
        return MatchRecord(outcome, self.totals, self.replay(outcome), self.timings)

    def timed_jail(self, stack: contextlib.ExitStack, program: Program, limits: Limits, **kwargs: Any):
        """``open_jail`` on ``stack``, its start time noted for the metrics."""
        start = time.perf_counter()
        jail = stack.enter_context(open_jail(program, limits, **kwargs))
        self.timings["jail_start_seconds"].append(time.perf_counter() - start)
        return jail

    def move_took(self, started: float, program_wall_s: float) -> None:
        """A move's cost to the platform (referee, sandbox, rules) beyond the program's own time."""
        self.timings["move_overhead_seconds"].append(max(time.perf_counter() - started - program_wall_s, 0.0))

    def run(self, stack: contextlib.ExitStack) -> GameResult:
        """Play the match (the jails opened on ``stack`` are closed after it); its outcome."""
        raise NotImplementedError

    def check_stop(self, before: str) -> None:
        if self.should_stop():
            raise Cancelled(f"called off before {before}")

    def open_jails(self, stack: contextlib.ExitStack, limits: Limits, writable: str | None = None) -> list:
        """A jail per seat, in slots taken all at once: a match never holds one slot while it
        waits for another (two such matches would wait on each other forever). The programs'
        files are read-only to them but in the folder ``writable``."""
        slots = stack.enter_context(reserve_slots(len(self.players)))
        return [
            self.timed_jail(stack, p.program, limits, slot=slot, writable=writable)
            for p, slot in zip(self.players, slots, strict=True)
        ]

    def seat_replay(self, index: int) -> dict[str, Any]:
        """What the replay says of a seat beyond its totals (a subclass's measures)."""
        return {}

    def replay_extra(self) -> dict[str, Any]:
        """What the replay holds beyond the moves and frames (an output-only run's report)."""
        return {}

    def replay(self, outcome: GameResult) -> dict[str, Any]:
        game = self.game
        return {
            "schema": REPLAY_SCHEMA,
            "game": game.info.name,
            "version": game.info.version,
            "params": self.params,
            "seed": self.seed,
            "clock": self.clock.to_json(),
            "seats": [
                {
                    "index": i,
                    "name": p.name,
                    **p.submission,
                    "moves": t.moves,
                    "cpu_s": round(t.cpu_s, 4),
                    "wall_s": round(t.wall_s, 4),
                    **self.seat_replay(i),
                    "warnings": t.warnings,
                }
                for i, (p, t) in enumerate(zip(self.players, self.totals, strict=True))
            ],
            "moves": self.moves,
            "frames": self.frames,
            "result": outcome.to_json(),
            **self.replay_extra(),
        }


REFEREES: dict[type, type[Referee]] = {}


def referee_for(interaction: type):
    """Class decorator: the referee of games whose interaction is of this type."""

    def register(cls: type[Referee]) -> type[Referee]:
        REFEREES[interaction] = cls
        return cls

    return register


def play(
    game: Game,
    params: dict[str, int],
    seed: int,
    players: list[Player],
    clock: Clock,
    should_stop: Callable[[], bool] = _never,
    data: bytes | None = None,
    on_progress: Callable[[dict[str, Any]], None] | None = None,
) -> MatchRecord:
    """Play one match with the referee the game's interaction calls for. ``should_stop`` is
    asked before every move; when it answers True the game stops with ``Cancelled``. ``data``:
    the contest's own data file for the game (an output-only game's word list); ``on_progress``
    is told of a race's progress every second."""
    referee = REFEREES.get(type(game.interaction))
    if referee is None:
        raise ValueError(f"{game.info.name} has no referee yet")
    return referee(game, params, seed, players, clock, should_stop, data, on_progress).play()


class _TurnReferee(Referee):
    """A game of turns: its state, frames and the end of the game by its rules."""

    game: TurnGame

    def __init__(self, game: Game, *args: Any, **kwargs: Any) -> None:
        if not isinstance(game, TurnGame):
            raise ValueError(f"{game.info.name} is not a game of moves and turns")
        super().__init__(game, *args, **kwargs)
        self.state = game.initial_state(self.params, self.seed)
        self.frames.append(game.frame(self.state))

    def next_seat(self) -> int | None:
        """The seat to move, or None when the game is over; a game longer than its rules allow
        is the rules' bug, and a match called off stops here."""
        seat = self.game.to_move(self.state)
        if seat is None:
            return None
        if len(self.moves) >= self.game.max_moves(self.params):
            raise RuntimeError(f"{self.game.info.name} went past its maximum length")  # a rules bug, not a player's
        self.check_stop(f"move {len(self.moves) + 1}")
        return seat

    def ended(self) -> GameResult:
        """The outcome by the rules of a game that was played to its end."""
        outcome = self.game.outcome(self.state)
        assert outcome is not None
        return outcome

    def made(self, seat: int, move: Any) -> None:
        self.totals[seat].moves += 1  # a move made: a reply the rules refused is none (Chomp counts chomps)
        self.state = self.game.apply(self.state, move)
        self.frames.append(self.game.frame(self.state))


@referee_for(ProcessPerMove)
class ProcessPerMoveReferee(_TurnReferee):
    def run(self, stack: contextlib.ExitStack) -> GameResult:
        game, clock, players, totals = self.game, self.clock, self.players, self.totals
        interaction = game.interaction
        assert isinstance(interaction, ProcessPerMove)
        outcome: GameResult | None = None
        jail_limits = Limits(cpu_s=clock.cpu_for_move(0.0), memory_mb=clock.memory_mb)
        jails = self.open_jails(stack, jail_limits, writable=interaction.keep)
        while (seat := self.next_seat()) is not None:
            started = time.perf_counter()
            state = self.state
            player, jail, seat_totals = players[seat], jails[seat], totals[seat]
            move_no = len(self.moves) + 1
            cpu = clock.cpu_for_move(seat_totals.cpu_s)
            # CPU is the measure; the wall limit only catches a program that waits (a program
            # computing on a loaded host runs on until its CPU limit).
            limits = jail_limits.but(cpu_s=cpu, wall_s=clock.wall_for_move(cpu), wall_waiting_only=True)
            if seat_totals.moves:  # the first move finds the folder as open_jail made it
                jail.reset_work(player.program.files, keep=interaction.keep)
            argv = player.program.argv(limits, interaction.args(state, seat))
            try:
                result = jail.run(
                    argv,
                    stdin=interaction.stdin(state, seat).encode(),
                    env=dict(player.program.env),
                    limits=limits,
                    fresh_tmp=True,
                )
            except PlatformStall as e:
                raise PlatformStall(f"move {move_no}: {e}") from None
            result = judge_language(player.program, result, limits)
            seat_totals.replies += 1
            seat_totals.cpu_s += result.cpu_s
            seat_totals.wall_s += result.wall_s
            record: dict[str, Any] = {
                "n": move_no,
                "seat": seat,
                "cpu_s": round(result.cpu_s, 4),
                "wall_s": round(result.wall_s, 4),
                "stderr": _tail(result.stderr),
            }
            if result.stalled_s:  # the platform's, left out of wall_s
                record["stalled_s"] = round(result.stalled_s, 4)
            if result.held_s:  # the host's other work kept it from a CPU: left out of wall_s too
                record["held_s"] = round(result.held_s, 4)
            self.moves.append(record)
            if not result.ok:
                status, reason = _fault(move_no, result, limits)
                record["status"] = status
                outcome = game.forfeit(state, seat, status, reason)
                break
            left = _left_behind(jail, result, interaction) if interaction.tidy else ""
            late = clock.over(seat_totals.cpu_s, result.cpu_s)
            slow = clock.move_warning(result.cpu_s)
            if slow and not late:
                _warn(seat_totals, record, f"move {move_no}: {slow}")
            if late:
                record["status"] = "timeout"
                outcome = game.forfeit(state, seat, "timeout", f"move {move_no}: {late}")
                break
            if left:
                record["status"] = "illegal"
                outcome = game.forfeit(state, seat, "illegal", f"move {move_no}: {left}")
                break
            move = interaction.read(state, seat, result.stdout_text)
            if isinstance(move, Illegal):
                record["status"] = move.status
                record["output"] = printable(result.stdout[:OUTPUT_EXCERPT], lines=True)
                outcome = game.forfeit(state, seat, move.status, f"move {move_no}: {move.reason}", move.detail)
                break
            for note in interaction.forgiven(state, seat, result.stdout_text) if interaction.forgiven else ():
                _warn(seat_totals, record, f"move {move_no}: {note}")
            record["move"] = game.move_text(state, move)
            self.made(seat, move)
            self.move_took(started, result.wall_s)
        for seat_totals in totals:
            slow = clock.game_warning(seat_totals.replies, seat_totals.cpu_s)
            if slow:
                seat_totals.warnings.append(f"the game: {slow}")
        return outcome or self.ended()


def _left_behind(jail, result: RunResult, interaction: ProcessPerMove) -> str:
    """Why the program broke the page's rule on files ("" if it did not): files it left in
    /tmp (the runner emptied it after the move and said what was there), or wrote in its
    folder, which holds only its build (and the folder the game lets it keep)."""
    tmp, count = result.extra.get("tmp_left", ([], 0))
    wrote, removed = jail.changes(keep=interaction.keep)
    why = []
    if tmp:
        more = f" and {count - len(tmp)} more" if count > len(tmp) else ""
        why.append(f"left {', '.join(map(_named, tmp))}{more} behind")
    for verb, paths, where in (("wrote", wrote, "in"), ("removed", removed, "from")):
        if paths:
            more = f" and {len(paths) - 5} more" if len(paths) > 5 else ""
            why.append(f"{verb} {', '.join(map(_named, paths[:5]))}{more} {where} its folder")
    if not why:
        return ""
    return (
        " and ".join(why) + ": temporary files may be made only in /tmp and must be removed on completion of the move"
    )


def _warn(seat_totals: SeatTotals, record: dict[str, Any], warning: str) -> None:
    """Note something a judge would write back about a move that still counts: on the move
    always, on the seat the first time (a program that ends every row with a space is told
    once, not once a move)."""
    record.setdefault("warnings", []).append(warning)
    said = warning.partition(": ")[2]
    if not any(w.partition(": ")[2] == said for w in seat_totals.warnings):
        seat_totals.warnings.append(warning)


def _session_fault(move_no: int, reply, session) -> tuple[str, str]:
    """(status, reason) when a long-lived program gave no line."""
    where = f"move {move_no}"
    if reply.verdict in (Verdict.WALL_LIMIT, Verdict.TIME_LIMIT):
        return "timeout", f"{where}: {reply.note}"
    if reply.verdict is Verdict.OUTPUT_LIMIT:
        return "illegal", f"{where}: {reply.note}"
    if reply.verdict is Verdict.MEMORY_LIMIT:
        return "crash", f"{where}: over the memory limit"
    result = session.close()
    if result.signal:
        return "crash", f"{where}: killed by {_signal_name(result.signal)}"
    if result.exit_code == 0:
        return "exit", f"{where}: the program exited before the game was over"
    if result.exit_code is not None:
        return "crash", f"{where}: exited with code {result.exit_code}"
    return "crash", f"{where}: {result.note or reply.note or 'did not run'}"


@referee_for(LineProtocol)
class LineProtocolReferee(_TurnReferee):
    """One process per seat for the whole game. The first player reads the protocol's start
    line; each then reads the opponent's move and answers with its own. Each answer is timed
    on the chess clock (wall or CPU, as the contest measures) while the other program is
    frozen. Forgiven, as CodeCup's judge forgave them: blank lines, spaces around a move, a
    carriage return before the newline."""

    def run(self, stack: contextlib.ExitStack) -> GameResult:
        game, clock, players, totals = self.game, self.clock, self.players, self.totals
        interaction = game.interaction
        assert isinstance(interaction, LineProtocol)
        used = [0.0 for _ in players]
        bank = [clock.overage_s or 0.0 for _ in players]
        outcome: GameResult | None = None
        budget0 = clock.answer_budget(0.0, bank[0])
        limits = Limits(cpu_s=budget0, wall_s=budget0 * 2 + 5, memory_mb=clock.memory_mb)
        jails = self.open_jails(stack, limits)
        sessions = [
            jail.start_session(p.program.argv(limits), env=dict(p.program.env))
            for jail, p in zip(jails, players, strict=True)
        ]
        last_text = interaction.start
        try:
            while (seat := self.next_seat()) is not None:
                started = time.perf_counter()
                state = self.state
                session, seat_totals = sessions[seat], totals[seat]
                move_no = len(self.moves) + 1
                record: dict[str, Any] = {"n": move_no, "seat": seat}
                self.moves.append(record)
                budget = clock.answer_budget(used[seat], bank[seat])
                if clock.measure == "wall":
                    wall, cpu = budget, budget
                else:
                    wall, cpu = clock.wall_per_move_s or budget * 2 + 5, budget
                took_cpu = took_wall = stalled = held = 0.0
                text = None
                if session.send_line(last_text):
                    while text is None:
                        try:
                            reply = session.read_line(wall_s=max(wall - took_wall, 0.0), cpu_s=max(cpu - took_cpu, 0.0))
                        except PlatformStall as e:
                            raise PlatformStall(f"move {move_no}: {e}") from None
                        took_cpu += reply.cpu_s
                        took_wall += reply.wall_s
                        stalled += reply.stalled_s
                        held += reply.held_s
                        if reply.line is None:
                            break
                        text = reply.line.strip() or None  # a blank line is forgiven: read on
                else:
                    reply = None
                seat_totals.cpu_s += took_cpu
                seat_totals.wall_s += took_wall
                took = took_wall if clock.measure == "wall" else took_cpu
                used[seat], bank[seat], late = clock.charge(used[seat], bank[seat], took)
                record.update(cpu_s=round(took_cpu, 4), wall_s=round(took_wall, 4), clock_s=round(used[seat], 4))
                if stalled:  # the platform's, left out of wall_s and the clock
                    record["stalled_s"] = round(stalled, 4)
                if held:  # the host's other work kept it from a CPU: left out of wall_s and the clock
                    record["held_s"] = round(held, 4)
                record["stderr"] = _tail(session.take_stderr())
                if text is None:
                    status, reason = _session_fault(move_no, _ENDED if reply is None else reply, session)
                    record["status"] = status
                    outcome = game.forfeit(state, seat, status, reason)
                    break
                if late:
                    record["status"] = "timeout"
                    outcome = game.forfeit(state, seat, "timeout", f"move {move_no}: {late}")
                    break
                move = game.parse_move(state, text)
                if isinstance(move, Illegal):
                    record["status"] = move.status
                    record["output"] = printable(text[:OUTPUT_EXCERPT])
                    outcome = game.forfeit(state, seat, move.status, f"move {move_no}: {move.reason}", move.detail)
                    break
                record["move"] = last_text = game.move_text(state, move)
                self.made(seat, move)
                self.move_took(started, took_wall + stalled)
        finally:
            for session in sessions:
                if session.alive:
                    session.send_line(interaction.quit)
                session.close()
        return outcome or self.ended()


class _Ended:
    """The reply of a program that could not even be given its line."""

    verdict = Verdict.RUNTIME_ERROR
    note = "the program ended"


_ENDED = _Ended()
