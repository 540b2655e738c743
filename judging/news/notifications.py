"""What a contestant hears of their programs, in their words: a version that did not compile,
one that failed its system test, a judge's decision on their entry, its games or outputs, and
a digest of their program's faults. Each is a ``Notification`` on the site (their
notifications page, the count in the page header, /api/notifications/) and an e-mail, unless
they opted out of its kind (``EmailOptOut``).

A notification is written in the transaction of the change it announces, so a change rolled
back announces nothing; its e-mail is a task sent when that transaction commits
(``dispatch.queue_email``), so a mail server that is away or refuses delays or loses the
e-mail, never a build, a match or a judge's deed, and the notification stays on the site.

Only a contestant's entries are told: a reference program is the organisers'. A judge's
reason for a re-run, a cancel or a rebuild stays in the judges' log, where the API says it
goes; the note on an output and the reason for a disqualification are written for the
contestant (the console says so) and reach them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from itertools import groupby

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef, Q, Subquery
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_lazy

from contests import roles
from contests.models import ContestRole, Entry, GameVersion, Submission
from games import registry
from games.base import CRASH, EXIT, FAULTS, ILLEGAL, TIMEOUT
from judging import dispatch
from judging.models import EmailOptOut, Match, MatchSeat, Notification, ReportedFault, UntoldFault
from judging.news import results

log = logging.getLogger(__name__)


# --- The reader's language ---------------------------------------------------------------------
# A notification is written once, when its news happens, mostly by a worker with no request to
# ask, and kept as text: so it is written in its reader's language then. Where a user's choice
# of language is kept is the accounts app's business, a layer above this one: it names its reader
# with ``read_languages_with`` (from its AppConfig.ready); until one is named, or for a user who
# chose none, the site's default language (LANGUAGE_CODE) is used.
_chosen_language: Callable[[int], str | None] | None = None


def read_languages_with(reader: Callable[[int], str | None] | None) -> None:
    """Name the function that gives a user's chosen language code by their id (None: none chosen)."""
    global _chosen_language
    _chosen_language = reader


def language_of(user_id: int) -> str:
    """The language a user's notifications and e-mails are written in."""
    chosen = _chosen_language(user_id) if _chosen_language is not None else None
    return chosen or settings.LANGUAGE_CODE


def reading_as(user_id: int):
    """Translations in this user's language for the block that writes to them."""
    return translation.override(language_of(user_id))


Kind = Notification.Kind
BUILD_LOG_LINES = 15  # the end of a build log a failed build's notification shows
DIGEST_LINES = 20  # the faults a digest lists one by one; it counts them all
# A fault is news for a day: one older when first seen (an installation upgraded to digests, a
# watchdog stopped for days) is history, on the entry's page, not told.
NEWS = timedelta(days=1)
FAULT_ORDER = (CRASH, TIMEOUT, ILLEGAL, EXIT)


# --- Telling ----------------------------------------------------------------------------------


def _one_line(text: str, limit: int = 200) -> str:
    words = " ".join(text.split())
    return words if len(words) <= limit else words[: limit - 1] + "…"


def notify(
    user_id: int,
    kind: str,
    subject: str,
    body: str,
    *,
    link: str = "",
    lines: Iterable[dict[str, str]] = (),
    log_tail: str = "",
    contest_id: int | None = None,
    at: datetime | None = None,
) -> Notification:
    """Tell a user, on the site at once (in the caller's transaction) and by e-mail once it
    commits, unless they opted out of ``kind`` or have no address."""
    notification = Notification.objects.create(
        user_id=user_id,
        kind=kind,
        contest_id=contest_id,
        subject=_one_line(subject),
        body=body,
        lines=list(lines),
        log=log_tail,
        link=link,
        created_at=at or timezone.now(),
    )
    if wants_email(user_id, kind):
        dispatch.queue_email(notification.pk)
    return notification


