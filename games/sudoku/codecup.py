"""Re-judging official CodeCup games with this package's rules (external validation).

A file of official results (games/sudoku/tests/data/, from the CodeCup 2024 final) holds one
game a row: Game, Round, IsSwiss, Score1, Status1, Score2, Status2, Moves (space-separated,
a claim written ``Ab3!`` or ``!``), Solution. As the organisers recorded them:

- a claim (WIN/LOSE) is the last listed move: every move is judged here, the claim last, and
  the result, both names and both scores, must be the official one;
- a fault's offending move is never recorded (checked on all 14,590 published games), and the
  side at fault is the side to move after the listed moves. Every listed move must be legal
  and leave the game going, the side at fault must be the side to move, and the result the
  rules give that side for such a fault must be the official one: TIMEOUT, CRASH and EXIT as
  the referee reports them; for a move the rules judge (NO_SOLUTIONS_LEFT,
  NO_SOLUTION_DECREASED, DOUBLED_SOMEWHERE, ILLEGAL), the first move of that kind the
  position allows is judged as one. A position that allows none contradicts the official
  result (a game cannot end NO_SOLUTION_DECREASED where every empty cell still has a choice).

Plain functions over text: no I/O, no Django. ``rejudge`` times each judged listed move.
"""

from __future__ import annotations

import csv
import io
import time
from dataclasses import dataclass, field

from games.base import GameResult, Illegal
from games.sudoku.rules import STATUS, Sudoku, SudokuState, cell_name, peers_hold

COLUMNS = ("Game", "Round", "IsSwiss", "Score1", "Status1", "Score2", "Status2", "Moves", "Solution")
# Results the referee gives when a program does not answer (its status, as it passes it on).
NO_ANSWER = {"TIMEOUT": "timeout", "CRASH": "crash", "EXIT": "exit"}


@dataclass(frozen=True)
class OfficialGame:
    game: str
    statuses: tuple[str, str]
    scores: tuple[float, float]
    moves: tuple[str, ...]
    solution: str


@dataclass
class Judgement:
    official: OfficialGame
    statuses: tuple[str, ...] = ()
    scores: tuple[float, ...] = ()
    problems: list[str] = field(default_factory=list)
    move_seconds: list[float] = field(default_factory=list)  # the rules' time for each listed move

    @property
    def agrees(self) -> bool:
        return not self.problems

    @property
    def ending(self) -> str:
        """The official way the game ended: the non-winning name (WIN for a LOSE by claim)."""
        names = [s for s in self.official.statuses if s not in ("WIN", "LOSE")]
        return names[0] if names else "WIN"


def read(text: str) -> list[OfficialGame]:
    """The games of one CSV file of official results."""
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in COLUMNS if c not in (reader.fieldnames or ())]
    if missing:
        raise ValueError(f"not a file of CodeCup results: no column {', '.join(missing)}")
    return [
        OfficialGame(
            game=row["Game"],
            statuses=(row["Status1"], row["Status2"]),
            scores=(float(row["Score1"]), float(row["Score2"])),
            moves=tuple(row["Moves"].split()),
            solution=row["Solution"].strip(),
        )
        for row in reader
    ]


def rejudge(official: OfficialGame, game: Sudoku | None = None) -> Judgement:
    game = game or Sudoku()
    judged = Judgement(official)
    state = game.initial_state({}, 0)
    for number, text in enumerate(official.moves, start=1):
        if game.to_move(state) is None:
            judged.problems.append(f"move {number} ({text}) comes after the game was over")
            return judged
        start = time.perf_counter()
        move = game.parse_move(state, text)
        if not isinstance(move, Illegal):
            state = game.apply(state, move)
        judged.move_seconds.append(time.perf_counter() - start)
        if isinstance(move, Illegal):
            judged.problems.append(f"move {number} ({text}) is illegal: {move.reason}")
            return judged
    outcome = game.outcome(state)
    if outcome is None:
        outcome = _fault(game, state, official, judged)
        if outcome is None:
            return judged
    elif state.moves and not official.moves[-1].endswith("!"):
        judged.problems.append(f"the game ended on {official.moves[-1]}, which is no claim")
    judged.statuses, judged.scores = outcome.details, outcome.points
    if outcome.details != official.statuses:
        judged.problems.append(f"judged {'-'.join(outcome.details)}, officially {'-'.join(official.statuses)}")
    if outcome.points != official.scores:
        judged.problems.append(f"scored {_pair(outcome.points)}, officially {_pair(official.scores)}")
    if official.solution and "WIN" in outcome.details and "LOSE" in outcome.details:
        _check_solution(state, official.solution, judged)
    return judged


def _pair(points: tuple[float, ...]) -> str:
    return "-".join(f"{p:g}" for p in points)


def _fault(game: Sudoku, state: SudokuState, official: OfficialGame, judged: Judgement) -> GameResult | None:
    """The outcome of the official fault of the side to move (whose move was not recorded)."""
    seat = game.to_move(state)
    assert seat is not None
    name = official.statuses[seat]
    if name not in STATUS or name in ("WIN", "LOSE"):
        other = official.statuses[1 - seat]
        judged.problems.append(
            f"the game is not over after the listed moves, and seat {seat} (to move) is officially {name}"
            + (f" while seat {1 - seat} is {other}" if other != "WIN" else "")
        )
        return None
    if name in NO_ANSWER:
        return game.forfeit(state, seat, NO_ANSWER[name], f"move {state.moves + 1}: {name.lower()}")
    text = offending_move(game, state, name)
    if text is None:
        judged.problems.append(f"seat {seat} is officially {name}, but no move here would be one")
        return None
    move = game.parse_move(state, text)
    if isinstance(move, Illegal):
        return game.forfeit(state, seat, move.status, f"move {state.moves + 1}: {move.reason}", move.detail)
    return game.outcome(game.apply(state, move))


def offending_move(game: Sudoku, state: SudokuState, name: str) -> str | None:
    """The first move the position allows that the rules would judge ``name``, as a program
    writes it (how an unrecorded offending move is played again), or None."""
    if name == "ILLEGAL":
        move = game.parse_move(state, "?")
        return "?" if isinstance(move, Illegal) and move.detail == name else None
    if name == "DOUBLED_SOMEWHERE":
        for cell in range(81):
            if state.grid[cell] == 0:
                for digit in range(1, 10):
                    if peers_hold(state.grid, cell, digit):
                        text = f"{cell_name(cell)}{digit}"
                        move = game.parse_move(state, text)
                        if isinstance(move, Illegal) and move.detail == name:
                            return text
        return None
    for move in game.legal_moves(state):  # the claim too: a false one is NO_UNIQUE_CLAIM
        after = game.apply(state, move).result
        if after is not None and after[state.turn] == name:
            return game.move_text(state, move)
    return None


def _check_solution(state: SudokuState, solution: str, judged: Judgement) -> None:
    """The published solution is a full grid, valid, and the one the claimed grid leaves."""
    if len(solution) != 81 or not solution.isdigit() or "0" in solution:
        judged.problems.append(f"the published solution {solution[:20]!r}... is not 81 digits")
        return
    digits = bytes(int(ch) for ch in solution)
    for cell in range(81):
        if state.grid[cell] and state.grid[cell] != digits[cell]:
            judged.problems.append(f"the published solution has {digits[cell]} at {cell_name(cell)}")
            return
        rest = digits[:cell] + b"\0" + digits[cell + 1 :]
        if peers_hold(rest, cell, digits[cell]):
            judged.problems.append(f"the published solution repeats {digits[cell]} around {cell_name(cell)}")
            return
