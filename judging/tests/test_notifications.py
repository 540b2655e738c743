"""A contestant hears what went wrong, on the site and by e-mail: a version that did not
compile, one that failed its system test, a judge's decision, a digest of their program's
faults. Told in the transaction of the change (a change rolled back tells nothing), e-mailed
once it commits (a mail server that refuses fails no build), each kind opted out of by
e-mail alone, each fault told once. No build or game is run: the sandbox's answer and the
games' results are written as a worker would write them."""

import logging
import smtplib
from datetime import timedelta

import pytest
from django.core.mail.backends.base import BaseEmailBackend
from django.db import transaction
from django.utils import timezone

from contests import services
from contests.models import Entry, Submission
from contests.tests.factories import (
    finish_on_paper,
    make_contest,
    make_entry,
    make_match,
    make_stage,
    make_submission,
    make_user,
)
from judging import services as judges
from judging import watchdog
from judging.models import EmailOptOut, Match, MatchAttempt, Notification, ReportedFault, UntoldFault
from judging.news import notifications
from judging.play import builds
from judging.record import verification
from judging.schedule import system_test
from sandbox.programs import BuildResult

pytestmark = pytest.mark.django_db

Kind = Notification.Kind


@pytest.fixture
def mail_at_once(django_capture_on_commit_callbacks):
    """The e-mail task runs in this process when the transaction commits, as a worker would
    run it; gives the context that commits (runs the on-commit callbacks)."""
    from arbiter.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield lambda: django_capture_on_commit_callbacks(execute=True)
    app.conf.task_always_eager = eager


class RefusingBackend(BaseEmailBackend):
    """A mail server that answers every message with an error."""

    def send_messages(self, messages):
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")


def _contestant(name="ada"):
    return make_user(username=name, email=f"{name}@example.org", password=None)  # no password: no slow hashing


BUILD_LOG = "compilation failed (exit code 1):\n" + "\n".join(f"main.c:{n}: note: line {n}" for n in range(1, 30))
BUILD_LOG += "\nmain.c:30:1: error: expected ';' before '}' token"


def _failed_build(monkeypatch):
    contest = make_contest(title="Chomp Open")
    entry = make_entry(contest, _contestant(), name="Muncher")
    submission = make_submission(entry, language="c", filename="main.c", status=Submission.Status.QUEUED)
    monkeypatch.setattr(
        "judging.play.builds.build_program", lambda *args, **kwargs: BuildResult(False, "c", "gcc 12", BUILD_LOG)
    )
    return submission


def test_a_version_that_does_not_compile_is_told_with_the_end_of_its_log(
    monkeypatch, mail_at_once, mailoutbox, settings
):
    submission = _failed_build(monkeypatch)
    with mail_at_once():
        assert builds.build_submission(submission.pk) == Submission.Status.BUILD_FAILED
    told = Notification.objects.get()
    assert (told.user, told.kind, told.contest) == (submission.entry.user, Kind.BUILD_FAILED, submission.entry.contest)
    assert told.subject == "Muncher version 1: compilation failed" and told.link == f"/submissions/{submission.pk}/"
    assert told.log.endswith("error: expected ';' before '}' token") and len(told.log.splitlines()) == 15
    assert "Muncher has no version that plays yet" in told.body and told.read_at is None
    [mail] = mailoutbox
    assert mail.to == ["ada@example.org"] and mail.subject == "[Arbiter] Muncher version 1: compilation failed"
    assert "did not build: compilation failed" in mail.body and "    main.c:30:1: error: expected ';'" in mail.body
    assert f"On the site: {settings.SITE_URL}/submissions/{submission.pk}/" in mail.body
    assert f"{settings.SITE_URL}/accounts/notifications/settings/" in mail.body
    told.refresh_from_db()
    assert told.emailed_at is not None


def test_a_kind_opted_out_of_is_on_the_site_and_not_emailed(monkeypatch, mail_at_once, mailoutbox):
    submission = _failed_build(monkeypatch)
    notifications.set_email_kinds(submission.entry.user, [Kind.TEST_FAILED, Kind.JUDGED, Kind.FAULTS])
    assert EmailOptOut.objects.get().kind == Kind.BUILD_FAILED
    with mail_at_once():
        builds.build_submission(submission.pk)
    assert Notification.objects.get().kind == Kind.BUILD_FAILED and mailoutbox == []


