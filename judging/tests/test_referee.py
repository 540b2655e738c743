"""The process-per-move referee with real programs in the real sandbox."""

import pytest

from games import registry
from games.clocks import Clock, ClockError
from judging.play import referee
from judging.play.referee import Player

pytestmark = pytest.mark.once

chomp = registry.get("chomp")
hf = registry.get("hearts_flowers")


def play(game, names, program, params=None, clock=None, seed=0):
    players = [Player(name=n, program=program(n), submission={"language": "test"}) for n in names]
    return referee.play(game, params or {}, seed, players, clock or Clock.from_json(game.default_clock))


def test_a_whole_chomp_game_is_recorded_and_re_derives(program):
    record = play(chomp, ["chomp_last.c", "chomp/players/perfect.py"], program, {"rows": 3, "cols": 4})
    replay = record.replay
    assert replay["game"] == "chomp" and replay["params"] == {"rows": 3, "cols": 4}
    assert [s["name"] for s in replay["seats"]] == ["chomp_last.c", "chomp/players/perfect.py"]
    assert record.outcome.statuses == ("loss", "win")  # 3x4: perfect play wins from either seat here
    assert sum(t.moves for t in record.seats) == len(replay["moves"])
    for move in replay["moves"]:
        assert move["cpu_s"] >= 0 and move["wall_s"] > 0 and "move" in move
    assert "chomp at row" in replay["moves"][1]["stderr"]  # perfect.py explains itself on stderr
    state = chomp.initial_state(replay["params"], replay["seed"])
    for move, frame in zip(replay["moves"], replay["frames"], strict=False):
        assert chomp.frame(state) == frame
        state = chomp.apply(state, chomp.parse_move(state, move["move"]))
    assert chomp.outcome(state) == record.outcome


def test_a_crash_loses_with_the_move_and_the_signal(program):
    record = play(chomp, ["chomp/players/random_player.c", "chomp_crash.c"], program, {"rows": 3, "cols": 3})
    assert record.outcome.statuses == ("win", "crash")
    assert record.outcome.reason == "move 2: killed by SIGSEGV"


def test_an_unchanged_grid_is_illegal_and_the_output_is_kept(program):
    record = play(chomp, ["chomp_unchanged.py", "chomp_last.c"], program, {"rows": 2, "cols": 2})
    assert record.outcome.statuses == ("illegal", "win")
    assert record.outcome.reason == "move 1: output is the input grid: no cookie was eaten"
    assert record.replay["moves"][0]["output"] == "XO\nOO\n"
    # "the FEWEST TOTAL CHOMPS": a refused reply is no chomp, though its time is the program's
    assert [t.moves for t in record.seats] == [0, 0]
    assert record.replay["seats"][0]["moves"] == 0 and record.seats[0].cpu_s > 0


def test_a_program_that_never_answers_times_out_on_the_wall_clock(program):
    clock = Clock(cpu_per_move_s=1, wall_per_move_s=1.5)
    record = play(chomp, ["chomp_last.c", "chomp_sleep.sh"], program, {"rows": 2, "cols": 2}, clock)
    assert record.outcome.statuses == ("win", "timeout")
    assert record.outcome.reason == "move 2: no answer, waited 1.5 s without computing"
    # no earlier than its limit; later only by what a loaded host adds (bounded generously)
    assert 1.4 < record.seats[1].wall_s < 1.5 + 5


def test_the_wall_limit_never_cuts_a_program_that_computes(program):
    """Hearts and Flowers: 30 s a move, CPU the measure. On a loaded host a program once
    was killed by the 30 s wall limit after 11.8 s of CPU. The wall limit only counts time
    in which the program waits; here it computes twice the wall limit (as a program given
    half a core would take) and plays on."""
    clock = Clock(cpu_per_move_s=2, wall_per_move_s=0.3)
    record = play(hf, ["hf_think.py", "hf_support.py"], program, {"n": 3}, clock)
    first = record.replay["moves"][0]
    assert "status" not in first and first["move"] == "W1", record.outcome.reason
    assert first["cpu_s"] >= 0.6 and first["wall_s"] >= 0.6


def test_a_program_that_computes_too_long_times_out_on_cpu(program):
    clock = Clock(cpu_average_per_move_s=0.125, wall_per_move_s=5)  # one move: at most 4 x the average
    record = play(chomp, ["chomp_spin.c", "chomp_last.c"], program, {"rows": 2, "cols": 2}, clock)
    assert record.outcome.statuses == ("timeout", "win")
    assert record.outcome.reason.startswith("move 1: 0.5")
    assert "over the 0.5 s it had" in record.outcome.reason
    assert 0.5 <= record.seats[0].cpu_s < 0.6


