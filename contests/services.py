"""Contest services: the one place pages, API, admin and tasks go through."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group, Permission
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import Max, QuerySet
from django.utils import timezone

from contests.models import Contest, Entry, Submission

JUDGES_GROUP = "judges"

# What a judge may do, as (app_label, codename). Judges run contests; they do not manage
# accounts or the site itself.
JUDGE_PERMISSIONS = [
    ("contests", "view_contest"),
    ("contests", "change_contest"),
    ("contests", "view_stage"),
    ("contests", "add_stage"),
    ("contests", "change_stage"),
    ("contests", "view_entry"),
    ("contests", "change_entry"),
    ("contests", "disqualify_entry"),
    ("contests", "view_submission"),
    ("contests", "view_any_source"),
    ("contests", "view_match"),
    ("contests", "add_match"),
    ("contests", "change_match"),
    ("contests", "rerun_match"),
    ("contests", "view_matchseat"),
]


def ensure_judges_group(using: str = "default") -> Group:
    """Create the ``judges`` group, or bring its permissions back to the list above."""
    group, _ = Group.objects.using(using).get_or_create(name=JUDGES_GROUP)
    wanted = []
    for app_label, codename in JUDGE_PERMISSIONS:
        perm = Permission.objects.using(using).filter(content_type__app_label=app_label, codename=codename).first()
        if perm is not None:  # absent only before the first migrate has created it
            wanted.append(perm)
    if set(group.permissions.all()) != set(wanted):
        group.permissions.set(wanted)
    return group


def is_judge(user: AbstractBaseUser | AnonymousUser) -> bool:
    return user.is_authenticated and (user.is_superuser or user.groups.filter(name=JUDGES_GROUP).exists())


def visible_contests(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Contest]:
    contests = Contest.objects.all()
    if not is_judge(user):
        contests = contests.filter(is_public=True)
    return contests.order_by("title")


# --- Entries and submissions ----------------------------------------------------------


class Refused(Exception):
    """The platform's policy refuses this request; the message is for the user as it is."""


def _check_form(contest: Contest, form_data: dict[str, Any]) -> dict[str, Any]:
    clean: dict[str, Any] = {}
    for spec in contest.entry_form:
        name, label = spec["name"], spec.get("label", spec["name"])
        value = form_data.get(name, "")
        value = value.strip() if isinstance(value, str) else value
        if value in ("", None):
            if spec.get("required"):
                raise Refused(f"{label} is required.")
            continue
        if spec.get("type") == "number":
            try:
                value = float(value)
            except (TypeError, ValueError):
                raise Refused(f"{label} must be a number.") from None
            if value < 0:
                raise Refused(f"{label} cannot be negative.")
        elif not isinstance(value, str) or len(value) > 500:
            raise Refused(f"{label} must be text of at most 500 characters.")
        clean[name] = value
    unknown = set(form_data) - {spec["name"] for spec in contest.entry_form}
    if unknown:
        raise Refused(f"The entry form has no field {', '.join(sorted(unknown))}.")
    return clean


def create_entry(contest: Contest, user, name: str, form_data: dict[str, Any] | None = None) -> Entry:
    name = (name or "").strip()
    if not name:
        raise Refused("Give your entry a name.")
    if len(name) > 100:
        raise Refused("An entry name has at most 100 characters.")
    if not contest.is_open():
        raise Refused(f"{contest.title} is not taking entries now.")
    if contest.entries.filter(user=user, name__iexact=name).exists():
        raise Refused(f"You already have an entry called {name}.")
    limit = contest.max_entries_per_user
    if limit and contest.entries.filter(user=user).count() >= limit:
        raise Refused(f"{contest.title} allows {limit} entr{'y' if limit == 1 else 'ies'} per contestant.")
    return Entry.objects.create(contest=contest, user=user, name=name, form_data=_check_form(contest, form_data or {}))


def upload_limit(contest: Contest) -> tuple[int, str]:
    """The largest file the contest accepts, and the refusal of a larger one that was stopped
    before all of it arrived (``arbiter.uploads.limit_uploads``)."""
    limit = contest.max_source_bytes
    return limit, f"The file is larger than {limit:,} bytes; {contest.title} accepts at most {limit:,}."


