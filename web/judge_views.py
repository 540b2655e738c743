"""The judges' pages of a contest: verifying the outputs of an output-only stage, in the
MSO page's order, and the log of every judge action. Each view translates HTTP to a service
call (judging.record.verification) and renders the answer."""

from __future__ import annotations

import csv
import functools
import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.db.models import Count, Min, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_GET, require_http_methods

from contests import roles, services
from contests.models import Contest, Entry, Stage, Submission
from judging import metrics, queues
from judging import services as judges
from judging.models import Match, MatchAttempt, WorkerHeartbeat
from judging.play import matches as judging_matches
from judging.play.matches import stale_after
from judging.record import formats, lifecycle, publication, verification
from web.converters import parse_id
from web.events import newest_id
from web.stage_form import StageForm, kinds_for
from web.views import _contest


def _judge(request, slug: str) -> Contest:
    """The contest, for one of its judges (or organisers, or an administrator): 404 to whoever
    may not see it, 403 to whoever sees it but does not judge it."""
    contest = _contest(request, slug)
    if not roles.may(request.user, contest, roles.Power.JUDGE):
        raise PermissionDenied(
            gettext("Only the judges of %(contest)s may see this page.") % {"contest": contest.title}
        )
    return contest


def _batch_stages(contest: Contest):
    return contest.stages.filter(kind="batch").order_by("order")


@login_required
@require_GET
def verification_queue(request, slug: str):
    contest = _judge(request, slug)
    stages = list(_batch_stages(contest))
    stage = None
    if request.GET.get("stage"):
        stage = next((s for s in stages if s.pk == parse_id(request.GET["stage"])), None)
    stage = stage or next((s for s in reversed(stages) if s.status != Stage.Status.PENDING), None)
    state = verification.progress(stage) if stage else None
    return render(
        request,
        "contests/verification.html",
        {"contest": contest, "stages": stages, "stage": stage, "state": state},
    )


def _claim(contest: Contest, match_id: int) -> verification.Claim:
    match = get_object_or_404(Match, pk=match_id, contest=contest, stage__kind="batch")
    found = next((c for c in verification.claims(match.stage) if c.match.pk == match.pk), None)
    if found is None:
        raise verification.VerificationError("This run has no output to verify yet.")
    return found


@login_required
@require_http_methods(["GET", "POST"])
def verify_output(request, slug: str, match_id: int):
    contest = _judge(request, slug)
    try:
        claim = _claim(contest, match_id)
    except verification.VerificationError as e:
        messages.error(request, str(e))
        return redirect("contests:verification", slug=contest.slug)
    if request.method == "POST":
        decision = request.POST.get("decision", "")
        try:
            verification.decide(claim.match, request.user, decision, request.POST.get("note", ""))
        except verification.VerificationError as e:
            messages.error(request, str(e))
            return redirect("contests:verify-output", slug=contest.slug, match_id=claim.match.pk)
        said = {
            "accepted": gettext("The output of %(entry)s is accepted."),
            "rejected": gettext("The output of %(entry)s is rejected."),
        }.get(decision, gettext("The output of %(entry)s is waiting for a judge again."))
        messages.success(request, said % {"entry": claim.seat.entry.name})
        return redirect(f"{_queue_url(contest)}?stage={claim.match.stage_id}")
    replay = claim.match.load_replay() or {}
    return render(
        request,
        "contests/verify_output.html",
        {
            "contest": contest,
            "claim": claim,
            "match": claim.match,
            "report": replay.get("verification") or {},
            "output": replay.get("output", ""),
            "printed": replay.get("printed", ""),
        },
    )


def _queue_url(contest: Contest) -> str:
    from django.urls import reverse

    return reverse("contests:verification", args=[contest.slug])


@login_required
@require_http_methods(["POST"])
def credit_rest(request, slug: str, stage_id: int):
    contest = _judge(request, slug)
    stage = get_object_or_404(_batch_stages(contest), pk=stage_id)
    try:
        count = verification.credit_rest(stage, request.user, request.POST.get("note", ""))
    except verification.VerificationError as e:
        messages.error(request, str(e))
    else:
        said = ngettext(
            "%(count)s output credited with the score claimed.",
            "%(count)s outputs credited with the score claimed.",
            count,
        )
        messages.success(request, said % {"count": count})
    return redirect(f"{_queue_url(contest)}?stage={stage.pk}")


