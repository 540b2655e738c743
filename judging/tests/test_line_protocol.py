"""The line-protocol referee (CodeCup Sudoku) with real programs in the real sandbox."""

import itertools
import os
import re

import pytest

from games import registry
from games.clocks import Clock
from judging.play.referee import Player, play
from sandbox.programs import build_program

pytestmark = pytest.mark.once

sudoku = registry.get("sudoku")
QUICK = Clock(time_limit=2, measure="wall")


def scripted(outputs: list[str]):
    """A Python player that answers each line it reads with the next of ``outputs``, as is
    (so a test can send carriage returns and blank lines), and keeps reading until Quit."""
    source = (
        "import sys\n"
        f"outputs = {outputs!r}\n"
        "for line in sys.stdin:\n"
        "    if line.strip() == 'Quit':\n"
        "        break\n"
        "    print(f'read {line.strip()}', file=sys.stderr, flush=True)\n"
        "    sys.stdout.write(outputs.pop(0) if outputs else '!\\n')\n"
        "    sys.stdout.flush()\n"
    )
    result = build_program(source.encode(), "scripted.py")
    assert result.ok, result.log
    return result.program


def game(program_a, program_b, clock=QUICK):
    players = [Player("first", program_a), Player("second", program_b)]
    return play(sudoku, {}, 0, players, clock)


def test_the_protocol_start_moves_and_quit(program):
    record = game(scripted(["Aa1\n", "Ab2\r\n"]), scripted(["\n\n  Ac3  \n", "Ad4\n"]))
    moves = record.replay["moves"]
    assert [m.get("move") for m in moves[:4]] == ["Aa1", "Ac3", "Ab2", "Ad4"]  # blank lines and CR forgiven
    assert moves[0]["stderr"].strip() == "read Start"
    assert moves[1]["stderr"].strip() == "read Aa1"  # the opponent's move, as written
    assert moves[3]["stderr"].strip() == "read Ab2"
    assert moves[4].get("move") == "!" and record.outcome.details == ("NO_UNIQUE_CLAIM", "WIN")
    assert all(m["clock_s"] >= 0 for m in moves)


def test_stderr_written_just_after_an_answer_is_in_that_moves_record():
    # The program is frozen once it waits for its next line, not the instant its answer
    # arrives: what it wrote meanwhile was shown under its next move.
    after = (
        "import sys, time\n"
        "moves = iter(['Aa1', 'Ab2', 'Ac3'])\n"
        "for line in sys.stdin:\n"
        "    if line.strip() == 'Quit':\n"
        "        break\n"
        "    move = next(moves)\n"
        "    print(move, flush=True)\n"
        "    t = time.process_time()\n"
        "    while time.process_time() - t < 0.003:\n"
        "        pass\n"
        "    print(f'played {move}', file=sys.stderr, flush=True)\n"
    )
    program = build_program(after.encode(), "after.py").program
    record = game(program, scripted(["Ba4\n", "Ca7\n", "!\n"]))
    mine = [m for m in record.replay["moves"] if m["seat"] == 0]
    assert [m["stderr"] for m in mine] == ["played Aa1\n", "played Ab2\n", "played Ac3\n"]


@pytest.mark.parametrize(
    ("first", "second", "statuses", "points", "reason"),
    [
        (["Aa1\n"], ["Aa2\n"], ("WIN", "ILLEGAL"), (2.0, 0.0), "Aa already holds 1"),
        (["Aa1\n"], ["Ab1\n"], ("WIN", "DOUBLED_SOMEWHERE"), (2.0, 0.0), "its row already holds a 1"),
        (["hello\n"], ["Aa1\n"], ("ILLEGAL", "WIN"), (0.0, 2.0), "'hello' is not a move"),
        (["!\n"], ["Aa1\n"], ("NO_UNIQUE_CLAIM", "WIN"), (0.0, 2.0), "more than one solution"),
        (["Aa1!\n"], ["Aa1\n"], ("NO_UNIQUE_CLAIM", "WIN"), (0.0, 2.0), "claimed, but solutions remain"),
    ],
)
def test_each_judgement_through_real_programs(first, second, statuses, points, reason):
    record = game(scripted(first), scripted(second))
    assert record.outcome.details == statuses
    assert record.outcome.points == points
    assert reason in record.outcome.reason


def test_a_program_that_sleeps_past_its_budget_times_out_1_2(program):
    record = game(program("sudoku_sleep.sh"), scripted(["Aa1\n"]))
    assert record.outcome.details == ("TIMEOUT", "WIN") and record.outcome.points == (1.0, 2.0)
    assert record.outcome.reason == "move 1: no reply in 2 s"
    # stopped at its limit, not before; how late after it is the host's load (bounded generously)
    assert 1.9 < record.replay["moves"][0]["wall_s"] < 2 + 5


