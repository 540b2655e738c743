"""The judges' pages of a contest: verifying the outputs of an output-only stage, in the
MSO page's order, and the log of every judge action. Each view translates HTTP to a service
call (judging.verification) and renders the answer."""

from __future__ import annotations

import csv

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from arbiter.converters import parse_id
from contests.models import Contest, Match, Stage
from contests.views import _contest
from judging import verification


def _judge(request, slug: str, perm: str = "contests.verify_output") -> Contest | HttpResponse:
    if not request.user.has_perm(perm):
        raise PermissionDenied("Only the contest's judges may see this page.")
    return _contest(request, slug)


def _batch_stages(contest: Contest):
    return contest.stages.filter(kind=Stage.Kind.BATCH).order_by("order")


@login_required
@require_GET
def verification_queue(request, slug: str):
    contest = _judge(request, slug)
    if isinstance(contest, HttpResponse):
        return contest
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
    match = get_object_or_404(Match, pk=match_id, contest=contest, stage__kind=Stage.Kind.BATCH)
    found = next((c for c in verification.claims(match.stage) if c.match.pk == match.pk), None)
    if found is None:
        raise verification.VerificationError("This run has no output to verify yet.")
    return found


@login_required
@require_http_methods(["GET", "POST"])
def verify_output(request, slug: str, match_id: int):
    contest = _judge(request, slug)
    if isinstance(contest, HttpResponse):
        return contest
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
        messages.success(request, f"{claim.seat.entry.name}'s output is {decision}.")
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
    if isinstance(contest, HttpResponse):
        return contest
    stage = get_object_or_404(_batch_stages(contest), pk=stage_id)
    try:
        count = verification.credit_rest(stage, request.user, request.POST.get("note", ""))
    except verification.VerificationError as e:
        messages.error(request, str(e))
    else:
        messages.success(request, f"{count} output{'s' if count != 1 else ''} credited with the score claimed.")
    return redirect(f"{_queue_url(contest)}?stage={stage.pk}")


@login_required
@require_GET
def judges_log(request, slug: str):
    contest = _judge(request, slug, perm="contests.view_judgeaction")
    if isinstance(contest, HttpResponse):
        return contest
    actions = contest.judge_actions.select_related("judge")
    if request.GET.get("format") == "csv":
        response = HttpResponse(content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{contest.slug}-judges-log.csv"'
        writer = csv.writer(response)
        writer.writerow(["when (UTC)", "judge", "action", "target", "reason", "data"])
        for a in actions.iterator():
            writer.writerow(
                [a.at.isoformat(), a.judge.username if a.judge else "", a.action, a.target, a.reason, a.data]
            )
        return response
    page = Paginator(actions, 100).get_page(request.GET.get("page"))
    return render(request, "contests/judges_log.html", {"contest": contest, "page": page})