def test_the_average_cpu_clock_counts_the_whole_game():
    clock = Clock(cpu_average_per_move_s=30)
    assert clock.cpu_for_move(0.0) == 120  # a move may take 4 x the average: the game judges it
    assert clock.cpu_for_move(200.0) == 120  # time spent before is no debt either
    assert clock.over(200.0, 119.0) is None  # over the average: a warning, not a loss
    assert clock.over(200.0, 121.0) == "121.00 s of CPU, over the 120 s limit per move"
    assert clock.move_warning(40.0) == "40.00 s of CPU, over the 30 s a move the game should average"
    assert clock.move_warning(30.0) is None
    assert clock.game_warning(4, 121.0) == "30.25 s of CPU a move over the game (4 moves), over the 30 s average"
    assert clock.game_warning(4, 119.0) is None
    assert Clock(cpu_average_per_move_s=30, cpu_per_move_s=60).cpu_for_move(0.0) == 60


def test_chomp_judges_the_average_over_the_game_and_warns_of_slow_moves(program):
    """The page: "no more than 30 seconds per move averaged over the course of a game ...
    Warnings will be issued". A program that thinks twice the average on its first move and
    then answers at once plays on, warned (here its two moves average over 0.2 s too: a warning
    as well, not a loss); 0.2 s stands for 30 s."""
    clock = Clock(cpu_average_per_move_s=0.2, wall_per_move_s=5)
    record = play(chomp, ["chomp_slow_start.c", "chomp_last.c"], program, {"rows": 2, "cols": 2}, clock)
    assert record.outcome.statuses == ("win", "loss"), record.outcome.reason
    first = record.replay["moves"][0]
    assert first["cpu_s"] >= 0.4 and "status" not in first
    assert first["warnings"] == [
        f"move 1: {first['cpu_s']:.2f} s of CPU, over the 0.2 s a move the game should average"
    ]
    warnings = record.replay["seats"][0]["warnings"]
    assert warnings[0] == first["warnings"][0]
    assert warnings[1].startswith("the game: ") and "(2 moves), over the 0.2 s average" in warnings[1]
    assert record.replay["seats"][1]["warnings"] == []


def test_untidy_chomp_output_is_forgiven_and_warned_of_once_a_game(program):
    record = play(chomp, ["chomp_untidy.py", "chomp_last.c"], program, {"rows": 2, "cols": 3})
    assert record.outcome.statuses == ("win", "loss")  # played to the end by the rules
    space = "white space at the end of row 1; the page asks for none"
    cr = "a carriage return at the end of row 1; the page asks for a newline alone"
    mine = [m for m in record.replay["moves"] if m["seat"] == 0]
    assert len(mine) == 3 and all(m["warnings"] == [f"move {m['n']}: {space}", f"move {m['n']}: {cr}"] for m in mine)
    assert record.replay["seats"][0]["warnings"] == [f"move 1: {space}", f"move 1: {cr}"]  # told once
    assert record.replay["seats"][1]["warnings"] == []


def test_a_chomp_program_that_writes_outside_tmp_loses_as_the_page_says(program):
    """ "Creation of files anywhere else will cause disqualification": a file written in its
    folder is an illegal reply, named."""
    record = play(chomp, ["chomp_remember.py", "chomp_last.c"], program, {"rows": 3, "cols": 3})
    assert record.outcome.statuses == ("illegal", "win")
    assert record.outcome.reason == (
        "move 1: wrote memory in its folder: temporary files may be made only in /tmp "
        "and must be removed on completion of the move"
    )


def test_folders_nested_past_python_s_recursion_limit_are_an_illegal_reply_not_a_platform_fault(program):
    """1,200 folders deep, the referee's look at the folder once raised RecursionError."""
    record = play(chomp, ["chomp_deep.py", "chomp_last.c"], program, {"rows": 2, "cols": 2})
    assert record.outcome.statuses == ("illegal", "win")
    assert record.outcome.reason.startswith("move 1: wrote (more paths than a snapshot lists), deep, deep/deep, ")


def test_hearts_and_flowers_empties_folders_nested_thousands_deep_between_moves(program):
    """Emptying them once raised RecursionError; now the game is played to its end, every move
    in a fresh folder."""
    record = play(hf, ["hf_deep.py", "hf_support.py"], program, {"n": 3})
    assert record.outcome.statuses == ("draw", "draw") and len(record.replay["moves"]) == 36
    assert {m["stderr"].strip() for m in record.replay["moves"] if m["seat"] == 0} == {"fresh folder"}


