"""The judges' deeds: stages, re-runs and cancels, verification, freeze and publish, people, the log, entries' status."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from contests import roles, services
from contests.models import Contest, Entry, Stage, Submission
from judging import services as judges
from judging.models import Match
from judging.record import formats, publication, verification
from web import serializers as s
from web.api.common import contest_of, paged, paginate, require, stage_data, stages_of
from web.api.matches import match_data, match_of
from web.api_support import body_object, error_body, idempotent, refused


def _stage_refused(e: formats.StageError) -> Response:
    """A stage's parameters not as its kind takes them: 400 naming each; a move its state does
    not allow (run a cancelled stage, re-run a pending one): 409."""
    if isinstance(e, formats.ParamsError):
        return Response(error_body(400, "invalid", str(e), e.fields), status=400)
    return refused(str(e), status.HTTP_409_CONFLICT)


@extend_schema(
    methods=["GET"],
    responses=s.StageSerializer(many=True),
    summary="A contest's stages, in order, with their matches by state",
    operation_id="stages_list",
)
@extend_schema(
    methods=["POST"],
    request=s.StageCreateSerializer,
    responses={201: s.StageSerializer},
    summary="Judges: add a stage (run it when it is time)",
    description="Its kind is one the contest's game can be played in (the judges' form lists them); its params "
    'those of the kind and of the game, each checked (a 400 names every one that is not); entries "ready" '
    "(every entry with a playable version when it runs) or a list of entry ids.",
    operation_id="stages_create",
)
@api_view(["GET", "POST"])
@permission_classes([AllowAny])
@idempotent
def contest_stages(request, slug: str):
    contest = contest_of(request, slug)
    if request.method == "GET":
        return Response(s.StageSerializer(stages_of(contest), many=True).data)
    require(request, contest)
    body = s.StageCreateSerializer(data=body_object(request))
    body.is_valid(raise_exception=True)
    data = body.validated_data
    try:
        stage = judges.add_stage(
            request.user,
            contest,
            kind=data["kind"],
            name=data["name"],
            params=data.get("params") or {},
            entries=data.get("entries", "ready"),
            order=data.get("order"),
            reason=data.get("reason", ""),
        )
    except formats.StageError as e:
        return _stage_refused(e)
    return Response(stage_data(stage), status=status.HTTP_201_CREATED)


def _stage(request, pk: int) -> Stage:
    stage = get_object_or_404(Stage.objects.select_related("contest"), pk=pk)
    contest_of(request, stage.contest.slug)
    return stage


def _judged_match(request, pk: int) -> Match:
    """A match of a contest the user judges (any match: a judge sees the test games too)."""
    match = get_object_or_404(Match.objects.select_related("contest"), pk=pk)
    require(request, match.contest)
    return match


def _judged_entry(request, pk: int) -> Entry:
    entry = get_object_or_404(Entry.objects.select_related("contest"), pk=pk)
    require(request, entry.contest)
    return entry


@extend_schema(
    methods=["GET"],
    responses=s.StageSerializer,
    summary="A stage: its status and its matches by state",
    operation_id="stages_detail",
)
@extend_schema(
    methods=["DELETE"],
    request=s.ReasonSerializer,
    responses={204: None},
    summary="Judges: delete a stage that never ran (none of its matches started), with its queued matches",
    description="A stage that ran, or the system test, is refused: 409 with the reason (cancel it instead).",
    operation_id="stages_delete",
)
@api_view(["GET", "DELETE"])
@permission_classes([AllowAny])
def stage_detail(request, pk: int):
    stage = _stage(request, pk)
    if request.method == "GET":
        return Response(stage_data(stage))
    require(request, stage.contest)
    try:
        judges.delete_stage(request.user, stage, _reason(request))
    except formats.StageError as e:
        return _stage_refused(e)
    return Response(status=status.HTTP_204_NO_CONTENT)


def _reason(request) -> str:
    body = s.ReasonSerializer(data=body_object(request))
    body.is_valid(raise_exception=True)
    return body.validated_data.get("reason", "")


@extend_schema(
    request=s.ReasonSerializer,
    responses={202: s.StageSerializer},
    summary="Judges: run a stage (schedule its matches); running it again schedules nothing",
    operation_id="stages_run",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def stage_run(request, pk: int):
    stage = _stage(request, pk)
    require(request, stage.contest)
    try:
        made = judges.run_stage(request.user, stage, _reason(request))
    except formats.StageError as e:
        return _stage_refused(e)
    return Response(stage_data(stage, scheduled=len(made)), status=status.HTTP_202_ACCEPTED)


@extend_schema(
    request=s.ReasonSerializer,
    responses={202: s.StageSerializer},
    summary="Judges: play every game of a stage again (its byes stay byes); each earlier result counts until then",
    operation_id="stages_rerun",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def stage_rerun(request, pk: int):
    stage = _stage(request, pk)
    require(request, stage.contest)
    try:
        queued = judges.rerun_stage(request.user, stage, _reason(request))
    except formats.StageError as e:
        return _stage_refused(e)
    return Response(stage_data(stage, queued=queued), status=status.HTTP_202_ACCEPTED)


@extend_schema(
    request=s.ReasonSerializer,
    responses={200: s.StageSerializer},
    summary="Judges: cancel a stage for good (its queued, running and failed matches stop; finished games stay)",
    operation_id="stages_cancel",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def stage_cancel(request, pk: int):
    stage = _stage(request, pk)
    require(request, stage.contest)
    try:
        stopped = judges.cancel_stage(request.user, stage, _reason(request))
    except formats.StageError as e:
        return _stage_refused(e)
    return Response(stage_data(stage, stopped=stopped))


@extend_schema(
    request=s.ReasonSerializer,
    responses={200: s.StageSerializer},
    summary="Judges: credit every output still waiting with its claimed score, once the winner is verified",
    operation_id="stages_credit_rest",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def stage_credit_rest(request, pk: int):
    stage = _stage(request, pk)
    require(request, stage.contest)
    if stage.kind != "batch":
        return refused(
            gettext("%(stage)s is not an output-only run: it has no outputs to verify.") % {"stage": stage.name},
            status.HTTP_409_CONFLICT,
        )
    try:
        credited = verification.credit_rest(stage, request.user, _reason(request))
    except verification.VerificationError as e:
        return refused(str(e), status.HTTP_409_CONFLICT)
    return Response(stage_data(stage, credited=credited))


def _contest_state(contest: Contest, **extra) -> dict:
    contest.refresh_from_db(fields=["standings_frozen_at", "results_published_at"])
    return {
        "contest": contest.slug,
        "frozen_at": contest.standings_frozen_at,
        "results_published_at": contest.results_published_at,
        **extra,
    }


@extend_schema(
    request=s.ReasonSerializer,
    responses={200: s.ContestStateSerializer},
    summary="Judges: freeze the public standings (a snapshot of every result now, until published)",
    operation_id="contests_freeze",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def contest_freeze(request, slug: str):
    contest = contest_of(request, slug)
    require(request, contest)
    try:
        held = judges.freeze_standings(request.user, contest, _reason(request))
    except publication.Refused as e:
        return refused(str(e), status.HTTP_409_CONFLICT)
    return Response(_contest_state(contest, frozen_results=held))


@extend_schema(
    request=s.ReasonSerializer,
    responses={200: s.ContestStateSerializer},
    summary="Judges: publish the results (everyone sees every game's result)",
    operation_id="contests_publish",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def contest_publish(request, slug: str):
    contest = contest_of(request, slug)
    require(request, contest)
    judges.publish_results(request.user, contest, _reason(request))
    return Response(_contest_state(contest))


def _people(contest: Contest) -> list[dict]:
    return s.ContestPersonSerializer(roles.people(contest), many=True).data


def _role_refused(e: roles.RoleError) -> Response:
    code = {400: "invalid", 403: "forbidden", 404: "not_found"}[e.status]
    return Response(error_body(e.status, code, str(e)), status=e.status)


@extend_schema(
    methods=["GET"],
    responses=s.ContestPersonSerializer(many=True),
    summary="A contest's people: its owner, co-organisers and judges (for its own judges and organisers)",
    operation_id="contests_roles_list",
)
@extend_schema(
    methods=["POST"],
    request=s.RoleGrantSerializer,
    responses={201: s.ContestPersonSerializer(many=True)},
    summary="Owner: name a co-organiser or a judge of the contest (a user named again gets the new role)",
    description="Only the contest's owner or a site administrator; written in the judges' log (role.grant) "
    "and told to the user named. Answers the contest's people.",
    operation_id="contests_roles_grant",
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def contest_roles(request, slug: str):
    contest = contest_of(request, slug)
    if request.method == "GET":
        require(request, contest)
        return Response(_people(contest))
    require(request, contest, roles.Power.NAME)
    body = s.RoleGrantSerializer(data=body_object(request))
    body.is_valid(raise_exception=True)
    data = body.validated_data
    try:
        roles.grant(request.user, contest, data["user"], data["role"], data.get("reason", ""))
    except roles.RoleError as e:
        return _role_refused(e)
    return Response(_people(contest), status=status.HTTP_201_CREATED)


@extend_schema(
    request=None,
    responses={200: s.ContestPersonSerializer(many=True)},
    summary="Owner: take a co-organiser's or a judge's role away (the owner's cannot be)",
    operation_id="contests_roles_revoke",
)
@api_view(["DELETE"])
@permission_classes([IsAuthenticated])
def contest_role(request, slug: str, username: str):
    contest = contest_of(request, slug)
    require(request, contest, roles.Power.NAME)
    try:
        roles.revoke(request.user, contest, username, request.query_params.get("reason", ""))
    except roles.RoleError as e:
        return _role_refused(e)
    return Response(_people(contest))


@extend_schema(
    request=s.VerifySerializer,
    responses={200: s.MatchSerializer},
    summary="Judges: accept or reject an output of an output-only run (a rejection says why: its contestant reads it)",
    operation_id="matches_verify",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def match_verify(request, pk: int):
    match = match_of(request, pk)
    require(request, match.contest)
    body = s.VerifySerializer(data=body_object(request))
    body.is_valid(raise_exception=True)
    if match.stage is None or match.stage.kind != "batch":
        return refused(
            gettext("Match %(match)s is not a run of an output-only stage: there is no output to verify.")
            % {"match": match.pk},
            409,
        )
    try:
        verification.decide(match, request.user, body.validated_data["decision"], body.validated_data.get("note", ""))
    except verification.VerificationError as e:
        return refused(str(e), status.HTTP_409_CONFLICT)
    return Response(match_data(request, match))


@extend_schema(
    responses=paged(s.JudgeActionSerializer),
    summary="Judges: the contest's judges' log, newest first, 50 lines a page (as its page and CSV)",
    description="The contest's judges, co-organisers and owner only.",
    operation_id="contests_judges_log",
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def judges_log(request, slug: str):
    contest = contest_of(request, slug)
    require(request, contest)
    return paginate(request, contest.judge_actions.select_related("judge"), s.JudgeActionSerializer)


@extend_schema(
    request=s.ReasonSerializer,
    responses={202: s.MatchSerializer},
    summary="Judges: play a match again (one being played is called off); its earlier result counts until then",
    description="A bye or a match of a cancelled stage cannot be played again: 409 with the reason.",
    operation_id="matches_rerun",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def match_rerun(request, pk: int):
    match = _judged_match(request, pk)
    try:
        match = judges.rerun_match(request.user, match, _reason(request))
    except formats.StageError as e:
        return _stage_refused(e)
    return Response(s.MatchSerializer(match).data, status=status.HTTP_202_ACCEPTED)


@extend_schema(
    request=s.ReasonSerializer,
    responses={200: s.MatchSerializer},
    summary="Judges: cancel a match that is queued or being played",
    operation_id="matches_cancel",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def match_cancel(request, pk: int):
    match = _judged_match(request, pk)
    match = judges.cancel_match(request.user, match, _reason(request))
    if match is None:
        return refused(
            gettext("Only a match that is queued or being played can be cancelled."), status.HTTP_409_CONFLICT
        )
    return Response(s.MatchSerializer(match).data)


@extend_schema(
    responses=s.AttemptSerializer(many=True),
    summary="Judges: every attempt at a match, with its worker, times, and result or fault",
    operation_id="matches_attempts",
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def match_attempts(request, pk: int):
    match = _judged_match(request, pk)
    return Response(s.AttemptSerializer(match.attempts.select_related("match").order_by("number"), many=True).data)


@extend_schema(
    request=None,
    responses={202: s.SubmissionSerializer},
    summary="Judges: build again a submission the platform failed to build",
    operation_id="submissions_rebuild",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def submission_rebuild(request, pk: int):
    submission = get_object_or_404(Submission.objects.select_related("entry__contest"), pk=pk)
    require(request, submission.entry.contest)
    if not judges.rebuild(request.user, submission):
        return refused(gettext("Only a build the platform failed (or lost) can be retried."), status.HTTP_409_CONFLICT)
    submission.refresh_from_db()
    return Response(s.SubmissionSerializer(submission).data, status=status.HTTP_202_ACCEPTED)


@extend_schema(
    request=s.ReasonSerializer,
    responses=s.EntrySerializer,
    summary="Judges: disqualify an entry, with a reason",
    operation_id="entries_disqualify",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def entry_disqualify(request, pk: int):
    entry = _judged_entry(request, pk)
    body = s.ReasonSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    try:
        entry = services.disqualify(request.user, entry, body.validated_data.get("reason", ""))
    except services.Refused as e:
        return refused(str(e))
    return Response(s.EntrySerializer(entry).data)


@extend_schema(
    request=s.ReasonSerializer,
    responses=s.EntrySerializer,
    summary="Judges: reinstate a disqualified entry",
    operation_id="entries_reinstate",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def entry_reinstate(request, pk: int):
    entry = _judged_entry(request, pk)
    body = s.ReasonSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    try:
        entry = services.reinstate(request.user, entry, body.validated_data.get("reason", ""))
    except services.Refused as e:
        return refused(str(e), status.HTTP_409_CONFLICT)
    return Response(s.EntrySerializer(entry).data)
