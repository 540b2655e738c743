"""The words of the site's JavaScript in the page's language: Django's JavaScriptCatalog (the
``djangojs`` catalogues of every app and of ``locale/``), as a script every page loads before
its own.

Its address names the language and the catalogues' version (a digest of their compiled
files, taken when the site starts: a changed catalogue needs a restart to be read anyway), so a
browser keeps it for a year without asking again and a new catalogue is a new address. The
language is in the address rather than in a cookie because the sandboxed frame of a game's own
viewer has no origin and sends none; the page that holds the script names its own language.
Each language is built once a process: it is the same for every visitor.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.http import Http404, HttpResponse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext
from django.utils.translation.trans_real import DjangoTranslation
from django.views.decorators.http import require_GET
from django.views.i18n import JavaScriptCatalog

YEAR = 365 * 24 * 3600


def _folders() -> list[Path]:
    """The locale folders of the project's own apps: Django's own apps' JavaScript (the admin's)
    loads its own catalogue, and ours carries no word of theirs."""
    root = Path(settings.BASE_DIR).resolve()
    apps_ = (Path(app.path).resolve() for app in apps.get_app_configs())
    return [path / "locale" for path in apps_ if path.is_relative_to(root) and (path / "locale").is_dir()]


@cache
def version() -> str:
    """A digest of every compiled djangojs catalogue of the project (12 hex digits)."""
    root = Path(settings.BASE_DIR).resolve()
    digest = hashlib.sha256()
    for folder in sorted(_folders() + [Path(p).resolve() for p in settings.LOCALE_PATHS]):
        for path in sorted(folder.glob("*/LC_MESSAGES/djangojs.mo")):
            # Named from the project's folder: every host of the site gives the same address.
            name = path.relative_to(root) if path.is_relative_to(root) else path
            digest.update(str(name).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


@cache
def _script(language: str) -> bytes:
    with translation.override(language):
        view = JavaScriptCatalog()
        # LOCALE_PATHS' catalogue too: DjangoTranslation adds it to any list of folders.
        view.translation = DjangoTranslation(language, domain=view.domain, localedirs=[str(f) for f in _folders()])
        return view.render_to_response(view.get_context_data()).content


@require_GET
def catalogue(request, language: str, wanted: str | None = None) -> HttpResponse:
    """The catalogue of ``language`` (one of LANGUAGES); kept a year at the current version's
    address, an hour at an older one's (a page cached across a restart still gets words)."""
    if language not in dict(settings.LANGUAGES):
        raise Http404(gettext("No such language."))
    response = HttpResponse(_script(language), content_type="text/javascript; charset=utf-8")
    if wanted is None or wanted == version():
        patch_cache_control(response, public=True, max_age=YEAR, immutable=True)
    else:
        patch_cache_control(response, public=True, max_age=3600)
    return response
