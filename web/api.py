"""The REST API: each view translates HTTP to the same service calls the pages make."""

from __future__ import annotations

import math

from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Prefetch, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.decorators import api_view, parser_classes, permission_classes, throttle_classes
from rest_framework.exceptions import APIException, NotAuthenticated
from rest_framework.pagination import PageNumberPagination
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from contests import roles, services
from contests.models import Contest, Entry, Stage, Submission
from games import registry
from judging import (
    confidence,
    counts,
    formats,
    notifications,
    publication,
    scheduling,
    testgames,
    verification,
    versus,
)
from judging import services as judges
from judging import standings as standings_service
from judging.models import Match, MatchSeat, Notification
from web import serializers as s
from web.api_support import HEAVY_THROTTLES, JSONParser, body_object, error_body, idempotent, refused
from web.contest_form import ContestForm, settings_of
from web.converters import parse_id
from web.uploads import limit_uploads, upload_refusal
from web.views import KnownCountPaginator, bundle_response, own_entries, replay_shown


def paged(serializer_class) -> serializers.Serializer:
    """The schema of a page of a list, as PageNumberPagination answers it."""
    name = serializer_class.__name__.removesuffix("Serializer")
    return inline_serializer(
        f"Paginated{name}List",
        {
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": serializer_class(many=True),
        },
    )


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    description="Send a retry with the same key to get the first answer back.",
)


def _contest(request, slug: str) -> Contest:
    return get_object_or_404(services.visible_contests(request.user), slug=slug)


class KnownCountPagination(PageNumberPagination):
    """Pages of a list whose length is known already (``count``; None: counted as usual)."""

    def __init__(self, count: int | None = None) -> None:
        self.known = count

    def django_paginator_class(self, object_list, per_page) -> KnownCountPaginator:
        return KnownCountPaginator(object_list, per_page, count=self.known)


def _paginate(request, queryset, serializer_class):
    paginator = PageNumberPagination()
    page = paginator.paginate_queryset(queryset, request)
    return paginator.get_paginated_response(serializer_class(page, many=True).data)


def _counted(stages: list[Stage]) -> list[Stage]:
    """The stages, each with its matches by status (from the kept counts: judging.counts)."""
    found = counts.by_status(stage.pk for stage in stages)
    for stage in stages:
        for state, n in found[stage.pk].items():
            setattr(stage, f"matches_{state}", n)
    return stages


def _stages(contest: Contest) -> list[Stage]:
    return _counted(list(contest.stages.order_by("order")))


def _stage_data(stage: Stage, **extra) -> dict:
    """A stage's state now (status, its matches by state), with what the action says of itself."""
    fresh = _counted([Stage.objects.select_related("contest").get(pk=stage.pk)])[0]
    return {**s.StageSerializer(fresh).data, **extra}


# --- Contests --------------------------------------------------------------------------------


@extend_schema(responses=s.MeSerializer, summary="Who the token or session belongs to", operation_id="me")
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def me(request):
    return Response(
        {
            "username": request.user.username,
            "is_judge": services.is_judge(request.user),
            "is_organiser": services.is_organiser(request.user),
            "is_admin": request.user.is_superuser,
            "roles": [
                {"contest": slug, "role": role}
                for slug, role in request.user.contest_roles.order_by("contest__slug").values_list(
                    "contest__slug", "role"
                )
            ],
        }
    )


@extend_schema(methods=["GET"], responses=paged(s.ContestSerializer), summary="Contests", operation_id="contests_list")
@extend_schema(
    methods=["POST"],
    request=s.ContestWriteSerializer,
    responses={201: s.ContestDetailSerializer},
    parameters=[IDEMPOTENCY_KEY],
    summary="Organisers: open a contest",
    description="Its settings are checked as on the organisers' page and in the admin (a 400 names each one "
    "refused, in words); the contest is written in its judges' log (contest.create). Add its stages with "
    "POST /api/contests/SLUG/stages/.",
    operation_id="contests_create",
)
@api_view(["GET", "POST"])
@permission_classes([AllowAny])
@idempotent
def contest_list(request):
    if request.method == "POST":
        _require_organiser(request)
        return _save_contest(request, None)
    return _paginate(request, services.visible_contests(request.user), s.ContestSerializer)