def test_a_mail_server_that_refuses_fails_no_build_and_the_notification_stays(
    monkeypatch, mail_at_once, mailoutbox, settings, caplog
):
    settings.EMAIL_BACKEND = f"{__name__}.RefusingBackend"
    submission = _failed_build(monkeypatch)
    with caplog.at_level(logging.WARNING, logger="judging.tasks"), mail_at_once():
        assert builds.build_submission(submission.pk) == Submission.Status.BUILD_FAILED
    submission.refresh_from_db()
    assert submission.status == Submission.Status.BUILD_FAILED and "error: expected ';'" in submission.build_log
    told = Notification.objects.get()
    assert told.emailed_at is None and mailoutbox == []
    assert "not e-mailed, given up after 5 tries: Connection unexpectedly closed" in caplog.text


def test_a_change_rolled_back_tells_nothing(mail_at_once, mailoutbox):
    contest = make_contest()
    entry = make_entry(contest, _contestant())
    with mail_at_once() as callbacks, pytest.raises(RuntimeError), transaction.atomic():
        services.disqualify(make_user(), entry, "Shared its program.")
        assert Notification.objects.count() == 1  # told inside the change's transaction...
        raise RuntimeError("the change fails after it")
    assert not Notification.objects.exists() and callbacks == [] and mailoutbox == []  # ...and gone with it


def _system_test(rerun_active=False):
    contest = make_contest(title="Chomp Open")
    stage = make_stage(contest, kind="system_test", name="System test")
    ref = make_submission(make_entry(contest, name="Random", is_reference=True), is_active=True, status="ready")
    entry = make_entry(contest, _contestant(), name="Muncher")
    earlier = make_submission(entry, status="ready", is_active=True) if rerun_active else None
    mine = make_submission(entry, status="testing")
    first = make_match(contest, [mine, ref], stage=stage, round=mine.number)
    second = make_match(contest, [ref, mine], stage=stage, round=mine.number)
    finish_on_paper(first, [(2, 0, "win"), (0, 0, "loss")])
    finish_on_paper(second, [(2, 0, "win"), (0, 0, "crash")])
    second.seats.filter(index=1).update(reason="move 1: exited with code 1")
    return mine, earlier, second


def test_a_failed_system_test_names_the_game_and_links_it(mail_at_once, mailoutbox, settings):
    mine, earlier, failed = _system_test(rerun_active=True)
    with mail_at_once():
        system_test.conclude(Match.objects.get(pk=failed.pk))
    mine.refresh_from_db()
    assert mine.status == Submission.Status.TEST_FAILED
    told = Notification.objects.get(kind=Kind.TEST_FAILED)
    assert told.subject == "Muncher version 2: system test failed" and told.link == f"/submissions/{mine.pk}/"
    assert told.lines == [
        {"text": f"game 2 (match {failed.pk}): crashed (move 1) — exited with code 1", "link": f"/matches/{failed.pk}/"}
    ]  # the detail too: "illegal move (move 1)" alone never said why
    assert "in Chomp Open (Chomp) failed" in told.body and "Version 1, the newest that passed, plays" in told.body
    [mail] = mailoutbox
    assert (
        f"- game 2 (match {failed.pk}): crashed (move 1) — exited with code 1\n  {settings.SITE_URL}/matches/{failed.pk}/"
        in mail.body
    )


def test_a_passed_system_test_tells_nothing():
    mine, _, last = _system_test()
    last.seats.filter(index=1).update(status="loss", reason="")
    system_test.conclude(Match.objects.get(pk=last.pk))
    mine.refresh_from_db()
    assert mine.status == Submission.Status.READY and not Notification.objects.exists()


@pytest.fixture
def judge():
    return make_user(username="judge", email="judge@example.org", password=None)  # the services check no role


def test_a_rejected_output_and_its_note_reach_its_contestant(queued, judge, mail_at_once, mailoutbox):
    contest = make_contest(title="Words", game="crossed_words", game_params={})
    stage = make_stage(contest, kind="batch", name="Final run", status="running")
    submission = make_submission(make_entry(contest, _contestant(), name="Wordy"), is_active=True, status="ready")
    match = make_match(contest, [submission], stage=stage)
    finish_on_paper(match, [(110.0, 110.0, "valid")])
    with mail_at_once():
        verification.decide(match, judge, "rejected", "Line 30 is one too many.")
    told = Notification.objects.get()
    assert told.kind == Kind.JUDGED and told.subject == "Wordy: your output is rejected"
    assert f"(match {match.pk}): rejected: it counts 0." in told.body
    assert told.body.endswith("The judge's note: Line 30 is one too many.") and told.link == f"/matches/{match.pk}/"
    assert [mail.to for mail in mailoutbox] == [["ada@example.org"]]


