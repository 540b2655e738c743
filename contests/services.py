"""Contest services: the one place pages, API, admin and tasks go through."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Group, Permission
from django.core.exceptions import PermissionDenied
from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction
from django.db.models import Max, QuerySet
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, gettext_noop, ngettext

from contests import entry_form, locks, roles, signals
from contests.models import Contest, Entry, JudgeAction, Submission
from sandbox import archive
from sandbox.errors import UnsafeArchive

ORGANISERS_GROUP = "Organisers"

# What an organiser may do on the site: open contests (each then theirs: contests.roles) and
# upload games (each then theirs). The group gives no right on anyone else's contest: those are
# the contest's own roles (contests.roles), named by its owner.
ORGANISE = ("contests.add_contest",)
ORGANISER_PERMISSIONS = [
    ("contests", "add_contest"),
    ("contests", "upload_game"),
]


def _ensure_group(name: str, permissions: list[tuple[str, str]], using: str) -> Group:
    group, _ = Group.objects.using(using).get_or_create(name=name)
    wanted = []
    for app_label, codename in permissions:
        perm = Permission.objects.using(using).filter(content_type__app_label=app_label, codename=codename).first()
        if perm is not None:  # absent only before the first migrate has created it
            wanted.append(perm)
    if set(group.permissions.all()) != set(wanted):
        group.permissions.set(wanted)
    return group


def ensure_organisers_group(using: str = "default") -> Group:
    """Create the ``Organisers`` group, or bring its permissions back to the list above."""
    return _ensure_group(ORGANISERS_GROUP, ORGANISER_PERMISSIONS, using)


def is_judge(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Whether the user judges some contest (an administrator judges every one)."""
    return roles.judges_any(user)


def is_organiser(user: AbstractBaseUser | AnonymousUser) -> bool:
    """May open contests (and then organise those): the ``Organisers`` group, or an administrator."""
    return user.is_authenticated and user.is_active and user.has_perms(ORGANISE)


def visible_contests(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Contest]:
    """The public contests, and the hidden ones where the user has a role; every one for an
    administrator."""
    return roles.visible_contests(user).order_by("title")


# --- Entries and submissions ----------------------------------------------------------


class Refused(Exception):
    """The platform's policy refuses this request; the message is for the user as it is."""


class SubmissionLimit(Refused):
    """A contest's submissions per day or per week are used up until ``next_allowed_at``."""

    def __init__(self, message: str, next_allowed_at: datetime) -> None:
        super().__init__(message)
        self.next_allowed_at = next_allowed_at


# What the submission limits count: a submission that failed to build (or, in a state added
# later, failed for a platform fault) is not listed, so it does not use up a contestant's day.
COUNTED_STATUSES = (
    Submission.Status.QUEUED,
    Submission.Status.BUILDING,
    Submission.Status.TESTING,
    Submission.Status.TEST_FAILED,
    Submission.Status.READY,
)


FILENAME_MAX = 200  # Submission.filename's length


def printable(text: str) -> bool:
    """No control or format character (a newline, NUL, a right-to-left override, a zero-width
    space): what may be shown as it is on a page, in a header or on a terminal."""
    return not any(unicodedata.category(ch) in ("Cc", "Cf", "Co", "Cs", "Zl", "Zp") for ch in text)


def _check_form(contest: Contest, form_data: dict[str, Any]) -> dict[str, Any]:
    try:
        return entry_form.clean(contest.entry_form, form_data)
    except entry_form.FormError as e:
        raise Refused(str(e)) from None


def _lock_contestant(user_id: int) -> None:
    """One change to a contestant's entries and submissions at a time (inside a writer's
    transaction, ``locks.writing``): the limits are counted, names checked, statuses read and
    numbers handed out without a race."""
    locks.lock("contestant", get_user_model().objects.filter(pk=user_id))


