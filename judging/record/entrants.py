"""Who plays: the version that plays for each entry (its active one, built and through its
system test). A stage's contenders, which depend on the standings of the stages before it,
are ``standings.contenders``."""

from __future__ import annotations

from django.db.models import QuerySet

from contests.models import Contest, Entry, Submission


def ready_submissions(contest: Contest | int) -> QuerySet[Submission]:
    """The version that plays for each active entry of a contest: its active one, built and
    through its system test (at most one an entry)."""
    return Submission.objects.filter(
        entry__contest=contest,
        entry__status=Entry.Status.ACTIVE,
        is_active=True,
        status=Submission.Status.READY,
    )


def ready_submission(entry: Entry) -> Submission | None:
    """The version that plays for this entry, if it has one ready."""
    return entry.submissions.filter(is_active=True, status=Submission.Status.READY).first()
