"""Playing matches in the worker's code path (without the broker): claim, attempts, faults,
results recorded once, re-runs and cancellations, the spool."""

import json
import re
from datetime import timedelta
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import OperationalError
from django.utils import timezone

from contests.locks import writing
from contests.models import JudgeAction, Stage
from contests.tests.factories import (
    finish_on_paper,
    make_contest,
    make_entry,
    make_match,
    make_stage,
    make_submission,
)
from games.base import GameResult
from judging import watchdog
from judging.models import Event, Match, MatchAttempt, read_replay
from judging.play import matches
from judging.record import lifecycle, standings
from judging.record.lifecycle import Ended
from judging.tests.conftest import PLAYERS, PROGRAMS
from judging.tests.pairings import deliver_pairings
from sandbox.errors import PlatformStall, SandboxError

pytestmark = pytest.mark.django_db
Outcome = MatchAttempt.Outcome


def _chomp_match(stage=None, **kwargs):
    contest = stage.contest if stage else make_contest(game="chomp", game_params={"rows": 3, "cols": 3})
    stage = stage or make_stage(contest, kind="round_robin", status=Stage.Status.RUNNING)
    subs = [
        make_submission(make_entry(contest, name=name), source=path.read_bytes(), filename=path.name, language=lang)
        for name, path, lang in [
            ("Last", PROGRAMS / "chomp_last.c", "c"),
            ("Perfect", PLAYERS / "chomp/players/perfect.py", "python3"),
        ]
    ]
    return make_match(contest, subs, stage=stage, params={"rows": 3, "cols": 3}, **kwargs)


def _running(match, seconds_ago=0.0, **kwargs):
    """The match as a worker left it when it claimed it ``seconds_ago``."""
    then = timezone.now() - timedelta(seconds=seconds_ago)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING, started_at=then)
    number = match.attempts.count() + 1
    defaults = {"worker": "w1@elsewhere", "host": "elsewhere", "pid": 4242}
    return MatchAttempt.objects.create(
        match=match, number=number, started_at=then, last_seen=then, **{**defaults, **kwargs}
    )


def test_a_match_is_played_recorded_and_its_stage_finished():
    match = _chomp_match()
    assert matches.play_now(match.pk) == Match.Status.FINISHED
    match.refresh_from_db()
    assert match.status == "finished" and match.reason and match.faults == 0
    (attempt,) = match.attempts.all()
    assert attempt.outcome == Outcome.FINISHED and match.result_attempt == attempt
    assert attempt.worker and attempt.pid and attempt.finished_at
    assert [s["status"] for s in attempt.result["seats"]] == list(
        match.seats.order_by("index").values_list("status", flat=True)
    )
    seats = list(match.seats.order_by("index"))
    assert sorted(s.status for s in seats) == ["loss", "win"]
    assert sum(s.moves for s in seats) == len(match.load_replay()["moves"])
    assert attempt.replay.name == match.replay.name
    assert Stage.objects.get(pk=match.stage_id).status == "finished"  # its only match is played


def test_a_second_delivery_of_a_finished_match_changes_nothing():
    match = _chomp_match()
    matches.play_now(match.pk)
    match.refresh_from_db()
    before = list(match.seats.values_list("points", "score", "moves"))
    replay = match.load_replay()
    assert matches.play_now(match.pk) is None
    assert matches.play_next("w2") is None  # a token with nothing queued plays nothing
    match.refresh_from_db()
    assert list(match.seats.values_list("points", "score", "moves")) == before
    assert match.load_replay() == replay and match.attempts.count() == 1
    assert standings.compute(match.contest).rows[0].games == 1  # counted once


def test_a_token_plays_the_most_urgent_queued_match():
    contest = make_contest(game="chomp", game_params={"rows": 3, "cols": 3})
    stage = make_stage(contest, kind="round_robin", status=Stage.Status.RUNNING)
    tournament = _chomp_match(stage)
    waiting = _chomp_match(stage, priority=Match.Priority.WAITING)
    rescued = _chomp_match(stage, priority=Match.Priority.RESCUE)
    played = [matches.claim("w").match_id for _ in range(3)]
    assert played == [rescued.pk, waiting.pk, tournament.pk]
    assert matches.claim("w") is None