def _check_name(contest: Contest, user, name: str, entry: Entry | None = None) -> str:
    """An entry's name as the standings show it: NFKC-normalised (a full-width or composed
    look-alike becomes the plain letters), no control or format character (no zero-width space,
    no right-to-left override), and unique in the contest whatever the case: no entry may pass
    for another, a reference program's included (withdrawn ones too: their games still show
    their names)."""
    name = unicodedata.normalize("NFKC", name).strip() if isinstance(name, str) else ""
    if not name:
        raise Refused(gettext("Give your entry a name."))
    if not printable(name):
        raise Refused(gettext("An entry name may not hold control or invisible formatting characters."))
    if len(name) > 100:
        raise Refused(gettext("An entry name has at most 100 characters."))
    taken = contest.entries.filter(name__iexact=name)
    if entry is not None:
        taken = taken.exclude(pk=entry.pk)
    if taken.exists():
        mine = taken.filter(user=user).exists()
        if mine:
            raise Refused(gettext("You already have an entry called %(name)s.") % {"name": name})
        raise Refused(gettext("%(name)s is taken in %(contest)s.") % {"name": name, "contest": contest.title})
    return name


def may_enter(contest: Contest, user) -> bool:
    """Whether the contestant has room for another entry (withdrawn ones make room)."""
    limit = contest.max_entries_per_user
    return not limit or contest.entries.filter(user=user).exclude(status=Entry.Status.WITHDRAWN).count() < limit


def closed_because(contest: Contest) -> str:
    """Why a contest takes no entries or submissions now, for the person who tried."""
    if not contest.is_hosted:
        return gettext("%(contest)s takes no entries yet: its game (%(game)s) is not hosted here.") % {
            "contest": contest.title,
            "game": contest.game,
        }
    return gettext("%(contest)s is not taking entries now.") % {"contest": contest.title}


def create_entry(contest: Contest, user, name: str, form_data: dict[str, Any] | None = None) -> Entry:
    if not contest.is_open():
        raise Refused(closed_because(contest))
    with locks.writing():
        _lock_contestant(user.pk)
        name = _check_name(contest, user, name)
        if not may_enter(contest, user):
            limit = contest.max_entries_per_user
            said = ngettext(
                "%(contest)s allows %(limit)s entry per contestant.",
                "%(contest)s allows %(limit)s entries per contestant.",
                limit,
            )
            raise Refused(said % {"contest": contest.title, "limit": limit})
        form = _check_form(contest, form_data or {})
        return Entry.objects.create(contest=contest, user=user, name=name, form_data=form)


def enter(
    contest: Contest,
    user,
    name: str,
    form_data: dict[str, Any] | None = None,
    *,
    filename: str,
    data: bytes,
    language: str | None = None,
) -> Submission:
    """A new entry with its first program, or nothing at all: the program is checked first, and
    the entry and its submission are made in one transaction."""
    if not contest.is_open():
        raise Refused(closed_because(contest))
    check_upload(contest, filename=filename, data=data, language=language)
    with locks.writing():
        entry = create_entry(contest, user, name, form_data)
        return submit(entry, filename=filename, data=data, language=language)


class EntryClosed(Refused):
    """The entry, or its contest, no longer takes this change."""


# What the owner tried, by the word the callers use.
CANNOT_BE = {
    "renamed": gettext_lazy("%(entry)s is already %(status)s; it cannot be renamed."),
    "withdrawn": gettext_lazy("%(entry)s is already %(status)s; it cannot be withdrawn."),
}


def _check_owner_may_change(entry: Entry, what: str) -> None:
    if entry.status != Entry.Status.ACTIVE:
        status = entry.get_status_display().lower()
        raise EntryClosed(CANNOT_BE[what] % {"entry": entry.name, "status": status})
    if not entry.contest.is_open():
        raise EntryClosed(f"{entry.contest.title} is closed; its entries stay as they are.")


def rename_entry(entry: Entry, name: str) -> Entry:
    """A new name for an active entry, with the checks of a new entry's name."""
    with locks.writing():
        _lock_contestant(entry.user_id)
        entry = Entry.objects.select_related("contest").get(pk=entry.pk)
        _check_owner_may_change(entry, "renamed")
        entry.name = _check_name(entry.contest, entry.user, name, entry)
        entry.save(update_fields=["name"])
    return entry