def test_a_chomp_program_that_leaves_a_file_in_tmp_loses_and_never_finds_it_again(program):
    """ "All files that are created MUST be removed on completion of your move": a program
    that kept a memo in /tmp found it at its next move; now each move has a fresh /tmp,
    and the memo left behind is an illegal reply."""
    record = play(chomp, ["chomp_last.c", "chomp_memo.py"], program, {"rows": 3, "cols": 3})
    assert record.outcome.statuses == ("win", "illegal")
    assert record.outcome.reason.startswith("move 2: left /tmp/memo behind: temporary files")
    assert record.replay["moves"][1]["stderr"].strip() == "fresh /tmp"


def test_other_process_per_move_games_get_a_fresh_tmp_every_move_too(program):
    record = play(hf, ["hf_support.py", "hf_memo.py"], program, {"n": 3})
    theirs = [m["stderr"].strip() for m in record.replay["moves"] if m["seat"] == 1]
    assert len(theirs) >= 2 and set(theirs) == {"fresh /tmp"}


def test_hearts_and_flowers_keeps_only_support_between_moves_and_nothing_between_matches(program):
    names = ["hearts_flowers/players/random_player.py", "hf_support.py"]
    for _ in range(2):
        record = play(hf, names[::-1], program, {"n": 3})
        counts = [m["stderr"].strip() for m in record.replay["moves"] if m["seat"] == 0]
        assert counts[:3] == [f"move {n} of this match, no stray file" for n in (1, 2, 3)]


def test_hearts_and_flowers_may_rewrite_the_support_files_it_shipped_and_nothing_else(program):
    import io
    import tarfile

    from judging.tests.conftest import build_program

    runme = (
        "#!/bin/sh\ncat > /dev/null\nn=$(cat support/count); n=$((n + 1)); echo $n > support/count\n"
        "{ echo tampered > runme; } 2>/dev/null || echo refused > support/tried\n"
        'echo "count $n, $(cat support/tried)" >&2\necho W1\n'
    )
    packed = io.BytesIO()
    with tarfile.open(fileobj=packed, mode="w:gz") as tar:
        for name, text, mode in [("runme", runme, 0o755), ("support/count", "41\n", 0o644)]:
            info = tarfile.TarInfo(name)
            info.size, info.mode = len(text), mode
            tar.addfile(info, io.BytesIO(text.encode()))
    built = build_program(packed.getvalue(), "shipped.tar.gz")
    assert built.ok, built.log
    players = [Player(name="shipped", program=built.program, submission={"language": "archive"})] * 2
    record = referee.play(hf, {"n": 3}, 0, players, Clock.from_json(hf.default_clock))
    said = [m["stderr"].strip() for m in record.replay["moves"] if m["seat"] == 0]
    assert said[:3] == ["count 42, refused", "count 43, refused", "count 44, refused"]


def test_flowers_reads_the_board_with_the_pieces_swapped(program):
    record = play(hf, ["hf_support.py", "hf_support.py"], program, {"n": 3})
    first_two = [m["move"] for m in record.replay["moves"][:2]]
    assert first_two == ["W1", "W1"]
    assert record.replay["frames"][2]["board"][0] == "FH."  # seat 1 played a flower
    assert record.outcome.statuses == ("draw", "draw")  # both always play W1: no line in 36 moves
    assert len(record.replay["moves"]) == 36


@pytest.mark.parametrize("clock", [{"cpu_per_move_s": -1}, {"cpu_per_move_s": "fast"}, {"tempo": 3}])
def test_bad_clock_settings_are_refused(clock):
    from games.clocks import ClockError

    with pytest.raises(ClockError):
        Clock.from_json(clock)


def test_the_chess_clock_with_a_per_move_limit_and_an_overage_bank():
    clock = Clock.from_json({"time_limit": 30, "measure": "cpu", "move_limit_s": 2, "overage_s": 3})
    assert clock.answer_budget(0.0, 3.0) == 5.0  # one answer: its limit plus the whole bank
    used, bank, late = clock.charge(0.0, 3.0, 1.5)
    assert (used, bank, late) == (1.5, 3.0, None)
    used, bank, late = clock.charge(used, bank, 4.0)  # 2 s over the move limit: paid from the bank
    assert (used, bank, late) == (5.5, 1.0, None)
    assert clock.answer_budget(used, bank) == 3.0
    used, bank, late = clock.charge(used, bank, 3.5)  # 1.5 s over with 1 s left in the bank
    assert late == "3.50 s for one answer, over the 2 s limit"
    total = Clock(time_limit=30)
    assert total.answer_budget(29.0, 0.0) == 1.0
    assert total.charge(29.0, 0.0, 1.2)[2] == "30.20 s in the game, over the 30 s limit"
    with pytest.raises(ClockError, match="measure must be"):
        Clock.from_json({"measure": "sundial"})
