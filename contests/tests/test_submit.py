"""The submission policy, enforced in the service that the pages and the API both call."""

import hashlib
from datetime import timedelta

import pytest
from django.utils import timezone

from contests.models import Entry, Submission
from contests.services import Refused, create_entry, submit
from contests.tests.factories import make_contest, make_entry, make_user

pytestmark = pytest.mark.django_db

C_SOURCE = b"int main(void) { return 0; }\n"


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
        submit(a, filename="a.c", data=C_SOURCE)
    Submission.objects.update(created_at=timezone.now() - timedelta(days=8))
    submit(a, filename="a.c", data=C_SOURCE)  # a week later there is room again


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
