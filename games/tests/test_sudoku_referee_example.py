"""The uploaded-referee example (examples/games/sudoku-referee): its C++ referee, which knows
nothing of the platform, judges CodeCup 2024 Sudoku as the built-in game does. It is built
with g++ as the platform builds it and driven over pipes, this file playing the platform's
side of docs/referee-protocol.md (no jail: the referee's judging is tested, not the sandbox).
Every game of the CodeCup 2024 final sample ends with the official result, and hostile
replies are judged as games/sudoku/rules.py and LineProtocolReferee judge them."""

import json
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from games.base import GameResult, Illegal
from games.sudoku import codecup
from games.sudoku.rules import STATUS, Sudoku

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "games" / "sudoku-referee"
FINAL = ROOT / "games" / "sudoku" / "tests" / "data" / "codecup-2024-final-sample.csv"

game = Sudoku()


@pytest.fixture(scope="module")
def referee(tmp_path_factory) -> Path:
    """The referee, compiled with the platform's command for a C++17 file."""
    folder = tmp_path_factory.mktemp("sudoku-referee")
    shutil.copy(EXAMPLE / "referee.cpp", folder / "main.cpp")
    subprocess.run(["g++", "-O2", "-std=gnu++17", "-pipe", "-o", "prog", "main.cpp"], cwd=folder, check=True)
    return folder / "prog"


@dataclass
class Played:
    """What the referee said in one game."""

    sent: list[tuple[int, str]] = field(default_factory=list)
    asked: list[int] = field(default_factory=list)
    frames: list[dict] = field(default_factory=list)
    reason: str = ""
    result: str = ""  # "2 1 | win:WIN loss:LOSE"; empty if the game was left unfinished
    after_result: bytes = b""
    stderr: bytes = b""
    exit_code: int | None = None

    @property
    def forwarded(self) -> list[str]:
        """The moves passed on from one player to the other."""
        return [text for _, text in self.sent if text not in ("Start", "Quit")]

    @property
    def judged(self) -> tuple[tuple[float, ...], tuple[str, ...]]:
        """(points, words with details) of the result."""
        points, _, words = self.result.partition(" | ")
        return tuple(float(p) for p in points.split()), tuple(words.split())