def allow_versus(entry: Entry, allowed: bool) -> Entry:
    """Whether other contestants may name the entry as a rival in their versus batches."""
    Entry.objects.filter(pk=entry.pk).update(versus_allowed=allowed)
    entry.versus_allowed = allowed
    return entry


def withdraw(entry: Entry, now: datetime | None = None) -> Entry:
    """The owner takes an entry out of the contest, for good: it takes no more submissions, is
    scheduled in no new stage, leaves the standings (its opponents keep what they won) and no
    longer counts against ``max_entries_per_user``. Its games and its name stay on record."""
    now = now or timezone.now()
    with locks.writing():
        _lock_contestant(entry.user_id)
        fresh = Entry.objects.select_related("contest").get(pk=entry.pk)
        _check_owner_may_change(fresh, "withdrawn")
        reason = gettext("Withdrawn by its owner on %(when)s UTC.") % {"when": f"{now.astimezone(UTC):%Y-%m-%d %H:%M}"}
        Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.WITHDRAWN, status_reason=reason)
    entry.refresh_from_db()
    return entry


def upload_limit(contest: Contest) -> tuple[int, str]:
    """The largest file the contest accepts, and the refusal of a larger one that was stopped
    before all of it arrived (``web.uploads.limit_uploads``)."""
    limit = contest.max_source_bytes
    if contest.source_counts == "code":  # comments do not count: the whole file may be larger
        limit = max(limit, settings.UPLOAD_MAX_BYTES)
    return limit, gettext("The file is larger than %(limit)s bytes; %(contest)s accepts at most %(limit)s.") % {
        "limit": f"{limit:,}",
        "contest": contest.title,
    }


# The languages whose title is a description, not a name: said in the reader's language.
DESCRIBED_LANGUAGES = {
    "static": gettext_noop("static Linux executable"),
    "archive": gettext_noop("archive with Makefile or build script and runme"),
}


def language_title(key: str) -> str:
    from sandbox import languages

    return gettext(DESCRIBED_LANGUAGES[key]) if key in DESCRIBED_LANGUAGES else languages.LANGUAGES[key].title


def offered_languages(contest: Contest) -> dict[str, str]:
    """Language key to title: what the workers can build, the contest's table has and it allows."""
    from sandbox import languages

    available = languages.available(contest.language_table)
    allowed = contest.allowed_languages or list(available)
    return {key: language_title(key) for key in allowed if key in available}


@dataclass(frozen=True)
class LanguageRow:
    key: str
    title: str
    toolchain: str
    build: str
    run: str


def language_table(contest: Contest) -> list[LanguageRow]:
    """The contest's languages as its page shows them: toolchain version, build and run command."""
    from sandbox import languages

    table = languages.table(contest.language_table)
    available = languages.available(contest.language_table)
    rows = []
    for key in offered_languages(contest):
        build, run = table.commands[key].shown()
        rows.append(LanguageRow(key, language_title(key), available[key].version, build, run))
    return rows


def source_size(contest: Contest, data: bytes, language: str) -> int:
    """What ``max_source_bytes`` counts of a file: every byte, or its code without comments."""
    if contest.source_counts != "code":
        return len(data)
    from sandbox import comments, languages

    return comments.code_size(data, languages.LANGUAGES[language].comments)