def wants_email(user_id: int, kind: str) -> bool:
    """Whether the user has an address and did not opt out of this kind by e-mail."""
    opted_out = EmailOptOut.objects.filter(user=OuterRef("pk"), kind=kind)
    return get_user_model().objects.filter(pk=user_id).exclude(email="").exclude(Exists(opted_out)).exists()


def email_kinds(user) -> set[str]:
    """The kinds the user gets by e-mail (all but those opted out of)."""
    return set(Kind.values) - set(EmailOptOut.objects.filter(user=user).values_list("kind", flat=True))


def kinds_for(user) -> list[str]:
    """The kinds a user may be told of: a game's verdicts only to those who upload games, a
    contest's organising to those who run one."""
    runs = user.is_superuser or ContestRole.objects.filter(user=user).exists() or user.has_perm("contests.add_contest")
    return [
        kind
        for kind in Kind.values
        if (kind != Kind.GAME or user.has_perm("contests.upload_game")) and (kind != Kind.ORGANISING or runs)
    ]


@transaction.atomic
def set_email_kinds(user, kinds: Iterable[str]) -> None:
    """E-mail the user these of their kinds and no other (the site lists every kind all the same)."""
    theirs = set(kinds_for(user))
    wanted = set(kinds) & theirs
    EmailOptOut.objects.filter(user=user, kind__in=wanted).delete()
    for kind in theirs - wanted:
        EmailOptOut.objects.get_or_create(user=user, kind=kind)


def unread_count(user) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def mark_read(user, ids: Iterable[int] | None = None) -> int:
    """Mark the user's notifications read (those of ``ids`` only, if given); how many were
    unread. Another user's ids mark nothing."""
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        unread = unread.filter(pk__in=list(ids))
    return unread.update(read_at=timezone.now())


# --- E-mail -----------------------------------------------------------------------------------


def absolute(path: str) -> str:
    return f"{settings.SITE_URL}{path}" if path.startswith("/") else path


def email_text(notification: Notification) -> str:
    """The e-mail of a notification, as plain text: the body, its list and log, the link."""
    parts = [notification.body]
    if notification.lines:
        parts.append(
            "\n".join(
                f"- {line['text']}" + (f"\n  {absolute(line['link'])}" if line.get("link") else "")
                for line in notification.lines
            )
        )
    if notification.log:
        parts.append("\n".join(f"    {line}" for line in notification.log.splitlines()))
    with reading_as(notification.user_id):  # the notification's words are its reader's already
        if notification.link:
            parts.append(gettext("On the site: %(link)s") % {"link": absolute(notification.link)})
        settings_page = absolute(reverse("notification-settings"))
        choose = gettext("%(site)s. Choose which notifications you get by e-mail: %(page)s")
        parts.append("-- \n" + choose % {"site": settings.SITE_NAME, "page": settings_page})
    return "\n\n".join(parts) + "\n"


def send_email(notification_id: int) -> bool:
    """E-mail one notification, once: False if it was sent already, or its user opted out
    since, or has no address. The mail server's errors (SMTPException, OSError) are raised
    for the task to retry."""
    notification = (
        Notification.objects.select_related("user").filter(pk=notification_id, emailed_at__isnull=True).first()
    )
    if notification is None or not wants_email(notification.user_id, notification.kind):
        return False
    send_mail(
        f"[{settings.SITE_NAME}] {notification.subject}",
        email_text(notification),
        None,
        [notification.user.email],
    )
    Notification.objects.filter(pk=notification.pk).update(emailed_at=timezone.now())
    return True


# --- Builds and system tests ------------------------------------------------------------------


def _tail(text: str, lines: int = BUILD_LOG_LINES) -> str:
    return "\n".join(line[:300] for line in text.rstrip().splitlines()[-lines:])


def _plays_now(entry: Entry) -> str:
    playing = entry.active_submission
    if playing is None:
        return gettext("%(entry)s has no version that plays yet.") % {"entry": entry.name}
    return gettext("Version %(number)s plays for %(entry)s as before.") % {
        "number": playing.number,
        "entry": entry.name,
    }