@login_required
@require_GET
def judges_log(request, slug: str):
    contest = _judge(request, slug)
    actions = contest.judge_actions.select_related("judge")
    if request.GET.get("format") == "csv":
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{contest.slug}-judges-log.csv"'
        writer = csv.writer(response)
        writer.writerow(["when (UTC)", "judge", "action", "target", "reason", "data"])
        for a in actions.iterator():
            data = json.dumps(a.data, ensure_ascii=False, sort_keys=True) if a.data is not None else ""
            row = [a.at.isoformat(), a.judge.username if a.judge else "", a.action, a.target, a.reason, data]
            writer.writerow([_cell(value) for value in row])
        return response
    page = Paginator(actions, 100).get_page(request.GET.get("page"))
    return render(request, "contests/judges_log.html", {"contest": contest, "page": page})


def _cell(value: str) -> str:
    """A CSV cell a spreadsheet shows as text: one a contestant wrote (an entry's name in a
    target, a reason) that starts like a formula gets a leading apostrophe."""
    return "'" + value if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


# --- The console --------------------------------------------------------------------------


CONSOLE_LIST = 20  # the newest failed matches, unbuilt submissions and judges' actions shown


def _console_state(contest: Contest) -> dict:
    """What a judge watches: each stage's progress and queue, the workers alive, the matches
    being played (and those whose player has gone silent), the entries."""
    now = timezone.now()
    stages = list(
        contest.stages.annotate(
            total=Count("matches", filter=~Q(matches__status=Match.Status.CANCELLED)),
            finished=Count("matches", filter=Q(matches__status=Match.Status.FINISHED)),
            queued=Count("matches", filter=Q(matches__status=Match.Status.QUEUED)),
            running=Count("matches", filter=Q(matches__status=Match.Status.RUNNING)),
            failed=Count("matches", filter=Q(matches__status=Match.Status.FAILED)),
            oldest_queued=Min("matches__queued_at", filter=Q(matches__status=Match.Status.QUEUED)),
        ).order_by("order")
    )
    for stage in stages:
        stage.waited = now - stage.oldest_queued if stage.oldest_queued else None
        stage.by_judges = formats.of(stage.kind).run_by_judges
        stage.deletable = stage.by_judges and stage.total == stage.queued and not lifecycle.deletion_refusal(stage)
    attempts = list(
        MatchAttempt.objects.filter(match__contest=contest, outcome=MatchAttempt.Outcome.RUNNING)
        .select_related("match__stage")
        .order_by("started_at")
    )
    for attempt in attempts:
        attempt.silent = now - attempt.last_seen
        attempt.stuck = attempt.silent > stale_after()
    alive_since = now - stale_after()
    workers = list(WorkerHeartbeat.objects.filter(stopped_at__isnull=True, last_seen__gte=alive_since))
    # A worker whose sandbox failed its self-check serves nothing, whatever its queues.
    playing = ("full", "degraded") if settings.ARBITER_INSECURE_ALLOW_DEGRADED_SANDBOX else ("full",)
    able = [w for w in workers if w.sandbox_level in playing]
    served = {q for w in able if not w.low_disk for q in w.queues}
    plays = queues.RACES if contest.game in queues.race_games() else queues.MATCHES
    # A queue whose only workers have a full disk is served again once there is room: say that.
    full = {q: [w for w in able if w.low_disk and q in w.queues] for q in (queues.BUILDS, plays) if q not in served}
    unserved = [queue for queue, waiting in full.items() if not waiting]
    disk_full = [  # each queue, and its workers' hosts with why they claim nothing, as one phrase
        (queue, "; ".join(f"{w.hostname}: {w.low_disk}" for w in waiting)) for queue, waiting in full.items() if waiting
    ]
    failed = (
        contest.matches.filter(status=Match.Status.FAILED)
        .select_related("stage")
        .prefetch_related("seats__entry")
        .order_by("-finished_at")[:CONSOLE_LIST]
    )
    unbuilt = (
        Submission.objects.filter(entry__contest=contest, status=Submission.Status.PLATFORM_FAULT)
        .select_related("entry")
        .order_by("-created_at")[:CONSOLE_LIST]
    )
    platform = metrics.snapshot()
    return {
        "stages": stages,
        "attempts": attempts,
        "failed": list(failed),
        "unbuilt": list(unbuilt),
        "actions": list(contest.judge_actions.select_related("judge")[:CONSOLE_LIST]),
        "workers": workers,
        "unserved": unserved if workers else [],
        "disk_full": disk_full,
        "entries": list(contest.entries.select_related("user").order_by("is_reference", "name")),
        "disqualified": Entry.Status.DISQUALIFIED,
        "max_faults": lifecycle.MAX_FAULTS,
        "platform": platform,
        # each state and outcome counted, in words ("1 finished · 1 queued"), not their codes
        "match_counts": [(n, Match.Status(state).label.lower()) for state, n in platform.matches.items()],
        "attempt_counts": [(n, MatchAttempt.Outcome(kind).label.lower()) for kind, n in platform.attempts.items()],
    }