def check_upload(contest: Contest, *, filename: str, data: bytes, language: str | None = None) -> tuple[str, str]:
    """The file's clean name and its language, or Refused: what needs no database."""
    from sandbox import languages

    filename = Path(filename or "").name
    if not filename or filename.startswith("."):
        raise Refused(gettext("The file needs a name."))
    if len(filename) > FILENAME_MAX:
        raise Refused(
            gettext("The file's name is longer than %(most)s characters; give it a shorter one.")
            % {"most": FILENAME_MAX}
        )
    if not printable(filename):
        raise Refused(gettext("The file's name holds a control character; give it a plain one."))
    if not data:
        raise Refused(gettext("The file is empty."))
    if contest.source_counts != "code" and len(data) > contest.max_source_bytes:
        raise Refused(
            gettext("The file is %(size)s bytes; %(contest)s accepts at most %(most)s.")
            % {"size": f"{len(data):,}", "contest": contest.title, "most": f"{contest.max_source_bytes:,}"}
        )
    offered = offered_languages(contest)
    if language is None:
        try:
            language = languages.language_for(filename, data, offered).name
        except ValueError:
            raise Refused(
                gettext("Cannot tell the language of %(filename)s; choose one.") % {"filename": filename}
            ) from None
    if language not in offered:
        raise Refused(
            gettext("%(language)s is not accepted here; choose one of: %(languages)s.")
            % {"language": language, "languages": ", ".join(offered) or gettext("none")}
        )
    if language == "archive":
        try:
            archive.survey(data)  # what extract will refuse, found from its directory, unpacking nothing
        except UnsafeArchive as e:
            raise Refused(gettext("The archive is refused: %(why)s.") % {"why": e}) from None
    size = source_size(contest, data, language)
    if size > contest.max_source_bytes:
        raise Refused(
            gettext(
                "The file has %(size)s bytes of code (comments do not count); %(contest)s accepts at most %(most)s."
            )
            % {"size": f"{size:,}", "contest": contest.title, "most": f"{contest.max_source_bytes:,}"}
        )
    return filename, language


def _check_submission_limits(contest: Contest, user_id: int, now: datetime) -> None:
    """Refuse when the contestant's counted submissions in the last day or week reach the
    contest's limit, saying when the window has room again: when the oldest submission that
    keeps it full leaves it (the later of the two windows' times when both are full)."""
    refusals = []
    for window, span, limit in (
        (timedelta(days=1), 1, contest.max_submissions_per_day),
        (timedelta(days=7), 7, contest.max_submissions_per_week),
    ):
        if limit is None:
            continue
        times = list(
            Submission.objects.filter(
                entry__contest=contest,
                entry__user_id=user_id,
                status__in=COUNTED_STATUSES,
                created_at__gt=now - window,
            )
            .order_by("created_at")
            .values_list("created_at", flat=True)
        )
        if len(times) >= limit:
            refusals.append((times[len(times) - limit] + window, span, limit))
    if refusals:
        allowed_at, span, limit = max(refusals)
        shown = allowed_at.astimezone(UTC)
        if shown.microsecond:  # never name a moment before the one allowed
            shown = shown.replace(microsecond=0) + timedelta(seconds=1)
        raise SubmissionLimit(
            (
                ngettext(
                    "%(contest)s accepts %(limit)s submission a day; your next submission is allowed at %(when)s UTC. "
                    "Submissions that failed to build do not count.",
                    "%(contest)s accepts %(limit)s submissions a day; your next submission is allowed at %(when)s UTC. "
                    "Submissions that failed to build do not count.",
                    limit,
                )
                if span == 1
                else ngettext(
                    "%(contest)s accepts %(limit)s submission a week; your next submission is allowed at %(when)s UTC. "
                    "Submissions that failed to build do not count.",
                    "%(contest)s accepts %(limit)s submissions a week; your next submission is allowed at %(when)s "
                    "UTC. "
                    "Submissions that failed to build do not count.",
                    limit,
                )
            )
            % {"contest": contest.title, "limit": limit, "when": f"{shown:%Y-%m-%d %H:%M:%S}"},
            allowed_at,
        )


def _check_takes_submissions(entry: Entry) -> None:
    if entry.status != Entry.Status.ACTIVE:
        raise Refused(
            gettext("This entry is %(status)s; it takes no new submissions.")
            % {"status": entry.get_status_display().lower()}
        )


