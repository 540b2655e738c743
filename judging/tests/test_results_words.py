"""Every result in the contestant's words: no "loss (NO_SOLUTIONS_LEFT)", no "seat 0"."""

from dataclasses import dataclass

from games import registry
from judging.news.results import seat_words, summary


@dataclass
class Named:
    name: str


@dataclass
class Seat:
    index: int
    entry_id: int
    status: str
    detail: str = ""
    reason: str = ""
    points: float | None = None
    score: float | None = None

    @property
    def entry(self):
        return Named({1: "Alice", 2: "Bob", 3: "Carol"}[self.entry_id])


SUDOKU = registry.get("sudoku")
CHOMP = registry.get("chomp")


def test_sudoku_in_words_from_each_side():
    reason = "move 23: Bb5 leaves no solution"
    seats = [
        Seat(0, 1, "loss", "NO_SOLUTIONS_LEFT", reason, 1.0),
        Seat(1, 2, "win", "WIN", "", 2.0),
    ]
    assert seat_words(SUDOKU, seats[0], seats) == "lost: left no solution (move 23)"
    assert seat_words(SUDOKU, seats[1], seats) == "won"
    assert summary(SUDOKU, seats, entry_id=1) == "lost to Bob: left no solution (move 23)"
    assert summary(SUDOKU, seats, entry_id=2) == "won against Alice (Alice lost: left no solution (move 23))"
    assert summary(SUDOKU, seats) == "Bob won against Alice (Alice lost: left no solution (move 23))"
    claimed = [Seat(0, 1, "loss", "LOSE", "move 40: seat 1 rightly claimed", 1.0), Seat(1, 2, "win", "WIN", "", 2.0)]
    assert summary(SUDOKU, claimed, entry_id=1) == "lost to Bob"


def test_a_crash_and_a_timeout_say_what_and_when():
    seats = [Seat(0, 1, "crash", "", "move 1: exited with code 1", 0.0), Seat(1, 2, "win", "", "", 1.0)]
    assert summary(CHOMP, seats, entry_id=1) == "lost to Bob: crashed (move 1)"
    assert summary(CHOMP, seats, entry_id=2) == "won against Alice (Alice crashed (move 1))"
    sudoku = [Seat(0, 1, "win", "WIN", "", 2.0), Seat(1, 2, "timeout", "TIMEOUT", "move 4: no answer in time", 1.0)]
    assert summary(SUDOKU, sudoku, entry_id=2) == "lost to Alice: out of time (move 4)"


def test_chomp_draws_and_unplayed():
    seats = [Seat(0, 1, "loss", "", "seat 0 ate the poison cookie", 0.0), Seat(1, 2, "win", "", "", 1.0)]
    assert summary(CHOMP, seats, entry_id=1) == "lost to Bob"
    assert summary(CHOMP, seats) == "Bob won against Alice"
    drawn = [Seat(0, 1, "draw"), Seat(1, 2, "draw")]
    assert summary(CHOMP, drawn) == "Alice and Bob drew" and summary(CHOMP, drawn, entry_id=2) == "drew with Alice"
    assert summary(CHOMP, [Seat(0, 1, ""), Seat(1, 2, "")]) == ""


def test_a_race_ranks_its_entrants_and_a_run_says_its_score():
    wheels = registry.get("wheels")
    trial = [Seat(0, 1, "win", "finished", "", 2.0, 41), Seat(1, 2, "win", "finished", "", 1.0, 55)]
    assert seat_words(wheels, trial[0], trial) == "1st of 2: finished"  # trial laps: both finish, ranked
    assert seat_words(wheels, trial[1], trial) == "2nd of 2: finished" and summary(wheels, trial) == "Alice first of 2"
    race = trial + [Seat(2, 3, "timeout", "", "", 0.0, 12)]
    race[2].detail = "not finished within the time limit (deck 2 of 5, 3 sets discarded)"
    assert seat_words(wheels, race[0], race) == "1st of 3: finished"
    assert (
        seat_words(wheels, race[2], race)
        == "3rd of 3: not finished within the time limit (deck 2 of 5, 3 sets discarded)"
    )
    assert summary(wheels, race) == "Alice first of 3" and summary(wheels, race, entry_id=2) == "2nd of 3: finished"
    words = registry.get("crossed_words")
    assert summary(words, [Seat(0, 1, "valid", "", "verified: 412 points", 412.0)]) == "Alice: valid output, 412 points"
    wrong = [Seat(0, 1, "illegal", "WRONG_OUTPUT", "line 3: no such word", 0.0)]
    assert summary(words, wrong, entry_id=1) == "output.txt refused by the verifier"


def test_every_result_sudoku_can_name_is_translated():
    from games.sudoku.rules import STATUS

    assert set(STATUS) <= set(SUDOKU.result_words)
    assert all(words == words.lower() and "_" not in words for words in SUDOKU.result_words.values())


@dataclass
class Version:
    number: int


@dataclass
class VersionSeat(Seat):
    submission_id: int = 0

    @property
    def submission(self):
        return Version(self.submission_id)


def test_a_versus_game_between_two_versions_of_one_entry_names_the_versions():
    """A versus batch against one's own earlier version read "won against Carol · Carol ate
    the poison cookie": which was which was not said."""
    from web.templatetags.arbiter_text import named_seats

    seats = [
        VersionSeat(0, 3, "win", "", "", 1.0, submission_id=3),
        VersionSeat(1, 3, "loss", "", "seat 1 ate the poison cookie", 0.0, submission_id=2),
    ]
    assert summary(CHOMP, seats, entry_id=3) == "Carol v3 won against Carol v2"
    assert named_seats(seats[1].reason, seats) == "Carol v2 ate the poison cookie"
    itself = [VersionSeat(0, 3, "draw", submission_id=3), VersionSeat(1, 3, "draw", submission_id=3)]
    assert summary(CHOMP, itself) == "Carol (seat 0) and Carol (seat 1) drew"
    others = [VersionSeat(0, 1, "win", submission_id=5), VersionSeat(1, 2, "loss", submission_id=6)]
    assert summary(CHOMP, others, entry_id=1) == "won against Bob"  # two entries: names alone


def test_an_output_only_run_is_not_a_move_nor_a_seat_among_others(db):
    """Crossed Words' system test said "moving first" of a run alone, and a refused output.txt
    was counted as "1 illegal move"."""
    from contests.models import Submission
    from contests.tests.factories import (
        finish_on_paper,
        make_contest,
        make_entry,
        make_match,
        make_stage,
        make_submission,
    )
    from judging.news.results import counted
    from judging.schedule import system_test

    assert counted("illegal", 1, registry.get("crossed_words")) == "1 refused output"
    assert counted("illegal", 2, CHOMP) == "2 illegal moves" and counted("crash", 1, registry.get("crossed_words"))
    contest = make_contest(game="crossed_words", game_params={})
    stage = make_stage(contest, kind="system_test", name="Practice run")
    mine = make_submission(make_entry(contest, name="Solo"), status="testing")
    run = make_match(contest, [mine], stage=stage, round=mine.number)
    finish_on_paper(run, [(0, 0, "illegal")], reason="line 1: the total is 17, not 22")
    run.seats.update(reason="line 1: the total is 17, not 22")
    system_test.conclude(run)
    mine.refresh_from_db()
    assert mine.status == Submission.Status.TEST_FAILED
    assert f"game 1 (match {run.pk}): " in mine.test_log and "moving" not in mine.test_log, mine.test_log