def test_a_file_name_that_is_not_utf8_is_named_in_a_reason_that_saves():
    """The reason naming it once failed to save (UnicodeEncodeError): the attempt was left
    running until the watchdog gave it up as lost, and the match was played again."""
    contest = make_contest(game="chomp", game_params={"rows": 2, "cols": 2})
    path = PROGRAMS / "chomp_bad_name.py"
    subs = [
        make_submission(make_entry(contest, name=name), source=path.read_bytes(), filename=path.name)
        for name in ("First", "Second")
    ]
    match = make_match(contest, subs, params={"rows": 2, "cols": 2})
    assert matches.play_now(match.pk) == Match.Status.FINISHED
    first = match.seats.get(index=0)
    assert first.status == "illegal" and first.reason.startswith("move 1: wrote bad\\xff\\nname in its folder: ")
    assert match.attempts.get().outcome == Outcome.FINISHED


def test_a_match_whose_worker_went_silent_goes_back_ahead_of_the_queue(queued):
    match = _chomp_match()
    later = _chomp_match(match.stage)  # queued earlier than the rescue, but not yet started
    attempt = _running(match, seconds_ago=matches.stale_after().total_seconds() + 1)
    assert watchdog.rescue_lost() == 1
    attempt.refresh_from_db()
    match.refresh_from_db()
    assert attempt.outcome == Outcome.LOST and "w1@elsewhere" in attempt.error and attempt.finished_at
    assert (match.status, match.priority, match.faults) == ("queued", Match.Priority.RESCUE, 1)
    assert queued == [("play_match", match.pk)]
    assert matches.play_next("w2") == match.pk  # before the match that was queued first
    match.refresh_from_db()
    assert match.status == "finished" and [a.outcome for a in match.attempts.all()] == ["lost", "finished"]
    assert Match.objects.get(pk=later.pk).status == "queued"


def test_an_attempt_whose_process_on_this_host_is_gone_is_given_up_at_once(queued):
    import socket
    import subprocess

    match = _chomp_match()
    dead = subprocess.Popen(["true"])
    dead.wait()
    attempt = _running(match, host=socket.gethostname(), pid=dead.pid)  # fresh: no heartbeat missed yet
    alive = _running(_chomp_match(match.stage), host=socket.gethostname(), pid=1)
    assert watchdog.rescue_lost() == 1
    attempt.refresh_from_db()
    assert attempt.outcome == Outcome.LOST and f"pid {dead.pid}" in attempt.error
    assert MatchAttempt.objects.get(pk=alive.pk).outcome == Outcome.RUNNING


def test_a_live_attempt_is_left_alone():
    attempt = _running(_chomp_match(), seconds_ago=1)
    assert watchdog.rescue_lost() == 0
    attempt.refresh_from_db()
    assert attempt.outcome == Outcome.RUNNING


@pytest.mark.parametrize(
    ("fault", "outcome"),
    [(PlatformStall("the platform stalled 40.0 s at move 12"), "stalled"), (SandboxError("no jail"), "infra")],
)
def test_a_platform_fault_is_an_attempt_retried_never_a_result(monkeypatch, queued, fault, outcome):
    match = _chomp_match()

    def broken(*args, **kwargs):
        raise fault

    monkeypatch.setattr(matches, "play", broken)
    assert matches.play_now(match.pk) == Match.Status.QUEUED
    match.refresh_from_db()
    (attempt,) = match.attempts.all()
    assert attempt.outcome == outcome and str(fault) in attempt.error
    assert (match.priority, match.faults) == (Match.Priority.RESCUE, 1)
    assert match.seats.filter(points__isnull=False).count() == 0  # nothing charged to a program
    assert queued == [("play_match", match.pk)]


def _pause_this_process(after_s: float, for_s: float):
    """SIGSTOP this process (the worker) after ``after_s`` seconds for ``for_s`` seconds."""
    import os
    import subprocess

    pid = os.getpid()
    return subprocess.Popen(["sh", "-c", f"sleep {after_s}; kill -STOP {pid}; sleep {for_s}; kill -CONT {pid}"])


SLOW_FIRST = b"""import sys, time
first = True
for line in sys.stdin:
    if line.strip() == 'Quit':
        break
    if first:
        time.sleep(1.0)
        first = False
    print('Aa1', flush=True)
"""
CLAIMS = b"""import sys
for line in sys.stdin:
    if line.strip() == 'Quit':
        break
    print('!', flush=True)
"""


