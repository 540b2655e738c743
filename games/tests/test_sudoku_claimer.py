"""The reference claimer, built with a tiny search budget so that its counts run over it at
every turn: it must still play only legal moves and never claim a single solution it has not
counted. (It used to claim "!" whenever every count of a move ran over its budget: a false
claim a CI run caught once in a game against the Rust test player.)"""

import shutil
import subprocess
from pathlib import Path

import pytest

from games import registry
from games.base import Illegal

CLAIMER = Path(__file__).resolve().parents[1] / "sudoku/players/claimer.cpp"
sudoku = registry.get("sudoku")


@pytest.fixture(scope="module")
def tiny_claimer(tmp_path_factory):
    if shutil.which("g++") is None:
        pytest.fail("g++ is not installed: scripts/system-deps.sh installs it")
    binary = tmp_path_factory.mktemp("claimer") / "claimer"
    subprocess.run(["g++", "-O2", "-std=c++17", "-DCLAIMER_BUDGET=30", "-o", str(binary), str(CLAIMER)], check=True)
    return binary


def _game(binary: Path) -> tuple[str, str]:
    """Two tiny-budget claimers play one game, judged by the rules; the seats' results."""
    programs = [
        subprocess.Popen([str(binary)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True, bufsize=1)
        for _ in range(2)
    ]  # fmt: skip
    state = sudoku.initial_state({}, 0)
    last = "Start"
    try:
        while (seat := sudoku.to_move(state)) is not None:
            program = programs[seat]
            program.stdin.write(last + "\n")
            program.stdin.flush()
            text = program.stdout.readline().strip()
            move = sudoku.parse_move(state, text)
            assert not isinstance(move, Illegal), move.reason
            last = sudoku.move_text(state, move)
            state = sudoku.apply(state, move)
    finally:
        for program in programs:
            program.kill()
            program.wait()
            program.stdin.close()
            program.stdout.close()
    return state.result


def test_a_claimer_whose_counts_run_over_never_claims_falsely(tiny_claimer):
    for _ in range(6):
        result = _game(tiny_claimer)
        assert sorted(result) == ["LOSE", "WIN"], result