@extend_schema(
    methods=["GET"],
    responses=s.ContestDetailSerializer,
    summary="A contest: rules, parameters, time limits, stages, policy",
    operation_id="contests_detail",
)
@extend_schema(
    methods=["PATCH"],
    request=s.ContestWriteSerializer,
    responses={200: s.ContestDetailSerializer},
    summary="Organisers: edit a contest (only the settings sent change)",
    description="Checked as on the organisers' page and in the admin (a 400 names each setting refused); "
    "written in the judges' log (contest.edit, with each setting changed, from and to).",
    operation_id="contests_edit",
)
@api_view(["GET", "PATCH"])
@permission_classes([AllowAny])
def contest_detail(request, slug: str):
    contest = _contest(request, slug)
    if request.method == "PATCH":
        _require(request, contest, roles.Power.ORGANISE)
        return _save_contest(request, contest)
    return Response(_contest_data(contest))


def _require_organiser(request) -> None:
    if not request.user.is_authenticated:
        raise NotAuthenticated("Log in (or send a token) as one of the site's organisers.")
    if not services.is_organiser(request.user):
        raise PermissionDenied("Only the site's organisers open contests.")


def _save_contest(request, contest: Contest | None) -> Response:
    """A new contest (POST) or the settings sent of one (PATCH), over its others, checked by
    the form of the admin and of the organisers' page, saved and logged by the service."""
    sent = body_object(request)
    body = s.ContestWriteSerializer(data=sent, partial=contest is not None)
    unknown = sorted(set(sent) - set(body.fields))
    if unknown:
        raise serializers.ValidationError({name: ["A contest has no setting of this name."] for name in unknown})
    body.is_valid(raise_exception=True)
    values = dict(body.validated_data)
    reason = values.pop("reason", "")
    instance = contest or Contest()
    form = ContestForm({**settings_of(instance), **values}, instance=instance)
    if not form.is_valid():
        fields = {
            "non_field_errors" if name == "__all__" else name: list(errors) for name, errors in form.errors.items()
        }
        message = "; ".join(f"{name}: {' '.join(errors)}" for name, errors in fields.items())
        return Response(error_body(400, "invalid", message, fields), status=status.HTTP_400_BAD_REQUEST)
    try:
        services.save_contest(request.user, form.save(commit=False), reason)
    except services.Refused as e:
        return Response(error_body(400, "invalid", str(e), {"slug": [str(e)]}), status=status.HTTP_400_BAD_REQUEST)
    created = status.HTTP_201_CREATED if contest is None else status.HTTP_200_OK
    return Response(_contest_data(form.instance), status=created)


def _contest_data(contest: Contest) -> dict:
    game = registry.get(contest.game) if contest.game in registry.GAMES else None
    data = s.ContestDetailSerializer(contest).data
    data["clock"] = {**(game.default_clock if game else {}), **contest.clock}
    data["stages"] = s.StageSerializer(_stages(contest), many=True).data
    data["policy"] = {
        "languages": services.offered_languages(contest),
        "max_source_bytes": contest.max_source_bytes,
        "max_executable_bytes": contest.max_executable_bytes,
        "max_submissions_per_day": contest.max_submissions_per_day,
        "max_submissions_per_week": contest.max_submissions_per_week,
        "max_entries_per_user": contest.max_entries_per_user,
        "entry_form": contest.entry_form,
    }
    return data


