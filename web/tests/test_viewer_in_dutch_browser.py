"""The replay viewer in a real Chromium in the visitor's language (issue 38): a browser that
asks for Dutch gets the viewer's buttons, its move lines and the board's legend in Dutch, from
the page and from Django's JavaScript catalogue, also in the sandboxed frame of a game's own
viewer; English stays English; without the catalogue the viewer still works, in English. The
times of a page (static/js/time.js) read as the page's language writes them."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from contests.models import GameVersion
from contests.tests.factories import make_contest, make_entry, make_match, make_stage, make_submission
from judging.tests.conftest import PROGRAMS
from judging.uploaded import hosting

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SAMPLES = Path(__file__).resolve().parents[2] / "games" / "tests" / "samples"


@pytest.fixture
def chomp(transactional_db):
    """A finished Chomp match of a stage (anyone may watch it) with the sample replay."""
    replay = json.loads((SAMPLES / "chomp.json").read_text())
    contest = make_contest(game="chomp", game_params=replay["params"])
    subs = [make_submission(make_entry(contest)) for _ in range(2)]
    match = make_match(contest, subs, status="finished", params=replay["params"], stage=make_stage(contest))
    match.save_replay(replay)
    return match


@pytest.fixture
def nim(transactional_db):
    """A finished match of an uploaded game (Nim) with a viewer of its own, in its frame."""
    version = hosting.upload(hosting.read_folder(PROGRAMS / "nim"))
    GameVersion.objects.filter(pk=version.pk).update(status=GameVersion.Status.ACCEPTED)
    contest = make_contest(game=version.key, game_params={"stones": 2})
    subs = [make_submission(make_entry(contest)) for _ in range(2)]
    match = make_match(contest, subs, status="finished", stage=make_stage(contest))
    replay = {
        "schema": 1,
        "game": version.key,
        "seats": [{"index": 0, "name": "alice"}, {"index": 1, "name": "bob"}],
        "moves": [{"n": 1, "seat": 0, "move": "1"}, {"n": 2, "seat": 1, "move": "1"}],
        "frames": [{"text": ["2 left"]}, {"text": ["1 left"]}, {"text": ["0 left"]}],
        "result": {"points": [0, 1], "statuses": ["loss", "win"], "reason": "seat 1 took the last stone"},
    }
    match.save_replay(replay, match.result_attempt)
    return match


def _open(page, url: str, language: str | None) -> None:
    if language:
        page.set_extra_http_headers({"Accept-Language": language})
    page.goto(url)
    page.wait_for_selector("#viewer[data-ready='1']")


def _first_move(page) -> str:
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    return page.locator("#move-info .move-title").inner_text()


def test_a_dutch_browser_gets_the_viewer_in_dutch(chomp, live_server, chromium_page):
    page = chromium_page
    _open(page, f"{live_server.url}/matches/{chomp.pk}/", "nl-NL,nl;q=0.9")
    assert page.locator("html").get_attribute("lang") == "nl"
    play = page.locator("#viewer [data-act=play]")
    assert play.inner_text() == "Afspelen"
    assert page.get_by_role("button", name="Eerste zet").count() == 1
    assert page.get_by_role("button", name="Eén zet terug").count() == 1
    page.keyboard.press("End")
    assert "Uitslag: " in page.locator("#move-info").inner_text()
    line = _first_move(page)
    assert line.startswith("Zet 1: ") and " speelde " in line, line
    assert "een koekje" in page.locator("#board .legend").inner_text()
    assert page.locator("#scrub").get_attribute("aria-valuetext") == f"1 van {page.locator('#total').inner_text()}"
    page.keyboard.press("Home")
    assert page.locator("#move-info").inner_text() == "Het begin van de partij."
    play.click()
    assert play.inner_text() == "Pauze"
    play.click()
    assert play.inner_text() == "Afspelen"


def test_english_stays_english(chomp, live_server, chromium_page):
    page = chromium_page
    _open(page, f"{live_server.url}/matches/{chomp.pk}/", "en-GB,en;q=0.9")
    play = page.locator("#viewer [data-act=play]")
    assert play.inner_text() == "Play" and page.get_by_role("button", name="First move").count() == 1
    line = _first_move(page)
    assert line.startswith("Move 1: ") and " played " in line, line
    assert "a cookie" in page.locator("#board .legend").inner_text()
    page.keyboard.press("Home")
    assert page.locator("#move-info").inner_text() == "The start of the game."
    play.click()
    assert play.inner_text() == "Pause"


def test_without_its_catalogue_the_viewer_works_in_english(chomp, live_server, chromium_page):
    """A catalogue that does not load (a proxy's fault, a saved page) leaves the page's own
    Dutch and the viewer's English: no step of the replay is lost."""
    page = chromium_page
    page.route("**/jsi18n/**", lambda route: route.abort())
    _open(page, f"{live_server.url}/matches/{chomp.pk}/", "nl")
    assert page.locator("#viewer [data-act=play]").inner_text() == "Afspelen"  # the page's own words
    line = _first_move(page)
    assert line.startswith("Move 1: ") and " played " in line, line


def test_the_sandboxed_frame_of_a_game_s_own_viewer_speaks_dutch(nim, live_server, chromium_page):
    page = chromium_page
    page.set_extra_http_headers({"Accept-Language": "nl"})
    page.goto(f"{live_server.url}/matches/{nim.pk}/")
    frame = page.frame_locator("#own-viewer")
    frame.locator("#viewer[data-ready='1']").wait_for()
    assert frame.locator(".nim-own").first.inner_text() == "Nim's own viewer: 0 left"  # it still draws
    assert frame.locator("[data-act=play]").inner_text() == "Afspelen"
    assert frame.locator("#move-info").inner_text().startswith("Zet 2: bob speelde 1")
    assert "Uitslag: bob took the last stone" in frame.locator("#move-info").inner_text()


@pytest.fixture
def closing(transactional_db):
    return make_contest(closes_at=timezone.now() + timedelta(days=3))


@pytest.mark.parametrize(
    ("language", "locale", "left", "shown"),
    [("nl", "nl", ", over 2 d ", "getoond in"), ("en", "en-US", ", in 2 d ", "shown in")],
)
def test_a_deadline_reads_in_the_page_s_language(closing, live_server, chromium_page, language, locale, left, shown):
    page = chromium_page
    page.set_extra_http_headers({"Accept-Language": language})
    page.goto(live_server.url + "/")
    deadline = page.locator("time[data-countdown]").first
    page.wait_for_function("document.querySelector('time[data-countdown]').title !== ''")
    expected = page.evaluate(
        "([locale, at]) => new Intl.DateTimeFormat(locale, {dateStyle: 'medium', timeStyle: 'short'}).format(new Date(at))",
        [locale, deadline.get_attribute("datetime")],
    )
    assert deadline.inner_text().startswith(expected) and left in deadline.inner_text(), deadline.inner_text()
    assert shown in deadline.get_attribute("title")