def test_a_disqualification_and_a_reinstatement_are_told_with_their_reasons(judge, mail_at_once, mailoutbox):
    entry = make_entry(make_contest(title="Chomp Open"), _contestant(), name="Muncher")
    with mail_at_once():
        services.disqualify(judge, entry, "Shared its program with another entrant.")
        services.reinstate(judge, entry, "It was the other way round.")
    reinstated, disqualified = Notification.objects.all()  # newest first
    assert disqualified.subject == "Muncher is disqualified" and reinstated.subject == "Muncher is reinstated"
    assert disqualified.body.endswith("The judge's note: Shared its program with another entrant.")
    assert reinstated.body.endswith("The judge's note: It was the other way round.")
    assert len(mailoutbox) == 2


def test_a_rerun_tells_each_contestant_of_the_match_but_not_the_judges_reason(queued, judge):
    contest = make_contest()
    stage = make_stage(contest, status="running")
    ada = make_submission(make_entry(contest, _contestant("ada"), name="Muncher"), is_active=True, status="ready")
    bob = make_submission(make_entry(contest, _contestant("bob"), name="Nibbler"), is_active=True, status="ready")
    ref = make_submission(make_entry(contest, name="Random", is_reference=True), is_active=True, status="ready")
    match = make_match(contest, [ada, bob], stage=stage, status="finished")
    judges.rerun_match(judge, match, "host w3 was overloaded")
    told = {n.user.username: n for n in Notification.objects.select_related("user")}
    assert set(told) == {"ada", "bob"}
    assert told["bob"].subject == f"Nibbler: match {match.pk} is played again"
    assert "its earlier result counts until the new one is in" in told["bob"].body
    assert "overloaded" not in told["bob"].body  # the reason is the judges' log's
    against_reference = make_match(contest, [ada, ref], stage=stage, status="finished")
    judges.cancel_match(judge, judges.rerun_match(judge, against_reference))
    assert Notification.objects.filter(user__username="ada").count() == 3  # re-run, re-run, cancelled


# --- The digest of faults ---------------------------------------------------------------------


def _faulty_entry():
    contest = make_contest(title="Chomp Open")
    stage = make_stage(contest, status="running", name="Ladder")
    mine = make_submission(make_entry(contest, _contestant(), name="Muncher"), is_active=True, status="ready")
    theirs = make_submission(make_entry(contest, _contestant("bob"), name="Nibbler"), is_active=True, status="ready")
    return contest, stage, mine, theirs


def _game(contest, stage, mine, theirs, status, reason=""):
    match = make_match(contest, [mine, theirs], stage=stage)
    finish_on_paper(match, [(0, 0, status), (2, 0, "win")])
    match.seats.filter(index=0).update(reason=reason)
    return match


def test_the_digest_tells_each_fault_once_and_at_most_once_a_period(mail_at_once, mailoutbox, settings):
    contest, stage, mine, theirs = _faulty_entry()
    crash = _game(contest, stage, mine, theirs, "crash", "move 1: exited with code 1")
    late = _game(contest, stage, mine, theirs, "timeout", "move 4: over the time limit")
    _game(contest, stage, mine, theirs, "loss")  # lost by the rules: no fault
    now = timezone.now()
    with mail_at_once():
        assert notifications.send_fault_digests(now) == 1
    digest = Notification.objects.get()
    assert digest.kind == Kind.FAULTS and digest.subject == "Muncher: 1 crash, 1 timeout since version 1"
    assert digest.lines == [
        {"text": f"match {crash.pk} (Ladder), version 1: lost to Nibbler: crashed (move 1) — exited with code 1",
         "link": f"/matches/{crash.pk}/"},
        {"text": f"match {late.pk} (Ladder), version 1: lost to Nibbler: out of time (move 4) — over the time limit",
         "link": f"/matches/{late.pk}/"},
    ]  # fmt: skip
    assert digest.link == f"/contests/{contest.slug}/entries/{mine.entry_id}/"
    assert f"{settings.SITE_URL}/matches/{crash.pk}/" in mailoutbox[0].body
    assert notifications.send_fault_digests(now + timedelta(hours=2)) == 0  # nothing new: never an empty one

    again = _game(contest, stage, mine, theirs, "illegal", "move 7: not a square of the board")
    assert notifications.send_fault_digests(now + timedelta(minutes=30)) == 0  # within the hour of the last
    assert notifications.send_fault_digests(now + timedelta(minutes=61)) == 1
    newest = Notification.objects.first()
    assert newest.subject == "Muncher: 1 illegal move since version 1" and len(newest.lines) == 1
    assert str(again.pk) in newest.lines[0]["text"] and ReportedFault.objects.count() == 3
    assert newest.lines[0]["text"].endswith("illegal move (move 7) — not a square of the board")


