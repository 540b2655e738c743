"""The submission policy, enforced in the service that the pages and the API both call."""

import hashlib
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from contests.models import Entry, Submission
from contests.services import Refused, SameAgain, SubmissionLimit, create_entry, enter, rename_entry, submit, withdraw
from contests.tests.factories import make_contest, make_entry, make_submission, make_user

pytestmark = pytest.mark.django_db

C_SOURCE = b"int main(void) { return 0; }\n"


def _changed(n: int) -> bytes:
    """The C source, changed: another version (the same file again is refused)."""
    return C_SOURCE + f"/* {n} */\n".encode()


def test_the_latest_version_sent_again_is_refused_and_not_counted(queued):
    """A double click sent the same file twice and used one of Chomp's two weekly
    submissions: a contestant was locked out for a week."""
    contest = make_contest(max_submissions_per_week=2)
    entry = make_entry(contest, name="Muncher")
    submit(entry, filename="a.c", data=C_SOURCE)
    with pytest.raises(SameAgain, match="a.c is version 1 of Muncher again") as again:
        submit(entry, filename="a.c", data=C_SOURCE)
    assert again.value.version == 1 and entry.submissions.count() == 1
    assert submit(entry, filename="a.cpp", data=C_SOURCE).number == 2  # another language: another program
    with pytest.raises(SubmissionLimit):
        submit(entry, filename="b.c", data=_changed(1))  # the refused one took no room


def test_an_older_version_sent_again_is_how_a_contestant_goes_back(queued):
    entry = make_entry(make_contest())
    submit(entry, filename="a.c", data=C_SOURCE)
    submit(entry, filename="a.c", data=_changed(1))
    assert submit(entry, filename="a.c", data=C_SOURCE).number == 3


def test_a_submission_is_numbered_hashed_stored_and_queued(queued):
    entry = make_entry(make_contest())
    first = submit(entry, filename="chomp.c", data=C_SOURCE)
    second = submit(entry, filename="/home/me/chomp2.c", data=C_SOURCE + b"\n")
    assert (first.number, second.number) == (1, 2)
    assert first.language == "c" and first.size == len(C_SOURCE)
    assert first.sha256 == hashlib.sha256(C_SOURCE).hexdigest()
    assert second.filename == "chomp2.c"  # never a client's path
    assert first.status == Submission.Status.QUEUED
    assert queued == [("build_submission", first.pk), ("build_submission", second.pk)]
    with first.source.open("rb") as f:
        assert f.read() == C_SOURCE


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"filename": "empty.c", "data": b""}, "The file is empty."),
        ({"filename": "", "data": C_SOURCE}, "The file needs a name."),
        ({"filename": "notes.txt", "data": b"hello"}, "Cannot tell the language of notes.txt"),
        ({"filename": "x.c", "data": C_SOURCE, "language": "cobol"}, "cobol is not accepted here"),
        ({"filename": "big.c", "data": b"/*" + b"x" * 30_000 + b"*/"}, "accepts at most 25,000"),
    ],
)
def test_bad_uploads_are_refused_with_a_clear_message(queued, kwargs, message):
    entry = make_entry(make_contest(max_source_bytes=25_000))
    with pytest.raises(Refused, match=message.replace("(", r"\(")):
        submit(entry, **kwargs)
    assert not Submission.objects.exists()
    assert queued == []


def test_languages_are_limited_to_the_contests_list(queued):
    entry = make_entry(make_contest(allowed_languages=["python3"]))
    with pytest.raises(Refused, match="c is not accepted here; choose one of: python3"):
        submit(entry, filename="a.c", data=C_SOURCE)
    assert submit(entry, filename="a.py", data=b"print(1)\n").language == "python3"


def test_the_weekly_limit_counts_every_entry_of_the_contestant(queued):
    contest = make_contest(max_submissions_per_week=2, max_entries_per_user=2)
    user = make_user()
    a, b = make_entry(contest, user, name="a"), make_entry(contest, user, name="b")
    submit(a, filename="a.c", data=C_SOURCE)
    submit(b, filename="b.c", data=C_SOURCE)
    with pytest.raises(Refused, match="accepts 2 submissions a week"):
        submit(a, filename="a.c", data=_changed(1))
    Submission.objects.update(created_at=timezone.now() - timedelta(days=8))
    submit(a, filename="a.c", data=_changed(1))  # a week later there is room again