def build_failed(submission: Submission, too_large: bool = False) -> None:
    """A version did not build: "compilation failed" (or the built program is over the
    contest's limit), the end of its build log, a link to its page."""
    submission = Submission.objects.select_related("entry__contest").get(pk=submission.pk)
    entry = submission.entry
    if entry.is_reference:
        return
    with reading_as(entry.user_id):
        what = gettext("the built program is too large") if too_large else gettext("compilation failed")
        body = gettext(
            "Version %(number)s of %(entry)s in %(contest)s did not build: %(what)s. %(plays_now)s The end of its "
            "build log is below; all of it is on the version's page."
        ) % {
            "number": submission.number,
            "entry": entry.name,
            "contest": entry.contest.title,
            "what": what,
            "plays_now": _plays_now(entry),
        }
        notify(
            entry.user_id,
            Kind.BUILD_FAILED,
            gettext("%(entry)s version %(number)s: %(what)s")
            % {"entry": entry.name, "number": submission.number, "what": what},
            body,
            link=reverse("contests:submission", args=[submission.pk]),
            log_tail=_tail(submission.build_log),
            contest_id=entry.contest_id,
        )


def _with_detail(words: str, seat: MatchSeat) -> str:
    """A fault's words and, after a dash, its detail (``results.fault_detail``) unless the words
    hold it already."""
    detail = results.fault_detail(seat)
    return f"{words} — {detail}" if detail and detail not in words else words


def test_failed(submission: Submission, seats: Iterable[MatchSeat], active: Submission | None, rerun: bool) -> None:
    """A version failed its system test: which of its games, each with its link; which
    version plays now. ``seats`` are the version's seats in its test games, in order."""
    entry = submission.entry
    if entry.is_reference:
        return
    with reading_as(entry.user_id):
        game = registry.get(entry.contest.game)
        lines = []
        for number, seat in enumerate(seats, start=1):
            match = seat.match
            if match.status != Match.Status.FINISHED:
                words = gettext("not played (%(status)s), not your program's doing") % {
                    "status": match.get_status_display().lower()
                }
            elif seat.status in FAULTS:
                words = _with_detail(results.seat_words(game, seat), seat)
            else:
                continue
            lines.append(
                {
                    "text": gettext("game %(number)s (match %(match)s): %(words)s")
                    % {"number": number, "match": match.pk, "words": words},
                    "link": _match_link(match),
                }
            )
        if active is None:
            now = gettext("No version of %(entry)s has passed its system test: it plays no games until one does.") % {
                "entry": entry.name
            }
        else:
            now = gettext("Version %(number)s, the newest that passed, plays for %(entry)s.") % {
                "number": active.number,
                "entry": entry.name,
            }
        if rerun:
            body = gettext(
                "A judge re-ran the system test of version %(version)s of %(entry)s in %(contest)s (%(game)s) "
                "failed: a program must play every test game by the rules. %(now)s The games it failed:"
            )
        else:
            body = gettext(
                "The system test of version %(version)s of %(entry)s in %(contest)s (%(game)s) "
                "failed: a program must play every test game by the rules. %(now)s The games it failed:"
            )
        body %= {
            "version": submission.number,
            "entry": entry.name,
            "contest": entry.contest.title,
            "game": game.info.title,
            "now": now,
        }
        notify(
            entry.user_id,
            Kind.TEST_FAILED,
            gettext("%(entry)s version %(number)s: system test failed")
            % {"entry": entry.name, "number": submission.number},
            body,
            link=reverse("contests:submission", args=[submission.pk]),
            lines=lines,
            contest_id=entry.contest_id,
        )


# --- Judges' decisions ------------------------------------------------------------------------


def _match_link(match: Match) -> str:
    return reverse("contests:match", args=[match.pk])


def _judged(entry: Entry, subject: str, body: str, link: str, note: str = "") -> None:
    if entry.is_reference:
        return
    if note.strip():
        body = gettext("%(body)s\n\nThe judge's note: %(note)s") % {"body": body, "note": note.strip()}
    notify(entry.user_id, Kind.JUDGED, subject, body, link=link, contest_id=entry.contest_id)


