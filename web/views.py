"""Contest pages: each view translates HTTP to a service call and renders the answer."""

from __future__ import annotations

import io
import tempfile
import zipfile
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_http_methods

from contests import roles, services
from contests.models import Contest, Entry, Stage, Submission
from games import registry
from games.base import BatchGame, RaceGame
from games.clocks import Clock
from games.hosted import HostedGame
from judging import bundles
from judging import services as judges
from judging.models import Match, MatchSeat
from judging.news import results
from judging.play.race import login_names
from judging.record import attempts as attempts_service
from judging.record import confidence, counts, entrants, fits, formats, lifecycle, publication
from judging.record import standings as standings_service
from judging.schedule import plans, testgames, versus
from web.converters import parse_id
from web.events import newest_id
from web.forms import SubmissionForm
from web.limits import anonymous_limit
from web.uploads import limit_uploads, upload_refusal


def _contest(request, slug: str) -> Contest:
    contest = services.visible_contests(request.user).filter(slug=slug).first()
    if contest is None:
        raise Http404(gettext("No such contest."))
    return contest


def _clock_words(contest: Contest) -> list[str]:
    """The contest's time limits in words: its own clock over its game's."""
    game = registry.GAMES.get(contest.game)
    try:
        return Clock.from_json({**(game.default_clock if game else {}), **contest.clock}).in_words()
    except ValueError:  # a clock the admin let through that the referee would refuse
        return []


@require_GET
def contest_detail(request, slug: str):
    contest = _contest(request, slug)
    stages = list(contest.stages.all())
    progress = counts.of_stages(stage.pk for stage in stages)  # kept, not counted over the games
    # while frozen, the public's "played" counts a game the snapshot holds that is being played again
    replayed = {} if publication.sees_live(request.user, contest) else standings_service.replayed(contest.matches)
    for stage in stages:
        found = progress.get(stage.pk, counts.Progress())
        stage.progress = (found.finished + replayed.get(stage.pk, 0), found.total)
        stage.ranked = fits.described(stage)
    entries = contest.entries.filter(status=Entry.Status.ACTIVE).order_by("name")
    mine = (
        contest.entries.filter(user=request.user).prefetch_related("submissions")
        if request.user.is_authenticated
        else []
    )
    references = [
        (entry, entrants.ready_submission(entry) or entry.submissions.order_by("-number").first())
        for entry in contest.entries.filter(is_reference=True, status=Entry.Status.ACTIVE).order_by("pk")
    ]
    game = registry.GAMES.get(contest.game)
    references = [(entry, sub) for entry, sub in references if sub is not None]
    practice = contest.is_hosted and isinstance(registry.get(contest.game), BatchGame)
    # Play at home names a program a seat: three opponents for a game of four (Hearts), where
    # one was the referee's fault; none for a run alone; one for a race, which takes any number.
    opponents = 1
    if practice:
        opponents = 0
    elif contest.is_hosted and not isinstance(registry.get(contest.game), RaceGame):
        opponents = max(formats.contest_seats(contest) - 1, 0)
    context = {
        "references": references,
        "opponents": [references[0][1].filename if references else "OPPONENT"] * opponents,
        "practice": practice,
        "kit": contest.is_hosted and isinstance(registry.get(contest.game), RaceGame),
        "contest": contest,
        "stages": stages,
        "entries": entries,
        "mine": mine,
        "languages": services.language_table(contest),
        "site_url": request.build_absolute_uri("/").rstrip("/"),
        "source_url": settings.SOURCE_URL,
        "clock_words": _clock_words(contest),
        "hosted_game": game if isinstance(game, HostedGame) else None,
    }
    if request.user.is_authenticated and contest.is_open():
        languages = services.offered_languages(contest)
        context["form"] = SubmissionForm(contest=contest, languages=languages, new_entry=False)
        if services.may_enter(contest, request.user):
            context["entry_form"] = SubmissionForm(contest=contest, languages=languages, new_entry=True)
    return render(request, "contests/detail.html", context)