def test_a_worker_paused_during_a_move_stalls_the_attempt_and_the_match_is_played_again(monkeypatch, queued):
    # The worker is stopped for 2.5 s while the first program takes 1 s of its 2 s clock: the
    # pause was once charged to it as a timeout.
    from sandbox.interactive import Session

    contest = make_contest(game="sudoku", game_params={}, clock={"time_limit": 2, "measure": "wall"})
    stage = make_stage(contest, kind="round_robin", status=Stage.Status.RUNNING)
    subs = [
        make_submission(make_entry(contest, name=name), source=source, filename=f"{name}.py")
        for name, source in [("slow", SLOW_FIRST), ("claims", CLAIMS)]
    ]
    match = make_match(contest, subs, stage=stage, params={})
    real_send_line = Session.send_line
    pausers = []

    def send_line(self, line, timeout_s=1.0):
        sent = real_send_line(self, line, timeout_s)
        if not pausers:  # the first move
            pausers.append(_pause_this_process(0.3, 2.5))
        return sent

    monkeypatch.setattr(Session, "send_line", send_line)
    assert matches.play_now(match.pk) == Match.Status.QUEUED
    pausers[0].wait()
    match.refresh_from_db()
    (attempt,) = match.attempts.all()
    assert attempt.outcome == Outcome.STALLED, (attempt.outcome, attempt.error, attempt.result)
    stalled = re.match(r"move 1: the platform stalled for (\d+\.\d) s", attempt.error)
    assert stalled and float(stalled[1]) >= 2.5, attempt.error  # the pause, or longer on a loaded machine
    assert (match.priority, match.faults) == (Match.Priority.RESCUE, 1)
    assert match.seats.filter(points__isnull=False).count() == 0  # nothing charged to a program
    assert queued == [("play_match", match.pk)]
    assert matches.play_now(match.pk) == Match.Status.FINISHED  # played again, unpaused
    match.refresh_from_db()
    assert [a.outcome for a in match.attempts.all()] == ["stalled", "finished"]
    assert list(match.seats.order_by("index").values_list("detail", flat=True)) == ["WIN", "NO_UNIQUE_CLAIM"]


def test_a_match_is_not_tried_forever(monkeypatch, queued):
    match = _chomp_match()
    monkeypatch.setattr(matches, "play", lambda *a, **k: (_ for _ in ()).throw(SandboxError("no jail")))
    for _ in range(lifecycle.MAX_FAULTS):
        matches.play_now(match.pk)
    match.refresh_from_db()
    assert match.status == "failed" and "3 times in a row" in match.error and "no jail" in match.error
    assert match.attempts.count() == lifecycle.MAX_FAULTS
    assert Stage.objects.get(pk=match.stage_id).status == "running"  # it waits for a judge
    assert Event.objects.filter(kind="match", data__match=match.pk, data__status="failed").exists()
    lifecycle.rerun_match(match)  # so a judge can re-run it
    match.refresh_from_db()
    assert (match.status, match.faults) == ("queued", 0)
    assert lifecycle.cancel_match(match).status == "cancelled"  # or not play it at all
    assert Stage.objects.get(pk=match.stage_id).status == "finished"


def test_a_failed_match_can_be_cancelled_and_its_stage_then_ends(queued):
    match = _chomp_match()
    lifecycle.fail_match(match.pk, "SandboxError: no jail")
    assert Stage.objects.get(pk=match.stage_id).status == "running"
    assert lifecycle.cancel_match(match).status == "cancelled"
    assert Stage.objects.get(pk=match.stage_id).status == "finished"
    assert lifecycle.cancel_match(match) is None  # once


def test_a_swiss_round_waits_for_a_judge_when_a_game_failed(queued):
    """A round is paired from finished games only: a failed one holds the next round back
    until a judge re-runs it (its result then counts) or cancels it (it is not played)."""
    contest = make_contest(game="chomp", game_params={"rows": 3, "cols": 3})
    swiss = make_stage(contest, kind="swiss", params={"rounds": 2, "games_per_pairing": 1})
    for name in "ABCD":
        make_submission(make_entry(contest, name=name), is_active=True, status="ready")

    first_round = lifecycle.run_stage(swiss)
    finish_on_paper(first_round[0], [(1, 5, "win"), (0, 0, "loss")])
    with writing():
        lifecycle.match_ended(first_round[0], Ended.FINISHED)
    lifecycle.fail_match(first_round[1].pk, "SandboxError: no jail")
    assert not deliver_pairings(queued) and not swiss.matches.filter(round=2).exists()  # not from a failed game
    lifecycle.cancel_match(first_round[1])
    assert deliver_pairings(queued) == 2  # the judge decided: it is not played
    assert swiss.matches.filter(round=2).count() == 2


def test_a_late_result_of_a_called_off_attempt_is_not_counted(monkeypatch, queued):
    match = _chomp_match()
    attempt = matches.claim("w1")
    from judging.play.referee import play as real_play

    record = real_play(*_play_args(match))
    lifecycle.rerun_match(match)  # a judge re-runs it while attempt 1 is being played
    assert matches.write_result(attempt.pk, record) is False
    attempt.refresh_from_db()
    match.refresh_from_db()
    assert attempt.outcome == Outcome.SUPERSEDED and match.status == "queued" and match.result_attempt is None