def test_closed_contests_and_disqualified_entries_take_no_submissions(queued):
    closed = make_entry(make_contest(closes_at=timezone.now() - timedelta(hours=1)))
    with pytest.raises(Refused, match="is not taking submissions now"):
        submit(closed, filename="a.c", data=C_SOURCE)
    out = make_entry(make_contest(), status=Entry.Status.DISQUALIFIED)
    with pytest.raises(Refused, match="This entry is disqualified"):
        submit(out, filename="a.c", data=C_SOURCE)


def test_entries_need_a_fresh_name_and_the_form_answered():
    contest = make_contest(
        max_entries_per_user=2,
        entry_form=[
            {"name": "country", "label": "Country", "type": "text", "required": True},
            {"name": "hours", "label": "Hours spent", "type": "number", "required": False},
        ],
    )
    user = make_user()
    with pytest.raises(Refused, match="Country is required"):
        create_entry(contest, user, "Muncher", {})
    with pytest.raises(Refused, match="Hours spent must be a number"):
        create_entry(contest, user, "Muncher", {"country": "NL", "hours": "many"})
    with pytest.raises(Refused, match="no field colour"):
        create_entry(contest, user, "Muncher", {"country": "NL", "colour": "red"})
    entry = create_entry(contest, user, "  Muncher ", {"country": " NL ", "hours": "12.5"})
    assert (entry.name, entry.form_data) == ("Muncher", {"country": "NL", "hours": 12.5})
    with pytest.raises(Refused, match="already have an entry called muncher"):
        create_entry(contest, user, "muncher", {"country": "NL"})
    create_entry(contest, user, "Second", {"country": "NL"})
    with pytest.raises(Refused, match="allows 2 entries per contestant"):
        create_entry(contest, user, "Third", {"country": "NL"})
    with pytest.raises(Refused, match="Give your entry a name"):
        create_entry(contest, make_user(), "   ", {"country": "NL"})


def test_a_refused_upload_for_a_new_entry_creates_nothing(queued):
    contest = make_contest()
    user = make_user()
    for kwargs in [
        {"filename": "notes.txt", "data": b"hello"},
        {"filename": "x.c", "data": C_SOURCE, "language": "cobol"},
        {"filename": "empty.c", "data": b""},
    ]:
        with pytest.raises(Refused):
            enter(contest, user, "Muncher", {}, **kwargs)
    assert not Entry.objects.exists() and not Submission.objects.exists() and queued == []
    submission = enter(contest, user, "Muncher", {}, filename="m.c", data=C_SOURCE)
    assert submission.entry.name == "Muncher" and submission.number == 1
    assert queued == [("build_submission", submission.pk)]


def test_an_entry_refused_by_the_limits_is_not_created_either(queued):
    contest = make_contest(max_submissions_per_week=1, max_entries_per_user=2)
    user = make_user()
    enter(contest, user, "First", {}, filename="m.c", data=C_SOURCE)
    with pytest.raises(Refused, match="accepts 1 submission a week"):
        enter(contest, user, "Second", {}, filename="m.c", data=C_SOURCE)
    assert list(Entry.objects.values_list("name", flat=True)) == ["First"]


def test_submissions_that_failed_to_build_do_not_count_against_the_limits(queued):
    contest = make_contest(max_submissions_per_day=2, max_submissions_per_week=2)
    entry = make_entry(contest)
    first = submit(entry, filename="a.c", data=C_SOURCE)
    submit(entry, filename="a.c", data=_changed(1))
    with pytest.raises(SubmissionLimit):
        submit(entry, filename="a.c", data=_changed(2))
    Submission.objects.filter(pk=first.pk).update(status=Submission.Status.BUILD_FAILED)
    assert submit(entry, filename="a.c", data=_changed(2)).number == 3
    for status in ("queued", "building", "testing", "test_failed", "ready"):  # every other one counts
        Submission.objects.filter(number=3).update(status=status)
        with pytest.raises(SubmissionLimit):
            submit(entry, filename="a.c", data=_changed(3))


def _submitted_at(entry, *moments):
    for moment in moments:
        submission = make_submission(entry, C_SOURCE, language="c", filename="a.c")
        Submission.objects.filter(pk=submission.pk).update(created_at=moment)


def test_a_refusal_by_a_limit_says_when_the_next_submission_is_allowed(queued):
    now = datetime(2026, 11, 22, 12, 0, 0, 250_000, tzinfo=UTC)
    entry = make_entry(make_contest(title="Chomp", max_submissions_per_day=2))
    _submitted_at(entry, now - timedelta(hours=20), now - timedelta(hours=3), now - timedelta(hours=1))
    # three in the day (the limit was lower, or one was rebuilt): room comes when two have left it
    with pytest.raises(SubmissionLimit) as refused:
        submit(entry, filename="a.c", data=_changed(9), now=now)
    assert str(refused.value) == (
        "Chomp accepts 2 submissions a day; your next submission is allowed at 2026-11-23 09:00:01 UTC."
        " Submissions that failed to build do not count."
    )
    assert refused.value.next_allowed_at == datetime(2026, 11, 23, 9, 0, 0, 250_000, tzinfo=UTC)
    submit(entry, filename="a.c", data=_changed(9), now=refused.value.next_allowed_at)