@extend_schema(
    parameters=[
        OpenApiParameter(
            "stage",
            int,
            description="A stage id; by default the contest's current stage (the latest under way or over).",
        ),
        OpenApiParameter("page", int, description="Which page of rows, from 1 (the top)."),
        OpenApiParameter(
            "limit",
            int,
            description=f"Rows a page: {standings_service.PAGE_ROWS} by default, "
            f"from 1 to {standings_service.MAX_PAGE_ROWS}.",
        ),
    ],
    responses=s.StandingsSerializer,
    summary="Standings with every tie-break column",
    operation_id="standings",
)
@api_view(["GET"])
@permission_classes([AllowAny])
@throttle_classes(HEAVY_THROTTLES)
def standings(request, slug: str):
    contest = _contest(request, slug)
    if request.query_params.get("stage"):
        stage_id = parse_id(request.query_params["stage"])
        if stage_id is None:
            raise serializers.ValidationError({"stage": ["A stage id is a number."]})
        stage = get_object_or_404(contest.stages, pk=stage_id)
    else:  # the contest's current stage
        stage = standings_service.current_stage(contest)
    if not contest.is_hosted:
        return refused(f"{contest.title} has no standings: its game is not hosted yet.", status.HTTP_409_CONFLICT)
    record = publication.record_for(contest, request.user)
    number = _whole_number(request, "page", 1, None)
    limit = _whole_number(request, "limit", standings_service.PAGE_ROWS, standings_service.MAX_PAGE_ROWS)
    found = standings_service.page(contest, stage, record, number, limit, own=own_entries(request, contest))
    table = found.table
    if found.number != number:
        pages = f"{found.pages} page{'s' if found.pages > 1 else ''}"
        raise Http404(f"There is no page {number}: the table's {table.count} rows make {pages} of {limit}.")

    def link(n: int) -> str | None:
        return replace_query_param(request.build_absolute_uri(), "page", n) if 1 <= n <= found.pages else None

    return Response(
        {
            "contest": contest.slug,
            "stage": stage.pk if stage else None,
            "frozen": record.frozen,
            "frozen_at": contest.standings_frozen_at if record.frozen else None,
            "results_hidden": publication.hidden_results(contest, stage) if record.frozen else 0,
            "matches_played": table.finished,
            "matches_total": table.total,
            "columns": [
                {"key": c.key, "label": c.label, "higher_is_better": c.higher_is_better} for c in table.columns
            ],
            "ratings": _ratings(table),
            "count": table.count,
            "page": found.number,
            "pages": found.pages,
            "limit": limit,
            "next": link(found.number + 1),
            "previous": link(found.number - 1),
            "rows": s.StandingRowSerializer(table.rows, many=True).data,
            "yours": s.StandingRowSerializer(found.yours, many=True).data,
        }
    )


def _whole_number(request, name: str, default: int, most: int | None) -> int:
    """A query parameter that is a whole number from 1 (to ``most``), else a 400 that says so."""
    given = request.query_params.get(name)
    if given is None:
        return default
    value = parse_id(given)
    if value is None or value < 1 or (most is not None and value > most):
        said = f"from 1 to {most}" if most is not None else "from 1"
        raise serializers.ValidationError({name: [f"A whole number {said}."]})
    return value


def _ratings(table: standings_service.Standings) -> dict | None:
    if table.fit is None:
        return None
    fit = table.fit
    return {
        "rated": table.rated, "games": fit.games, "computed_at": fit.computed_at, "level": fit.level, "k": fit.k,
        "method": confidence.METHOD,
    }  # fmt: skip


# --- Entries and submissions ------------------------------------------------------------------


def _refused(e: services.Refused) -> Response:
    """The service's refusal: 429 with Retry-After for a used-up submission limit, 409 for an
    entry that no longer takes the change, 507 when the site's disk is full, else 400."""
    if isinstance(e, services.SubmissionLimit):
        response = refused(str(e), status.HTTP_429_TOO_MANY_REQUESTS, code="limit_reached")
        response["Retry-After"] = str(max(1, math.ceil((e.next_allowed_at - timezone.now()).total_seconds())))
        return response
    if isinstance(e, services.EntryClosed):
        return refused(str(e), status.HTTP_409_CONFLICT)
    if isinstance(e, services.NoSpace):
        return refused(str(e), status.HTTP_507_INSUFFICIENT_STORAGE, code="insufficient_storage")
    return refused(str(e))