def _play_args(match):
    from games import registry
    from games.clocks import Clock

    game = registry.get("chomp")
    players = [matches._player(seat) for seat in match.seats.select_related("entry", "submission").order_by("index")]
    return game, match.params, match.seed, players, Clock.from_json(game.default_clock)


def test_a_rerun_keeps_the_earlier_result_counted_until_the_new_one_replaces_it(queued):
    match = _chomp_match()
    matches.play_now(match.pk)
    match.refresh_from_db()
    first = match.result_attempt
    winner = match.seats.get(status="win").entry
    lifecycle.rerun_match(match)
    match.refresh_from_db()
    stage = Stage.objects.get(pk=match.stage_id)
    assert match.status == "queued" and match.priority == Match.Priority.WAITING
    assert stage.status == "running"  # a stage being re-run is not shown as finished
    table = standings.compute(match.contest)
    assert next(r for r in table.rows if r.entry == winner).values["wins"] == 1  # the earlier result still counts
    matches.play_now(match.pk)
    match.refresh_from_db()
    assert match.result_attempt.number == 2 and match.attempts.count() == 2
    first.refresh_from_db()
    assert first.outcome == Outcome.FINISHED and first.result["seats"]  # kept, beside the new one
    assert first.replay.name != match.replay.name and first.replay.storage.exists(first.replay.name)
    assert standings.compute(match.contest).rows[0].games == 1
    assert Stage.objects.get(pk=match.stage_id).status == "finished"


def test_rerunning_a_running_match_calls_its_attempt_off(queued):
    match = _chomp_match()
    attempt = _running(match)
    lifecycle.rerun_match(match)
    attempt.refresh_from_db()
    match.refresh_from_db()
    assert attempt.outcome == Outcome.SUPERSEDED and "re-run" in attempt.error
    assert match.status == "queued" and queued == [("play_match", match.pk)]


def test_cancelling(queued):
    queued_match = _chomp_match()
    assert lifecycle.cancel_match(queued_match).status == "cancelled"
    running = _chomp_match(queued_match.stage)
    attempt = _running(running)
    assert lifecycle.cancel_match(running).status == "cancelled"
    assert MatchAttempt.objects.get(pk=attempt.pk).outcome == Outcome.SUPERSEDED
    assert lifecycle.cancel_match(running) is None  # already ended
    played = _chomp_match(queued_match.stage)
    matches.play_now(played.pk)
    lifecycle.rerun_match(played)
    back = lifecycle.cancel_match(played)  # the re-run is called off: the earlier result stands
    assert back.status == "finished" and back.result_attempt.number == 1
    assert Stage.objects.get(pk=played.stage_id).status == "finished"


def test_a_result_waits_for_the_database_and_is_spooled_meanwhile(monkeypatch, settings, tmp_path):
    match = _chomp_match()
    attempt = matches.claim("w1")
    from judging.play.referee import play as real_play

    record = real_play(*_play_args(match))
    real_write = matches.write_result
    calls = []

    def flaky(attempt_id, record):
        calls.append(sorted(p.name for p in matches.spool_folder().glob("*")))
        if len(calls) < 3:
            raise OperationalError("server closed the connection unexpectedly")
        return real_write(attempt_id, record)

    monkeypatch.setattr(matches, "write_result", flaky)
    monkeypatch.setattr(matches.time, "sleep", lambda s: None)
    monkeypatch.setattr(matches.connections, "close_all", lambda: None)
    assert matches.record_result(attempt.pk, record) is True
    assert calls[0] == [] and calls[1] == [f"attempt-{attempt.pk}.json.gz"]
    assert list(matches.spool_folder().glob("*")) == []  # written, so the copy is gone
    assert Match.objects.get(pk=match.pk).status == "finished"


def test_the_watchdog_writes_a_spooled_result_its_process_left(monkeypatch, queued):
    match = _chomp_match()
    attempt = matches.claim("w1")
    from judging.play.referee import play as real_play

    path = matches.spool(attempt.pk, real_play(*_play_args(match)))
    # The process died waiting for the database; meanwhile its attempt was given up.
    MatchAttempt.objects.filter(pk=attempt.pk).update(last_seen=timezone.now() - timedelta(hours=1))
    watchdog.rescue_lost()
    assert matches.flush_spool() == 0  # too fresh: its process may still write it itself
    old = timezone.now().timestamp() - 3600
    import os

    os.utime(path, (old, old))
    assert matches.flush_spool() == 1
    match.refresh_from_db()
    assert match.status == "finished" and match.result_attempt_id == attempt.pk and not path.exists()


