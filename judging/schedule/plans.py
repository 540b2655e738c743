"""When an entry plays next, in words, for its page and the API: which stage will play it and
when, or that nothing will until a judge adds a stage. An entry submitted to a batch or race
contest after its stage ran used to show "Ready (active)" and never play, with nothing said."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from django.utils.translation import gettext, ngettext

from contests.models import Entry, Stage, Submission
from judging.models import Match
from judging.record import entrants, formats

WAITING_FOR_BUILD = (Submission.Status.QUEUED, Submission.Status.BUILDING, Submission.Status.TESTING)


@dataclass(frozen=True)
class NextGames:
    text: str  # for the contestant: "3 games queued in Weekly standings", "when the judges run Final"
    stage: int | None = None  # the stage that plays it next, if one will
    queued: int = 0  # its games queued or being played now (test games aside)
    judge_needed: bool = False  # no stage will play it unless a judge adds or runs one

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def next_games(entry: Entry) -> NextGames:
    if entry.status != Entry.Status.ACTIVE:
        status = entry.get_status_display().lower()
        return NextGames(gettext("It is %(status)s: it plays no more games.") % {"status": status})
    newest = entry.submissions.order_by("-number").first()
    if newest is None:
        return NextGames(gettext("No program yet: submit one to play."))
    active = entrants.ready_submission(entry)
    pending = ""
    if newest.status in WAITING_FOR_BUILD:
        pending = gettext("version %(number)s is being built and tested; ") % {"number": newest.number}
    elif active is None:
        return NextGames(
            gettext(
                "No version has passed its build and system test: it plays no games until one does "
                "(version %(number)s: %(status)s)."
            )
            % {"number": newest.number, "status": newest.get_status_display().lower()}
        )
    live = Match.objects.filter(
        seats__entry=entry, stage__isnull=False, status__in=(Match.Status.QUEUED, Match.Status.RUNNING)
    )
    live = live.exclude(stage__kind__in=formats.uncounted_kinds()).distinct()
    queued = live.count()
    stages = entry.contest.stages.exclude(kind__in=formats.uncounted_kinds()).order_by("order")
    if queued:
        stage = live.select_related("stage").order_by("priority", "queued_at", "pk").first().stage
        said = gettext("%(pending)s%(games)s queued or playing in %(stage)s.") % {
            "pending": pending,
            "games": _games(queued),
            "stage": stage.name,
        }
        return NextGames(_said(said), stage.pk, queued)
    continuous = stages.filter(kind__in=formats.continuous_kinds(), status=Stage.Status.RUNNING).first()
    if continuous is not None:
        if pending:
            said = gettext("%(pending)sit plays in %(stage)s once it passes; its games there are all played.")
        else:
            said = gettext(
                "%(pending)sit plays in %(stage)s as soon as a new version passes its system test; "
                "its games there are all played."
            )
        said %= {"pending": pending, "stage": continuous.name}
        return NextGames(_said(said), continuous.pk)
    upcoming = stages.filter(status=Stage.Status.PENDING).first()
    if upcoming is not None:
        closes = entry.contest.closes_at
        if closes and entry.contest.is_open():
            said = gettext(
                "%(pending)sit plays in %(stage)s when the judges run it (the deadline is %(deadline)s UTC)."
            ) % {"pending": pending, "stage": upcoming.name, "deadline": f"{closes:%Y-%m-%d %H:%M}"}
        else:
            said = gettext("%(pending)sit plays in %(stage)s when the judges run it.") % {
                "pending": pending,
                "stage": upcoming.name,
            }
        return NextGames(_said(said), upcoming.pk)
    said = gettext(
        "%(pending)sno stage is planned to play it: the stages so far ran before it, so a judge must add or re-run one."
    ) % {"pending": pending}
    return NextGames(_said(said), judge_needed=True)


def _said(text: str) -> str:
    return text[:1].upper() + text[1:]


def _games(n: int) -> str:
    return ngettext("%(n)s game", "%(n)s games", n) % {"n": n}