def _upload_limit(request, slug: str, entry_id: int | None = None) -> tuple[int, str]:
    contest = Contest.objects.filter(slug=slug).first()
    return services.upload_limit(contest) if contest else (0, gettext("No such contest."))


@limit_uploads(_upload_limit)
@login_required
@require_http_methods(["POST"])
def submit(request, slug: str, entry_id: int | None = None):
    """A new entry with its first program, or (with ``entry_id``) a new version."""
    contest = _contest(request, slug)
    entry = get_object_or_404(Entry, pk=entry_id, contest=contest, user=request.user) if entry_id else None
    too_large = upload_refusal(request)
    if too_large:
        messages.error(request, too_large)
        return redirect(contest)
    form = SubmissionForm(
        request.POST,
        request.FILES,
        contest=contest,
        languages=services.offered_languages(contest),
        new_entry=entry is None,
    )
    if not form.is_valid():
        for field, errors in form.errors.items():
            label = form.fields[field].label if field in form.fields else field
            messages.error(request, f"{label}: {' '.join(errors)}")
        return redirect(contest)
    upload = form.cleaned_data["source"]
    program = {"filename": upload.name, "data": upload.read(), "language": form.cleaned_data["language"] or None}
    try:
        if entry is None:
            submission = services.enter(
                contest, request.user, form.cleaned_data["name"], form.entry_form_data(), **program
            )
        else:
            submission = services.submit(entry, **program)
    except services.Refused as e:
        messages.error(request, str(e))
        return redirect(contest)
    said = gettext(  # no state of its own, which would go stale
        "Received %(file)s as version %(number)s of %(entry)s: its build and system test show below as they happen."
    )
    messages.success(
        request, said % {"file": submission.filename, "number": submission.number, "entry": submission.entry.name}
    )
    return redirect("contests:submission", pk=submission.pk)


def _my_entry(request, slug: str, entry_id: int) -> Entry:
    return get_object_or_404(
        Entry.objects.select_related("contest"), pk=entry_id, contest=_contest(request, slug), user=request.user
    )


@login_required
@require_http_methods(["POST"])
def entry_rename(request, slug: str, entry_id: int):
    entry = _my_entry(request, slug, entry_id)
    old = entry.name
    try:
        entry = services.rename_entry(entry, request.POST.get("name", ""))
    except services.Refused as e:
        messages.error(request, str(e))
    else:
        messages.success(request, gettext("%(old)s is now called %(new)s.") % {"old": old, "new": entry.name})
    return redirect(entry.contest)


@login_required
@require_http_methods(["POST"])
def entry_versus_allowed(request, slug: str, entry_id: int):
    entry = services.allow_versus(_my_entry(request, slug, entry_id), request.POST.get("allowed") == "1")
    if entry.versus_allowed:
        said = gettext("Other contestants may now name %(entry)s as a rival in their versus batches.")
    else:
        said = gettext("%(entry)s is no longer offered as a versus rival.")
    messages.success(request, said % {"entry": entry.name})
    return redirect(entry.contest)


@login_required
@require_http_methods(["POST"])
def entry_withdraw(request, slug: str, entry_id: int):
    entry = _my_entry(request, slug, entry_id)
    try:
        services.withdraw(entry)
    except services.Refused as e:
        messages.error(request, str(e))
    else:
        said = gettext("%(entry)s is withdrawn: it plays no more games and leaves the standings.")
        messages.success(request, said % {"entry": entry.name})
    return redirect(entry.contest)


def _submission(request, pk: int) -> Submission:
    """A submission of a contest the user may see: one of a hidden contest is a 404, as if it did
    not exist (its reference programs' sources included)."""
    submission = get_object_or_404(Submission.objects.select_related("entry__contest", "entry__user"), pk=pk)
    _contest(request, submission.entry.contest.slug)
    return submission