def test_the_watchdog_sends_tokens_for_queued_matches_the_broker_lost(monkeypatch, queued):
    a, b = _chomp_match(), _chomp_match(priority=Match.Priority.RESCUE)
    monkeypatch.setattr(watchdog, "broker_backlog", lambda queue: 0)
    assert watchdog.send_missing_tokens() == 2 and queued == [("play_match", b.pk), ("play_match", a.pk)]
    monkeypatch.setattr(watchdog, "broker_backlog", lambda queue: 2)
    assert watchdog.send_missing_tokens() == 0 and len(queued) == 2


def test_races_go_to_the_races_queue_and_only_a_worker_serving_it_takes_them(monkeypatch, queued):
    from judging import dispatch

    game = _chomp_match()
    race = Match.objects.create(contest=make_contest(game="wheels"), seed=1)
    dispatch.queue_matches([game.pk, race.pk])
    assert queued == [("play_match", game.pk), ("play_race", race.pk)]
    assert matches.claim("matches-only", races=False).match_id == game.pk
    assert matches.claim("matches-only", races=False) is None  # the race waits for its own hosts
    assert matches.claim("races-host", races=True).match_id == race.pk
    Match.objects.filter(pk__in=[game.pk, race.pk]).update(status=Match.Status.QUEUED)
    monkeypatch.setattr(watchdog, "broker_backlog", lambda queue: 0)
    assert watchdog.send_missing_tokens() == 2
    assert queued[2:] == [("play_match", game.pk), ("play_race", race.pk)]  # each to its queue
    monkeypatch.setattr(watchdog, "broker_backlog", lambda queue: {"matches": 1, "races": 0}[queue])
    assert watchdog.send_missing_tokens() == 1 and queued[-1] == ("play_race", race.pk)


def test_one_worker_at_a_time_holds_the_watchdog():
    assert watchdog.take_lease("watchdog", "w1", timedelta(seconds=30))
    assert not watchdog.take_lease("watchdog", "w2", timedelta(seconds=30))
    assert watchdog.take_lease("watchdog", "w1", timedelta(seconds=30))  # renewed by its holder
    assert watchdog.run_once("w2") == {}


def test_a_build_the_platform_keeps_failing_ends_for_a_judge_to_retry(queued):
    from judging.play import builds

    submission = make_submission(make_entry(make_contest()), status="building")
    for _ in range(builds.MAX_BUILD_FAULTS - 1):
        assert builds.build_fault(submission.pk, "SandboxUnavailable: no jail") is False
    assert builds.build_fault(submission.pk, "SandboxUnavailable: no jail") is True
    submission.refresh_from_db()
    assert submission.status == "platform_fault" and "not your program's fault" in submission.build_log
    assert builds.rebuild(submission)
    submission.refresh_from_db()
    assert (submission.status, submission.build_faults) == ("queued", 0)
    assert queued == [("build_submission", submission.pk)]


def test_a_lost_build_is_put_back(queued, monkeypatch):
    monkeypatch.setattr(watchdog, "broker_backlog", lambda queue: 10)
    submission = make_submission(make_entry(make_contest()), status="building")
    type(submission).objects.filter(pk=submission.pk).update(build_started_at=timezone.now() - timedelta(hours=1))
    assert watchdog.rescue_builds() == 1
    submission.refresh_from_db()
    assert submission.status == "queued" and submission.build_faults == 1
    assert queued == [("build_submission", submission.pk)]


def test_a_build_queued_again_just_now_is_not_sent_twice_however_old_it_is(queued, monkeypatch):
    from judging.play import builds

    monkeypatch.setattr(watchdog, "broker_backlog", lambda queue: 0)  # the broker holds nothing
    submission = make_submission(make_entry(make_contest()), status="platform_fault")
    type(submission).objects.filter(pk=submission.pk).update(
        created_at=timezone.now() - timedelta(days=2), queued_at=timezone.now() - timedelta(days=2)
    )
    assert builds.rebuild(submission)  # a judge's "Build again": its message is on its way
    assert watchdog.rescue_builds() == 0  # within the grace since it was queued, not since it was made
    type(submission).objects.filter(pk=submission.pk).update(queued_at=timezone.now() - timedelta(minutes=5))
    assert watchdog.rescue_builds() == 1  # five minutes on and still no message: sent again
    assert queued == [("build_submission", submission.pk)] * 2