def test_a_program_that_exits_loses_0_2(program):
    record = game(scripted(["Aa1\n"]), program("sudoku_exit.sh"))
    assert record.outcome.details == ("WIN", "EXIT") and record.outcome.points == (2.0, 0.0)
    assert "exited before the game was over" in record.outcome.reason


def test_a_program_that_crashes_loses_0_2(program):
    record = game(program("sudoku_crash.c"), scripted(["Aa1\n"]))
    assert record.outcome.details == ("CRASH", "WIN")
    assert record.outcome.reason == "move 1: killed by SIGSEGV"


def test_a_move_without_its_newline_is_no_answer(program):
    record = game(program("sudoku_no_newline.py"), scripted(["Aa1\n"]))
    assert record.outcome.details == ("TIMEOUT", "WIN")


def test_the_whole_game_budget_is_shared_by_all_answers():
    slow = (
        "import sys, time\n"
        "moves = iter(['Aa1', 'Ab2', 'Ac3', 'Ad4', 'Ae5', 'Af6'])\n"
        "for line in sys.stdin:\n"
        "    if line.strip() == 'Quit':\n"
        "        break\n"
        "    time.sleep(0.5)\n"
        "    print(next(moves), flush=True)\n"
    )
    program = build_program(slow.encode(), "slow.py").program
    record = game(program, scripted([f"{r}a{d}\n" for r, d in zip("BCDEFG", [4, 7, 2, 5, 8, 3], strict=True)]))
    mine = [m for m in record.replay["moves"] if m["seat"] == 0]
    assert record.outcome.details[0] == "TIMEOUT"
    assert len(mine) == 4  # 0.5 s an answer on a 2 s clock: the fourth answer runs out
    assert "over the 2 s limit" in record.outcome.reason or "no reply in" in record.outcome.reason
    # three answers of a 0.5 s sleep each: 1.5 s at least (a loaded host only adds), within the 2 s
    assert 1.5 - 0.001 <= mine[-2]["clock_s"] < 2


def test_a_program_computing_on_the_opponents_time_is_frozen(program, tmp_path):
    """The first player leaves a child spinning; on one CPU, the child gets none of it while
    the other player thinks, and the spinner's clock counts only its own answers."""
    spinner = (
        "import os, sys\n"
        "child = os.fork()\n"
        "if child == 0:\n"
        "    while True:\n"
        "        pass\n"
        "def child_cpu():\n"
        "    fields = open(f'/proc/{child}/stat').read().rpartition(')')[2].split()\n"
        "    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')\n"
        "moves = iter(['Aa1', 'Ab2', 'Ac3', 'Ad4', 'Ae5', 'Af6', 'Ag7'])\n"
        "for line in sys.stdin:\n"
        "    if line.strip() == 'Quit':\n"
        "        break\n"
        "    print(f'child cpu {child_cpu():.3f}', file=sys.stderr, flush=True)\n"
        "    print(next(moves), flush=True)\n"
    )
    thinker = (
        "import sys, time\n"
        "moves = iter(['Ba4', 'Ca7', 'Da2', 'Ea5', 'Fa8', 'Ga3', 'Ha6'])\n"
        "for line in sys.stdin:\n"
        "    if line.strip() == 'Quit':\n"
        "        break\n"
        "    end = time.process_time() + 0.15\n"
        "    while time.process_time() < end:\n"
        "        pass\n"
        "    print(next(moves), flush=True)\n"
    )
    a = build_program(spinner.encode(), "spinner.py").program
    b = build_program(thinker.encode(), "thinker.py").program
    cpus = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cpus)})  # both jails inherit one CPU
    try:
        record = game(a, b, Clock(time_limit=10, measure="wall"))
    finally:
        os.sched_setaffinity(0, cpus)
    theirs = [m for m in record.replay["moves"] if m["seat"] == 1 and "move" in m]
    assert len(theirs) >= 5
    mine = [m for m in record.replay["moves"] if m["seat"] == 0]
    # Not sharing the CPU with the spinner: from one of its answers to the next, the opponent
    # thought 0.15 s of CPU on that CPU, and a child left running would have had about as much.
    # (Its wall time would say so too on an idle host, but a loaded one stretches that anyway.)
    child = [float(seen[1]) for m in mine if (seen := re.match(r"child cpu (\S+)", m["stderr"]))]
    assert len(child) >= 5
    assert all(later - earlier < 0.075 for earlier, later in itertools.pairwise(child)), child
    assert mine[-1]["clock_s"] < 1.0  # the spinner's clock: its own answers only
