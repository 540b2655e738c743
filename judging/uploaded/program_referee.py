"""The referee of an uploaded game: the organiser's referee program, jailed beside the players,
speaking docs/referee-protocol.md with this loop, which speaks to the players. Plain Python
over the sandbox, as judging/play/referee.py.

The players are long-lived programs frozen while they are not asked, on the game's chess
clock (as CodeCup's Caia ran them); the referee is frozen while a player is asked, on its own
limits. Whatever the referee does wrong is the platform's fault (``RefereeFault``), never a
player's: the match is tried again and, after its faults, left for a judge.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
import time
from typing import Any

from games.base import DRAW, EXIT, LOSS, SEAT_STATUSES, VALID, WIN, GameResult
from games.hosted import HostedGame, RefereeProgram, impossible
from judging.play.referee import _ENDED, OUTPUT_EXCERPT, Referee, RefereeFault, _session_fault, _tail, referee_for
from judging.uploaded import libraries
from sandbox.errors import PlatformStall
from sandbox.jail import reserve_slots
from sandbox.limits import MB, Limits
from sandbox.programs import Program, build_program
from sandbox.result import Verdict
from sandbox.text import printable

FRAME_BYTES = 256 << 10
MAX_FRAMES = 10_000
MAX_LINES = 1_000_000
MAX_OUTPUT = 64 * MB
PENDING_BYTES = 1 * MB  # what may wait for a seat that is not asked
FAULT_STDERR = 2000  # characters of the referee's stderr in a fault's reason
WORDS = tuple(s for s in SEAT_STATUSES if s != VALID)
DETAIL = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
# The seat's fault as the platform saw it, in the protocol's words (a line too long is a crash).
TOLD = {"timeout": "timeout", "crash": "crash", "exit": "exit", "illegal": "crash"}


def build_referee(interaction: RefereeProgram) -> Program:
    """The referee, built as an entry is (and cached as one), with its libraries if it names
    any (installed once: ``libraries.ensure``); a build or an install that fails is a fault."""
    source = interaction.program
    build = build_program(source.source, source.filename, language=source.language)
    if not build.ok or build.program is None:
        raise RefereeFault(f"the referee ({source.path}) does not build: {build.log[-FAULT_STDERR:]}")
    if not interaction.requirements:
        return build.program
    try:
        return libraries.run_with(build.program, libraries.ensure(interaction.requirements))
    except libraries.LibraryError as e:
        raise RefereeFault(f"the referee's libraries: {e}") from None


MAX_POINTS = 1e9  # a seat's points in one game: the standings add them up in the database


def _number(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or abs(value) > MAX_POINTS:
        raise ValueError(text)
    return value


@referee_for(RefereeProgram)
class ProgramReferee(Referee):
    """One game of an uploaded game."""

    def run(self, stack: contextlib.ExitStack) -> GameResult:
        interaction = self.game.interaction
        assert isinstance(interaction, RefereeProgram)
        self.interaction = interaction
        referee = build_referee(interaction)
        clock, players = self.clock, self.players
        self.used = [0.0 for _ in players]
        self.bank = [clock.overage_s or 0.0 for _ in players]
        self.pending: list[list[str]] = [[] for _ in players]
        self.gone: dict[int, tuple[str, str]] = {}  # seat -> (status, reason) of a seat that faulted
        self.reason, self.lines, self.output = "", 0, 0
        self.placed: list[tuple[int, dict[str, Any]]] = []  # (moves before it, frame)
        self.referee_cpu = self.referee_wall = 0.0

        budget = clock.answer_budget(0.0, self.bank[0])
        limits = Limits(cpu_s=budget, wall_s=budget * 2 + 5, memory_mb=clock.memory_mb)
        referee_limits = Limits(
            cpu_s=interaction.cpu_seconds,
            wall_s=interaction.seconds,
            wall_real=True,  # a hung referee is given up on time, however crowded the host
            memory_mb=interaction.memory_mb,
            stdout_bytes=MAX_OUTPUT,
            line_bytes=FRAME_BYTES + 64,
            stderr_bytes=100_000,
        )
        slots = stack.enter_context(reserve_slots(len(players) + 1))
        jails = [self.timed_jail(stack, p.program, limits, slot=s) for p, s in zip(players, slots, strict=False)]
        referee_jail = self.timed_jail(stack, referee, referee_limits, slot=slots[-1], sealed=True)
        self.sessions = [
            jail.start_session(p.program.argv(limits), env=dict(p.program.env))
            for jail, p in zip(jails, players, strict=True)
        ]
        self.referee = referee_jail.start_session(referee.argv(referee_limits), env=dict(referee.env))
        try:
            outcome = self._game()
        finally:
            for seat, session in enumerate(self.sessions):
                if seat not in self.gone:
                    for line in self.pending[seat]:  # what the referee sent after the last ask
                        if not session.send_line(line):
                            break
                session.close()
            self.referee_peak_mb = self.referee.close().peak_memory_mb
        self.frames[:] = self._aligned()
        return outcome

    # -- the referee's side ------------------------------------------------------------------

    def _tell(self, line: str) -> None:
        if not self.referee.send_line(line, timeout_s=self.interaction.seconds):
            raise self._fault(f"the referee did not take the line {line[:60]!r}")

    def _fault(self, why: str) -> RefereeFault:
        stderr = printable(self.referee.take_stderr()[-FAULT_STDERR:], lines=True).strip()
        return RefereeFault(f"the referee {why}" + (f"; its last stderr:\n{stderr}" if stderr else ""))

    def _next_line(self) -> str:
        used = self.referee_cpu
        left = self.interaction.cpu_seconds - used
        try:
            reply = self.referee.read_line(wall_s=self.interaction.seconds, cpu_s=max(left, 0.0))
        except PlatformStall as e:
            raise PlatformStall(f"the referee: {e}") from None
        self.referee_cpu += reply.cpu_s
        self.referee_wall += reply.wall_s
        if reply.line is None:
            if reply.verdict is Verdict.TIME_LIMIT:
                raise self._fault(f"used its {self.interaction.cpu_seconds:g} s of CPU for a game")
            if reply.verdict is Verdict.WALL_LIMIT:
                raise self._fault(f"wrote no line for {self.interaction.seconds:g} s")
            if reply.verdict is Verdict.OUTPUT_LIMIT:
                raise self._fault(f"wrote a line longer than {FRAME_BYTES // 1024} KiB")
            if reply.verdict is Verdict.MEMORY_LIMIT:
                raise self._fault(f"went over its {self.interaction.memory_mb} MB of memory")
            result = self.referee.close()
            how = f"killed by signal {result.signal}" if result.signal else f"exited with code {result.exit_code}"
            raise self._fault(f"ended before its result ({how})")
        self.lines += 1
        self.output += len(reply.line) + 1
        if self.lines > MAX_LINES or self.output > MAX_OUTPUT:
            raise self._fault(f"wrote more than {MAX_LINES:,} lines or {MAX_OUTPUT // MB} MiB in a game")
        return reply.line.removesuffix("\r")

    def _seat(self, text: str, line: str) -> int:
        if not text.isdigit() or int(text) >= len(self.players):
            raise self._fault(f"named seat {text[:20]!r}, in a game of {len(self.players)} seats: {line[:80]!r}")
        return int(text)

    def _game(self) -> GameResult:
        self._tell(f"seats {len(self.players)}")
        kinds = {p.name: p for p in self.game.info.params}
        for name, value in self.params.items():  # the value is the rest of its line, spaces and all
            self._tell(f"param {name} {kinds[name].line(value) if name in kinds else value}")
        self._tell(f"seed {self.seed}")
        self._tell("begin")
        while True:
            self.check_stop(f"the referee's line {self.lines + 1}")  # a referee that never asks stops too
            line = self._next_line()
            command, _, rest = line.partition(" ")
            if command == "send":
                seat_text, _, text = rest.partition(" ")
                seat = self._seat(seat_text, line)
                if seat not in self.gone:
                    self.pending[seat].append(text)
                    if sum(len(t) + 1 for t in self.pending[seat]) > PENDING_BYTES:
                        raise self._fault(f"sent more than {PENDING_BYTES // MB} MiB to seat {seat} without asking it")
            elif command == "ask":
                self._tell(self._ask(self._seat(rest, line)))
            elif command == "frame":
                self._frame(rest)
            elif command == "reason":
                self.reason = printable(rest[:1000])
            elif command == "result":
                return self._result(rest, line)
            else:
                raise self._fault(f"wrote a line that is not of the protocol: {printable(line[:80])!r}")

    def _frame(self, text: str) -> None:
        try:
            frame = json.loads(text)
        except ValueError as e:
            raise self._fault(f"wrote a frame that is not JSON ({e})") from None
        if not isinstance(frame, dict):
            raise self._fault("wrote a frame that is not a JSON object")
        if len(self.placed) >= MAX_FRAMES:
            raise self._fault(f"wrote more than {MAX_FRAMES:,} frames")
        self.placed.append((len(self.moves), frame))

    def _aligned(self) -> list[dict[str, Any]]:
        """A frame for every position of the replay (before the first move, after each): the
        last the referee wrote by then, the one before when it wrote none."""
        frames, last, placed = [], {}, iter(self.placed)
        upcoming = next(placed, None)
        for position in range(len(self.moves) + 1):
            while upcoming is not None and upcoming[0] <= position:
                last = upcoming[1]
                upcoming = next(placed, None)
            frames.append(last)
        return frames

    def _result(self, text: str, line: str) -> GameResult:
        points_text, bar, words_text = text.partition("|")
        seats = len(self.players)
        try:
            points = tuple(_number(p) for p in points_text.split())
        except ValueError:
            raise self._fault(
                f"wrote a result whose points are not numbers up to {MAX_POINTS:.0e}: {line[:80]!r}"
            ) from None
        if len(points) != seats:
            raise self._fault(f"wrote a result of {len(points)} points for {seats} seats: {line[:80]!r}")
        words = words_text.split()
        if bar and len(words) != seats:
            raise self._fault(f"wrote a result of {len(words)} words for {seats} seats: {line[:80]!r}")
        if not bar:
            best = max(points)
            draw = all(p == best for p in points) and seats > 1
            words = [DRAW if draw else WIN if p == best else LOSS for p in points]
        statuses, details = [], []
        for seat, word in enumerate(words):
            status, _, detail = word.partition(":")
            if status not in WORDS or (detail and not DETAIL.match(detail)):
                raise self._fault(f"gave seat {seat} the word {word[:50]!r} (words: {', '.join(WORDS)})")
            if seat in self.gone:  # the platform saw the fault: its word, whatever the referee's
                status = self.gone[seat][0]
            statuses.append(status)
            details.append(detail)
        assert isinstance(self.game, HostedGame)
        outcome = self.game.manifest.outcome
        why = impossible(outcome, points, tuple(statuses))
        if why:  # never counted: the referee's fault, retried and then a judge's (issue 37)
            raise self._fault(f"gave a result no game of outcome {outcome} can have ({why}): {line[:80]!r}")
        reason = self.reason or next((why for _, why in self.gone.values()), "") or _in_words(statuses)
        return GameResult(points, points, tuple(statuses), reason, tuple(details))

    # -- the players' side -------------------------------------------------------------------

    def _ask(self, seat: int) -> str:
        """Deliver what waits for the seat, read its line on its clock: the protocol's answer."""
        if seat in self.gone:
            return f"{TOLD[self.gone[seat][0]]} {seat}"
        self.check_stop(f"move {len(self.moves) + 1}")
        started = time.perf_counter()
        clock, session, seat_totals = self.clock, self.sessions[seat], self.totals[seat]
        move_no = len(self.moves) + 1
        record: dict[str, Any] = {"n": move_no, "seat": seat}
        self.moves.append(record)
        budget = clock.answer_budget(self.used[seat], self.bank[seat])
        wall, cpu = (budget, budget) if clock.measure == "wall" else (clock.wall_per_move_s or budget * 2 + 5, budget)
        delivered, reply = True, None
        for text in self.pending[seat]:
            delivered = delivered and session.send_line(text)
        self.pending[seat].clear()
        if delivered:
            try:
                reply = session.read_line(wall_s=wall, cpu_s=cpu)
            except PlatformStall as e:
                raise PlatformStall(f"move {move_no}: {e}") from None
        took_cpu, took_wall = (reply.cpu_s, reply.wall_s) if reply else (0.0, 0.0)
        seat_totals.replies += 1
        seat_totals.cpu_s += took_cpu
        seat_totals.wall_s += took_wall
        took = took_wall if clock.measure == "wall" else took_cpu
        self.used[seat], self.bank[seat], late = clock.charge(self.used[seat], self.bank[seat], took)
        record.update(cpu_s=round(took_cpu, 4), wall_s=round(took_wall, 4), clock_s=round(self.used[seat], 4))
        if reply is not None and reply.stalled_s:
            record["stalled_s"] = round(reply.stalled_s, 4)
        if reply is not None and reply.held_s:  # the host kept it from a CPU: left out of wall_s
            record["held_s"] = round(reply.held_s, 4)
        record["stderr"] = _tail(session.take_stderr())
        if reply is None or reply.line is None:
            status, reason = _session_fault(move_no, reply or _ENDED, session)
        elif late:
            status, reason = "timeout", f"move {move_no}: {late}"
        else:
            text = reply.line.removesuffix("\r")
            record["move"] = printable(text[:OUTPUT_EXCERPT])
            seat_totals.moves += 1
            self.move_took(started, took_wall + (reply.stalled_s if reply else 0.0))
            return f"reply {seat} {text}"
        status = TOLD[status]
        if status == "crash" and reply is not None and reply.verdict is Verdict.OUTPUT_LIMIT:
            reason = f"move {move_no}: a line longer than the platform takes"
        record["status"] = status
        self.gone[seat] = (status, reason)
        session.close()
        return f"{status} {seat}"

    def replay_extra(self) -> dict[str, Any]:
        """The referee's own costs, apart from the players'."""
        return {
            "referee": {
                "cpu_s": round(self.referee_cpu, 4),
                "wall_s": round(self.referee_wall, 4),
                "lines": self.lines,
                "peak_memory_mb": round(getattr(self, "referee_peak_mb", 0.0), 1),
            }
        }


def _in_words(statuses: list[str]) -> str:
    winners = [i for i, s in enumerate(statuses) if s == WIN]
    if winners:
        return " and ".join(f"seat {i}" for i in winners) + " won"
    if all(s == DRAW for s in statuses):
        return "a draw"
    if EXIT in statuses:
        return "a program exited"
    return "the game is over"
