"""Entries and their versions: entering, uploading, renaming, withdrawing, test games, versus batches."""

from __future__ import annotations

import math

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, parser_classes, permission_classes
from rest_framework.exceptions import APIException
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from contests import services
from contests.models import Contest, Entry, Submission
from judging.record import entrants, formats
from judging.schedule import testgames, versus
from web import serializers as s
from web.api.common import IDEMPOTENCY_KEY, contest_of, paged, paginate
from web.api_support import JSONParser, body_object, idempotent, refused
from web.uploads import limit_uploads, upload_refusal


def _refused(e: services.Refused) -> Response:
    """The service's refusal: 429 with Retry-After for a used-up submission limit, 409 for an
    entry that no longer takes the change or a version sent again, 507 when the site's disk is full, else 400."""
    if isinstance(e, services.SubmissionLimit):
        response = refused(str(e), status.HTTP_429_TOO_MANY_REQUESTS, code="limit_reached")
        response["Retry-After"] = str(max(1, math.ceil((e.next_allowed_at - timezone.now()).total_seconds())))
        return response
    if isinstance(e, services.EntryClosed):
        return refused(str(e), status.HTTP_409_CONFLICT)
    if isinstance(e, services.SameAgain):
        return refused(str(e), status.HTTP_409_CONFLICT, code="same_again")
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
            raise serializers.ValidationError(
                {"source": [gettext("Send the program as a file (multipart) or as text (JSON).")]}
            )
        filename = body.get("filename") or ""
        if not isinstance(filename, str) or not filename:
            raise serializers.ValidationError(
                {"filename": [gettext("With the source as text, say the file's name (main.c).")]}
            )
        data = source.encode()
    language = body.get("language") or None
    if language is not None and not isinstance(language, str):
        raise serializers.ValidationError({"language": [gettext("A language is a key such as c or python3.")]})
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
    contest = contest_of(request, slug)
    if request.method == "GET":
        return paginate(request, contest.entries.filter(user=request.user).order_by("pk"), s.EntrySerializer)
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
    contest_of(request, entry.contest.slug)
    if not services.can_see_private(request.user, entry):
        raise PermissionDenied(gettext("This is another contestant's entry."))
    return entry


def _owned_entry(request, entry_id: int, refusal: str) -> Entry:
    entry = _own_entry(request, entry_id)
    if entry.user_id != request.user.pk:
        raise PermissionDenied(str(refusal))
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
        return paginate(request, entry.submissions.order_by("-number"), s.SubmissionSerializer)
    if entry.user_id != request.user.pk:
        raise PermissionDenied(gettext("Only the entry's owner submits to it."))
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
    entry = _owned_entry(request, pk, gettext_lazy("Only the entry's owner renames it."))
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
    entry = _owned_entry(request, pk, gettext_lazy("Only the entry's owner allows versus games against it."))
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
    entry = _owned_entry(request, pk, gettext_lazy("Only the entry's owner withdraws it."))
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
        opponent = entrants.ready_submission(reference) if reference is not None else None
        if opponent is None:
            return refused(gettext("The opponent must be one of the contest's reference programs."))
    elif "opponent_submission" in body.validated_data:  # a reference's version or one of my own
        opponent = Submission.objects.filter(pk=min(max(body.validated_data["opponent_submission"], 0), 2**62)).first()
        if opponent is None:
            return refused(
                gettext("The opponent must be a reference program or one of your own earlier built versions.")
            )
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