@login_required
@require_GET
def submission_detail(request, pk: int):
    submission = _submission(request, pk)
    if not services.can_see_private(request.user, submission.entry):
        raise PermissionDenied(gettext("This is another contestant's submission."))
    head = newest_id(request.user, submission.entry.contest.slug)  # before what the page shows
    matches = publication.visible_matches(request.user, Match.objects.filter(seats__submission=submission))
    matches = list(
        matches.distinct()
        .select_related("stage", "contest", "verification", "result_attempt")
        .prefetch_related("seats__entry")
        .order_by("-pk")[:50]
    )
    shown = publication.shown_matches(request.user, matches)
    for match in matches:
        match.shown = shown[match.pk]
    contest = submission.entry.contest
    context = {"submission": submission, "matches": matches, "opponents": [], "test_games_left": None}
    context["events_head"] = head
    game = registry.get(contest.game) if contest.is_hosted else None
    if game is not None and game.info.seats not in (0, 1):  # a run alone has no opponent to choose
        context["opponents"] = testgames.test_game_opponents(submission)
        context["other_seats"] = formats.contest_seats(contest) - 1  # the opponent sits in each: Hearts' three
    if not submission.entry.is_reference and submission.entry.user_id == request.user.pk:
        context["test_games_left"], context["test_games_free_at"] = testgames.test_games_left(request.user, contest)
    context["test_games_quota"] = settings.TEST_GAMES_PER_DAY
    context["playable"] = submission.entry.status == Entry.Status.ACTIVE
    context.update(_versus(request, submission, game))
    context["faults"] = _fault_digest(submission)
    context["timeline"] = _timeline(submission)
    return render(request, "contests/submission.html", context)


def _versus(request, submission: Submission, game) -> dict:
    """The version's versus batches, each with its win rate as percentages for the page, and
    (for its contestant, when it may play them) what the form needs."""
    batches = list(submission.versus_batches.all()[:20])
    for batch in batches:
        batch.found = found = versus.win_rate(batch)
        low, high = round(100 * found.low), round(100 * found.high)
        batch.shown = {"rate": round(100 * (found.rate or 0)), "low": low, "high": high, "width": max(high - low, 1)}
    said = {"batches": batches, "versus_left": None, "versus_level": round(100 * versus.LEVEL)}
    own = submission.entry.user_id == request.user.pk and not submission.entry.is_reference
    if own and game is not None and game.info.seats == 2 and submission.status == Submission.Status.READY:
        said["versus_left"] = versus.games_left(request.user, submission.entry.contest)
        said["versus_quota"] = settings.VERSUS_GAMES_PER_DAY
        said["versus_default"] = min(100, said["versus_left"])
    return said


@login_required
@require_http_methods(["POST"])
def versus_batch(request, pk: int):
    """Start a versus batch of the submission against the pool the form names."""
    submission = _submission(request, pk)
    if submission.entry.user_id != request.user.pk:
        raise PermissionDenied(gettext("Only its contestant plays a version's versus games."))
    rivals = tuple(
        filter(None, (parse_id(r.strip()) for r in request.POST.get("rivals", "").replace(";", ",").split(",")))
    )
    pool = versus.Pool(
        previous=request.POST.get("previous") == "1", references=request.POST.get("references") == "1",
        top=min(max(parse_id(request.POST.get("top", "0") or "0") or 0, 0), 50), rivals=rivals,
    )  # fmt: skip
    games = min(max(parse_id(request.POST.get("games", "") or "0") or 0, 0), 10_000)
    try:
        batch = versus.start(submission, request.user, games, pool)
    except formats.StageError as e:
        messages.error(request, str(e))
    else:
        said = gettext("Versus batch %(batch)s is playing; this page follows its win rate.") % {"batch": batch.pk}
        messages.success(request, f"{said} {batch.note}" if batch.note else said)
    return redirect(reverse("contests:submission", kwargs={"pk": pk}) + "#versus")


