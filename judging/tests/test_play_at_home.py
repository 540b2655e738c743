"""`play` reproduces a contest: by default the game's original contest's conditions (its
compilers and their flags, its memory and clock), with --contest an installed contest's. At
home `arbiter play sudoku maks_player.cc` crashed "over the memory limit" (256 MB, the contest
gave 1536) and did not build without --lang (std::span: the platform's table, not CodeCup's);
NineDigits' Rust lacked -C target-cpu=native; a Chomp program built with -O2 played illegally
where the POTM built it without optimisation."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from contests.tests.factories import make_contest
from judging.tests.conftest import PLAYERS, PROGRAMS
from sandbox.programs import build_program

pytestmark = pytest.mark.slow


def play(*args) -> dict:
    out = StringIO()
    call_command("play", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_a_program_that_breaks_under_o2_plays_at_home_as_in_the_potm(tmp_path):
    opponent = str(PLAYERS / "chomp/players/random_player.c")
    mine = str(PROGRAMS / "chomp_unoptimised.c")
    home = play("chomp", mine, opponent, "--param", "rows=3", "--param", "cols=3")
    assert home["conditions"]["language_table"] == "potm" and "original contest" in home["conditions"]["from"]
    assert home["seats"][0]["status"] != "illegal"
    optimised = play("chomp", mine, opponent, "--param", "rows=3", "--param", "cols=3", "--table", "arbiter")
    assert optimised["seats"][0]["status"] == "illegal"


def test_sudoku_builds_and_runs_as_codecup_did(tmp_path):
    source = tmp_path / "span.cc"
    source.write_text("#include <span>\n#include <cstdio>\nint main(){int a[3]={1,2,3}; std::span<int> s(a); "
                      "std::printf(\"%zu\\n\", s.size());}\n")  # fmt: skip
    assert build_program(source.read_bytes(), source.name, table_name="codecup").ok  # C++20 by the extension
    sudoku = play(
        "sudoku", str(PLAYERS / "sudoku/players/random_player.py"), str(PLAYERS / "sudoku/players/random_player.py")
    )
    assert sudoku["conditions"]["language_table"] == "codecup" and sudoku["conditions"]["clock"]["memory_mb"] == 1536


@pytest.mark.skipif("sse4_1" not in Path("/proc/cpuinfo").read_text(), reason="a CPU without SSE4.1")
def test_rust_needing_sse41_builds_with_codecups_target_cpu_native(tmp_path):
    source = b'#[cfg(not(target_feature = "sse4.1"))]\ncompile_error!("simd module requires SSE4.1");\nfn main() {}\n'
    assert build_program(source, "nine.rs", table_name="codecup").ok
    plain = build_program(source, "nine.rs", table_name="arbiter")
    assert not plain.ok and "requires SSE4.1" in plain.log


@pytest.mark.django_db
def test_an_installed_contests_settings_with_contest(tmp_path):
    make_contest(
        slug="tiny",
        game="chomp",
        game_params={"rows": 2, "cols": 3},
        clock={"cpu_per_move_s": 2},
        language_table="arbiter",
    )
    out = play("chomp", str(PROGRAMS / "chomp_last.c"), str(PROGRAMS / "chomp_last.c"), "--contest", "tiny")
    assert out["conditions"]["from"].endswith("(tiny)") and out["conditions"]["language_table"] == "arbiter"
    assert out["params"] == {"rows": 2, "cols": 3} and out["conditions"]["clock"]["cpu_per_move_s"] == 2


def test_play_prints_a_summary_a_person_reads_with_each_program_s_stderr(tmp_path):
    """`arbiter play` printed JSON only (its --json changed nothing) and no stderr without
    --replay; and `--clock measure=cpu` was refused ("'cpu' is not a number")."""
    loud = tmp_path / "loud.sh"
    loud.write_text(
        (PROGRAMS / "chomp_poison.sh").read_text().replace("#!/bin/sh\n", "#!/bin/sh\necho thinking >&2\n", 1)
    )
    out = StringIO()
    call_command(
        "play", "chomp", str(loud), str(PROGRAMS / "chomp_last.c"), "--param", "rows=4", "--param", "cols=5",
        "--clock", "measure=cpu", "--clock", "time_limit=3", stdout=out,
    )  # fmt: skip
    said = out.getvalue().splitlines()
    assert said[0] == "chomp under the original contest of Chomp" and "  parameters: rows=4, cols=5; " in said[1]
    assert "  clock: 3 s of CPU time for all of a program's answers in a game (a chess clock)" in said
    seats = [line for line in said if line.startswith("seat ")]
    assert [line.split()[3] for line in seats] == ["loss", "win"] and " moves  CPU " in seats[0]
    assert said[said.index(f"stderr of seat 0 ({loud}), its last lines:") + 1] == "  thinking"
    assert said[-1] == "replay: not kept (--replay FILE keeps it)"
    with pytest.raises(CommandError, match="measure"):
        call_command("play", "chomp", str(loud), str(loud), "--clock", "measure=sundial", stdout=StringIO())
