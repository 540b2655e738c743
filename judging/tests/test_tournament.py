"""A whole contest through a real Celery worker: submissions are built and system-tested,
a round robin is played, and the standings come out as worked out by hand."""

import time
from collections import Counter
from pathlib import Path

import pytest

from contests.models import Entry, Stage, Submission
from contests.services import submit
from contests.tests.factories import make_contest, make_entry, make_stage, make_user
from judging.models import Match
from judging.record import lifecycle, standings
from judging.schedule import tournaments
from judging.tests.conftest import PLAYERS, PROGRAMS

pytestmark = [pytest.mark.worker, pytest.mark.slow]


def wait_for(condition, timeout=120, worker=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    pytest.fail(f"timed out; worker log:\n{worker.output()[-4000:] if worker else ''}")


def enter(contest, name, path: Path, reference=False):
    entry = make_entry(contest, make_user(), name=name, is_reference=reference)
    return submit(entry, filename=path.name, data=path.read_bytes())


def test_a_round_robin_of_four_programs_in_three_languages(worker):
    contest = make_contest(game="chomp", game_params={"rows": 2, "cols": 3})
    stage = make_stage(contest, kind="round_robin", params={"games_per_pairing": 2})
    subs = [
        enter(contest, "Perfect", PLAYERS / "chomp/players/perfect.py"),
        enter(contest, "Last", PROGRAMS / "chomp_last.c"),
        enter(contest, "Row", PROGRAMS / "chomp_row.py"),
        enter(contest, "Poison", PROGRAMS / "chomp_poison.sh"),
    ]
    assert sorted({s.language for s in subs}) == ["c", "python3", "shell"]
    wait_for(lambda: Submission.objects.filter(is_active=True, status="ready").count() == 4, worker=worker)

    matches = tournaments.schedule_round_robin(stage)
    assert len(matches) == 12 and tournaments.schedule_round_robin(stage) == []  # scheduled once
    wait_for(lambda: not Match.objects.filter(stage=stage, status__in=["queued", "running"]).exists(), worker=worker)
    stage.refresh_from_db()
    assert stage.status == Stage.Status.FINISHED
    assert not Match.objects.filter(stage=stage).exclude(status="finished").exists()

    # Worked out by hand on the 2x3 grid (docs in judging/tests/programs): wins, cookies, chomps.
    table = standings.compute(contest, stage)
    got = [(r.rank, r.entry.name, r.games, r.ordered(table.columns)) for r in table.rows]
    assert got == [
        (1, "Perfect", 6, [5, 9, 10]),
        (2, "Row", 6, [4, 10, 9]),
        (3, "Last", 6, [3, 4, 12]),
        (4, "Poison", 6, [0, 0, 6]),
    ]
    assert (table.finished, table.total) == (12, 12)
    one = Match.objects.filter(stage=stage).first()
    replay = one.load_replay()
    assert replay["game"] == "chomp" and len(replay["moves"]) == sum(s.moves for s in one.seats.all())


def test_a_submission_is_built_system_tested_and_made_active(worker):
    contest = make_contest(game="chomp", game_params={"rows": 5, "cols": 6})
    make_stage(contest, kind="system_test", params={"games": 2, "rows": 3, "cols": 4})
    enter(contest, "Random", PLAYERS / "chomp/players/random_player.c", reference=True)
    wait_for(lambda: Submission.objects.filter(entry__is_reference=True, status="ready").exists(), worker=worker)

    good = enter(contest, "Good", PROGRAMS / "chomp_last.c")
    wait_for(lambda: Submission.objects.get(pk=good.pk).status in ("ready", "test_failed"), worker=worker)
    good.refresh_from_db()
    assert good.status == "ready" and good.is_active, good.test_log
    assert good.test_log.endswith("system test passed")
    assert good.test_log.count("\ngame ") + good.test_log.startswith("game ") == 2
    assert "moving first" in good.test_log and "moving second" in good.test_log

    bad = submit(
        Entry.objects.get(pk=good.entry_id), filename="crash.c", data=(PROGRAMS / "chomp_crash.c").read_bytes()
    )
    wait_for(lambda: Submission.objects.get(pk=bad.pk).status in ("ready", "test_failed"), worker=worker)
    bad.refresh_from_db()
    good.refresh_from_db()
    assert bad.status == "test_failed" and not bad.is_active
    assert "killed by SIGSEGV" in bad.test_log and bad.test_log.endswith("must play every game by the rules")
    assert good.is_active  # the previous version still plays


def test_a_build_error_is_the_authors_with_the_compilers_log(worker):
    contest = make_contest(game="chomp")
    entry = make_entry(contest)
    sub = submit(entry, filename="broken.c", data=b"int main(void) { return 0 }\n")
    wait_for(lambda: Submission.objects.get(pk=sub.pk).status not in ("queued", "building"), worker=worker)
    sub.refresh_from_db()
    assert sub.status == "build_failed" and not sub.is_active
    assert "error: expected" in sub.build_log and "main.c:1:26" in sub.build_log
    assert sub.toolchain.startswith("gcc")


def test_a_swiss_stage_pairs_its_later_rounds_on_the_worker(worker):
    """Round 1 is paired when the stage runs; rounds 2 and 3 by the pairing task the round's
    last result sends when it commits, through the broker, on the worker's default queue."""
    contest = make_contest(game="chomp", game_params={"rows": 2, "cols": 3})
    stage = make_stage(contest, kind="swiss", params={"rounds": 3, "games_per_pairing": 2})
    enter(contest, "Perfect", PLAYERS / "chomp/players/perfect.py")
    enter(contest, "Row", PROGRAMS / "chomp_row.py")
    enter(contest, "Poison", PROGRAMS / "chomp_poison.sh")
    wait_for(lambda: Submission.objects.filter(is_active=True, status="ready").count() == 3, worker=worker)

    assert len(lifecycle.run_stage(stage)) == 3  # a pairing's two games and a bye
    wait_for(lambda: Stage.objects.get(pk=stage.pk).status == Stage.Status.FINISHED, timeout=180, worker=worker)
    assert Counter(stage.matches.values_list("round", flat=True)) == {1: 3, 2: 3, 3: 3}
    assert Counter(stage.matches.filter(seats__status="bye").values_list("seats__entry__name", flat=True)) == {
        "Perfect": 1,
        "Row": 1,
        "Poison": 1,
    }
    games = stage.matches.exclude(seats__status="bye")
    assert games.filter(status="finished").count() == 6
    pairings = Counter(frozenset(m.seats.values_list("entry_id", flat=True)) for m in games)
    assert sorted(pairings.values()) == [2, 2, 2]  # each pair once (two games), no rematch


def test_a_codecup_final_in_small_swiss_then_the_top_in_a_double_round_robin(worker):
    """CodeCup 2024's final at a size the suite can play (bench/bench_codecup.py plays it at
    70 programs): 8 programs in three languages and four strengths, a Swiss of 4 rounds with
    each pairing played twice, then the best 4 of the Swiss in a double round robin. Every
    round seats everybody once, no pairing repeats, the final's four are the Swiss table's top
    four, and every figure of both tables is the games counted again."""
    contest = make_contest(game="chomp", game_params={"rows": 3, "cols": 4}, max_entries_per_user=10)
    swiss = make_stage(contest, kind="swiss", name="Swiss rounds", params={"rounds": 4, "games_per_pairing": 2})
    final = make_stage(contest, kind="round_robin", name="Final", order=2, params={"games_per_pairing": 2, "top": 4})
    perfect = (PLAYERS / "chomp/players/perfect.py").read_text()
    for n, chance in enumerate((1.0, 1.0, 0.7, 0.35)):
        entry = make_entry(contest, make_user(), name=f"Perfect {chance:.0%} {n}")
        submit(entry, filename="perfect.py", data=perfect.replace("CHANCE = 1.0", f"CHANCE = {chance}").encode())
    enter(contest, "Random (C)", PLAYERS / "chomp/players/random_player.c")
    enter(contest, "Row", PROGRAMS / "chomp_row.py")
    enter(contest, "Poison", PROGRAMS / "chomp_poison.sh")
    enter(contest, "Last (C)", PROGRAMS / "chomp_last.c")
    wait_for(lambda: Submission.objects.filter(is_active=True, status="ready").count() == 8, worker=worker)

    assert len(lifecycle.run_stage(swiss)) == 8  # four pairings, two games each
    wait_for(lambda: Stage.objects.get(pk=swiss.pk).status == Stage.Status.FINISHED, timeout=300, worker=worker)
    games = swiss.matches.filter(status=Match.Status.FINISHED)
    assert games.count() == 32 and Counter(games.values_list("round", flat=True)) == {r: 8 for r in range(1, 5)}
    for r in range(1, 5):  # each round seats every program in two games, against one opponent
        seats = Counter(games.filter(round=r).values_list("seats__entry_id", flat=True))
        assert sorted(seats.values()) == [2] * 8, r
    pairings = Counter(frozenset(m.seats.values_list("entry_id", flat=True)) for m in games)
    assert sorted(pairings.values()) == [2] * 16  # sixteen pairings, each played twice: no rematch
    table = standings.compute(contest, Stage.objects.get(pk=swiss.pk))
    assert_counted_again(table, games)

    top = [row.entry.pk for row in table.rows[:4]]
    assert len(lifecycle.run_stage(final)) == 12  # the best four, each pair twice
    wait_for(lambda: Stage.objects.get(pk=final.pk).status == Stage.Status.FINISHED, timeout=300, worker=worker)
    played = final.matches.filter(status=Match.Status.FINISHED)
    assert set(played.values_list("seats__entry_id", flat=True)) == set(top)
    assert_counted_again(standings.compute(contest, Stage.objects.get(pk=final.pk)), played)


def assert_counted_again(table, games) -> None:
    """Each row's games, wins, cookies and chomps are its seats in ``games`` added up (a bye
    counts as a won game: the points of a win, no cookie, no chomp)."""
    from judging.models import MatchSeat

    seats = MatchSeat.objects.filter(match__in=games)
    assert {row.entry.pk for row in table.rows} == set(seats.values_list("entry_id", flat=True))
    for row in table.rows:
        mine = list(seats.filter(entry=row.entry))
        assert row.games == len(mine), row.entry.name
        assert row.values["wins"] == sum(s.status in ("win", "bye") for s in mine), row.entry.name
        assert row.values["score"] == sum(s.score for s in mine if s.status == "win"), row.entry.name
        assert row.values["chomps"] == sum(s.moves for s in mine), row.entry.name