def _timeline(submission: Submission) -> list[tuple[str, object]]:
    """The version's way so far: sent, then each status it took and when (its events)."""
    from judging.models import Event

    steps: list[tuple[str, object]] = [(gettext("sent"), submission.created_at)]
    labels = dict(Submission.Status.choices)
    changes = Event.objects.filter(kind=Event.Kind.SUBMISSION, data__submission=submission.pk).order_by("pk")
    for created_at, data in changes.values_list("created_at", "data"):
        label = labels.get(data.get("status"), data.get("status"))
        if label and label != steps[-1][0]:
            steps.append((label, created_at))
    return steps


def _fault_digest(submission: Submission) -> dict:
    """What went wrong for this version since it was sent: its games lost by its own fault
    (illegal, timeout, crash, exit), counted by kind, and the latest few."""
    from django.db.models import Count

    from games.base import FAULTS

    seats = MatchSeat.objects.filter(submission=submission, status__in=FAULTS, match__status=Match.Status.FINISHED)
    counts = dict(seats.values_list("status").annotate(n=Count("pk")).order_by())
    latest = list(seats.select_related("match__stage").order_by("-match__finished_at")[:5])
    for seat in latest:
        game = registry.get(submission.entry.contest.game)
        seat.words = results.seat_words(game, seat)
        seat.stderr_tail = results.stderr_tail(seat.match, seat.index)
    games = MatchSeat.objects.filter(submission=submission, match__status=Match.Status.FINISHED).count()
    game = registry.get(submission.entry.contest.game)
    counts_said = [results.counted(status, n, game) for status, n in sorted(counts.items())]
    return {"counts": counts_said, "latest": latest, "total": sum(counts.values()), "games": games}


@require_GET
def submission_source(request, pk: int):
    """A version's source, to read on the page or (``?download=1``) as its file: its author's
    and the judges' only."""
    submission = _submission(request, pk)
    if not services.can_see_private(request.user, submission.entry):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied(gettext("This is another contestant's submission."))
    with submission.source.open("rb") as f:
        data = f.read()
    if request.GET.get("download"):
        response = HttpResponse(data, content_type="application/octet-stream")
        response["Content-Disposition"] = content_disposition_header(True, download_name(submission.filename))
        return response
    text = data.decode("utf-8", errors="replace") if b"\0" not in data[:8192] else None
    return render(request, "contests/source.html", {"submission": submission, "text": text, "size": len(data)})


@require_GET
def entry_detail(request, slug: str, entry_id: int):
    """One entry: its versions (their details for its author and the judges), its results in
    each stage, its games."""
    contest = _contest(request, slug)
    entry = get_object_or_404(contest.entries.select_related("user"), pk=entry_id)
    private = services.can_see_private(request.user, entry)
    versions = list(entry.submissions.order_by("-number"))
    results = []
    record = publication.record_for(contest, request.user)
    for stage in contest.stages.exclude(kind__in=formats.uncounted_kinds()).exclude(status=Stage.Status.PENDING):
        found = standings_service.standing(contest, stage, entry, record) if contest.is_hosted else None
        if found is not None:
            table, row = found.table, found.row
            cells = list(zip((c.label for c in table.columns), row.cells, strict=True))
            results.append(
                {"stage": stage, "row": row, "cells": cells, "of": found.of, "opponents": found.opponents,
                 "rated": table.rated, "level": round(100 * (table.fit.level if table.fit else fits.LEVEL))}
            )  # fmt: skip
    games = (
        publication.visible_matches(request.user, publication.played_by(contest.matches.all(), entry.pk))
        .select_related("stage", "contest", "verification", "result_attempt")
        .prefetch_related("seats__entry")
        .order_by("-pk")
    )
    context = {"contest": contest, "entry": entry, "private": private, "versions": versions, "results": results}
    context["games"] = _shown_page(request, games, 50)
    context["next_games"] = plans.next_games(entry) if contest.is_hosted else None
    return render(request, "contests/entry.html", context)


