"""The API of uploaded games (issue 25): the list, an organiser's upload, a version with its
conformance kit's report. The same services and rules as the pages (web/game_views.py)."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.decorators import api_view, parser_classes, permission_classes
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from contests.models import GameVersion
from games.hosted import ManifestError
from judging import hosting
from sandbox.errors import UnsafeArchive
from web.api_support import refused
from web.game_views import _version, can_upload, visible_versions

FIELDS = {
    "key": serializers.CharField(),
    "name": serializers.CharField(),
    "version": serializers.IntegerField(),
    "title": serializers.CharField(),
    "status": serializers.ChoiceField(GameVersion.Status.choices),
    "manifest": serializers.JSONField(),
    "report": serializers.JSONField(help_text="The conformance kit's report (organisers only)."),
    "archive": serializers.CharField(help_text="Where to download the game, to play it at home."),
}
VersionSerializer = inline_serializer("GameVersion", FIELDS)


def _data(request, version: GameVersion) -> dict:
    return {
        "key": version.key,
        "name": version.name,
        "version": version.version,
        "title": version.title,
        "status": version.status,
        "manifest": version.manifest,
        "report": version.report if can_upload(request.user) else None,
        "archive": request.build_absolute_uri(f"/games/{version.key}/game.zip"),
    }


@extend_schema(
    methods=["GET"],
    responses=inline_serializer("GameVersions", FIELDS, many=True),
    summary="Uploaded games",
    operation_id="games_list",
)
@extend_schema(
    methods=["POST"],
    request={"multipart/form-data": inline_serializer("GameUpload", {"archive": serializers.FileField()})},
    responses={202: VersionSerializer},
    summary="Upload a game (organisers): its next version, checked by the conformance kit on a worker",
    operation_id="games_upload",
)
@api_view(["GET", "POST"])
@permission_classes([AllowAny])
@parser_classes([MultiPartParser])
def game_list(request):
    if request.method == "GET":
        return Response([_data(request, v) for v in visible_versions(request.user)])
    if not request.user.is_authenticated:
        raise NotAuthenticated("Log in (or send a token) as an organiser.")
    if not can_upload(request.user):
        raise PermissionDenied("Only organisers may upload a game.")
    archive = request.FILES.get("archive")
    if archive is None:
        return refused("Send the game's archive (.zip or .tar.gz, game.json at its top) as the file 'archive'.")
    try:
        version = hosting.receive(archive.read(), request.user)
    except (ManifestError, UnsafeArchive) as e:
        return refused(f"{archive.name} refused: {e}")
    except hosting.NoSpace as e:
        return refused(str(e), status.HTTP_507_INSUFFICIENT_STORAGE, code="insufficient_storage")
    return Response(_data(request, version), status=status.HTTP_202_ACCEPTED)


@extend_schema(responses=VersionSerializer, summary="An uploaded game's version", operation_id="games_detail")
@api_view(["GET"])
@permission_classes([AllowAny])
def game_detail(request, key: str):
    try:
        return Response(_data(request, _version(request, key)))
    except Http404:
        return refused("No such game.", status.HTTP_404_NOT_FOUND, code="not_found")