def entry_judged(sender=None, *, entry: Entry, action: str, reason: str = "", **kwargs) -> None:
    """A judge disqualified or reinstated an entry (``contests.signals.entry_judged``), with
    the reason its contestant reads."""
    with reading_as(entry.user_id):
        contest = entry.contest.title
        link = reverse("contests:entry", args=[entry.contest.slug, entry.pk])
        if action == "disqualify":
            body = gettext(
                "A judge disqualified %(entry)s from %(contest)s: it plays no more games and leaves the standings."
            ) % {"entry": entry.name, "contest": contest}
            _judged(entry, gettext("%(entry)s is disqualified") % {"entry": entry.name}, body, link, reason)
        elif action == "reinstate":
            body = gettext(
                "A judge reinstated %(entry)s in %(contest)s: it plays again and is back in the standings."
            ) % {"entry": entry.name, "contest": contest}
            _judged(entry, gettext("%(entry)s is reinstated") % {"entry": entry.name}, body, link, reason)


def _stage_name(match: Match) -> str:
    return match.stage.name if match.stage_id is not None else gettext("a test game")


def _where(match: Match) -> str:
    if match.stage_id is None:
        return gettext("a test game")
    return gettext("%(stage)s of %(contest)s") % {"stage": match.stage.name, "contest": match.contest.title}


def _players(match: Match) -> list[Entry]:
    """The contestants' entries that play in the match, each once."""
    seen: dict[int, Entry] = {}
    for seat in match.seats.select_related("entry__contest").filter(entry__is_reference=False):
        seen.setdefault(seat.entry_id, seat.entry)
    return list(seen.values())


def match_rerun(match: Match) -> None:
    """A judge re-ran a match: each of its contestants is told; its earlier result counts
    until the new one is in."""
    for entry in _players(match):
        with reading_as(entry.user_id):
            if match.result_attempt_id:
                then = gettext("its earlier result counts until the new one is in")
            else:
                then = gettext("it is queued")
            body = gettext(
                "A judge asked for match %(match)s of %(entry)s (%(where)s) to be played again: %(then)s."
            ) % {"match": match.pk, "entry": entry.name, "where": _where(match), "then": then}
            subject = gettext("%(entry)s: match %(match)s is played again") % {"entry": entry.name, "match": match.pk}
            _judged(entry, subject, body, _match_link(match))


def match_cancelled(match: Match) -> None:
    """A judge cancelled a match that was queued, being played or failed."""
    for entry in _players(match):
        with reading_as(entry.user_id):
            then = gettext("its earlier result stands") if match.result_attempt_id else gettext("it will not be played")
            body = gettext("A judge cancelled match %(match)s of %(entry)s (%(where)s): %(then)s.") % {
                "match": match.pk,
                "entry": entry.name,
                "where": _where(match),
                "then": then,
            }
            subject = gettext("%(entry)s: match %(match)s is cancelled") % {"entry": entry.name, "match": match.pk}
            _judged(entry, subject, body, _match_link(match))


def rebuilt(submission: Submission) -> None:
    """A judge asked for a version the platform had failed to build to be built again."""
    with reading_as(submission.entry.user_id):
        entry = submission.entry
        body = gettext(
            "The platform had failed to build version %(number)s of %(entry)s (not your program's doing); a judge "
            "asked for it to be built again."
        ) % {"number": submission.number, "entry": entry.name}
        link = reverse("contests:submission", args=[submission.pk])
        _judged(
            entry,
            gettext("%(entry)s version %(number)s is built again") % {"entry": entry.name, "number": submission.number},
            body,
            link,
        )


DECIDED = {
    "accepted": (
        gettext_lazy("%(entry)s: your output is accepted"),
        gettext_lazy("accepted: it counts the score it claims, %(claimed)s"),
    ),
    "rejected": (gettext_lazy("%(entry)s: your output is rejected"), gettext_lazy("rejected: it counts 0")),
    "credited": (
        gettext_lazy("%(entry)s: your output is credited"),
        gettext_lazy(
            "credited with the score it claims, %(claimed)s, unverified: the winner is verified, so the judges "
            "check no further"
        ),
    ),
    "pending": (
        gettext_lazy("%(entry)s: your output is reopened"),
        gettext_lazy("reopened: it waits for a judge's decision again"),
    ),
}


