"""Every response that carries bytes an organiser uploaded, as a browser gets it (issue 34): a
game's own viewer (its script and the page that runs it) only to its frame on a match page and
sandboxed, with no origin; the game's archive and a contest's data file as downloads, never a
page; and the match page that frames the viewer holds the frame to this site. The browser's side
of it: test_own_viewer_browser.py."""

from __future__ import annotations

import html
import io
import zipfile

import pytest
from django.core.files.base import ContentFile
from django.test import Client

from contests.tests.factories import (
    make_contest,
    make_entry,
    make_match,
    make_stage,
    make_submission,
    make_user,
    name_to,
)
from web.game_views import NOT_FRAMED
from web.policy import SITE_POLICY
from web.tests.test_game_pages import accepted

pytestmark = pytest.mark.django_db
VIEWER_PAGE = "/games/nim@1/viewer.html"
VIEWER_SCRIPT = "/games/nim@1/viewer.js"
FRAMED = {"HTTP_SEC_FETCH_DEST": "iframe", "HTTP_SEC_FETCH_SITE": "same-origin"}


@pytest.fixture
def nim():
    return accepted(make_user("organiser"))


@pytest.fixture
def judge():
    user = name_to(make_contest(slug="judged"), make_user("judge"))  # a judge logged in: what a viewer would steal
    client = Client()
    client.force_login(user)
    return client


def _sandboxed(response) -> None:
    policy = [part.strip() for part in response["Content-Security-Policy"].split(";")]
    assert policy[0] == "sandbox allow-scripts", policy  # an origin of its own: no cookie, no page of the site
    for power in ("allow-same-origin", "allow-popups", "allow-forms", "allow-top-navigation", "allow-modals"):
        assert power not in response["Content-Security-Policy"]
    for directive in ("default-src 'none'", "connect-src 'none'", "form-action 'none'", "base-uri 'none'"):
        assert directive in policy
    assert response["X-Content-Type-Options"] == "nosniff"


def test_the_viewer_page_is_its_frames_and_sandboxed(nim, judge):
    response = judge.get(VIEWER_PAGE, **FRAMED)
    assert response.status_code == 200
    _sandboxed(response)
    assert "frame-ancestors 'self'" in response["Content-Security-Policy"]
    assert {"Sec-Fetch-Dest", "Sec-Fetch-Site"} <= {v.strip() for v in response["Vary"].split(",")}
    assert VIEWER_SCRIPT in response.content.decode()


@pytest.mark.parametrize(
    "headers",
    [
        {},  # a client that does not say how it asks: an old browser, curl
        {"HTTP_SEC_FETCH_DEST": "document", "HTTP_SEC_FETCH_SITE": "none"},  # the address typed
        {"HTTP_SEC_FETCH_DEST": "document", "HTTP_SEC_FETCH_SITE": "same-origin"},  # a link of the site
        {"HTTP_SEC_FETCH_DEST": "document", "HTTP_SEC_FETCH_SITE": "cross-site"},  # a link elsewhere
        {"HTTP_SEC_FETCH_DEST": "iframe", "HTTP_SEC_FETCH_SITE": "cross-site"},  # framed elsewhere, or by itself
        {"HTTP_SEC_FETCH_DEST": "iframe", "HTTP_SEC_FETCH_SITE": "same-site"},  # another host of the domain
        {"HTTP_SEC_FETCH_DEST": "object", "HTTP_SEC_FETCH_SITE": "same-origin"},
        {"HTTP_SEC_FETCH_DEST": "embed", "HTTP_SEC_FETCH_SITE": "same-origin"},
        {"HTTP_SEC_FETCH_DEST": "script", "HTTP_SEC_FETCH_SITE": "same-origin"},
    ],
)
def test_the_viewer_page_is_refused_anywhere_but_its_frame(nim, judge, headers):
    for address in (VIEWER_PAGE, f"{VIEWER_PAGE}?next=/accounts/profile/"):
        response = judge.get(address, **headers)
        assert response.status_code == 403, address
        page = html.unescape(response.content.decode())
        assert NOT_FRAMED in page and VIEWER_SCRIPT not in page


