"""The API of uploaded games (issue 25): the list, an organiser's upload, a version with its
conformance kit's report. The same services and rules as the pages (web/game_views.py)."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.decorators import api_view, parser_classes, permission_classes
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from contests.models import GameVersion
from games.hosted import ManifestError
from judging.uploaded import hosting
from sandbox.errors import UnsafeArchive
from web.api_support import body_object, refused
from web.game_views import _version, can_upload, visible_versions

FIELDS = {
    "key": serializers.CharField(),
    "name": serializers.CharField(),
    "version": serializers.IntegerField(),
    "title": serializers.CharField(),
    "status": serializers.ChoiceField(GameVersion.Status.choices),
    "manifest": serializers.JSONField(),
    "report": serializers.JSONField(help_text="The conformance kit's report (the game's owners only)."),
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
        "report": version.report if hosting.owns_game(request.user, version.name) else None,
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
        raise NotAuthenticated(gettext("Log in (or send a token) as an organiser."))
    if not can_upload(request.user):
        raise PermissionDenied(gettext("Only organisers may upload a game."))
    archive = request.FILES.get("archive")
    if archive is None:
        return refused(
            gettext("Send the game's archive (.zip or .tar.gz, game.json at its top) as the file 'archive'.")
        )
    try:
        version = hosting.receive(archive.read(), request.user)
    except (ManifestError, UnsafeArchive) as e:
        return refused(gettext("%(archive)s refused: %(why)s") % {"archive": archive.name, "why": e})
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
        return refused(gettext("No such game."), status.HTTP_404_NOT_FOUND, code="not_found")


OWNERS = inline_serializer(
    "GameOwners", {"user": serializers.CharField(), "role": serializers.ChoiceField(["owner", "co-owner"])}, many=True
)


def _owner_refused(e: hosting.OwnerError) -> Response:
    code = {400: "invalid", 403: "forbidden", 404: "not_found"}[e.status]
    return refused(str(e), e.status, code=code)


@extend_schema(
    methods=["GET"], responses=OWNERS, summary="An uploaded game's owner and co-owners", operation_id="games_owners"
)
@extend_schema(
    methods=["POST"],
    request=inline_serializer("GameOwnerGrant", {"user": serializers.CharField()}),
    responses={201: OWNERS},
    summary="Owner: name a co-owner of a game, who may then upload its next versions",
    operation_id="games_owners_grant",
)
@api_view(["GET", "POST"])
@permission_classes([AllowAny])
def game_owners(request, name: str):
    if not visible_versions(request.user).filter(name=name).exists():
        return refused(gettext("No such game."), status.HTTP_404_NOT_FOUND, code="not_found")
    if request.method == "GET":
        return Response(hosting.game_owners(name))
    if not request.user.is_authenticated:
        raise NotAuthenticated(gettext("Log in (or send a token) as the game's owner."))
    username = body_object(request).get("user")
    if not isinstance(username, str) or not username:
        return refused(gettext('Name the user: {"user": "name"}.'))
    try:
        hosting.name_game_owner(request.user, name, username)
    except hosting.OwnerError as e:
        return _owner_refused(e)
    return Response(hosting.game_owners(name), status=status.HTTP_201_CREATED)


@extend_schema(
    request=None, responses=OWNERS, summary="Owner: remove a co-owner of a game", operation_id="games_owners_revoke"
)
@api_view(["DELETE"])
@permission_classes([IsAuthenticated])
def game_owner(request, name: str, username: str):
    if not visible_versions(request.user).filter(name=name).exists():
        return refused(gettext("No such game."), status.HTTP_404_NOT_FOUND, code="not_found")
    try:
        hosting.remove_game_owner(request.user, name, username)
    except hosting.OwnerError as e:
        return _owner_refused(e)
    return Response(hosting.game_owners(name))