def output_decided(match: Match, seat: MatchSeat, status: str, note: str = "") -> None:
    """A judge accepted, rejected, credited or reopened the output of a run, with the note for
    its contestant."""
    with reading_as(seat.entry.user_id):
        subject, words = DECIDED[status]
        entry = seat.entry
        words = str(words) % {"claimed": f"{float(seat.score or 0.0):g}"} if "%(claimed)s" in str(words) else str(words)
        body = gettext("A judge decided on the output of %(entry)s in %(where)s (match %(match)s): %(words)s.") % {
            "entry": entry.name,
            "where": _where(match),
            "match": match.pk,
            "words": words,
        }
        _judged(entry, subject % {"entry": entry.name}, body, _match_link(match), note)


# --- The digest of faults ---------------------------------------------------------------------


def unreported_faults(now: datetime | None = None):
    """Every seat of a contestant's active entry whose newest result is a fault of its program
    (crash, timeout, illegal move, early exit), recorded since the entry's newest submission
    (and within ``NEWS`` of ``now``) and not told yet; a system test's games are not (a failed
    system test is told by itself)."""
    now = now or timezone.now()
    newest = Submission.objects.filter(entry=OuterRef("entry")).order_by("-created_at").values("created_at")[:1]
    told = ReportedFault.objects.filter(seat=OuterRef("pk"), attempt=OuterRef("match__result_attempt"))
    return (
        MatchSeat.objects.filter(
            status__in=FAULTS,
            entry__is_reference=False,
            entry__status=Entry.Status.ACTIVE,
            match__result_attempt__isnull=False,
            match__finished_at__gte=now - NEWS,  # a cheap cut before the joins: the match's end is its result's
        )
        .exclude(match__stage__kind="system_test")
        .annotate(since=Subquery(newest))
        .filter(match__result_attempt__finished_at__gte=F("since"))
        .exclude(Exists(told))
    )


def send_fault_digests(now: datetime | None = None) -> int:
    """A digest for each entry with faults not told yet, unless it had one within
    ``FAULT_DIGEST_MINUTES``: how many were written. Never empty; a fault is told once.

    It looks only at the faults waiting to be told (``UntoldFault``, written with each result),
    not at the day's games: a minute's look costs the faults recorded since the last one and
    those of entries not due yet, however many games a day are played (docs/benchmarks.md, "At
    scale")."""
    now = now or timezone.now()
    every = timedelta(minutes=settings.FAULT_DIGEST_MINUTES)
    forget_untellable(now)
    waiting = list(UntoldFault.objects.values_list("seat_id", flat=True).distinct())
    if not waiting:
        return 0
    seats = list(
        unreported_faults(now)
        .filter(pk__in=waiting)
        .select_related("entry__contest", "submission", "match__stage", "match__contest", "match__result_attempt")
        .prefetch_related("match__seats__entry")
        .order_by("entry_id", "match__result_attempt__finished_at", "pk")
    )
    # The entries told within the period: through their users' recent notifications (an index),
    # never through every seat an entry ever had.
    recent = set(
        ReportedFault.objects.filter(
            notification__user_id__in={seat.entry.user_id for seat in seats},
            notification__kind=Kind.FAULTS,
            notification__created_at__gt=now - every,
        ).values_list("seat__entry_id", flat=True)
    )
    written = 0
    for entry_id, found in groupby(seats, key=lambda seat: seat.entry_id):
        if entry_id in recent:
            continue
        try:
            with transaction.atomic():
                _digest(list(found), now)
        except IntegrityError:  # another worker told these faults meanwhile
            log.info("the faults of entry %s were told meanwhile", entry_id)
            continue
        written += 1
    return written