def play(referee: Path, answers: list[str | bytes]) -> Played:
    """One game with one run of the referee, this side being the platform: the header, then
    each `ask` answered with the next of `answers` ("reply TEXT", "timeout", "crash" or
    "exit", the seat asked put in after the first word). When the answers run out the
    referee's input is closed in the middle of the game."""
    played = Played()
    pending = iter(answers)
    with subprocess.Popen([referee], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        proc.stdin.write(b"seats 2\nseed 7\nbegin\n")
        proc.stdin.flush()
        for line in proc.stdout:
            word, _, rest = line.decode().rstrip("\n").partition(" ")
            if word == "send":
                seat, _, text = rest.partition(" ")
                played.sent.append((int(seat), text))
            elif word == "ask":
                played.asked.append(int(rest))
                answer = next(pending, None)
                if answer is None:
                    break
                answer = answer.encode() if isinstance(answer, str) else answer
                said, space, text = answer.partition(b" ")
                proc.stdin.write(said + b" " + rest.encode() + space + text + b"\n")
                proc.stdin.flush()
            elif word == "frame":
                played.frames.append(json.loads(rest))
            elif word == "reason":
                played.reason = rest
            elif word == "result":
                played.result = rest
                break
            else:
                raise AssertionError(f"not a line of the protocol: {line!r}")
        proc.stdin.close()
        played.after_result = proc.stdout.read()
        played.stderr = proc.stderr.read()
        played.exit_code = proc.wait(timeout=5)
    return played


def expected(outcome: tuple[tuple[float, ...], tuple[str, ...]]) -> tuple[tuple[float, ...], tuple[str, ...]]:
    """(points, CodeCup names) as the referee writes them: (points, words with details)."""
    points, names = outcome
    return tuple(points), tuple(f"{STATUS[name]}:{name}" for name in names)


def official_answers(official: codecup.OfficialGame) -> tuple[list[str], list[str]]:
    """The platform's answers that play an official game again, as codecup.py's docstring says
    (the listed moves, then the fault of the side to move, unless a claim ended the game), and
    the moves the referee must pass on between the players."""
    state = game.initial_state({}, 0)
    for text in official.moves:
        state = game.apply(state, game.parse_move(state, text))
    answers = [f"reply {text}" for text in official.moves]
    if state.result is not None:  # the last listed move was a claim, passed on to no one
        return answers, list(official.moves[:-1])
    name = official.statuses[state.turn]
    if name in codecup.NO_ANSWER:
        return [*answers, codecup.NO_ANSWER[name]], list(official.moves)
    return [*answers, f"reply {codecup.offending_move(game, state, name)}"], list(official.moves)


def test_every_official_game_ends_as_the_organisers_and_the_built_in_game_judged_it(referee):
    officials = codecup.read(FINAL.read_text(encoding="utf-8"))
    wrong = []
    for official in officials:
        answers, forwarded = official_answers(official)
        played = play(referee, answers)
        rejudged = codecup.rejudge(official)
        said = [(0, "Start")] + [((n + 1) % 2, text) for n, text in enumerate(forwarded)] + [(0, "Quit"), (1, "Quit")]
        if played.judged != expected((official.scores, official.statuses)):
            wrong.append(f"{official.game}: result {played.result}, officially {official.statuses}")
        if played.judged != expected((rejudged.scores, rejudged.statuses)):
            wrong.append(f"{official.game}: result {played.result}, rejudged {rejudged.statuses}")
        if played.sent != said or played.asked != [n % 2 for n in range(len(answers))]:
            wrong.append(f"{official.game}: sent {played.sent}, asked {played.asked}")
        if not played.reason or played.after_result or played.stderr or played.exit_code != 0:
            wrong.append(f"{official.game}: reason {played.reason!r}, exit {played.exit_code}, {played.stderr!r}")
    assert wrong == []
    assert len(officials) == 326


def test_a_frame_shows_the_grid_after_every_move(referee):
    official = next(g for g in codecup.read(FINAL.read_text(encoding="utf-8")) if "LOSE" in g.statuses)
    played = play(referee, [f"reply {text}" for text in official.moves])
    state = game.initial_state({}, 0)
    assert "".join(played.frames[0]["grid"]) == game.frame(state)["grid"] == "." * 81
    for n, (text, frame) in enumerate(zip(official.moves, played.frames[1:], strict=True)):
        move = game.parse_move(state, text)
        state = game.apply(state, move)
        assert "".join(frame["grid"]) == game.frame(state)["grid"]
        assert frame["marks"] == ([] if text == "!" else [list(divmod(move.cell, 9))])
        assert frame["text"][0] == f"{text} by seat {n % 2}"


def built_in(replies: list[bytes]) -> tuple[tuple[tuple[float, ...], tuple[str, ...]], list[str]]:
    """What the built-in game makes of the same replies, read as LineProtocolReferee reads
    them (UTF-8 with replacement, a blank line read over, spaces around a move forgiven):
    ((points, names), the moves passed on)."""
    state = game.initial_state({}, 0)
    forwarded = []
    outcome: GameResult | None = None
    for reply in replies:
        text = reply.decode("utf-8", errors="replace").strip()
        if not text:
            continue
        move = game.parse_move(state, text)
        if isinstance(move, Illegal):
            outcome = game.forfeit(state, state.turn, move.status, move.reason, move.detail)
            break
        text = game.move_text(state, move)
        state = game.apply(state, move)
        outcome = game.outcome(state)
        if outcome is not None:
            break
        forwarded.append(text)
    assert outcome is not None, "a case must end the game"
    return (outcome.points, outcome.details), forwarded


HOSTILE = {
    "blank lines, then a move": [b"", b"   ", b"Dg7", b"Dg7"],
    "spaces and a carriage return": [b"  Dg7  ", b"\tEe5\r", b" Dg8 "],
    "unicode spaces": ["\u00a0Dg7\u3000".encode(), b"\xc2\x85Ig7\x1c"],
    "garbage": [b"Dg7 Ee5"],
    "lower case": [b"dg7"],
    "no digit zero": [b"Dg0"],
    "two exclamation marks": [b"Dg7!!"],
    "a claim on the empty grid": [b"!"],
    "a 100 KB line": [b"A" * 100_000],
    "a move after 100 KB of spaces": [b" " * 100_000 + b"Dg7", b"Dh7"],
    "non-ASCII bytes": [b"\xff\xfe\x00Dg7"],
    "a full-width digit": ["Dg７".encode()],
}


@pytest.mark.parametrize("replies", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_reply_is_judged_as_the_built_in_game_judges_it(referee, replies):
    played = play(referee, [b"reply " + reply for reply in replies])
    result, forwarded = built_in(replies)
    assert played.judged == expected(result)
    assert played.forwarded == forwarded
    assert played.exit_code == 0 and played.stderr == b""


@pytest.mark.parametrize("fault", ["timeout", "crash", "exit"])
def test_a_seat_that_gives_no_answer_loses_as_codecup_scored_it(referee, fault):
    played = play(referee, ["reply Dg7", fault])
    points = {"timeout": 1.0, "crash": 0.0, "exit": 0.0}[fault]
    assert played.judged == ((2.0, points), ("win:WIN", f"{fault}:{fault.upper()}"))


def test_the_referee_exits_quietly_when_its_input_ends(referee):
    played = play(referee, ["reply Dg7"])  # then no answer for seat 1: the input is closed
    assert (played.asked, played.result, played.exit_code, played.stderr) == ([0, 1], "", 0, b"")
    header_only = subprocess.run([referee], input=b"seats 2\nse", capture_output=True, timeout=5)
    assert (header_only.returncode, header_only.stdout, header_only.stderr) == (0, b"", b"")