def offered_languages(contest: Contest) -> dict[str, str]:
    """Language key to title: what the workers can build and the contest allows."""
    from sandbox import languages

    available = languages.available()
    allowed = contest.allowed_languages or list(available)
    return {key: languages.LANGUAGES[key].title for key in allowed if key in available}


def submit(entry: Entry, *, filename: str, data: bytes, language: str | None = None, now=None) -> Submission:
    """Check a new version of an entry's program against the contest's policy and queue its build."""
    from sandbox import languages

    contest = entry.contest
    now = now or timezone.now()
    if entry.status != Entry.Status.ACTIVE:
        raise Refused(f"This entry is {entry.get_status_display().lower()}; it takes no new submissions.")
    if not contest.is_open(now):
        raise Refused(f"{contest.title} is not taking submissions now.")
    filename = Path(filename or "").name
    if not filename or filename.startswith("."):
        raise Refused("The file needs a name.")
    if not data:
        raise Refused("The file is empty.")
    if len(data) > contest.max_source_bytes:
        raise Refused(f"The file is {len(data):,} bytes; {contest.title} accepts at most {contest.max_source_bytes:,}.")
    if language is None:
        try:
            language = languages.language_for(filename, data).name
        except ValueError:
            raise Refused(f"Cannot tell the language of {filename}; choose one.") from None
    offered = offered_languages(contest)
    if language not in offered:
        raise Refused(f"{language} is not accepted here; choose one of: {', '.join(offered) or 'none'}.")
    with transaction.atomic():
        # One submission of a contestant at a time: the limits below count, and the entry's
        # numbers are handed out, without a second upload racing in between.
        get_user_model().objects.select_for_update().filter(pk=entry.user_id).first()
        for window, limit in (
            (timedelta(days=1), contest.max_submissions_per_day),
            (timedelta(days=7), contest.max_submissions_per_week),
        ):
            if limit is not None:
                recent = Submission.objects.filter(
                    entry__contest=contest, entry__user=entry.user, created_at__gt=now - window
                )
                if recent.count() >= limit:
                    span = "day" if window.days == 1 else "week"
                    raise Refused(
                        f"{contest.title} accepts {limit} submission{'s' if limit != 1 else ''} a {span}; try again later."
                    )
        number = (entry.submissions.aggregate(m=Max("number"))["m"] or 0) + 1
        submission = Submission(
            entry=entry,
            number=number,
            language=language,
            filename=filename,
            sha256=hashlib.sha256(data).hexdigest(),
            size=len(data),
        )
        submission.source.save(filename, ContentFile(data), save=False)
        submission.save()
        from judging.tasks import build_submission

        build_submission.delay_on_commit(submission.pk)
    return submission


# --- What a user may see ----------------------------------------------------------------


def can_see_private(user, entry: Entry) -> bool:
    """Source, build log and stderr of an entry: its owner and the judges, nobody else."""
    return user.is_authenticated and (entry.user_id == user.pk or user.has_perm("contests.view_any_source"))


def replay_for(user, match) -> dict[str, Any] | None:
    """The match's replay with the stderr of every program the user may not see removed."""
    replay = match.load_replay()
    if replay is None:
        return None
    seats = {seat.index: seat for seat in match.seats.select_related("entry")}
    visible = {index for index, seat in seats.items() if can_see_private(user, seat.entry)}
    for move in replay.get("moves", []):
        if move.get("seat") not in visible:
            move.pop("stderr", None)
            move.pop("output", None)
    replay["visible_seats"] = sorted(visible)
    return replay


# --- Judges' actions ------------------------------------------------------------------------


def disqualify(entry: Entry, reason: str) -> Entry:
    reason = (reason or "").strip()
    if not reason:
        raise Refused("Say why the entry is disqualified; the contestant will read it.")
    Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.DISQUALIFIED, status_reason=reason[:2000])
    entry.refresh_from_db()
    return entry


def reinstate(entry: Entry, reason: str = "") -> Entry:
    if entry.status != Entry.Status.DISQUALIFIED:
        raise Refused("Only a disqualified entry can be reinstated.")
    Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.ACTIVE, status_reason=(reason or "").strip()[:2000])
    entry.refresh_from_db()
    return entry
