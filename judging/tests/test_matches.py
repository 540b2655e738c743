"""Playing matches in the worker's code path (without the broker): claim, record once, re-run."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from contests.models import Match, Stage
from contests.tests.factories import make_contest, make_entry, make_match, make_stage, make_submission
from judging import matches, standings
from judging.tests.conftest import PLAYERS, PROGRAMS

pytestmark = pytest.mark.django_db


def _chomp_match(**kwargs):
    contest = make_contest(game="chomp", game_params={"rows": 3, "cols": 3})
    stage = make_stage(contest, kind=Stage.Kind.ROUND_ROBIN, status=Stage.Status.RUNNING)
    subs = [
        make_submission(make_entry(contest, name=name), source=path.read_bytes(), filename=path.name, language=lang)
        for name, path, lang in [
            ("Last", PROGRAMS / "chomp_last.c", "c"),
            ("Perfect", PLAYERS / "chomp/players/perfect.py", "python3"),
        ]
    ]
    return make_match(contest, subs, stage=stage, params={"rows": 3, "cols": 3}, **kwargs)


def test_a_match_is_played_recorded_and_its_stage_finished():
    match = _chomp_match()
    assert matches.play_match(match.pk) == Match.Status.FINISHED
    match.refresh_from_db()
    assert match.status == "finished" and match.attempts == 1 and match.reason
    seats = list(match.seats.order_by("index"))
    assert sorted(s.status for s in seats) == ["loss", "win"]
    assert sum(s.moves for s in seats) == len(match.load_replay()["moves"])
    assert Stage.objects.get(pk=match.stage_id).status == "finished"  # its only match is played


def test_a_second_delivery_of_a_finished_match_changes_nothing():
    match = _chomp_match()
    matches.play_match(match.pk)
    match.refresh_from_db()
    before = list(match.seats.values_list("points", "score", "moves"))
    replay = match.load_replay()
    assert replay is not None
    assert matches.play_match(match.pk) is None
    match.refresh_from_db()
    assert list(match.seats.values_list("points", "score", "moves")) == before
    assert match.load_replay() == replay and match.attempts == 1
    assert standings.compute(match.contest).rows[0].games == 1  # counted once


def test_a_match_left_running_by_a_dead_worker_is_played_again():
    match = _chomp_match(status=Match.Status.RUNNING, attempts=1)
    assert matches.play_match(match.pk) == Match.Status.FINISHED
    match.refresh_from_db()
    assert match.attempts == 2


def test_a_match_is_not_tried_forever():
    match = _chomp_match(status=Match.Status.RUNNING, attempts=matches.MAX_ATTEMPTS)
    assert matches.play_match(match.pk) is None
    match.refresh_from_db()
    assert match.status == "failed" and "3 attempts" in match.error  # not left "running" for ever
    from judging import tournaments

    assert tournaments.rerun_match(match)  # so a judge can re-run it


def test_a_platform_fault_fails_the_match_for_a_judge_to_rerun():
    match = _chomp_match()
    matches.fail_match(match.pk, "SandboxError: no free sandbox slot")
    match.refresh_from_db()
    assert match.status == "failed" and "no free sandbox slot" in match.error
    assert standings.compute(match.contest).rows == []


def test_play_command_prints_a_json_summary_and_writes_the_replay(tmp_path):
    out = StringIO()
    replay = tmp_path / "replay.json"
    call_command(
        "play", "chomp", str(PROGRAMS / "chomp_poison.sh"), str(PROGRAMS / "chomp_last.c"),
        "--param", "rows=4", "--param", "cols=5", "--replay", str(replay), stdout=out,
    )  # fmt: skip
    summary = json.loads(out.getvalue())
    assert summary["game"] == "chomp" and summary["params"] == {"rows": 4, "cols": 5}
    assert [s["status"] for s in summary["seats"]] == ["loss", "win"]
    assert summary["seats"][0]["program"].endswith("chomp_poison.sh")
    assert summary["moves"] == 1 and summary["replay"] == str(replay)
    assert json.loads(Path(replay).read_text())["moves"][0]["move"] == "1,1"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nosuch", "a.c", "b.c"], "no game named 'nosuch'"),
        (["chomp", "/nonexistent.c", "b.c"], "/nonexistent.c: No such file or directory"),
        (["chomp", str(PROGRAMS / "chomp_last.c"), "--param", "rows=99"], "rows must be between 2 and 50"),
        (["chomp", str(PROGRAMS / "chomp_last.c"), "--param", "rows"], "write it as NAME=VALUE"),
        (["chomp", str(PROGRAMS / "chomp_last.c"), "--clock", "tempo=3"], "unknown clock setting tempo"),
        (["chomp", str(PROGRAMS / "chomp_last.c")], "chomp needs 2 players, not 1"),
    ],
)
def test_play_command_explains_bad_arguments(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("play", *args, stdout=StringIO())


@pytest.mark.parametrize(("status", "passed"), [("CRASH", False), ("EXIT", False), ("TIMEOUT", False), ("LOSE", True)])
def test_a_sudoku_system_test_fails_on_codecups_fault_statuses(status, passed):
    from judging import system_test

    contest = make_contest(game="sudoku", game_params={})
    stage = make_stage(contest, kind=Stage.Kind.SYSTEM_TEST)
    ref = make_submission(make_entry(contest, name="Random", is_reference=True), is_active=True, status="ready")
    mine = make_submission(make_entry(contest), status="testing")
    match = make_match(contest, [mine, ref], stage=stage, round=mine.number, status=Match.Status.FINISHED)
    match.seats.filter(index=0).update(status=status, points=0, moves=3)
    match.seats.filter(index=1).update(status="WIN", points=2, moves=3)
    system_test.conclude(match)
    mine.refresh_from_db()
    assert (mine.status, mine.is_active) == (("ready", True) if passed else ("test_failed", False)), mine.test_log


def test_rerunning_a_system_test_game_judges_its_submission_again(queued):
    from judging import system_test, tournaments

    contest = make_contest(game="chomp")
    stage = make_stage(contest, kind=Stage.Kind.SYSTEM_TEST)
    ref = make_submission(make_entry(contest, name="Random", is_reference=True), is_active=True, status="ready")
    mine = make_submission(make_entry(contest), status="test_failed", test_log="game 1: crash")
    match = make_match(contest, [mine, ref], stage=stage, status="finished", round=mine.number)
    assert tournaments.rerun_match(match)
    mine.refresh_from_db()
    assert mine.status == "testing" and queued == [("play_match", match.pk)]
    seats = list(match.seats.order_by("index"))
    for seat, (points, st) in zip(seats, [(1, "win"), (0, "loss")], strict=True):
        seat.points, seat.status = points, st
        seat.save()
    Match.objects.filter(pk=match.pk).update(status="finished")
    system_test.conclude(Match.objects.get(pk=match.pk))
    mine.refresh_from_db()
    assert mine.status == "ready" and mine.is_active and mine.test_log.endswith("system test passed")