def _says_what_is_down(view):
    """A page that needs the database (who the visitor is, the contest) answers, while it is
    away, what is down and what is not, in a page that reads nothing from it: a 503 that
    looks again by itself, never a bare 500."""

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except judging_matches.DB_ERRORS as e:
            from judging import disks

            page = render_to_string(
                "contests/console_down.html",
                {
                    "error": f"{type(e).__name__}: {e}".strip(),
                    "broker_up": metrics.broker_up(),
                    "low_disks": disks.low(),
                    "retry": CONSOLE_DOWN_RETRY_S,
                },
            )
            response = HttpResponse(page, status=503)
            response["Retry-After"] = str(CONSOLE_DOWN_RETRY_S)
            return response

    return wrapper


CONSOLE_DOWN_RETRY_S = 10


@_says_what_is_down
@login_required
@require_GET
def console(request, slug: str):
    contest = _judge(request, slug)
    head = newest_id(request.user, slug)  # before what the page shows
    context = {"contest": contest, "events_head": head, **_console_state(contest)}
    context["batch"] = _batch_stages(contest).exists()
    return render(request, "contests/console.html", context)


@login_required
@require_http_methods(["POST"])
def console_action(request, slug: str):
    """A judge's action from the console: run, re-run, cancel or delete a stage, re-run a failed match,
    build again what the platform failed to build, freeze or publish the standings, disqualify
    or reinstate an entry (with the reason the contestant reads); each logged with who and when."""
    contest = _judge(request, slug)
    action = request.POST.get("action", "")
    reason = request.POST.get("reason", "").strip()
    try:
        if action in ("run_stage", "rerun_stage", "cancel_stage", "delete_stage"):
            stage = get_object_or_404(contest.stages, pk=parse_id(request.POST.get("stage", "")) or 0)
            if action == "run_stage":
                made = judges.run_stage(request.user, stage, reason)
                if made:
                    said = gettext("%(stage)s: %(count)s matches scheduled.") % {
                        "stage": stage.name,
                        "count": len(made),
                    }
                else:
                    said = gettext("%(stage)s was already scheduled.") % {"stage": stage.name}
                messages.success(request, said)
            elif action == "cancel_stage":
                stopped = judges.cancel_stage(request.user, stage, reason)
                messages.success(
                    request,
                    gettext("%(stage)s is cancelled: %(stopped)s.")
                    % {"stage": stage.name, "stopped": stopped_in_words(stopped)},
                )
            elif action == "delete_stage":
                dropped = judges.delete_stage(request.user, stage, reason)
                if dropped:
                    said = gettext("%(stage)s is deleted, with its %(count)s queued matches.")
                else:
                    said = gettext("%(stage)s is deleted.")
                messages.success(request, said % {"stage": stage.name, "count": dropped})
            else:
                queued = judges.rerun_stage(request.user, stage, reason)
                messages.success(
                    request,
                    gettext("%(stage)s: %(count)s matches to be played again.")
                    % {"stage": stage.name, "count": queued},
                )
        elif action in ("rerun_match", "cancel_match", "rebuild"):
            if action in ("rerun_match", "cancel_match"):
                match = get_object_or_404(contest.matches, pk=parse_id(request.POST.get("match", "")) or 0)
                if action == "rerun_match":
                    judges.rerun_match(request.user, match, reason)
                    messages.success(
                        request, gettext("Match %(match)s is queued to be played again.") % {"match": match.pk}
                    )
                elif judges.cancel_match(request.user, match, reason) is None:
                    messages.error(request, gettext("Match %(match)s had already ended.") % {"match": match.pk})
                else:
                    messages.success(request, gettext("Match %(match)s is cancelled.") % {"match": match.pk})
            else:
                pk = parse_id(request.POST.get("submission", "")) or 0
                submission = get_object_or_404(Submission.objects.filter(entry__contest=contest), pk=pk)
                if judges.rebuild(request.user, submission, reason):
                    messages.success(
                        request, gettext("%(version)s is queued to be built again.") % {"version": submission}
                    )
                else:
                    messages.error(request, gettext("Only a build the platform failed (or lost) can be retried."))
        elif action == "freeze":
            held = judges.freeze_standings(request.user, contest, reason)
            said = gettext(
                "The public standings are frozen: the public sees the %(held)s results of now until they are "
                "published; games played from now on show as played, their results hidden."
            )
            messages.success(request, said % {"held": held})
        elif action == "publish":
            judges.publish_results(request.user, contest, reason)
            messages.success(request, gettext("The results are published: everyone sees every game's result."))
        elif action in ("disqualify", "reinstate"):
            entry = get_object_or_404(contest.entries, pk=parse_id(request.POST.get("entry", "")) or 0)
            if action == "disqualify":
                entry = services.disqualify(request.user, entry, reason)
            else:
                entry = services.reinstate(request.user, entry, reason)
            if entry.status == Entry.Status.DISQUALIFIED:
                said = gettext("%(entry)s is disqualified.")
            else:
                said = gettext("%(entry)s is reinstated.")
            messages.success(request, said % {"entry": entry.name})
        else:
            messages.error(request, gettext("Unknown action."))
    except (formats.StageError, services.Refused, publication.Refused) as e:
        messages.error(request, str(e))
    return redirect("contests:console", slug=contest.slug)