def forget_untellable(now: datetime) -> int:
    """Delete the waiting faults that no look can tell any more: told (by a digest another worker
    wrote), replaced by a newer result, recorded over ``NEWS`` ago, before the entry's newest
    version, a reference program's or a system test's. Those of an entry not due yet, or not
    active now (it may be reinstated within the day), wait on. How many were deleted."""
    newest = Submission.objects.filter(entry=OuterRef("seat__entry")).order_by("-created_at").values("created_at")[:1]
    told = ReportedFault.objects.filter(seat=OuterRef("seat"), attempt=OuterRef("attempt"))
    gone = (
        UntoldFault.objects.annotate(since=Subquery(newest))
        .filter(
            Q(Exists(told))
            | ~Q(attempt=F("seat__match__result_attempt"))
            | Q(attempt__finished_at__lt=now - NEWS)
            | Q(attempt__finished_at__lt=F("since"))
            | Q(seat__entry__is_reference=True)
            | Q(seat__match__stage__kind="system_test")
        )
        .values_list("pk", flat=True)
    )
    return UntoldFault.objects.filter(pk__in=list(gone)).delete()[0]


def _digest(seats: list[MatchSeat], now: datetime) -> Notification:
    with reading_as(seats[0].entry.user_id):
        entry = seats[0].entry
        game = registry.get(entry.contest.game)
        newest = entry.submissions.order_by("-number").first()
        by_status = {status: sum(1 for seat in seats if seat.status == status) for status in FAULT_ORDER}
        counts = ", ".join(results.counted(status, n, game) for status, n in by_status.items() if n)
        lines = []
        for seat in seats[:DIGEST_LINES]:
            match = seat.match
            said = results.summary(game, list(match.seats.all()), seat.entry_id) or results.seat_words(game, seat)
            text = gettext("match %(match)s (%(stage)s), version %(number)s: %(said)s") % {
                "match": match.pk,
                "stage": _stage_name(match),
                "number": seat.submission.number,
                "said": _with_detail(said, seat),
            }
            lines.append({"text": text, "link": _match_link(match)})
        if len(seats) > DIGEST_LINES:
            more = len(seats) - DIGEST_LINES
            lines.append(
                {
                    "text": gettext("and %(more)s more: every game of %(entry)s is on its page")
                    % {"more": more, "entry": entry.name},
                    "link": reverse("contests:entry", args=[entry.contest.slug, entry.pk]),
                }
            )
        body = gettext(
            "Since you submitted version %(number)s of %(entry)s in %(contest)s (%(when)s UTC), your program had "
            "%(counts)s in these games:"
        ) % {
            "number": newest.number,
            "entry": entry.name,
            "contest": entry.contest.title,
            "when": f"{newest.created_at:%Y-%m-%d %H:%M}",
            "counts": counts,
        }
        notification = notify(
            entry.user_id,
            Kind.FAULTS,
            gettext("%(entry)s: %(counts)s since version %(number)s")
            % {"entry": entry.name, "counts": counts, "number": newest.number},
            body,
            link=reverse("contests:entry", args=[entry.contest.slug, entry.pk]),
            lines=lines,
            contest_id=entry.contest_id,
            at=now,
        )
        ReportedFault.objects.bulk_create(
            ReportedFault(notification=notification, seat=seat, attempt_id=seat.match.result_attempt_id)
            for seat in seats
        )
        UntoldFault.objects.filter(seat__in=seats).delete()
        return notification


# --- Organisers of uploaded games -------------------------------------------------------------

REFEREE_FAULT_QUIET = timedelta(hours=1)  # one referee's faults told at most this often


def game_checked(version) -> None:
    """Its conformance kit's verdict, to the organiser who uploaded the version."""
    if version.uploaded_by_id is None:
        return
    with reading_as(version.uploaded_by_id):
        report = version.report or {}
        accepted = version.status == version.Status.ACCEPTED
        notify(
            version.uploaded_by_id,
            Kind.GAME,
            (
                gettext("%(game)s accepted by its conformance kit")
                if accepted
                else gettext("%(game)s refused by its conformance kit")
            )
            % {"game": version.key},
            gettext("%(games)s games in %(seconds)s s.")
            % {"games": len(report.get("games", [])), "seconds": report.get("seconds", 0)}
            + " "
            + (
                gettext("Contests may play it now.")
                if accepted
                else gettext("What went wrong is below; upload a new version to try again.")
            ),
            link=reverse("games:version", args=[version.key]),
            lines=[{"text": problem} for problem in report.get("problems", [])[:DIGEST_LINES]],
        )


