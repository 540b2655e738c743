"""The site's JavaScript in the page's language (issue 38): Django's JavaScriptCatalog at an
address of its language and version, kept by browsers, loaded before every other script of a
page, the sandboxed viewer's page included."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from arbiter import js_catalogue
from contests.models import GameVersion
from judging.tests.conftest import PROGRAMS
from judging.uploaded import hosting

pytestmark = pytest.mark.django_db  # a page not found is drawn with the site's frame, which reads the database


def test_the_catalogue_holds_the_dutch_words_and_is_kept_a_year():
    address = reverse("js-catalogue", args=["nl"])
    assert address == f"/jsi18n/{js_catalogue.version()}/nl.js"
    answer = Client().get(address)
    script = answer.content.decode()
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/javascript")
    assert '"Play": "Afspelen"' in script and '"The start of the game.": "Het begin van de partij."' in script
    assert '"now": "nu"' in script  # static/js's words, from the project's catalogue
    assert "Uitloggen" not in script  # the templates' words stay out: only djangojs
    cache = answer["Cache-Control"]
    assert "public" in cache and f"max-age={js_catalogue.YEAR}" in cache and "immutable" in cache


def test_english_has_no_words_to_change_and_an_unknown_language_is_not_found():
    english = Client().get(reverse("js-catalogue", args=["en"]))
    assert english.status_code == 200 and "Afspelen" not in english.content.decode()
    assert "function gettext" in english.content.decode() or "django.gettext" in english.content.decode()
    assert Client().get(f"/jsi18n/{js_catalogue.version()}/fr.js").status_code == 404


def test_an_older_version_s_address_still_answers_but_is_kept_an_hour():
    answer = Client().get("/jsi18n/000000000000/nl.js")
    assert answer.status_code == 200 and "Afspelen" in answer.content.decode()
    assert "max-age=3600" in answer["Cache-Control"] and "immutable" not in answer["Cache-Control"]


def test_a_page_loads_the_catalogue_of_its_language_before_its_scripts():
    page = Client(HTTP_ACCEPT_LANGUAGE="nl").get("/").content.decode()
    scripts = re.findall(r'<script src="([^"]+)"', page)
    assert scripts[0] == reverse("js-catalogue", args=["nl"]), scripts
    head = page.split("</head>")[0]
    assert f'<script src="{scripts[0]}"></script>' in head  # not deferred: the viewer's inline start needs it
    assert Client().get("/").content.decode().count(reverse("js-catalogue", args=["en"])) == 1


def test_the_sandboxed_viewer_page_loads_the_catalogue_in_the_visitor_s_language():
    version = hosting.upload(hosting.read_folder(PROGRAMS / "nim") | {"viewer.js": b'"use strict";'})
    GameVersion.objects.filter(pk=version.pk).update(status=GameVersion.Status.ACCEPTED)
    framed = {"HTTP_SEC_FETCH_DEST": "iframe", "HTTP_SEC_FETCH_SITE": "same-origin"}
    page = Client(HTTP_ACCEPT_LANGUAGE="nl").get(f"/games/{version.key}/viewer.html", **framed).content.decode()
    scripts = re.findall(r'<script src="([^"]+)"', page)
    assert scripts[0] == reverse("js-catalogue", args=["nl"]) and scripts[1].endswith("games/viewer.js"), scripts
    assert '<html lang="nl">' in page and ">Afspelen</button>" in page
