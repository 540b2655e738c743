"""The games the platform hosts without code of its own (issue 25): the list, an organiser's
upload, a version's page with its conformance kit's report, its archive (to play at home, as
on the site) and its own viewer script. Each view translates HTTP to judging.uploaded.hosting."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_GET, require_POST

from contests.hosted_games import unpack
from contests.models import GameVersion
from contests.services import visible_contests
from games import registry
from games.clocks import Clock
from games.hosted import KEY, ManifestError, read_manifest
from judging.uploaded import hosting
from sandbox.errors import UnsafeArchive

UPLOAD = "contests.upload_game"


def can_upload(user) -> bool:
    return user.is_authenticated and user.has_perm(UPLOAD)


def visible_versions(user):
    """The accepted versions to everybody; every version of their own games (being checked,
    refused) to their owners and co-owners; every version to an administrator."""
    versions = GameVersion.objects.all()
    owned = hosting.owned_names(user)
    if owned is None:
        return versions
    return versions.filter(Q(status=GameVersion.Status.ACCEPTED) | Q(name__in=owned))


def _version(request, key: str) -> GameVersion:
    match = KEY.fullmatch(key)  # not KEY.match: its `$` would take `nim@1\n` too
    version = visible_versions(request.user).filter(name=match[1], version=int(match[2])).first() if match else None
    if version is None:
        raise Http404(gettext("No such game."))
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
        raise PermissionDenied(gettext("Only organisers may upload a game."))
    archive = request.FILES.get("archive")
    if archive is None:
        messages.error(request, gettext("Choose the game's archive (.zip or .tar.gz, game.json at its top)."))
        return redirect("games:list")
    try:
        version = hosting.receive(archive.read(), request.user)
    except (ManifestError, UnsafeArchive, hosting.NoSpace) as e:
        messages.error(request, f"{archive.name} refused: {e}")
        return redirect("games:list")
    messages.success(request, gettext("%(key)s uploaded: its conformance kit is running.") % {"key": version.key})
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
            "report": version.report if hosting.owns_game(request.user, version.name) else None,
            "contests": visible_contests(request.user).filter(game=version.key).order_by("title"),
            "owners": hosting.game_owners(version.name),
            "checking": version.status == GameVersion.Status.CHECKING,
            "clock_words": Clock.from_json(manifest.clock).in_words() if manifest else [],
            "site_url": request.build_absolute_uri("/").rstrip("/"),
        },
    )


# Everything an organiser uploads that a browser could run (the viewer's script, the page that
# runs it, the archive) goes out under this policy: `sandbox allow-scripts` (never
# `allow-same-origin`, `allow-popups`, `allow-forms` or `allow-top-navigation`) gives the document
# an origin of its own, so no cookie, storage or page of the site, and keeps it from opening a
# window, posting a form or moving the top window; the rest lets it run the site's scripts and
# the game's (from this site only) and draw, and fetch, post or frame nothing. Its own window is
# held by the page that frames it (web/policy.py: `frame-src 'self'`).
UNTRUSTED_POLICY = (
    "sandbox allow-scripts; default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src data:; connect-src 'none'; form-action 'none'; base-uri 'none'; frame-ancestors 'self'"
)
NOT_FRAMED = "A game's own viewer opens only in its frame on a match page."


def _untrusted(response: HttpResponse) -> HttpResponse:
    response["Content-Security-Policy"] = UNTRUSTED_POLICY
    response["X-Content-Type-Options"] = "nosniff"
    response["X-DNS-Prefetch-Control"] = "off"  # no look-up of names it writes in links
    # The answer depends on how it was asked for: a cache keeps the frame's apart from a window's.
    patch_vary_headers(response, ("Sec-Fetch-Dest", "Sec-Fetch-Site"))
    return response


def _fetched_as(request, dest: str, site: str | None = None) -> bool:
    """Whether the browser says it asks for this as ``dest`` (Fetch Metadata), from ``site``.
    A client that does not say (an old browser, curl) is refused: the viewer runs nowhere else."""
    return request.headers.get("Sec-Fetch-Dest") == dest and (
        site is None or request.headers.get("Sec-Fetch-Site") == site
    )


@require_GET
def game_archive(request, key: str):
    version = _version(request, key)
    with version.archive.open("rb") as f:
        data = f.read()
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{version.key}.zip"'  # play reads its version from it
    return _untrusted(response)


@xframe_options_sameorigin
@require_GET
def game_viewer_page(request, key: str):
    """The page in the sandboxed frame of a match page: the platform's viewer with the game's
    own renderer. Only as that frame's document, asked for by a page of this site: opened in a
    window of its own (a link, a typed address) it would hold the window, and could take it
    anywhere."""
    version = _version(request, key)
    if not _fetched_as(request, "iframe", site="same-origin"):
        raise PermissionDenied(NOT_FRAMED)
    return _untrusted(render(request, "games/viewer.html", {"version": version}))


@require_GET
def game_viewer(request, key: str):
    """The game's own viewer script, run by the replay page in a frame of its own that sees
    the replay it is given and nothing else of the site; only as a script (its frame's)."""
    version = _version(request, key)
    if not _fetched_as(request, "script"):
        raise PermissionDenied(NOT_FRAMED)
    with version.archive.open("rb") as f:
        manifest = read_manifest(version.manifest, unpack(f.read()))
    if not manifest.viewer:
        raise Http404(gettext("This game has no viewer of its own."))
    return _untrusted(HttpResponse(manifest.viewer, content_type="text/javascript; charset=utf-8"))