@login_required
@require_http_methods(["POST"])
def test_game(request, pk: int):
    """Play the submission against the contest's reference program, now, outside any stage."""
    submission = _submission(request, pk)
    if not services.can_see_private(request.user, submission.entry):
        raise PermissionDenied(gettext("This is another contestant's submission."))
    opponent = None
    if request.POST.get("opponent"):
        opponent = Submission.objects.filter(pk=parse_id(request.POST["opponent"]) or 0).first()
        if opponent is None:
            messages.error(request, gettext("Choose an opponent from the list."))
            return redirect("contests:submission", pk=pk)
    try:
        match = testgames.create_test_game(submission, opponent, first=request.POST.get("first", "1") == "1")
    except formats.StageError as e:
        messages.error(request, str(e))
        return redirect("contests:submission", pk=pk)
    messages.success(request, gettext("The test game is queued; this page shows it when it has been played."))
    return redirect("contests:match", pk=match.pk)


def own_entries(request, contest: Contest) -> set[int]:
    """The signed-in visitor's entries of the contest (ids), whose rows the standings show on
    every page."""
    if not request.user.is_authenticated:
        return set()
    return set(contest.entries.filter(user=request.user).values_list("pk", flat=True))


@require_GET
def standings(request, slug: str):
    """A stage's standings: the one asked for, else the contest's current one."""
    contest = _contest(request, slug)
    head = newest_id(request.user, slug)  # before what the page shows
    if request.GET.get("stage"):
        stage = get_object_or_404(contest.stages, pk=parse_id(request.GET["stage"]) or 0)
    else:
        stage = standings_service.current_stage(contest)
    stages = contest.stages.exclude(kind__in=formats.uncounted_kinds()).exclude(status=Stage.Status.PENDING)
    context = {"contest": contest, "stage": stage, "stages": stages, "table": None, "events_head": head}
    context["continuous"] = stage is not None and formats.of(stage.kind).continuous
    if contest.is_hosted:
        record = publication.record_for(contest, request.user)
        context["frozen"] = record.frozen
        context["hidden"] = publication.hidden_results(contest, stage) if record.frozen else 0
        number = parse_id(request.GET.get("page", "")) or 1  # kept within the pages by the service
        context["page"] = found = standings_service.page(
            contest, stage, record, number, own=own_entries(request, contest)
        )
        context["table"] = table = found.table
        context["query"] = f"stage={stage.pk}" if request.GET.get("stage") else ""  # kept by the page links
        whole = found.pages == 1  # a crosstable is of a whole table (of a page's size at most)
        context["crosstable"] = standings_service.crosstable(contest, stage, table.rows, record) if whole else None
        context["exact"] = fits.exact(contest, stage)
        context["level"] = round(100 * (table.fit.level if table.fit else fits.level(stage) if stage else 0.95))
    return render(request, "contests/standings.html", context)


@require_GET
@anonymous_limit
def standings_history(request, slug: str):
    """The points of a stage's ten best entries over its games, for the standings' chart."""
    contest = _contest(request, slug)
    if not contest.is_hosted:
        raise Http404(gettext("Its game is not hosted here."))
    stage = None
    if request.GET.get("stage"):
        stage = get_object_or_404(contest.stages, pk=parse_id(request.GET["stage"]) or 0)
    else:
        stage = standings_service.current_stage(contest)
    record = publication.record_for(contest, request.user)
    rows = standings_service.page(contest, stage, record, size=10).table.rows  # the chart's ten
    if stage is not None and fits.rated(stage):
        top = {row.entry.pk: row.entry.name for row in rows[:10]}
        until = contest.standings_frozen_at if record.frozen else None
        lines = confidence.rating_lines(stage, top, until)
        shown = {row.entry.pk: row.sure.rating for row in rows if row.sure is not None}
        for line in lines:  # the legend says the table's figure, not the chart's last kept point
            line["rating"] = shown.get(line["entry"])
        return JsonResponse({"rated": True, "lines": lines})
    return JsonResponse({"lines": standings_service.history(contest, stage, rows, record)})


