"""The proof of issue 25: CodeCup 2024 Sudoku uploaded as a referee program
(examples/games/sudoku-referee, C++, knowing nothing of Arbiter) judges as the built-in game
does, through the platform's own referee runner and jails:

- the built-in reference programs play the same games with the same results, game for game on
  the same seeds (each program's own randomness pinned to the game's seed, since both seed
  themselves from the system);
- official games of the CodeCup 2024 final end with the official result: a sample of every
  ending here; ``ARBITER_PROOF=all`` plays all 326 (about two minutes). All 326 are also
  judged by the referee over plain pipes in games/tests/test_sudoku_referee_example.py.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from games import registry
from games.clocks import Clock
from games.sudoku import codecup
from games.sudoku.rules import Sudoku
from games.tests.test_sudoku_referee_example import FINAL, official_answers
from judging.play.referee import Player, play
from judging.uploaded import hosting
from sandbox.programs import build_program

pytestmark = pytest.mark.once

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "games" / "sudoku-referee"
PLAYERS = ROOT / "games" / "sudoku" / "players"


@pytest.fixture(scope="module")
def uploaded():
    return hosting.manifest_of(hosting.read_folder(EXAMPLE))


def _player(name: str, source: bytes, filename: str) -> Player:
    build = build_program(source, filename)
    assert build.ok, build.log
    return Player(name, build.program)


def pinned(name: str, seed: int) -> Player:
    """A built-in reference program whose randomness starts from ``seed``."""
    if name == "claimer":
        source = (PLAYERS / "claimer.cpp").read_text()
        fixed = source.replace("std::random_device seed;\n    std::mt19937 rng(seed());", f"std::mt19937 rng({seed});")
        assert fixed != source
        return _player(name, fixed.encode(), "claimer.cpp")
    source = (PLAYERS / "random_player.py").read_text()
    fixed = source.replace("import random\n", f"import random\n\nrandom.seed({seed})\n", 1)
    assert fixed != source
    return _player(name, fixed.encode(), "random_player.py")


def _same(built_in, uploaded_record) -> None:
    a, b = built_in.outcome, uploaded_record.outcome
    assert (a.points, a.statuses, a.details) == (b.points, b.statuses, b.details)
    assert [(m["seat"], m.get("move"), m.get("status")) for m in built_in.replay["moves"]] == [
        (m["seat"], m.get("move"), m.get("status")) for m in uploaded_record.replay["moves"]
    ]


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("order", [("claimer", "random"), ("random", "claimer"), ("random", "random")])
def test_the_reference_programs_play_the_same_games_under_both_referees(uploaded, seed, order):
    clock = Clock.from_json(Sudoku.default_clock)
    results = []
    for game in (registry.get("sudoku"), uploaded):
        players = [pinned(name, seed * 10 + i) for i, name in enumerate(order)]
        results.append(play(game, {}, seed, players, clock))
    _same(*results)
    assert results[1].replay["referee"]["lines"] > 0


def _scripted(answers: list[str], seat: int) -> Player:
    """A player that gives this seat's answers of an official game, in order: a move, or the
    fault the official result names (no answer, a crash, an exit)."""
    mine = answers[seat::2]
    lines = ["import sys, time", f"answers = {mine!r}", "for answer in answers:", "    sys.stdin.readline()"]
    lines += [
        "    if answer == 'timeout':",
        "        time.sleep(60)",
        "    if answer in ('crash', 'exit'):",
        "        sys.exit(3 if answer == 'crash' else 0)",
        "    print(answer.removeprefix('reply '), flush=True)",
        "for line in sys.stdin:",
        "    pass",
    ]
    return _player(f"seat {seat}", "\n".join(lines).encode() + b"\n", "official.py")


def _sample(games: list[codecup.OfficialGame]) -> list[codecup.OfficialGame]:
    if os.environ.get("ARBITER_PROOF") == "all":
        return games
    chosen, endings = [], set()
    for official in games:  # the first game of each ending, each claim's winner on both seats
        ending = next((s for s in official.statuses if s not in ("WIN", "LOSE")), "WIN")
        kind = (ending, official.statuses.index("WIN") if "WIN" in official.statuses else None)
        if kind not in endings:
            endings.add(kind)
            chosen.append(official)
    return chosen


def test_official_final_games_end_with_the_official_result_through_the_platform(uploaded):
    games = codecup.read(FINAL.read_text(encoding="utf-8"))
    sample = _sample(games)
    assert len(sample) >= 8  # every ending of the sample (codecup.py), a claim won on each seat
    clock = Clock.from_json({**Sudoku.default_clock, "time_limit": 2})  # the timeouts come sooner
    wrong = []
    for official in sample:
        answers, _ = official_answers(official)
        record = play(uploaded, {}, 1, [_scripted(answers, 0), _scripted(answers, 1)], clock)
        names = tuple(record.outcome.details)
        if names != official.statuses or record.outcome.points != official.scores:
            wrong.append((official.game, names, record.outcome.points, official.statuses, official.scores))
    assert wrong == []


@pytest.mark.parametrize("example", ["sudoku-referee", "connect-four"])
def test_both_examples_pass_the_conformance_kit(example):
    from judging.uploaded.conformance import run_kit

    report = run_kit(hosting.manifest_of(hosting.read_folder(ROOT / "examples" / "games" / example)))
    assert report["passed"], report["problems"]
    # the two references both ways on two seeds; each parameter at its bounds (Connect Four's
    # rows and columns at 4 and 12, each alone and both together); four broken, each seat
    bounds = 6 if example == "connect-four" else 0  # and both at 4, both at 12
    assert len(report["games"]) == 4 + bounds + 4 * 2