def _program(request, *, required: bool) -> dict | None:
    """The program a POST carries: a ``source`` file (multipart), or ``source`` text with its
    ``filename`` (JSON); and the ``language``, else by the file's extension."""
    body = body_object(request)
    too_large = upload_refusal(request)
    if too_large:
        raise UploadTooLarge(too_large)
    upload = request.FILES.get("source")
    if upload is not None:
        filename, data = upload.name, upload.read()
    elif body.get("source") is None and not required:
        return None
    else:
        source = body.get("source")
        if not isinstance(source, str):
            raise serializers.ValidationError({"source": ["Send the program as a file (multipart) or as text (JSON)."]})
        filename = body.get("filename") or ""
        if not isinstance(filename, str) or not filename:
            raise serializers.ValidationError({"filename": ["With the source as text, say the file's name (main.c)."]})
        data = source.encode()
    language = body.get("language") or None
    if language is not None and not isinstance(language, str):
        raise serializers.ValidationError({"language": ["A language is a key such as c or python3."]})
    return {"filename": filename, "data": data, "language": language}


class UploadTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"


def _contest_upload_limit(request, slug: str) -> tuple[int, str]:
    contest = Contest.objects.filter(slug=slug).first()
    return services.upload_limit(contest) if contest else (0, "No such contest.")


@extend_schema(
    methods=["GET"],
    responses=paged(s.EntrySerializer),
    summary="My entries in a contest",
    operation_id="entries_list_mine",
)
@extend_schema(
    methods=["POST"],
    request={"multipart/form-data": s.EntryEnterSerializer, "application/json": s.EntryEnterSerializer},
    responses={201: s.EntryCreatedSerializer},
    parameters=[IDEMPOTENCY_KEY],
    summary="Enter a contest, with the first program or without",
    description="With a program (as for a submission), the entry and its first submission are made together, "
    "or neither is: a refused program leaves no entry behind.",
    operation_id="entries_create",
)
@limit_uploads(_contest_upload_limit)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
@parser_classes([MultiPartParser, FormParser, JSONParser])
@idempotent
def my_entries(request, slug: str):
    contest = _contest(request, slug)
    if request.method == "GET":
        return _paginate(request, contest.entries.filter(user=request.user).order_by("pk"), s.EntrySerializer)
    body = s.EntryCreateSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    program = _program(request, required=False)
    name, form = body.validated_data["name"], body.validated_data["form"]
    try:
        if program is None:
            entry, submission = services.create_entry(contest, request.user, name, form), None
        else:
            submission = services.enter(contest, request.user, name, form, **program)
            entry = submission.entry
    except services.Refused as e:
        return _refused(e)
    data = s.EntrySerializer(entry).data
    data["submission"] = s.SubmissionSerializer(submission).data if submission else None
    return Response(data, status=status.HTTP_201_CREATED)


def _own_entry(request, entry_id: int) -> Entry:
    entry = get_object_or_404(Entry.objects.select_related("contest"), pk=entry_id)
    _contest(request, entry.contest.slug)
    if not services.can_see_private(request.user, entry):
        raise PermissionDenied("This is another contestant's entry.")
    return entry


def _owned_entry(request, entry_id: int, action: str) -> Entry:
    entry = _own_entry(request, entry_id)
    if entry.user_id != request.user.pk:
        raise PermissionDenied(f"Only the entry's owner {action}.")
    return entry


def _upload_limit(request, entry_id: int) -> tuple[int, str]:
    entry = Entry.objects.select_related("contest").filter(pk=entry_id).first()
    return services.upload_limit(entry.contest) if entry else (0, "No such entry.")


@extend_schema(
    methods=["GET"],
    responses=paged(s.SubmissionSerializer),
    summary="An entry's submissions",
    operation_id="submissions_list",
)
@extend_schema(
    methods=["POST"],
    request={"multipart/form-data": s.SubmissionCreateSerializer, "application/json": s.SubmissionCreateSerializer},
    responses={201: s.SubmissionSerializer},
    parameters=[IDEMPOTENCY_KEY],
    summary="Submit a new version (a file, or the source text as JSON)",
    operation_id="submissions_create",
)
@limit_uploads(_upload_limit)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
@parser_classes([MultiPartParser, FormParser, JSONParser])
@idempotent
def entry_submissions(request, entry_id: int):
    entry = _own_entry(request, entry_id)
    if request.method == "GET":
        return _paginate(request, entry.submissions.order_by("-number"), s.SubmissionSerializer)
    if entry.user_id != request.user.pk:
        raise PermissionDenied("Only the entry's owner submits to it.")
    program = _program(request, required=True)
    try:
        submission = services.submit(entry, **program)
    except services.Refused as e:
        return _refused(e)
    return Response(s.SubmissionSerializer(submission).data, status=status.HTTP_201_CREATED)


