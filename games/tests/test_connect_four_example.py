"""The Connect Four example (examples/games/connect-four) played without the platform.

These tests play the platform's side of docs/referee-protocol.md over pipes: they write the
opening lines, answer each `ask` from a script (a player's line or a fault word) or from real
player programs, and read everything the referee writes, checking each line as they go.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

GAME = Path(__file__).resolve().parents[2] / "examples" / "games" / "connect-four"
REFEREE = [sys.executable, str(GAME / "referee.py")]


@dataclass(frozen=True)
class Fault:
    """An answer the platform gives instead of a reply: `timeout`, `crash` or `exit`."""

    word: str


@dataclass
class Game:
    """What the referee wrote in one game."""

    rows: int
    columns: int
    frames: list[dict] = field(default_factory=list)
    sent: dict[int, list[str]] = field(default_factory=lambda: {0: [], 1: []})
    asked: list[int] = field(default_factory=list)
    reason: str = ""
    result: str = ""


Answer = Callable[[int, Game], str]  # (the seat asked, the game so far) -> the platform's line


def script(*answers: str | Fault) -> Answer:
    """Answer each `ask`, whichever seat it is of, with the next of `answers`."""
    left = iter(answers)

    def answer(seat: int, game: Game) -> str:
        given = next(left)
        return f"{given.word} {seat}" if isinstance(given, Fault) else f"reply {seat} {given}"

    return answer


def moves(text: str) -> Answer:
    """Answer from moves written as one string: "4 3 4"."""
    return script(*text.split())


def start(rows: int, columns: int) -> subprocess.Popen:
    referee = subprocess.Popen(
        REFEREE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8"
    )
    tell(referee, f"seats 2\nparam rows {rows}\nparam columns {columns}\nseed 12345\nbegin")
    return referee


def tell(referee: subprocess.Popen, lines: str) -> None:
    referee.stdin.write(lines + "\n")
    referee.stdin.flush()


def play(answer: Answer, rows: int = 6, columns: int = 7) -> Game:
    """Play one game through the referee, checking every line it writes."""
    game = Game(rows, columns)
    with start(rows, columns) as referee:
        while not game.result:
            line = referee.stdout.readline()
            assert line.endswith("\n"), f"the referee stopped before its result: {referee.stderr.read()}"
            kind, _, rest = line.removesuffix("\n").partition(" ")
            match kind:
                case "send":
                    seat, _, text = rest.partition(" ")
                    assert seat in ("0", "1")
                    game.sent[int(seat)].append(text)
                case "ask":
                    assert rest in ("0", "1")
                    game.asked.append(int(rest))
                    tell(referee, answer(int(rest), game))
                case "frame":
                    game.frames.append(json.loads(rest))
                case "reason":
                    game.reason = rest
                case "result":
                    game.result = rest
                case _:
                    pytest.fail(f"the referee wrote a line of no kind: {line!r}")
        referee.stdin.close()
        assert referee.wait(timeout=5) == 0
        assert referee.stderr.read() == ""
    check_frames(game)
    return game


def check_frames(game: Game) -> None:
    """One frame before the first move and one after each answer, each a board of the right size."""
    assert len(game.frames) == len(game.asked) + 1
    for frame in game.frames:
        assert isinstance(frame, dict)
        assert len(frame["grid"]) == game.rows
        assert all(len(row) == game.columns and set(row) <= set(".XO") for row in frame["grid"])
        assert all(0 <= r < game.rows and 0 <= c < game.columns for r, c in frame["marks"])
        assert all(isinstance(line, str) for line in frame["text"])
    points = game.result.split(" | ")[0].split()
    assert game.frames[-1]["scores"] == [float(p) for p in points]


@pytest.mark.parametrize(
    ("answers", "result", "four"),
    [
        pytest.param("1 2 1 2 1 2 1", "2 0 | win loss", [[2, 0], [3, 0], [4, 0], [5, 0]], id="vertical"),
        pytest.param("1 2 1 3 7 4 7 5", "0 2 | loss win", [[5, 1], [5, 2], [5, 3], [5, 4]], id="horizontal"),
        pytest.param("1 2 2 3 3 4 3 4 4 6 4", "2 0 | win loss", [[2, 3], [3, 2], [4, 1], [5, 0]], id="rising"),
        pytest.param("7 6 6 5 5 4 5 4 4 2 4", "2 0 | win loss", [[2, 3], [3, 4], [4, 5], [5, 6]], id="falling"),
    ],
)
def test_four_in_a_row_wins_and_is_marked(answers, result, four):
    game = play(moves(answers))
    assert game.result == result
    assert game.frames[-1]["marks"] == four
    assert "four in a row" in game.reason


def test_each_player_reads_the_size_then_the_other_moves_then_quit():
    game = play(moves("1 2 1 2 1 2 1"))
    assert game.sent == {0: ["6 7", "Start", "2", "2", "2", "Quit"], 1: ["6 7", "1", "1", "1", "Quit"]}
    assert game.asked == [0, 1, 0, 1, 0, 1, 0]
    assert game.frames[0] == {"grid": ["......."] * 6, "marks": [], "text": ["seat 0 (X) moves first"]}
    assert game.frames[1]["grid"][-1] == "X......"
    assert game.frames[1]["marks"] == [[5, 0]]
    assert game.frames[1]["text"] == ["seat 0 (X) drops in column 1"]


def test_a_full_board_without_four_in_a_row_is_a_draw():
    game = play(moves("1 1 1 1 2 2 2 2 3 3 3 4 4 4 3 4"), rows=4, columns=4)
    assert game.result == "1 1 | draw draw"
    assert game.frames[-1]["grid"] == ["OOXO", "XXXO", "OOOX", "XXXO"]
    assert game.reason == "the board is full"


@pytest.mark.parametrize(
    ("answers", "result", "why"),
    [
        pytest.param(["4", "abc"], "2 0 | win illegal", '"abc" is not a column number', id="garbage"),
        pytest.param(["0"], "0 2 | illegal win", "there is no column 0", id="column-0"),
        pytest.param(["4", "8"], "2 0 | win illegal", "there is no column 8", id="column-8"),
        pytest.param(["1"] * 7, "0 2 | illegal win", "column 1 is full", id="full-column"),
        pytest.param(["4", ""], "2 0 | win illegal", '"" is not a column number', id="empty-line"),
        pytest.param(["1" * 100_000], "0 2 | illegal win", "is not a column number", id="100-KB-of-digits"),
        pytest.param(["4", " 4"], "2 0 | win illegal", "is not a column number", id="a-space-before"),
        pytest.param(["4", "4_0"], "2 0 | win illegal", "is not a column number", id="underscore"),
        pytest.param(["4", "\u0664"], "2 0 | win illegal", "is not a column number", id="arabic-four"),
        pytest.param(["4", "\u00b2"], "2 0 | win illegal", "is not a column number", id="superscript-two"),
    ],
)
def test_an_illegal_reply_loses_for_its_seat(answers, result, why):
    game = play(script(*answers))
    assert game.result == result
    assert why in game.reason
    assert game.frames[-1]["grid"] == game.frames[-2]["grid"]


def test_a_reply_line_with_no_space_after_the_seat_is_an_empty_reply():
    game = play(lambda seat, game: f"reply {seat}")
    assert game.result == "0 2 | illegal win"
    assert '"" is not a column number' in game.reason


@pytest.mark.parametrize("word", ["timeout", "crash", "exit"])
@pytest.mark.parametrize("seat", [0, 1])
def test_a_fault_the_platform_saw_loses_for_its_seat(word, seat):
    game = play(script(*["4"] * seat, Fault(word)))
    assert game.result == [f"0 2 | {word} win", f"2 0 | win {word}"][seat]
    assert game.sent[0][-1] == game.sent[1][-1] == "Quit"


def test_the_referee_leaves_quietly_when_its_input_ends_mid_game():
    with start(6, 7) as referee:
        while referee.stdout.readline() != "ask 0\n":
            pass
        referee.stdin.close()
        assert referee.wait(timeout=5) == 0
        assert referee.stderr.read() == ""


class Programs(contextlib.ExitStack):
    """Real player programs as the platform runs them: what the referee sends a seat reaches
    the program when that seat is next asked, and the rest at the end of the game."""

    def __init__(self, *commands: list[str]):
        super().__init__()
        pipes = {"stdin": subprocess.PIPE, "stdout": subprocess.PIPE, "text": True}
        self.players = [self.enter_context(subprocess.Popen(c, **pipes)) for c in commands]
        self.delivered = [0] * len(commands)

    def deliver(self, seat: int, game: Game) -> None:
        player = self.players[seat]
        for line in game.sent[seat][self.delivered[seat] :]:
            player.stdin.write(line + "\n")
        player.stdin.flush()
        self.delivered[seat] = len(game.sent[seat])

    def __call__(self, seat: int, game: Game) -> str:
        self.deliver(seat, game)
        line = self.players[seat].stdout.readline()
        return f"reply {seat} " + line.removesuffix("\n") if line else f"exit {seat}"

    def finish(self, game: Game) -> list[int]:
        """Deliver what is left and close the players' input; their exit codes."""
        for seat, player in enumerate(self.players):
            self.deliver(seat, game)
            player.stdin.close()
        return [player.wait(timeout=5) for player in self.players]


@pytest.fixture(scope="module")
def greedy(tmp_path_factory) -> list[str]:
    if not shutil.which("gcc"):
        pytest.skip("gcc is not installed")
    program = tmp_path_factory.mktemp("greedy") / "greedy"
    source = GAME / "players" / "greedy.c"
    subprocess.run(["gcc", "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-o", program, source], check=True)
    return [str(program)]


@pytest.mark.parametrize(("rows", "columns"), [(6, 7), (4, 4), (5, 9), (8, 5), (12, 12)])
@pytest.mark.parametrize("greedy_seat", [0, 1])
def test_greedy_never_loses_to_random(greedy, rows, columns, greedy_seat):
    random = [sys.executable, str(GAME / "players" / "random_player.py")]
    with Programs(*([greedy, random] if greedy_seat == 0 else [random, greedy])) as programs:
        game = play(programs, rows, columns)
        assert programs.finish(game) == [0, 0]
    words = game.result.split(" | ")[1].split()
    assert words[greedy_seat] in ("win", "draw"), game.reason