def submit(entry: Entry, *, filename: str, data: bytes, language: str | None = None, now=None) -> Submission:
    """Check a new version of an entry's program against the contest's policy and queue its build."""
    contest = entry.contest
    now = now or timezone.now()
    _check_takes_submissions(entry)
    if not contest.is_open(now):
        raise Refused(
            closed_because(contest)
            if not contest.is_hosted
            else gettext("%(contest)s is not taking submissions now.") % {"contest": contest.title}
        )
    filename, language = check_upload(contest, filename=filename, data=data, language=language)
    with locks.writing():
        _lock_contestant(entry.user_id)
        # Read again under the lock: a withdrawal that committed meanwhile refuses it.
        _check_takes_submissions(Entry.objects.get(pk=entry.pk))
        sha256 = hashlib.sha256(data).hexdigest()
        _check_not_the_latest_again(entry, sha256, language, filename)
        _check_submission_limits(contest, entry.user_id, now)
        number = (entry.submissions.aggregate(m=Max("number"))["m"] or 0) + 1
        submission = Submission(
            entry=entry, number=number, language=language, filename=filename, sha256=sha256, size=len(data)
        )
        try:
            submission.source.save(filename, ContentFile(data), save=False)
        except OSError as e:
            if e.errno not in (errno.ENOSPC, errno.EDQUOT):
                raise
            _forget_partial(submission, filename, len(data))
            raise NoSpace(
                gettext(
                    "The site's disk is full: your file was not kept. Try again later; the organisers have been told."
                )
            ) from None
        submission.save()
        signals.submission_received.send(Submission, submission=submission)
    return submission


class NoSpace(Refused):
    """The site has no room to keep the file (a full disk): try again later (HTTP 507)."""


class SameAgain(Refused):
    """The file is the entry's latest version again, in the same language (HTTP 409): nothing
    is kept and nothing counted. A double click once took one of Chomp's two weekly
    submissions. An older version sent again is a new one: that is how a contestant goes back."""

    def __init__(self, message: str, version: int) -> None:
        super().__init__(message)
        self.version = version


def _check_not_the_latest_again(entry: Entry, sha256: str, language: str, filename: str) -> None:
    latest = entry.submissions.order_by("-number").first()
    if latest is not None and (latest.sha256, latest.language) == (sha256, language):
        raise SameAgain(
            f"{filename} is version {latest.number} of {entry.name} again (the same file, in the same language): "
            "nothing was sent, and it does not count against your submissions.",
            latest.number,
        )


def _forget_partial(submission: Submission, filename: str, size: int) -> None:
    """What a full disk let be written of the file, removed."""
    target = submission.source.field.generate_filename(submission, filename)
    storage = submission.source.storage
    with contextlib.suppress(OSError):
        if storage.exists(target) and storage.size(target) != size:
            storage.delete(target)


# --- What a user may see ----------------------------------------------------------------


def can_see_private(user, entry: Entry) -> bool:
    """Source, build log and stderr of an entry: its owner and the contest's judges, nobody else; a
    reference program's are everyone's (contestants download it to play against at home)."""
    if entry.is_reference:
        return True
    return user.is_authenticated and (entry.user_id == user.pk or roles.may(user, entry.contest_id, roles.Power.JUDGE))


# --- Judges' actions ------------------------------------------------------------------------


def log_action(judge, contest_id: int, action: str, target: str, reason: str = "", **data: Any) -> None:
    """One line of the judges' log (who, when, what, to what, why), whichever way the judge
    acted: the site, the API or the admin."""
    JudgeAction.objects.create(
        contest_id=contest_id,
        judge=judge if getattr(judge, "is_authenticated", False) else None,
        action=action,
        target=target[:200],
        reason=(reason or "")[:5000],
        data=data,
    )


# --- Organising -------------------------------------------------------------------------------

# A contest's settings, as its organisers set them (on their pages, through the API or in the
# admin: web/contest_form.py checks them, the same for all three); the rest of a contest's row
# (the freeze, the publication) is the judges'.
CONTEST_SETTINGS = (
    "title", "slug", "summary", "is_public", "game", "game_params", "clock", "game_data", "rules", "rules_source",
    "opens_at", "closes_at", "language_table", "allowed_languages", "max_source_bytes", "source_counts",
    "max_executable_bytes", "max_entries_per_user", "max_submissions_per_day", "max_submissions_per_week",
    "entry_form",
)  # fmt: skip