def test_the_digest_tells_the_faults_since_the_newest_submission_and_not_a_system_tests(queued):
    contest, stage, mine, theirs = _faulty_entry()
    _game(contest, stage, mine, theirs, "crash")  # before version 2 was sent
    later = timezone.now() + timedelta(minutes=5)
    newer = make_submission(mine.entry, status="testing")
    Submission.objects.filter(pk=newer.pk).update(created_at=later)
    tested = make_match(contest, [newer, theirs], stage=make_stage(contest, kind="system_test", name="System test"))
    finish_on_paper(tested, [(0, 0, "crash"), (2, 0, "win")])  # told as a failed system test, not here
    replayed = _game(contest, stage, mine, theirs, "crash")  # version 1 plays on until version 2 passes
    MatchAttempt.objects.filter(match__in=[tested, replayed]).update(finished_at=later + timedelta(seconds=1))
    assert list(notifications.unreported_faults().values_list("match", flat=True)) == [replayed.pk]
    assert notifications.send_fault_digests(later + timedelta(seconds=2)) == 1
    digest = Notification.objects.get()
    assert digest.subject == "Muncher: 1 crash since version 2" and ", version 1: " in digest.lines[0]["text"]


def test_a_fault_older_than_a_day_when_first_seen_is_history_not_news():
    contest, stage, mine, theirs = _faulty_entry()
    old = _game(contest, stage, mine, theirs, "crash")
    Submission.objects.filter(pk=mine.pk).update(created_at=timezone.now() - timedelta(days=3))
    assert notifications.send_fault_digests(timezone.now() + timedelta(days=1, minutes=1)) == 0
    assert list(notifications.unreported_faults().values_list("match", flat=True)) == [old.pk]  # still news today


def test_the_watchdog_writes_the_digests_once_a_minute(queued, monkeypatch):
    contest, stage, mine, theirs = _faulty_entry()
    _game(contest, stage, mine, theirs, "crash")
    monkeypatch.setattr(watchdog, "broker_backlog", lambda queue: 0)
    assert watchdog.run_once("w1")["digests"] == 1
    _game(contest, stage, mine, theirs, "crash")
    assert "digests" not in watchdog.run_once("w1")  # looked a moment ago
    assert Notification.objects.count() == 1


def test_a_fault_recorded_between_two_looks_is_told_once_and_waits_no_more(queued):
    contest, stage, mine, theirs = _faulty_entry()
    first = _game(contest, stage, mine, theirs, "crash")
    now = timezone.now()
    assert notifications.send_fault_digests(now) == 1
    between = _game(contest, stage, mine, theirs, "timeout")  # after the look, before the next
    assert notifications.send_fault_digests(now + timedelta(minutes=61)) == 1
    assert notifications.send_fault_digests(now + timedelta(minutes=200)) == 0
    told = ReportedFault.objects.values_list("seat__match", flat=True)
    assert sorted(told) == [first.pk, between.pk]  # each once
    assert not UntoldFault.objects.exists()  # the next look reads nothing


def test_a_fault_in_a_game_rerun_before_the_look_is_told_once_whichever_result_counts(judge, queued):
    contest, stage, mine, theirs = _faulty_entry()
    cancelled = _game(contest, stage, mine, theirs, "crash")
    replaced = _game(contest, stage, mine, theirs, "crash")
    judges.rerun_match(judge, cancelled)
    judges.rerun_match(judge, replaced)
    now = timezone.now()
    assert notifications.send_fault_digests(now) == 0  # being played again: its result may change
    judges.cancel_match(judge, Match.objects.get(pk=cancelled.pk))  # its earlier result stands, its fault too
    finish_on_paper(Match.objects.get(pk=replaced.pk), [(0, 0, "illegal"), (2, 0, "win")])  # a new fault
    assert notifications.send_fault_digests(now + timedelta(minutes=1)) == 1
    digest = Notification.objects.get(kind=Kind.FAULTS)
    assert digest.subject == "Muncher: 1 crash, 1 illegal move since version 1"
    attempts = dict(ReportedFault.objects.values_list("seat__match", "attempt__number"))
    assert attempts == {cancelled.pk: 1, replaced.pk: 2}  # the counted results' faults, once each
    assert notifications.send_fault_digests(now + timedelta(minutes=120)) == 0
    assert not UntoldFault.objects.exists()


def test_a_fault_of_an_entry_out_of_play_waits_for_it_within_the_day(queued):
    contest, stage, mine, theirs = _faulty_entry()
    _game(contest, stage, mine, theirs, "crash")
    Entry.objects.filter(pk=mine.entry_id).update(status=Entry.Status.DISQUALIFIED)
    now = timezone.now()
    assert notifications.send_fault_digests(now) == 0
    assert UntoldFault.objects.count() == 1  # not told, not forgotten: it may be reinstated
    Entry.objects.filter(pk=mine.entry_id).update(status=Entry.Status.ACTIVE)
    assert notifications.send_fault_digests(now + timedelta(minutes=1)) == 1
