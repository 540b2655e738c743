"""The batch referee: an output-only contest's run. The program runs once, alone, in its jail,
with the game's input files beside it in its folder, for the clock's ``seconds`` of real
time; the game then judges the file it wrote. Plain Python over the sandbox and the games.

As the MSO page ran its entries: "We will run all entrant programs for the same length of time
on our official "final" input data"; a program whose "execution time exceeds the execution
time limit stored in seconds.txt" is disqualified for the run (its output is not judged);
"your screen display ... some kind of activity indicator" is allowed, and its last lines kept.
"""

from __future__ import annotations

import contextlib
import math
import tempfile
from pathlib import Path
from typing import Any

from games.base import CRASH, TIMEOUT, Batch, BatchGame, GameResult
from judging.play.referee import Referee, referee_for
from sandbox.errors import PlatformStall
from sandbox.limits import Limits
from sandbox.programs import judge_language, program_size
from sandbox.result import Verdict
from sandbox.text import printable

PRINTED_KEPT = 4096  # bytes of what the program printed kept, from the end ("its last lines")
OUTPUT_KEPT = 200_000  # bytes of output.txt kept in the replay for the judges' page
GRACE_S = 1.0  # how long past its limit a program is let run before it is stopped: time to see it is over
WORK_MB = 64  # the folder: the inputs (3.3 MB of dictionaries), the program and what it writes


def _tail(data: bytes, limit: int) -> str:
    text = printable(data[-limit:], lines=True)
    return ("…" + text) if len(data) > limit else text


@referee_for(Batch)
class BatchReferee(Referee):
    """One program, once, alone, on the game's inputs for the clock's ``seconds``."""

    game: BatchGame

    def __init__(self, game, *args, **kwargs) -> None:
        if not isinstance(game, BatchGame):
            raise ValueError(f"{game.info.name} is not an output-only game")
        super().__init__(game, *args, **kwargs)
        self.report: dict[str, Any] = {}
        self.extra: dict[str, Any] = {}

    def run(self, stack: contextlib.ExitStack) -> GameResult:
        game, player, totals = self.game, self.players[0], self.totals[0]
        self.check_stop("the run")
        whole = max(1, math.ceil(self.clock.seconds or 300))  # seconds.txt holds a whole number
        limits = Limits(
            cpu_s=whole + GRACE_S,
            wall_s=whole + GRACE_S,
            memory_mb=self.clock.memory_mb,
            work_mb=WORK_MB,
            stdout_bytes=1 << 20,
        )
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="arbiter-inputs-")))
        game.write_inputs(folder, self.params, self.seed, whole, self.data)
        (jail,) = self.open_jails(stack, limits)
        assert jail.work is not None
        jail.work.copy_in(folder)
        try:
            result = jail.run(player.program.argv(limits), env=dict(player.program.env), limits=limits)
        except PlatformStall as e:
            raise PlatformStall(f"the run: {e}") from None
        result = judge_language(player.program, result, limits)
        output, unreadable = None, ""
        try:
            output = jail.work.read_file(game.interaction.output, max_bytes=OUTPUT_KEPT * 10)
        except FileNotFoundError:
            pass
        except ValueError as e:
            unreadable = str(e)
        totals.replies, totals.cpu_s, totals.wall_s = 1, result.cpu_s, result.wall_s
        totals.moves = 1 if output is not None else 0
        outcome, self.report = _judged(game, self.params, self.seed, limits, result, output, unreadable, self.data)
        if result.exit_code not in (None, 0) and outcome.statuses[0] not in (TIMEOUT, CRASH):
            totals.warnings.append(f"the program exited with code {result.exit_code}")
        moves, frames = game.frames(self.seed, self.report)
        # One run, so one stderr, the run's (``extra``): a move of its output wrote none of its own.
        self.moves[:] = moves
        self.frames[:] = frames
        self.program_bytes = program_size(player.program)
        self.extra = {
            "verification": self.report,
            "output": printable((output or b"")[:OUTPUT_KEPT], lines=True),
            "printed": _tail(result.stdout, PRINTED_KEPT),
            "stderr": _tail(result.stderr, PRINTED_KEPT),
        }
        if result.stalled_s:
            self.extra["stalled_s"] = round(result.stalled_s, 4)
        if result.held_s:
            self.extra["held_s"] = round(result.held_s, 4)
        return outcome

    def seat_replay(self, index: int) -> dict[str, Any]:
        return {"program_bytes": self.program_bytes}

    def replay_extra(self) -> dict[str, Any]:
        return self.extra


def _judged(game, params, seed, limits: Limits, result, output, unreadable, data) -> tuple[GameResult, dict[str, Any]]:
    """The run's outcome: over the limit is disqualified whatever it wrote; else its output
    judged (a program that crashed after writing its output is judged on it)."""
    seconds = round(limits.wall - GRACE_S)
    if result.verdict in (Verdict.WALL_LIMIT, Verdict.TIME_LIMIT) or result.wall_s > seconds:
        return game.forfeit_run(
            TIMEOUT, f"still running after the {seconds} s limit of seconds.txt: disqualified for this run"
        ), {}
    if result.verdict is Verdict.MEMORY_LIMIT:
        return game.forfeit_run(CRASH, f"over the memory limit of {limits.memory_mb} MB"), {}
    if unreadable:
        return game.forfeit_run(CRASH, f"{game.interaction.output}: {unreadable}"), {}
    if output is None and not result.ok:
        why = f"killed by signal {result.signal}" if result.signal else f"exited with code {result.exit_code}"
        return game.forfeit_run(CRASH, f"{why} without writing {game.interaction.output}"), {}
    return game.judge(params, seed, output, data)