@extend_schema(
    request=s.EntryRenameSerializer,
    responses=s.EntrySerializer,
    summary="Rename my entry (unique in the contest, whatever the case)",
    operation_id="entries_rename",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def entry_rename(request, pk: int):
    entry = _owned_entry(request, pk, "renames it")
    body = s.EntryRenameSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    try:
        entry = services.rename_entry(entry, body.validated_data["name"])
    except services.Refused as e:
        return _refused(e)
    return Response(s.EntrySerializer(entry).data)


@extend_schema(
    request=s.VersusAllowedSerializer,
    responses=s.EntrySerializer,
    summary="Let other contestants name my entry as a rival in their versus batches (unrated games), or not",
    operation_id="entries_versus_allowed",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def entry_versus_allowed(request, pk: int):
    entry = _owned_entry(request, pk, "allows versus games against it")
    body = s.VersusAllowedSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    entry = services.allow_versus(entry, body.validated_data["allowed"])
    return Response(s.EntrySerializer(entry).data)


@extend_schema(
    request=None,
    responses=s.EntrySerializer,
    summary="Withdraw my entry, for good",
    description="It takes no more submissions, plays in no new stage, leaves the standings and no longer "
    "counts against the contest's entries per contestant. A withdrawn entry does not come back.",
    operation_id="entries_withdraw",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def entry_withdraw(request, pk: int):
    entry = _owned_entry(request, pk, "withdraws it")
    try:
        entry = services.withdraw(entry)
    except services.Refused as e:
        return _refused(e)
    return Response(s.EntrySerializer(entry).data)


@extend_schema(
    responses=s.SubmissionDetailSerializer,
    summary="A submission: status, build log, system-test games",
    operation_id="submissions_detail",
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def submission_detail(request, pk: int):
    submission = get_object_or_404(Submission.objects.select_related("entry__contest"), pk=pk)
    _own_entry(request, submission.entry_id)
    return Response(s.SubmissionDetailSerializer(submission).data)


@extend_schema(
    request=s.TestGameSerializer,
    responses={201: s.MatchSerializer},
    summary="Play a test game against a reference program",
    operation_id="test_games_create",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@idempotent
def test_game(request, pk: int):
    submission = get_object_or_404(Submission.objects.select_related("entry__contest"), pk=pk)
    entry = _own_entry(request, submission.entry_id)
    body = s.TestGameSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    opponent = None
    if "opponent" in body.validated_data:  # a reference program, by its entry
        reference = entry.contest.entries.filter(
            pk=min(max(body.validated_data["opponent"], 0), 2**62), is_reference=True
        ).first()
        opponent = scheduling.ready_submission(reference) if reference is not None else None
        if opponent is None:
            return refused("The opponent must be one of the contest's reference programs.")
    elif "opponent_submission" in body.validated_data:  # a reference's version or one of my own
        opponent = Submission.objects.filter(pk=min(max(body.validated_data["opponent_submission"], 0), 2**62)).first()
        if opponent is None:
            return refused("The opponent must be a reference program or one of your own earlier built versions.")
    try:
        match = testgames.create_test_game(submission, opponent, first=body.validated_data["first"])
    except formats.StageError as e:
        return refused(str(e), status.HTTP_409_CONFLICT)
    return Response(s.MatchSerializer(match).data, status=status.HTTP_201_CREATED)


@extend_schema(
    methods=["GET"],
    responses=s.VersusBatchSerializer(many=True),
    summary="This version's versus batches, each with its win rate and interval so far",
    operation_id="versus_batches_list",
)
@extend_schema(
    methods=["POST"],
    request=s.VersusRequestSerializer,
    responses={201: s.VersusBatchSerializer},
    summary="A versus batch: this version against a pool, unrated, until its win rate is decided",
    operation_id="versus_batches_create",
)
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
@idempotent
def versus_batches(request, pk: int):
    submission = get_object_or_404(Submission.objects.select_related("entry__contest"), pk=pk)
    _own_entry(request, submission.entry_id)
    if request.method == "GET":
        batches = list(submission.versus_batches.all()[:50])
        for batch in batches:
            batch.found = versus.win_rate(batch)
        return Response(s.VersusBatchSerializer(batches, many=True).data)
    body = s.VersusRequestSerializer(data=request.data)
    body.is_valid(raise_exception=True)
    asked = body.validated_data
    pool = versus.Pool(asked["previous"], asked["references"], asked["top"], tuple(asked["rivals"]))
    try:
        batch = versus.start(submission, request.user, asked["games"], pool)
    except formats.StageError as e:
        return refused(str(e), status.HTTP_409_CONFLICT)
    batch.found = versus.win_rate(batch)
    return Response(s.VersusBatchSerializer(batch).data, status=status.HTTP_201_CREATED)


# --- Matches ----------------------------------------------------------------------------------


def _id_param(params, name: str) -> int | None:
    """An id given as a query parameter; None if not given, a 400 if not a number."""
    if not params.get(name):
        return None
    value = parse_id(params[name])
    if value is None:
        raise serializers.ValidationError({name: [f"A {name} id is a number."]})
    return value


@extend_schema(
    parameters=[
        OpenApiParameter("contest", str, description="A contest's slug."),
        OpenApiParameter("stage", int),
        OpenApiParameter("entry", int),
        OpenApiParameter("mine", bool, description="Only games of my entries."),
        OpenApiParameter("status", str, enum=[c for c, _ in Match.Status.choices]),
    ],
    responses=paged(s.MatchSerializer),
    summary="Matches, newest first",
    operation_id="matches_list",
)
@api_view(["GET"])
@permission_classes([AllowAny])
def match_list(request):
    q = request.query_params
    contests: QuerySet[Contest] | list[int] = services.visible_contests(request.user)
    if q.get("contest"):
        # The contest's id, not a join on its slug: its newest games come by the (contest, -id)
        # index, not by the primary key's past every newer game of other contests.
        contests = list(contests.filter(slug=q["contest"]).values_list("pk", flat=True)[:1])
    matches = publication.visible_matches(request.user, Match.objects.filter(contest__in=contests))
    # A seat condition is an EXISTS, not a join: a match is listed once without a DISTINCT,
    # which would make the page's COUNT sort every match.
    seats = MatchSeat.objects.filter(match=OuterRef("pk"))
    if (stage_id := _id_param(q, "stage")) is not None:
        matches = matches.filter(stage_id=stage_id)
    if (entry_id := _id_param(q, "entry")) is not None:
        matches = publication.played_by(matches, entry_id)
    mine = q.get("mine") in ("1", "true", "yes")
    if mine:
        if not request.user.is_authenticated:
            raise NotAuthenticated("Log in (or send a token) to list your own games.")
        matches = matches.filter(Exists(seats.filter(entry__user=request.user)))
    if q.get("status"):
        if q["status"] not in Match.Status.values:
            raise serializers.ValidationError({"status": [f"One of: {', '.join(Match.Status.values)}."]})
        matches = matches.filter(status=q["status"])
    matches = (
        matches.select_related("contest", "verification", "result_attempt")
        .prefetch_related(Prefetch("seats", MatchSeat.objects.select_related("entry").order_by("index")))
        .order_by("-pk")
    )
    # Of a stage's games, how many there are is kept (judging.counts), not counted.
    known = None
    if entry_id is None and not mine:
        known = publication.visible_count(request.user, contests, stage_id, q.get("status") or None)
    paginator = KnownCountPagination(known)
    page = paginator.paginate_queryset(matches, request)
    shown = publication.shown_matches(request.user, page)
    return paginator.get_paginated_response(
        s.MatchSerializer(page, many=True, context={"shown": shown, "user": request.user}).data
    )


def _match(request, pk: int) -> Match:
    match = get_object_or_404(
        publication.visible_matches(request.user, Match.objects.all())
        .select_related("contest")
        .prefetch_related("seats__entry"),
        pk=pk,
    )
    _contest(request, match.contest.slug)
    return match


def _match_data(request, match: Match) -> dict:
    """A match as the user sees it (see ``MatchSerializer``)."""
    match = (
        Match.objects.select_related("contest", "verification", "result_attempt")
        .prefetch_related("seats__entry")
        .get(pk=match.pk)
    )
    shown = publication.shown_matches(request.user, [match])
    return s.MatchSerializer(match, context={"shown": shown, "user": request.user}).data


@extend_schema(responses=s.MatchSerializer, summary="A match and its seats", operation_id="matches_detail")
@api_view(["GET"])
@permission_classes([AllowAny])
def match_detail(request, pk: int):
    return Response(_match_data(request, _match(request, pk)))


@extend_schema(
    responses=inline_serializer(
        "Replay", {"game": serializers.CharField(), "moves": serializers.ListField(), "frames": serializers.ListField()}
    ),
    summary="The replay: every move with its times; stderr only of my own programs",
    operation_id="matches_replay",
)
@api_view(["GET"])
@permission_classes([AllowAny])
@throttle_classes(HEAVY_THROTTLES)
def match_replay(request, pk: int):
    return Response(replay_shown(request, _match(request, pk)))


@extend_schema(
    responses={(200, "application/zip"): OpenApiTypes.BINARY},
    summary="The bundle to play the match again at home: `arbiter replay --check BUNDLE`",
    description="A zip: bundle.json (game, referee version, seed, parameters, clock, language table, each "
    "seat's language, SHA-256 and build command), replay.json, the programs the caller may read, the contest's "
    "data file. Another contestant's program is named by its SHA-256 alone.",
    operation_id="matches_bundle",
)
@api_view(["GET"])
@permission_classes([AllowAny])
@throttle_classes(HEAVY_THROTTLES)
def match_bundle(request, pk: int):
    return bundle_response(request, _match(request, pk))


# --- Judges -----------------------------------------------------------------------------------


WHO = {
    roles.Power.JUDGE: "the judges of {title}",
    roles.Power.ORGANISE: "the owner and co-organisers of {title}",
    roles.Power.NAME: "the owner of {title} or a site administrator",
}


def _require(request, contest: Contest, power: roles.Power = roles.Power.JUDGE) -> None:
    """A right on this contest (contests.roles): 401 without a user, 404 for a contest the
    user may not see, 403 for one they see but may not act on this way."""
    if not request.user.is_authenticated:
        raise NotAuthenticated(f"Log in (or send a token) as one of {WHO[power].format(title=contest.title)}.")
    if not contest.is_public and not roles.may(request.user, contest, roles.Power.VIEW):
        raise Http404("No such contest.")
    if not roles.may(request.user, contest, power):
        raise PermissionDenied(f"Only {WHO[power].format(title=contest.title)} may do this.")


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
    contest = _contest(request, slug)
    if request.method == "GET":
        return Response(s.StageSerializer(_stages(contest), many=True).data)
    _require(request, contest)
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
    return Response(_stage_data(stage), status=status.HTTP_201_CREATED)


def _stage(request, pk: int) -> Stage:
    stage = get_object_or_404(Stage.objects.select_related("contest"), pk=pk)
    _contest(request, stage.contest.slug)
    return stage


def _judged_match(request, pk: int) -> Match:
    """A match of a contest the user judges (any match: a judge sees the test games too)."""
    match = get_object_or_404(Match.objects.select_related("contest"), pk=pk)
    _require(request, match.contest)
    return match


def _judged_entry(request, pk: int) -> Entry:
    entry = get_object_or_404(Entry.objects.select_related("contest"), pk=pk)
    _require(request, entry.contest)
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
        return Response(_stage_data(stage))
    _require(request, stage.contest)
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
    _require(request, stage.contest)
    try:
        made = judges.run_stage(request.user, stage, _reason(request))
    except formats.StageError as e:
        return _stage_refused(e)
    return Response(_stage_data(stage, scheduled=len(made)), status=status.HTTP_202_ACCEPTED)


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
    _require(request, stage.contest)
    try:
        queued = judges.rerun_stage(request.user, stage, _reason(request))
    except formats.StageError as e:
        return _stage_refused(e)
    return Response(_stage_data(stage, queued=queued), status=status.HTTP_202_ACCEPTED)


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
    _require(request, stage.contest)
    try:
        stopped = judges.cancel_stage(request.user, stage, _reason(request))
    except formats.StageError as e:
        return _stage_refused(e)
    return Response(_stage_data(stage, stopped=stopped))


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
    _require(request, stage.contest)
    if stage.kind != "batch":
        return refused(
            f"{stage.name} is not an output-only run: it has no outputs to verify.", status.HTTP_409_CONFLICT
        )
    try:
        credited = verification.credit_rest(stage, request.user, _reason(request))
    except verification.VerificationError as e:
        return refused(str(e), status.HTTP_409_CONFLICT)
    return Response(_stage_data(stage, credited=credited))


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
    contest = _contest(request, slug)
    _require(request, contest)
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
    contest = _contest(request, slug)
    _require(request, contest)
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
    contest = _contest(request, slug)
    if request.method == "GET":
        _require(request, contest)
        return Response(_people(contest))
    _require(request, contest, roles.Power.NAME)
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
    contest = _contest(request, slug)
    _require(request, contest, roles.Power.NAME)
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
    match = _match(request, pk)
    _require(request, match.contest)
    body = s.VerifySerializer(data=body_object(request))
    body.is_valid(raise_exception=True)
    if match.stage is None or match.stage.kind != "batch":
        return refused(f"Match {match.pk} is not a run of an output-only stage: there is no output to verify.", 409)
    try:
        verification.decide(match, request.user, body.validated_data["decision"], body.validated_data.get("note", ""))
    except verification.VerificationError as e:
        return refused(str(e), status.HTTP_409_CONFLICT)
    return Response(_match_data(request, match))


@extend_schema(
    responses=paged(s.JudgeActionSerializer),
    summary="Judges: the contest's judges' log, newest first, 50 lines a page (as its page and CSV)",
    description="The contest's judges, co-organisers and owner only.",
    operation_id="contests_judges_log",
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def judges_log(request, slug: str):
    contest = _contest(request, slug)
    _require(request, contest)
    return _paginate(request, contest.judge_actions.select_related("judge"), s.JudgeActionSerializer)


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
        return refused("Only a match that is queued or being played can be cancelled.", status.HTTP_409_CONFLICT)
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
    _require(request, submission.entry.contest)
    if not judges.rebuild(request.user, submission):
        return refused("Only a build the platform failed (or lost) can be retried.", status.HTTP_409_CONFLICT)
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


# --- Notifications ----------------------------------------------------------------------------


@extend_schema(
    parameters=[OpenApiParameter("unread", bool, description="Only those not read yet.")],
    responses=paged(s.NotificationSerializer),
    summary="Your notifications, newest first: builds and system tests that failed, judges' decisions, faults",
    operation_id="notifications_list",
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def notification_list(request):
    mine = Notification.objects.filter(user=request.user).select_related("contest")
    if request.query_params.get("unread", "").lower() in ("1", "true", "yes"):
        mine = mine.filter(read_at__isnull=True)
    return _paginate(request, mine, s.NotificationSerializer)


@extend_schema(
    request=s.MarkReadSerializer,
    responses=s.MarkedReadSerializer,
    summary="Mark your notifications read: those named, or all of them",
    operation_id="notifications_read",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def notifications_read(request):
    body = s.MarkReadSerializer(data=body_object(request))
    body.is_valid(raise_exception=True)
    marked = notifications.mark_read(request.user, body.validated_data.get("ids"))
    return Response({"marked": marked, "unread": notifications.unread_count(request.user)})