def test_the_later_of_two_limits_decides_when_the_next_submission_is_allowed(queued):
    now = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
    entry = make_entry(make_contest(title="Chomp", max_submissions_per_day=2, max_submissions_per_week=3))
    _submitted_at(entry, now - timedelta(days=5), now - timedelta(hours=2), now - timedelta(hours=1))
    with pytest.raises(SubmissionLimit, match="accepts 3 submissions a week; .* allowed at 2026-11-24 12:00:00 UTC"):
        submit(entry, filename="a.c", data=_changed(9), now=now)


def test_a_contestant_withdraws_an_entry_and_it_makes_room_for_another(queued):
    contest = make_contest(max_entries_per_user=1)
    user = make_user()
    entry = create_entry(contest, user, "Muncher")
    with pytest.raises(Refused, match="allows 1 entry per contestant"):
        create_entry(contest, user, "Other")
    withdraw(entry)
    assert entry.status == Entry.Status.WITHDRAWN and "Withdrawn by its owner" in entry.status_reason
    with pytest.raises(Refused, match="This entry is withdrawn"):
        submit(entry, filename="a.c", data=C_SOURCE)
    with pytest.raises(Refused, match="already withdrawn"):
        withdraw(entry)
    with pytest.raises(Refused, match="already have an entry called muncher"):  # its games keep the name
        create_entry(contest, user, "muncher")
    assert create_entry(contest, user, "Other").status == Entry.Status.ACTIVE
    out = make_entry(contest, status=Entry.Status.DISQUALIFIED)
    with pytest.raises(Refused, match="disqualified"):
        withdraw(out)
    closed = make_entry(make_contest(closes_at=timezone.now() - timedelta(hours=1)))
    with pytest.raises(Refused, match="is closed"):
        withdraw(closed)


def test_a_contestant_renames_an_entry_with_the_checks_of_a_new_one():
    contest = make_contest(max_entries_per_user=2)
    user = make_user()
    a, b = create_entry(contest, user, "Alpha"), create_entry(contest, user, "Beta")
    make_entry(contest, name="Gamma")  # another contestant's
    make_entry(contest, name="Random (C)", is_reference=True)
    assert rename_entry(a, "  Delta ").name == "Delta"
    assert Entry.objects.get(pk=a.pk).name == "Delta"
    assert rename_entry(a, "delta").name == "delta"  # its own name in other letters
    assert rename_entry(a, "Ｅｐｓｉｌｏｎ").name == "Epsilon"  # full-width look-alikes are the letters
    for name, message in [
        ("BETA", "already have an entry called BETA"),
        ("gamma", "gamma is taken in"),  # nobody passes for another contestant...
        ("random (c)", "taken in"),  # ...nor for a reference program
        ("  ", "Give your entry a name"),
        ("\u200b\u200b", "control or invisible"),
        ("Eve\u202egnp.exe", "control or invisible"),  # a right-to-left override
        ("a\x1b[2Jb", "control or invisible"),
        ("x" * 101, "at most 100 characters"),
    ]:
        with pytest.raises(Refused, match=message):
            rename_entry(a, name)
    withdraw(b)
    with pytest.raises(Refused, match="withdrawn"):
        rename_entry(b, "Delta")
    closed = make_entry(make_contest(closes_at=timezone.now() - timedelta(hours=1)))
    with pytest.raises(Refused, match="is closed"):
        rename_entry(closed, "Late")


def test_a_withdrawal_committed_while_a_submission_waits_refuses_it(queued):
    """submit read the entry's status before taking the contestant's lock: a withdrawal that
    committed in between let a submission into a withdrawn entry. It reads it again under the
    lock now (here the entry in hand is stale: withdrawn in the database meanwhile)."""
    entry = make_entry(make_contest(game="chomp", opens_at=None, closes_at=None))
    stale = Entry.objects.get(pk=entry.pk)
    withdraw(entry)
    with pytest.raises(Refused, match="withdrawn"):
        submit(stale, filename="a.py", data=b"print(1)\n")
    assert not Submission.objects.filter(entry=entry).exists() and queued == []