def test_play_command_prints_a_json_summary_and_writes_the_replay(tmp_path):
    out = StringIO()
    replay = tmp_path / "replay.json"
    call_command(
        "play", "chomp", str(PROGRAMS / "chomp_poison.sh"), str(PROGRAMS / "chomp_last.c"),
        "--param", "rows=4", "--param", "cols=5", "--replay", str(replay), "--json", stdout=out,
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
        (["crossed_words", str(PROGRAMS / "cw_silent.py"), str(PROGRAMS / "cw_silent.py")], "needs 1 player, not 2"),
        (["crossed_words", str(PROGRAMS / "cw_silent.py"), "--clock", "seconds=0"], "seconds must be a positive"),
    ],
)
def test_play_command_explains_bad_arguments(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("play", *args, stdout=StringIO())


@pytest.mark.parametrize(
    ("status", "detail", "passed"),
    [
        ("crash", "CRASH", False),
        ("exit", "EXIT", False),
        ("timeout", "TIMEOUT", False),
        ("illegal", "DOUBLED_SOMEWHERE", False),
        ("loss", "NO_UNIQUE_CLAIM", True),
        ("loss", "LOSE", True),
    ],
)
def test_a_sudoku_system_test_fails_on_codecups_fault_statuses(status, detail, passed):
    from judging.schedule import system_test

    contest = make_contest(game="sudoku", game_params={})
    stage = make_stage(contest, kind="system_test")
    ref = make_submission(make_entry(contest, name="Random", is_reference=True), is_active=True, status="ready")
    mine = make_submission(make_entry(contest), status="testing")
    match = make_match(contest, [mine, ref], stage=stage, round=mine.number, status=Match.Status.FINISHED)
    match.seats.filter(index=0).update(status=status, detail=detail, points=0, moves=3)
    match.seats.filter(index=1).update(status="win", detail="WIN", points=2, moves=3)
    system_test.conclude(match)
    mine.refresh_from_db()
    assert (mine.status, mine.is_active) == (("ready", True) if passed else ("test_failed", False)), mine.test_log
    assert detail in mine.test_log  # CodeCup's own word for it, as its author knows it


def test_a_chomp_system_test_passes_with_the_referees_warnings_written_back():
    """POTM's judge wrote back what he forgave (slow moves, untidy output) without failing the
    program: the referee's warnings of each game are in the log, under the game's line."""
    from judging.schedule import system_test

    contest = make_contest(game="chomp")
    stage = make_stage(contest, kind="system_test")
    ref = make_submission(make_entry(contest, name="Random", is_reference=True), is_active=True, status="ready")
    mine = make_submission(make_entry(contest), status="testing")
    match = make_match(contest, [mine, ref], stage=stage, round=mine.number, status=Match.Status.FINISHED)
    match.seats.filter(index=0).update(status="win", points=1, moves=3, cpu_seconds=40.5)
    match.seats.filter(index=1).update(status="loss", moves=3)
    warning = "move 1: 40.00 s of CPU, over the 30 s a move the game should average"
    result = match.result_attempt.result
    result["seats"][0]["warnings"] = [warning]
    MatchAttempt.objects.filter(pk=match.result_attempt_id).update(result=result)
    system_test.conclude(match)
    mine.refresh_from_db()
    assert (mine.status, mine.is_active) == ("ready", True), mine.test_log
    assert f"\n  warning: {warning}\n" in mine.test_log
    assert mine.test_log.endswith("system test passed, with 1 warning")


def test_rerunning_a_system_test_game_judges_its_submission_again(queued):
    from judging.schedule import system_test

    contest = make_contest(game="chomp")
    stage = make_stage(contest, kind="system_test")
    ref = make_submission(make_entry(contest, name="Random", is_reference=True), is_active=True, status="ready")
    mine = make_submission(make_entry(contest), status="test_failed", test_log="game 1: crash")
    match = make_match(contest, [mine, ref], stage=stage, status="finished", round=mine.number)
    lifecycle.rerun_match(match)
    mine.refresh_from_db()
    assert mine.status == "test_failed" and queued == [("play_match", match.pk)]  # as it was, until judged again
    finish_on_paper(match, [(1, 1, "win"), (0, 0, "loss")])
    system_test.conclude(Match.objects.get(pk=match.pk))
    mine.refresh_from_db()
    assert mine.status == "ready" and mine.is_active and mine.test_log.endswith("system test passed")
    assert mine.test_log.startswith("a judge re-ran this version's system test:")


def test_a_version_that_fails_a_rerun_of_its_system_test_gives_way_to_the_last_that_passed(queued):
    """The entry keeps playing: the newest other version that passed plays again, its
    contestant reads why, the judges' log has it, and a ladder schedules its games."""
    from judging.schedule import system_test

    contest = make_contest(game="chomp")
    stage = make_stage(contest, kind="system_test")
    ladder = make_stage(contest, kind="ladder", status="running", order=2)
    ref = make_submission(make_entry(contest, name="Random", is_reference=True), is_active=True, status="ready")
    entry = make_entry(contest)
    v1 = make_submission(entry, status="ready", test_log="system test passed")
    v2 = make_submission(entry, status="ready", is_active=True, test_log="system test passed")
    match = make_match(contest, [v2, ref], stage=stage, status="finished", round=v2.number)
    lifecycle.rerun_match(match)
    v2.refresh_from_db()
    assert (v2.status, v2.is_active) == ("ready", True)  # it plays on while its game is played again
    attempt = matches.claim("w1", match_id=match.pk)
    from judging.play.referee import MatchRecord, SeatTotals

    crashed = GameResult((0.0, 1.0), (0.0, 0.0), ("crash", "win"), "seat 0 crashed", ("", ""))
    assert matches.write_result(attempt.pk, MatchRecord(crashed, [SeatTotals(), SeatTotals()], {"moves": []}))
    v1.refresh_from_db()
    v2.refresh_from_db()
    assert (v2.status, v2.is_active) == ("test_failed", False)
    assert (v1.status, v1.is_active) == ("ready", True)
    assert "version 1, the newest that passed, plays again" in v2.test_log
    action = JudgeAction.objects.get(contest=contest, action="submission.restore")
    assert action.judge is None and "version 2 failed a re-run of its system test" in action.reason
    assert ladder.matches.filter(seats__submission=v1).exists()  # it plays in the ladder again at once
    # The only version that passed failing its re-run leaves nothing to play, and says so.
    match1 = make_match(contest, [v1, ref], stage=stage, status="finished", round=v1.number)
    lifecycle.rerun_match(match1)
    attempt = matches.claim("w1", match_id=match1.pk)
    assert matches.write_result(attempt.pk, MatchRecord(crashed, [SeatTotals(), SeatTotals()], {"moves": []}))
    v1.refresh_from_db()
    assert not entry.submissions.filter(is_active=True).exists()
    assert "no other version has passed: submit a new one to play" in v1.test_log
    assert system_test.choose_active(entry.pk) is None


def test_a_host_whose_jail_fails_its_self_check_takes_no_match(monkeypatch):
    from sandbox import selfcheck

    match = _chomp_match()
    reports = iter([selfcheck.SelfCheck(selfcheck.DEGRADED, failed={"cpu limit": "time_limit 6.370"})])
    monkeypatch.setattr(selfcheck, "_reports", {})
    monkeypatch.setattr(selfcheck, "run_selfcheck", lambda settings=None, slot=None: next(reports))
    with pytest.raises(SandboxError, match="degraded"):
        matches.play_next("w1")
    match.refresh_from_db()
    assert match.status == "queued" and match.attempts.count() == 0 and match.faults == 0  # not the match's fault
    # A host that was only held up for a moment gets its jails back at the next self-check.
    reports = iter([selfcheck.SelfCheck(selfcheck.FULL)])
    monkeypatch.setattr(selfcheck, "RECHECK_AFTER_S", 0.0)
    assert matches.play_next("w1") == match.pk


def test_a_race_longer_than_the_default_limit_gets_a_token_of_its_own_limit(queued, monkeypatch, settings):
    """A race of the page's 500 decks may run for a day: its token's hard time limit is its
    stage's seconds and a margin, never the installation's one-hour TASK_TIME_LIMIT; a token
    of a shorter limit plays what fits it and leaves the race to its own token."""
    from judging import dispatch, tasks

    settings.CELERY_TASK_TIME_LIMIT = 3600
    contest = make_contest(game="wheels", game_params={})
    race_stage = make_stage(contest, kind="race", params={"seconds": 86_400})
    race = make_match(contest, [make_submission(make_entry(contest))], stage=race_stage)
    chomp = _chomp_match()
    assert dispatch.time_budget(race) == 86_400 + dispatch.MARGIN_S
    assert dispatch.time_budget(chomp) == 3600
    sent = []
    monkeypatch.setattr(dispatch, "send_on_commit", lambda task, pk, budget: sent.append((task.name, pk, budget)))
    dispatch.queue_matches([race.pk, chomp.pk])
    assert sorted(sent) == [("judging.play_match", chomp.pk, 3600), ("judging.play_race", race.pk, 87_000)]
    # A short token never claims the race, even when it is the most urgent match.
    Match.objects.filter(pk=race.pk).update(priority=Match.Priority.RESCUE)
    attempt = matches.claim("w1", budget=3600)
    assert attempt.match_id == chomp.pk
    assert matches.claim("w1", budget=3600) is None
    assert matches.claim("w1", budget=87_000, first=race.pk).match_id == race.pk
    # The task reads its own limit from the message it came in.
    fake = type("Task", (), {"request": type("Request", (), {"timelimit": (None, 87_000)})()})()
    assert tasks._budget(fake) == 87_000
    fake.request.timelimit = None
    assert tasks._budget(fake) == 3600


def test_a_token_plays_the_match_it_was_sent_for_first(queued):
    older, newer = _chomp_match(), _chomp_match()
    assert matches.claim("w1", first=newer.pk).match_id == newer.pk
    assert matches.claim("w1").match_id == older.pk


def test_a_match_put_back_after_a_fault_goes_before_the_match_a_token_was_sent_for(queued):
    # A worker killed mid-match: its match was replayed only when its new token's turn came,
    # behind every match queued before (9 of a 12-match stage): each token played its own.
    waiting, rescued, later = _chomp_match(), _chomp_match(), _chomp_match()
    Match.objects.filter(pk=rescued.pk).update(priority=Match.Priority.RESCUE)
    assert matches.claim("w1", first=waiting.pk).match_id == rescued.pk
    # The match it was sent for is the next token's (the rescued match's token, as long).
    assert matches.claim("w1", first=rescued.pk).match_id == waiting.pk
    assert matches.claim("w1", first=later.pk).match_id == later.pk


def test_the_watchdog_goes_on_while_the_broker_is_away_and_resends_tokens_at_the_next_beat(queued, monkeypatch, caplog):
    """After Redis came back the watchdog took ~19 s to resend lost tokens: a broker error reset
    the 'database healthy since' clock as a database error does. Now the broker's absence skips
    only the token step, in one line, and the next round (a heartbeat later) sends them."""
    from kombu.exceptions import OperationalError as BrokerAway

    match = _chomp_match()

    def away(queue):
        raise BrokerAway("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(watchdog, "broker_backlog", away)
    done = watchdog.run_once("w1")
    assert done["tokens"] == 0 and "the broker is away" in caplog.text and "Traceback" not in caplog.text
    monkeypatch.setattr(watchdog, "broker_backlog", lambda queue: 0)
    assert watchdog.run_once("w1")["tokens"] == 1 and queued[-1] == ("play_match", match.pk)


def test_a_rerun_keeps_each_attempts_replay_and_they_compare_move_by_move(queued):
    """Issue 36: only the counted attempt's replay could be read, so a judge could not read a
    re-run against the game it replaced."""
    from judging.record import attempts, lifecycle

    match = _chomp_match()
    assert matches.play_now(match.pk) == Match.Status.FINISHED
    lifecycle.rerun_match(Match.objects.get(pk=match.pk))
    assert matches.play_now(match.pk) == Match.Status.FINISHED
    first, second = Match.objects.get(pk=match.pk).attempts.order_by("number")
    assert first.replay.name and second.replay.name and first.replay.name != second.replay.name
    assert read_replay(first.replay)["moves"] and read_replay(second.replay)["moves"]
    assert Match.objects.get(pk=match.pk).replay.name == second.replay.name  # the counted one's
    compared = attempts.compare(match, first, second)  # the same programs, deterministic: the same game
    assert compared.first is None and compared.said.startswith("The attempts 1 and 2 agree: the same ")


def test_a_game_stopped_by_sigterm_goes_back_to_the_queue_and_the_process_claims_no_other(monkeypatch, queued):
    """A worker's pool process asked to stop (judging.signals, on Ctrl-C of `make run`): the
    game raises Interrupted at a safe point with its jails closed; its attempt ends as lost and
    the match is queued again at once, not after the watchdog's wait, with no fault counted; and
    the process claims nothing more."""
    from sandbox.errors import Interrupted
    from sandbox.interrupt import clear_stop, request_stop

    match = _chomp_match()
    real_play = matches.play

    def stopped(*args, **kwargs):
        request_stop()
        raise Interrupted("asked to stop")

    monkeypatch.setattr(matches, "play", stopped)
    try:
        with pytest.raises(Interrupted):
            matches.play_now(match.pk)
        match.refresh_from_db()
        attempt = match.attempts.get()
        assert attempt.outcome == Outcome.LOST and "stopped (SIGTERM)" in attempt.error
        assert match.status == "queued" and ("play_match", match.pk) in queued
        assert match.faults == 0  # a stop asked for is no fault: no string of them fails the match
        with pytest.raises(Interrupted):
            matches.play_next("w1")
        assert match.attempts.count() == 1  # nothing claimed
    finally:
        clear_stop()
    monkeypatch.setattr(matches, "play", real_play)
    matches.play_now(match.pk)
    match.refresh_from_db()
    assert match.status == "finished"
