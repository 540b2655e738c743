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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from games.base import CRASH, TIMEOUT, BatchGame, Outcome
from judging.clocks import Clock
from sandbox.errors import PlatformStall
from sandbox.jail import reserve_slots
from sandbox.limits import Limits
from sandbox.programs import judge_language, open_jail, program_size
from sandbox.result import Verdict

PRINTED_KEPT = 4096  # bytes of what the program printed kept, from the end ("its last lines")
OUTPUT_KEPT = 200_000  # bytes of output.txt kept in the replay for the judges' page
GRACE_S = 1.0  # how long past its limit a program is let run before it is stopped: time to see it is over
WORK_MB = 64  # the folder: the inputs (3.3 MB of dictionaries), the program and what it writes


def _tail(data: bytes, limit: int) -> str:
    text = data[-limit:].decode("utf-8", errors="replace")
    return ("…" + text) if len(data) > limit else text


def play_batch(
    game: BatchGame,
    params: dict[str, int],
    seed: int,
    players: list,
    clock: Clock,
    should_stop: Callable[[], bool],
    data: bytes | None = None,
):
    """Run one program once on the inputs of ``seed`` and judge its output (a MatchRecord)."""
    from judging.referee import REPLAY_SCHEMA, Cancelled, MatchRecord, SeatTotals

    if len(players) != 1:
        raise ValueError(f"{game.info.name} runs one program at a time, not {len(players)}")
    if should_stop():
        raise Cancelled("called off before the run")
    player = players[0]
    params = game.resolve_params(params)
    seconds = clock.seconds or 300
    whole = max(1, math.ceil(seconds))  # seconds.txt holds a whole number
    limits = Limits(
        cpu_s=whole + GRACE_S,
        wall_s=whole + GRACE_S,
        memory_mb=clock.memory_mb,
        work_mb=WORK_MB,
        stdout_bytes=1 << 20,
    )
    totals = SeatTotals()
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="arbiter-inputs-")))
        game.write_inputs(folder, params, seed, whole, data)
        (slot,) = stack.enter_context(reserve_slots(1))
        jail = stack.enter_context(open_jail(player.program, limits, slot=slot))
        assert jail.work is not None
        jail.work.copy_in(folder)
        try:
            result = jail.run(player.program.argv(limits), env=dict(player.program.env), limits=limits)
        except PlatformStall as e:
            raise PlatformStall(f"the run: {e}") from None
        result = judge_language(player.program, result, limits)
        output = None
        unreadable = ""
        try:
            output = jail.work.read_file(game.interaction.output, max_bytes=OUTPUT_KEPT * 10)
        except FileNotFoundError:
            pass
        except ValueError as e:
            unreadable = str(e)
    totals.replies = 1
    totals.cpu_s = result.cpu_s
    totals.wall_s = result.wall_s
    printed = _tail(result.stdout, PRINTED_KEPT)
    outcome, report = _judged(game, params, seed, whole, result, output, unreadable, data)
    if result.exit_code not in (None, 0) and outcome.statuses[0] not in (TIMEOUT, CRASH):
        totals.warnings.append(f"the program exited with code {result.exit_code}")
    totals.moves = 1 if output is not None else 0
    moves, frames = game.frames(seed, report)
    replay: dict[str, Any] = {
        "schema": REPLAY_SCHEMA,
        "game": game.info.name,
        "version": game.info.version,
        "params": params,
        "seed": seed,
        "clock": clock.to_json(),
        "seats": [
            {
                "index": 0,
                "name": player.name,
                **player.submission,
                "moves": totals.moves,
                "cpu_s": round(totals.cpu_s, 4),
                "wall_s": round(totals.wall_s, 4),
                "program_bytes": program_size(player.program),
                "warnings": totals.warnings,
            }
        ],
        "moves": [{**m, "stderr": ""} for m in moves],
        "frames": frames,
        "result": outcome.to_json(),
        "verification": report,
        "output": (output or b"")[:OUTPUT_KEPT].decode("utf-8", errors="replace"),
        "printed": printed,
        "stderr": _tail(result.stderr, PRINTED_KEPT),
    }
    if result.stalled_s:
        replay["stalled_s"] = round(result.stalled_s, 4)
    return MatchRecord(outcome, [totals], replay)


def _judged(game, params, seed, seconds, result, output, unreadable, data) -> tuple[Outcome, dict[str, Any]]:
    """The run's outcome: over the limit is disqualified whatever it wrote; else its output
    judged (a program that crashed after writing its output is judged on it)."""
    if result.verdict in (Verdict.WALL_LIMIT, Verdict.TIME_LIMIT) or result.wall_s > seconds:
        return game.forfeit_run(
            TIMEOUT, f"still running after the {seconds} s limit of seconds.txt: disqualified for this run"
        ), {}
    if result.verdict is Verdict.MEMORY_LIMIT:
        return game.forfeit_run(CRASH, f"over the memory limit of {result.extra.get('memory_mb', '')} MB".strip()), {}
    if unreadable:
        return game.forfeit_run(CRASH, f"{game.interaction.output}: {unreadable}"), {}
    if output is None and not result.ok:
        why = f"killed by signal {result.signal}" if result.signal else f"exited with code {result.exit_code}"
        return game.forfeit_run(CRASH, f"{why} without writing {game.interaction.output}"), {}
    return game.judge(params, seed, output, data)