@require_GET
@anonymous_limit
def entry_ratings(request, slug: str, entry_id: int):
    """An entry's rating across its versions in each rated stage, for its page's chart."""
    contest = _contest(request, slug)
    entry = get_object_or_404(contest.entries, pk=entry_id)
    stage = get_object_or_404(contest.stages, pk=parse_id(request.GET.get("stage", "")) or 0)
    if not contest.is_hosted or not fits.rated(stage):
        raise Http404(gettext("That stage is not ranked by rating."))
    record = publication.record_for(contest, request.user)
    until = contest.standings_frozen_at if record.frozen else None
    lines = confidence.rating_lines(stage, {entry.pk: entry.name}, until, by_version=True)
    return JsonResponse({"rated": True, "lines": lines})


MATCHES_PER_PAGE = 100


@require_GET
def match_list(request, slug: str):
    contest = _contest(request, slug)
    matches = publication.visible_matches(request.user, contest.matches.all())
    matches = (
        matches.select_related("stage", "contest", "verification", "result_attempt")
        .prefetch_related("seats__entry")
        .order_by("-pk")
    )
    stage_id = None
    if request.GET.get("stage"):
        stage_id = parse_id(request.GET["stage"]) or 0
        matches = matches.filter(stage_id=stage_id)
    known = None  # of a stage's games, how many there are is kept (judging.record.counts), not counted
    if request.GET.get("entry"):
        matches = publication.played_by(matches, parse_id(request.GET["entry"]) or 0)
    else:
        known = publication.visible_count(request.user, [contest.pk], stage_id)
    page = _shown_page(request, matches, MATCHES_PER_PAGE, known)
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "contests/matches.html",
        {"contest": contest, "matches": page.object_list, "page": page, "query": query.urlencode()},
    )


class KnownCountPaginator(Paginator):
    """A paginator told how many there are (``count``: from the kept counts) rather than
    asking the database; None: it asks."""

    def __init__(self, object_list, per_page, *, count: int | None = None, **kwargs) -> None:
        super().__init__(object_list, per_page, **kwargs)
        if count is not None:
            self.count = count  # in place of the cached property's COUNT


def _shown_page(request, matches, per_page: int, count: int | None = None):
    """A page of matches, each with ``shown``: its result as this visitor may see it (the
    snapshot's while the contest is frozen, or none for a game played since); ``count``,
    how many there are, if known."""
    page = KnownCountPaginator(matches, per_page, count=count).get_page(request.GET.get("page"))
    listed = list(page.object_list)
    shown = publication.shown_matches(request.user, listed)
    for match in listed:
        match.shown = shown[match.pk]
    page.object_list = listed
    return page


def _match(request, pk: int) -> Match:
    """A match the user may see: a hidden contest's are hidden, and a test game is its
    players' and the judges' (404 for anyone else, as if it did not exist)."""
    match = get_object_or_404(
        publication.visible_matches(request.user, Match.objects.all())
        .select_related("contest", "stage", "verification", "result_attempt")
        .prefetch_related("seats__entry"),
        pk=pk,
    )
    _contest(request, match.contest.slug)
    return match


@require_GET
def match_detail(request, pk: int):
    match = _match(request, pk)
    head = newest_id(request.user, match.contest.slug)  # before what the page shows
    shown = publication.shown_match(request.user, match)
    seats = shown.seats
    live = _live_race(match, seats) if publication.sees_match_live(request.user, match) else None
    context = {"match": match, "contest": match.contest, "seats": seats, "shown": shown, "live": live}
    context["events_head"] = head
    if roles.may(request.user, match.contest, roles.Power.JUDGE):  # its judges see every attempt and its result
        context["attempts"] = list(match.attempts.order_by("number"))
        names = {seat.index: seat.entry.name for seat in seats}
        for attempt in context["attempts"]:
            attempt.seat_results = [
                {**seat, "name": names.get(seat["index"], "?")} for seat in (attempt.result or {}).get("seats", [])
            ]
        context["change"] = _rerun_change(match, context["attempts"])
        context["rerun_refusal"] = lifecycle.rerun_refusal(match)
        context.update(_side_by_side(request, match, context["attempts"]))
    return render(request, "contests/match.html", context)