def _setting(contest: Contest, name: str) -> Any:
    """A setting as the judges' log keeps it (JSON): a moment in ISO 8601, a file by its name."""
    value = getattr(contest, name)
    if isinstance(value, datetime):
        return value.isoformat()
    if name == "game_data":
        return value.name or ""
    return value


def save_contest(organiser, contest: Contest, reason: str = "") -> list[str]:
    """Save a new contest, or an edited one, and write it in the judges' log: ``contest.create``
    with every setting, ``contest.edit`` with each setting changed, from and to (an edit that
    changes nothing is neither saved nor logged). Only the settings are written, so a freeze
    or a publication made since the organiser loaded the contest stands. Returns the names of
    the settings written. Refused if another contest took the slug meanwhile.

    A new contest is opened by one of the site's organisers, who owns it; an existing one is
    edited only by its owner, a co-organiser or an administrator (PermissionDenied), and its
    owner is told of a co-organiser's change."""
    if contest.pk is None and organiser is not None and not is_organiser(organiser):
        raise PermissionDenied(gettext("Only the site's organisers open contests."))
    if contest.pk is not None and organiser is not None and not roles.may(organiser, contest.pk, roles.Power.ORGANISE):
        raise PermissionDenied(gettext("Only the owner and co-organisers of this contest may change it."))
    try:
        with locks.writing():
            if contest.pk is None:
                contest.save()
                if getattr(organiser, "is_authenticated", False):
                    roles.make_owner(contest, organiser)
                settings_now = {name: _setting(contest, name) for name in CONTEST_SETTINGS}
                log_action(organiser, contest.pk, "contest.create", f"contest {contest.slug}", reason, **settings_now)
                return list(CONTEST_SETTINGS)
            before = locks.lock_one("contest", Contest.objects.filter(pk=contest.pk))
            changed = [name for name in CONTEST_SETTINGS if _setting(before, name) != _setting(contest, name)]
            if not changed:
                return []
            contest.save(update_fields=[*changed, "updated_at"])
            change = {name: {"from": _setting(before, name), "to": _setting(contest, name)} for name in changed}
            target = f"contest {contest.slug}: {', '.join(changed)}"
            log_action(organiser, contest.pk, "contest.edit", target, reason, **change)
            signals.contest_changed.send(
                sender=Contest, contest=contest, actor=organiser, changed=changed, reason=reason
            )
            return changed
    except IntegrityError:  # the form found the slug free; another contest took it since
        raise Refused(
            gettext("Another contest already has the slug %(slug)s; choose another.") % {"slug": contest.slug}
        ) from None


@transaction.atomic
def disqualify(judge, entry: Entry, reason: str) -> Entry:
    """Take an entry out of the standings, with the reason its contestant reads (and is told)."""
    reason = (reason or "").strip()
    if not reason:
        raise Refused(gettext("Say why the entry is disqualified; the contestant will read it."))
    Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.DISQUALIFIED, status_reason=reason[:2000])
    entry.refresh_from_db()
    log_action(judge, entry.contest_id, "entry.disqualify", f"entry {entry.name}", entry.status_reason)
    signals.entry_judged.send(sender=Entry, entry=entry, action="disqualify", reason=entry.status_reason, judge=judge)
    return entry


@transaction.atomic
def reinstate(judge, entry: Entry, reason: str = "") -> Entry:
    if entry.status != Entry.Status.DISQUALIFIED:
        raise Refused(gettext("Only a disqualified entry can be reinstated."))
    Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.ACTIVE, status_reason=(reason or "").strip()[:2000])
    entry.refresh_from_db()
    log_action(judge, entry.contest_id, "entry.reinstate", f"entry {entry.name}", entry.status_reason)
    signals.entry_judged.send(sender=Entry, entry=entry, action="reinstate", reason=entry.status_reason, judge=judge)
    return entry
