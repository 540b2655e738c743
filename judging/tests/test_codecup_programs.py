"""CodeCup programs as a new contestant submits them: one C++20 source with ``std::span``, one
Rust source on SSE4.1 intrinsics. Each builds with the codecup table only (not as C++17, not
without ``-C target-cpu=native``) and plays whole games against the reference claimer through
the real referee, on both seats, without a fault: every game ends with a true claim."""

from pathlib import Path

import pytest

from games import registry
from games.base import FAULTS
from games.clocks import Clock
from judging.play.referee import Player, play
from sandbox.languages import LANGUAGES
from sandbox.programs import build_program

pytestmark = pytest.mark.once

PROGRAMS = Path(__file__).parent / "programs"
sudoku = registry.get("sudoku")
CLOCK = Clock(time_limit=10, measure="cpu")


def codecup_build(name: str, **options):
    path = PROGRAMS / name
    return build_program(path.read_bytes(), path.name, table_name="codecup", **options)


@pytest.fixture(scope="module")
def rust():
    if LANGUAGES["rust"].toolchain() is None:
        pytest.fail("rustc is not installed: `scripts/system-deps.sh test` installs Debian's rustc")


def test_the_cpp20_player_needs_cpp20():
    as_cpp17 = codecup_build("sudoku_span.cpp", language="cpp17")
    assert not as_cpp17.ok and "span" in as_cpp17.log
    built = codecup_build("sudoku_span.cpp")
    assert built.ok, built.log
    assert built.language == "cpp20"  # a .cpp is C++20 unless the entry says which


def test_the_rust_player_needs_the_native_cpu(rust):
    plain = build_program((PROGRAMS / "sudoku_simd.rs").read_bytes(), "sudoku_simd.rs")  # no target-cpu
    assert not plain.ok and "simd module requires SSE4.1" in plain.log
    built = codecup_build("sudoku_simd.rs")
    assert built.ok, built.log


@pytest.mark.parametrize("name", ["sudoku_span.cpp", "sudoku_simd.rs"])
def test_a_codecup_program_plays_whole_games_on_both_seats(name, program, request):
    if name.endswith(".rs"):
        request.getfixturevalue("rust")
    built = codecup_build(name)
    assert built.ok, built.log
    claimer = program("sudoku/players/claimer.cpp")
    for seats in ([built.program, claimer], [claimer, built.program]):
        record = play(sudoku, {}, 0, [Player("a", seats[0]), Player("b", seats[1])], CLOCK)
        outcome = record.outcome
        assert not FAULTS & set(outcome.statuses), outcome.reason
        assert sorted(outcome.details) == ["LOSE", "WIN"], outcome.reason  # a true claim ended it
        assert record.replay["moves"][-1]["move"].endswith("!")
