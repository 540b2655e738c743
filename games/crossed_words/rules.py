"""Crossed Words Solitaire as the platform runs it: one program, run once on the input files,
judged by what it wrote to output.txt (the verifier, ``verify.py``).

The seat's result: points, the score the verifier recomputed (0 for an output it refused);
score, the score the output claims on its first line; status ``valid`` for an output every
line of which replays, else ``illegal`` (the output is wrong), ``timeout`` (still running at
the limit: "disqualified ... if program execution time exceeds the execution time limit") or
``crash`` (no output.txt at all). Judges then verify the claims (judging/record/verification.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from games.base import (
    ILLEGAL,
    VALID,
    Batch,
    BatchGame,
    Column,
    Formula,
    GameInfo,
    GameResult,
    Total,
)
from games.crossed_words import board, dictionary, inputs, verify

OUTPUT = "output.txt"
OUTPUT_MAX_BYTES = verify.MAX_OUTPUT_BYTES
# The MSO rating formula, "rewritten slightly in order to deemphasize programming time".
TIE_FORMULA = Formula((("programming_s", 5.0), ("execution_s", 1.0), ("program_bytes", 1.0)))


def words_for(data: bytes | None) -> frozenset[str]:
    """The contest's dictionary: the organisers' uploaded list, else the default."""
    return dictionary.parse_word_list(data) if data else dictionary.default_words()


class CrossedWords(BatchGame):
    info = GameInfo(name="crossed_words", title="Crossed Words Solitaire", version=1, seats=1, params=())
    interaction = Batch(output=OUTPUT)
    # "the number 300" in seconds.txt; measured in real time, as the page's "independent timing
    # routine" measured execution time.
    default_clock: Mapping[str, float] = {"seconds": 300, "memory_mb": 512}
    result_words = {"WRONG_OUTPUT": "output.txt refused by the verifier", "NO_OUTPUT": "wrote no output.txt"}
    standings = (
        Column("verified", "Verified score", Total("points"), help="What the judges (or the verifier) confirmed."),
        Column("claimed", "Claimed score", Total("score"), ranks=False, help="The first line of output.txt."),
        Column(
            "formula",
            "Tie-break",
            TIE_FORMULA,
            higher_is_better=False,
            help="Programming time / fastest / 5 + execution time / fastest + program size / smallest.",
        ),
    )

    practice_seed = inputs.PRACTICE_SEED

    def check_data(self, data: bytes) -> None:
        dictionary.parse_word_list(data)

    def piles(self, seed: int) -> tuple[str, str, str]:
        return inputs.shuffle_pool(seed)

    def write_inputs(
        self, folder: Path, params: Mapping[str, int], seed: int, seconds: int, data: bytes | None
    ) -> None:
        inputs.write_inputs(folder, self.piles(seed), words_for(data), seconds)

    def judge(
        self, params: Mapping[str, int], seed: int, output: bytes | None, data: bytes | None
    ) -> tuple[GameResult, dict[str, Any]]:
        """The outcome of a run that wrote ``output`` (None: no output.txt), and the report the
        judges' page and the viewer show: the verifier's verdict and a frame per line."""
        if output is None:
            return self.forfeit_run(ILLEGAL, "no output.txt was written", "NO_OUTPUT"), {}
        piles = self.piles(seed)
        verdict = verify.verify(output, piles, words_for(data))
        report = verdict.to_json()
        claimed = float(verdict.claimed or 0)
        if verdict.ok:
            outcome = GameResult(
                (float(verdict.verified or 0),), (claimed,), (VALID,), f"verified: {verdict.verified} points"
            )
        else:
            where = f"line {verdict.line}: " if verdict.line and not verdict.reason.startswith("line") else ""
            outcome = GameResult((0.0,), (claimed,), (ILLEGAL,), f"{where}{verdict.reason}", ("WRONG_OUTPUT",))
        return outcome, report

    def forfeit_run(self, status: str, reason: str, detail: str = "") -> GameResult:
        return GameResult((0.0,), (0.0,), (status,), reason, (detail,))

    def frames(self, seed: int, report: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The replay's moves and frames: the empty board, then one frame a move line."""
        piles = list(self.piles(seed))
        grid = [["."] * board.SIZE for _ in range(board.SIZE)]
        bonus = board.bonus_lines()
        frames = [self.frame({"grid": grid, "piles": piles, "hand": "", "score": 0}) | {"bonus": bonus}]
        moves = []
        for n, step in enumerate(report.get("steps", []), start=1):
            for row, col, letter in step["placed"]:
                grid[row - 1][col - 1] = letter
            frame = self.frame({"grid": grid, "piles": step["piles"], "hand": step["hand"], "score": step["score"]})
            frame.update(
                bonus=bonus,
                placed=step["placed"],
                words=step["words"],
                line=step["line"],
                text=step["text"],
                claimed=step["claimed"],
                computed=step["computed"],
            )
            frames.append(frame)
            moves.append({"n": n, "seat": 0, "move": step["text"]})
        return moves, frames

    def frame(self, state: Any) -> dict[str, Any]:
        return {
            "grid": ["".join(row) for row in state["grid"]],
            "piles": list(state["piles"]),
            "hand": state["hand"],
            "score": state["score"],
        }
