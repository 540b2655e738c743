"""The games the platform hosts without code of its own (issue 25): the list, an organiser's
upload, a version's page with its conformance kit's report, its archive (to play at home, as
on the site) and its own viewer script. Each view translates HTTP to judging.hosting."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_GET, require_POST

from contests.hosted_games import unpack
from contests.models import Contest, GameVersion
from games import registry
from games.clocks import Clock
from games.hosted import KEY, ManifestError, read_manifest
from judging import hosting
from sandbox.errors import UnsafeArchive

UPLOAD = "contests.upload_game"


def can_upload(user) -> bool:
    return user.is_authenticated and user.has_perm(UPLOAD)


def visible_versions(user):
    """Every version to an organiser; the accepted ones to everybody else."""
    versions = GameVersion.objects.all()
    return versions if can_upload(user) else versions.filter(status=GameVersion.Status.ACCEPTED)


def _version(request, key: str) -> GameVersion:
    match = KEY.match(key)
    version = visible_versions(request.user).filter(name=match[1], version=int(match[2])).first() if match else None
    if version is None:
        raise Http404("No such game.")
    return version


@require_GET
def game_list(request):
    return render(
        request,
        "games/list.html",
        {
            "versions": visible_versions(request.user).select_related("uploaded_by"),
            "can_upload": can_upload(request.user),
            "built_in": sorted((name, game.info.title) for name, game in registry.BUILT_IN.items()),
            "max_upload_mb": settings.UPLOAD_MAX_BYTES >> 20,
        },
    )


@login_required
@require_POST
def game_upload(request):
    if not can_upload(request.user):
        raise PermissionDenied("Only organisers may upload a game.")
    archive = request.FILES.get("archive")
    if archive is None:
        messages.error(request, "Choose the game's archive (.zip or .tar.gz, game.json at its top).")
        return redirect("games:list")
    try:
        version = hosting.receive(archive.read(), request.user)
    except (ManifestError, UnsafeArchive, hosting.NoSpace) as e:
        messages.error(request, f"{archive.name} refused: {e}")
        return redirect("games:list")
    messages.success(request, f"{version.key} uploaded: its conformance kit is running.")
    return redirect("games:version", key=version.key)


@require_GET
def game_version(request, key: str):
    version = _version(request, key)
    with version.archive.open("rb") as f:
        files = unpack(f.read())
    try:
        manifest = read_manifest(version.manifest, files)
    except ManifestError:  # kept before a check it now fails (a language no table has): its report says why
        manifest = None
    return render(
        request,
        "games/version.html",
        {
            "version": version,
            "manifest": manifest,
            "report": version.report if can_upload(request.user) else None,
            "contests": Contest.objects.filter(game=version.key).order_by("title") if can_upload(request.user) else [],
            "checking": version.status == GameVersion.Status.CHECKING,
            "clock_words": Clock.from_json(manifest.clock).in_words() if manifest else [],
        },
    )


@require_GET
def game_archive(request, key: str):
    version = _version(request, key)
    with version.archive.open("rb") as f:
        data = f.read()
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{version.key}.zip"'  # play reads its version from it
    return response


# What the frame of a game's own viewer may do: run the site's scripts and the game's (from
# this site only), draw; never fetch, post or frame anything. With the frame's sandbox (no
# origin of its own: no cookies, no storage), the game's script sees the replay the page gives
# it and nothing else.
VIEWER_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src data:; "
    "connect-src 'none'; form-action 'none'; base-uri 'none'; frame-ancestors 'self'"
)


@xframe_options_sameorigin
@require_GET
def game_viewer_page(request, key: str):
    """The page in the sandboxed frame: the platform's viewer with the game's own renderer."""
    version = _version(request, key)
    response = render(request, "games/viewer.html", {"version": version})
    response["Content-Security-Policy"] = VIEWER_POLICY
    return response


@require_GET
def game_viewer(request, key: str):
    """The game's own viewer script, run by the replay page in a frame of its own that sees
    the replay it is given and nothing else of the site."""
    version = _version(request, key)
    with version.archive.open("rb") as f:
        manifest = read_manifest(version.manifest, unpack(f.read()))
    if not manifest.viewer:
        raise Http404("This game has no viewer of its own.")
    response = HttpResponse(manifest.viewer, content_type="text/javascript; charset=utf-8")
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = VIEWER_POLICY
    return response