def _side_by_side(request, match: Match, attempts: list) -> dict:
    """The judges' comparison of two attempts, as ``?a=N&b=M`` picks them (attempt numbers):
    which attempts kept a replay to choose from, the two chosen (by default the last two),
    and their moves side by side with the first that differs (``judging.record.attempts``)."""
    kept = [attempt for attempt in attempts if attempt.replay]
    said: dict = {"comparable": kept}
    if len(kept) < 2:
        return said
    numbers = {attempt.number: attempt for attempt in attempts}
    a, b = parse_id(request.GET.get("a", "")), parse_id(request.GET.get("b", ""))
    said["picked"] = (a or kept[-2].number, b or kept[-1].number)
    if a is None or b is None:
        return said
    if a not in numbers or b not in numbers:
        said["compare_refusal"] = gettext("Match %(match)s has no attempt %(attempt)s.") % {
            "match": match.pk,
            "attempt": a if a not in numbers else b,
        }
        return said
    said["compared"] = attempts_service.compare(match, numbers[a], numbers[b])
    return said


def _live_race(match: Match, seats) -> dict | None:
    """A race being run: the game's live columns and each entrant's progress a moment ago (the
    referee keeps it on the attempt every second), by entry name."""
    if match.status != Match.Status.RUNNING or not match.contest.is_hosted:
        return None
    game = registry.get(match.contest.game)
    if not isinstance(game, RaceGame):
        return None
    attempt = match.attempts.filter(outcome="running", progress__isnull=False).order_by("-number").first()
    if attempt is None:
        return None
    names = dict(
        zip(login_names([seat.entry.name for seat in seats]), (seat.entry.name for seat in seats), strict=True)
    )
    columns = game.live_columns(match.params or {})
    rows = [
        {
            "entry": names.get(e.get("name"), e.get("name")),
            "cells": [(e.get(c.key), c.of) for c in columns],
            "finished_s": e.get("finished_s"),
            "connected": e.get("connected"),
            "connections": e.get("connections"),
        }
        for e in attempt.progress.get("entrants", [])
    ]
    return {"columns": columns, "rows": rows, "started": attempt.progress.get("started")}


def _rerun_change(match: Match, attempts: list) -> dict | None:
    """How the counted result moved the standings against the result it replaced: the entries
    whose place or totals differ, each with both. None before a second result exists."""
    results = [a for a in attempts if a.result and a.outcome == "finished"]
    newer = next((a for a in results if a.pk == match.result_attempt_id), None)
    earlier = [a for a in results if newer is not None and a.number < newer.number]
    if not earlier:
        return None
    comparison = standings_service.compare(match, earlier[-1], newer)
    if comparison is None:  # a test game is in no standings
        return None
    columns = comparison.after.columns
    rows = []
    for change in comparison.changes:
        before = change.before.cells if change.before else None
        after = change.after.cells if change.after else None
        ranks = (change.before.rank if change.before else None, change.after.rank if change.after else None)
        if before != after or ranks[0] != ranks[1]:
            cells = [(before[i] if before else None, after[i] if after else None) for i in range(len(columns))]
            rows.append({"entry": change.entry, "ranks": ranks, "cells": cells, "up": change.places_up})
    return {
        "earlier": earlier[-1],
        "newer": newer,
        "columns": columns,
        "rows": rows,
        "same": len(comparison.changes) - len(rows),
    }


@login_required
@require_http_methods(["POST"])
def match_action(request, pk: int, action: str):
    """A judge's re-run or cancellation of a match, from its page."""
    match = _match(request, pk)
    if not roles.may(request.user, match.contest, roles.Power.JUDGE):
        raise PermissionDenied(
            gettext("Only the judges of %(contest)s may do this.") % {"contest": match.contest.title}
        )
    reason = request.POST.get("reason", "").strip()
    if action == "rerun":
        try:
            judges.rerun_match(request.user, match, reason)
        except formats.StageError as e:  # a bye, a match of a cancelled stage: said, never a 500
            messages.error(request, str(e))
        else:
            messages.success(
                request, gettext("The match is queued to be played again; its earlier result counts until then.")
            )
    elif judges.cancel_match(request.user, match, reason) is None:
        messages.error(request, gettext("Only a match that is queued or being played can be cancelled."))
    else:
        messages.success(request, gettext("The match is cancelled."))
    return redirect("contests:match", pk=match.pk)