def stopped_in_words(stopped: dict[str, int]) -> str:
    """'3 matches stopped (2 queued, 1 being played)', or 'no match was left to play'."""
    total = sum(stopped.values())
    if not total:
        return gettext("no match was left to play")
    words = {
        "queued": gettext("%(n)s queued"),
        "running": gettext("%(n)s being played"),
        "failed": gettext("%(n)s failed"),
    }
    parts = ", ".join(words[status] % {"n": n} for status, n in stopped.items() if n)
    said = ngettext("%(total)s match stopped (%(parts)s)", "%(total)s matches stopped (%(parts)s)", total)
    return said % {"total": total, "parts": parts}


@login_required
@require_http_methods(["GET", "POST"])
def add_stage(request, slug: str):
    """A new stage from a form: its kind first, then its parameters, each named and checked.
    The contest's judges and organisers add stages (as through the API), and run them from
    the console."""
    contest = _judge(request, slug)
    if not contest.is_hosted:
        raise PermissionDenied(gettext("Its game is not hosted here: it has no stages to run."))
    kinds = kinds_for(contest)
    kind = request.POST.get("kind") or request.GET.get("kind")
    form = None
    if kind in dict(kinds):
        form = StageForm(contest, kind, request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            try:
                stage = form.save(request.user)
            except formats.ParamsError as e:
                for name, message in e.fields.items():
                    form.add_error(None, f"{name}: {message}")
            else:
                messages.success(
                    request,
                    gettext("%(stage)s is added; run it from the console when it is time.") % {"stage": stage.name},
                )
                return redirect("contests:console", slug=contest.slug)
    return render(request, "contests/add_stage.html", {"contest": contest, "kinds": kinds, "kind": kind, "form": form})