def test_the_viewer_script_is_a_scripts_only_and_sandboxed(nim, judge):
    response = judge.get(VIEWER_SCRIPT, HTTP_SEC_FETCH_DEST="script", HTTP_SEC_FETCH_SITE="cross-site")
    assert response.status_code == 200 and response["Content-Type"] == "text/javascript; charset=utf-8"
    assert b'Arbiter.register("game"' in response.content
    _sandboxed(response)
    for dest in (None, "document", "iframe", "worker", "sharedworker", "serviceworker", "embed"):
        headers = {"HTTP_SEC_FETCH_DEST": dest, "HTTP_SEC_FETCH_SITE": "same-origin"} if dest else {}
        response = judge.get(VIEWER_SCRIPT, **headers)
        assert response.status_code == 403 and b"Arbiter.register" not in response.content, dest


@pytest.mark.parametrize(
    "address",
    [
        f"{VIEWER_PAGE}/",
        f"{VIEWER_SCRIPT}/",
        "/games/nim@1%0A/viewer.html",  # the key's pattern ends in `$`, which takes a trailing newline
        "/games/nim@1%0A/viewer.js",
        "/games/nim@1%0A/game.zip",
        "/games/NIM@1/viewer.html",
        "/games/nim@01/viewer.html",
    ],
)
def test_no_other_address_serves_the_viewer(nim, judge, address):
    response = judge.get(address, HTTP_SEC_FETCH_DEST="iframe", HTTP_SEC_FETCH_SITE="same-origin")
    assert response.status_code == 404, address
    assert b"Arbiter.register" not in response.content


def test_a_head_or_a_post_gets_nothing_of_it(nim, judge):
    for address in (VIEWER_PAGE, VIEWER_SCRIPT, "/games/nim@1/game.zip"):
        assert judge.head(address, **FRAMED).status_code == 405
        assert judge.post(address, **FRAMED).status_code == 405


def test_the_archive_is_a_download_never_a_page(nim):
    response = Client().get("/games/nim@1/game.zip")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == 'attachment; filename="nim@1.zip"'
    _sandboxed(response)
    assert "viewer.js" in "".join(zipfile.ZipFile(io.BytesIO(response.content)).namelist())


def test_the_match_page_holds_its_frame_to_the_site(nim, judge):
    contest = make_contest(game="nim@1", game_params={"stones": 2})
    contest.game_data.save("words.txt", ContentFile(b"<script>alert(1)</script>\n"))
    subs = [make_submission(make_entry(contest)) for _ in range(2)]
    match = make_match(contest, subs, status="finished", stage=make_stage(contest))
    match.save_replay({"game": "nim@1", "moves": [], "frames": [{"text": ["2 left"]}]}, match.result_attempt)
    response = judge.get(f"/matches/{match.pk}/")
    page = response.content.decode()
    # Sandboxed by the frame too, without a power to move a window, post or open one.
    assert f'<iframe id="own-viewer" class="own-viewer" sandbox="allow-scripts" src="{VIEWER_PAGE}"' in page
    # Its page lets it hold this site's pages only: navigated anywhere else, the browser refuses.
    assert response["Content-Security-Policy"] == SITE_POLICY
    assert response["X-Frame-Options"] == "DENY"
    # The contest's data file goes out in the bundle, a download.
    bundle = judge.get(f"/matches/{match.pk}/bundle.zip")
    assert bundle["Content-Type"] == "application/zip" and bundle["Content-Disposition"].startswith("attachment;")
    assert bundle["X-Content-Type-Options"] == "nosniff"
    names = zipfile.ZipFile(io.BytesIO(bundle.content)).namelist()
    assert any(name.startswith("data/") for name in names), names


def test_a_response_with_a_policy_of_its_own_keeps_it(nim, judge):
    assert Client().get("/")["Content-Security-Policy"] == SITE_POLICY
    assert judge.get("/api/me/")["Content-Security-Policy"] == SITE_POLICY
    assert judge.get(VIEWER_PAGE, **FRAMED)["Content-Security-Policy"].startswith("sandbox allow-scripts;")