def referee_failed(match: Match, error: str) -> None:
    """An uploaded game's referee failed in a match (the platform's fault, retried): told to
    the organiser who uploaded that version, once an hour at most."""

    name, _, number = match.contest.game.partition("@")
    version = GameVersion.objects.filter(name=name, version=int(number or 0)).first() if number.isdigit() else None
    if version is None or version.uploaded_by_id is None:
        return
    with reading_as(version.uploaded_by_id):
        subject = gettext("the referee of %(key)s failed in a match") % {"key": version.key}
        recent = Notification.objects.filter(
            user_id=version.uploaded_by_id,
            kind=Kind.GAME,
            subject=subject,
            created_at__gte=timezone.now() - REFEREE_FAULT_QUIET,
        )
        if recent.exists():
            return
        notify(
            version.uploaded_by_id,
            Kind.GAME,
            subject,
            gettext(
                "Match %(match)s of %(contest)s: the platform's fault, not a player's; the match is tried again "
                "and, after three faults, left for a judge. Fix the referee and upload a new version."
            )
            % {"match": match.pk, "contest": match.contest.title},
            link=_match_link(match),
            log_tail=error[-2000:],
            contest_id=match.contest_id,
        )


# --- The people of a contest -------------------------------------------------------------------

# What the named user is now, by role.
NOW = {
    "organiser": gettext_lazy("%(contest)s: you are a co-organiser now"),
    "judge": gettext_lazy("%(contest)s: you are a judge now"),
}
NAMED = {
    "organiser": gettext_lazy(
        "%(by)s named you a co-organiser of %(contest)s: you may change its settings and judge it from its console."
    ),
    "judge": gettext_lazy("%(by)s named you a judge of %(contest)s: you may judge it from its console."),
}


def role_changed(sender=None, *, contest, user, role: str | None, actor, **kwargs) -> None:
    """Someone was named to a contest's role, or lost it (``contests.signals.role_changed``)."""
    with reading_as(user.pk):
        said = {"by": getattr(actor, "username", "") or gettext("an administrator"), "contest": contest.title}
        if role is None:
            subject = gettext("%(contest)s: you are no longer one of its organisers or judges") % said
            body = (
                gettext("%(by)s took your role in %(contest)s away; its console and settings are closed to you now.")
                % said
            )
            link = reverse("contests:detail", args=[contest.slug])
        else:
            subject = NOW[role] % said
            body = NAMED[role] % said
            link = reverse("contests:console", args=[contest.slug])
        notify(user.pk, Kind.ORGANISING, subject, body, link=link, contest_id=contest.pk)


def contest_changed(sender=None, *, contest, actor, changed: list[str], reason: str = "", **kwargs) -> None:
    """A co-organiser (or an administrator) changed a contest's settings: its owner is told
    (``contests.signals.contest_changed``); the owner's own changes are not news to them."""
    owner = roles.owner_of(contest)
    if owner is None or actor is None or getattr(actor, "pk", None) == owner.pk:
        return
    with reading_as(owner.pk):
        said = {
            "by": getattr(actor, "username", "") or gettext("someone"),
            "changed": ", ".join(changed),
            "contest": contest.title,
            "reason": reason,
        }
        body = gettext("%(by)s changed %(changed)s of %(contest)s.") % said
        if reason:
            body += " " + gettext("Their reason: %(reason)s") % said
        notify(
            owner.pk,
            Kind.ORGANISING,
            gettext("%(contest)s: %(by)s changed %(changed)s") % said,
            body,
            link=reverse("contests:judges-log", args=[contest.slug]),
            contest_id=contest.pk,
        )