def replay_shown(request, match: Match) -> dict:
    """The match's replay as this visitor may see it; 403 while its result is hidden (a
    freeze), 404 before it has one; ``?attempt=N``: that attempt's, for the contest's judges
    (403 for anyone else). The page's JSON, the API's and the bundles answer the same."""
    attempt = parse_id(request.GET["attempt"]) or 0 if request.GET.get("attempt") else None
    try:
        replay = publication.replay_for(request.user, match, attempt)
    except publication.Hidden as e:
        raise PermissionDenied(str(e)) from None
    if replay is None:
        raise Http404(gettext("This match has no replay yet."))
    return replay


@require_GET
@anonymous_limit
def match_replay(request, pk: int):
    return JsonResponse(replay_shown(request, _match(request, pk)))


def bundle_response(request, match: Match) -> HttpResponse:
    """The match's bundle (judging.bundles) as its viewer may have it: the replay they may see,
    the programs they may read, the others' hashes. The page's link and the API's the same."""
    replay = replay_shown(request, match)
    data = bundles.make(
        match,
        replay,
        readable=lambda entry: services.can_see_private(request.user, entry),
        site=request.build_absolute_uri("/").rstrip("/"),
    )
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = content_disposition_header(True, f"match-{match.pk}-bundle.zip")
    return response


@require_GET
@anonymous_limit
def match_bundle(request, pk: int):
    return bundle_response(request, _match(request, pk))


@require_GET
@anonymous_limit
def race_kit(request, slug: str):
    """A race's kit for home: the game server and the reference clients, as a zip."""
    contest = _contest(request, slug)
    game = registry.get(contest.game) if contest.is_hosted else None
    files = game.kit() if isinstance(game, RaceGame) else {}
    if not files:
        raise Http404(gettext("This contest has no game server to download."))
    return _zip_download(f"{contest.slug}-kit.zip", {f"{contest.slug}/{name}": data for name, data in files.items()})


def download_name(name: str) -> str:
    """A stored file name as a download may carry it: its last part, every control or format
    character (CR, LF, NUL, a right-to-left override) made an underscore; RFC 6266/5987
    quoting is ``content_disposition_header``'s."""
    name = Path(name.replace("\\", "/")).name
    cleaned = "".join(ch if services.printable(ch) else "_" for ch in name)
    return cleaned.strip(". ") or "download"


def _zip_download(filename: str, files: dict[str, str | bytes]) -> HttpResponse:
    """A zip of ``files`` (name in the archive: content), sorted by name, as a download."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in sorted(files.items()):
            archive.writestr(name, content)
    response = HttpResponse(buffer.getvalue(), content_type="application/zip")
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


@require_GET
@anonymous_limit
def practice_inputs(request, slug: str):
    """An output-only contest's practice inputs, every file a run finds in its folder, as a
    zip: the page's "Download, extract ... and use one input file of your choice"."""
    contest = _contest(request, slug)
    game = registry.get(contest.game) if contest.is_hosted else None
    if not isinstance(game, BatchGame):
        raise Http404(gettext("This contest has no input files to practise on."))
    seconds = Clock.from_json({**game.default_clock, **contest.clock}).seconds or 300
    data = None
    if contest.game_data:
        with contest.game_data.open("rb") as f:
            data = f.read()
    with tempfile.TemporaryDirectory(prefix="arbiter-practice-") as folder:
        game.write_inputs(
            Path(folder), game.resolve_params(contest.game_params), game.practice_seed, int(seconds), data
        )
        files = {p.relative_to(folder).as_posix(): p.read_bytes() for p in Path(folder).rglob("*") if p.is_file()}
    return _zip_download(f"{contest.slug}-practice.zip", files)
