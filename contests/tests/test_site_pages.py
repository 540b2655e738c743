"""Every page's title ends with the site's name; styled 403 and 404 pages (the 500 page:
arbiter/tests/test_errors.py); a favicon; the match list in pages instead of stopping silently
at 200."""

import pytest

from contests.models import Match
from contests.tests.factories import make_contest, make_stage, make_user

pytestmark = pytest.mark.django_db


def _title(page: str) -> str:
    return page.split("<title>", 1)[1].split("</title>", 1)[0].strip()


def test_every_page_title_ends_with_the_site_name(client, settings):
    contest = make_contest(slug="c")
    match = Match.objects.create(contest=contest, seed=1)
    for path in ["/", "/contests/c/", "/contests/c/standings/", "/contests/c/matches/", f"/matches/{match.pk}/",
                 "/accounts/login/", "/no-such-page/"]:  # fmt: skip
        title = _title(client.get(path).content.decode())
        assert title.endswith(settings.SITE_NAME), (path, title)


def test_a_missing_page_is_styled_and_says_what_is_missing(client):
    page = client.get("/contests/no-such-contest/")
    body = page.content.decode()
    assert page.status_code == 404 and "<h1>Not found</h1>" in body and "arbiter.css" in body
    assert "matches the given query" not in body
    assert 'rel="icon"' in body


def test_a_refused_page_is_styled_and_offers_to_log_in(client):
    contest = make_contest(slug="c2")
    match = Match.objects.create(contest=contest, seed=1)
    client.force_login(make_user())
    response = client.post(f"/matches/{match.pk}/rerun/")
    assert response.status_code == 403 and "<h1>Not allowed</h1>" in response.content.decode()


def test_the_match_list_comes_in_pages(client):
    contest = make_contest(slug="many")
    stage = make_stage(contest)
    Match.objects.bulk_create(Match(contest=contest, stage=stage, seed=i) for i in range(250))
    first = client.get("/contests/many/matches/").content.decode()
    assert "page 1 of 3 (250 matches)" in first and f"?stage={stage.pk}" not in first
    assert 'href="?page=2" rel="next"' in first
    last = client.get(f"/contests/many/matches/?stage={stage.pk}&page=3").content.decode()
    assert "page 3 of 3" in last and f'href="?stage={stage.pk}&amp;page=2" rel="prev"' in last
    assert last.count("<tr>") == 1 + 50
    assert client.get("/contests/many/matches/?page=banana").status_code == 200  # the first page


def test_home_lists_open_upcoming_and_past_contests_with_their_times(client):
    from datetime import timedelta

    from django.utils import timezone

    now = timezone.now()
    make_contest(slug="open", title="Open one", closes_at=now + timedelta(days=2))
    make_contest(slug="soon", title="Soon one", opens_at=now + timedelta(days=1))
    make_contest(slug="over", title="Over one", closes_at=now - timedelta(days=1))
    make_contest(slug="later", title="Later one", game="stones")  # its game not hosted
    page = client.get("/").content.decode()
    open_at, upcoming_at, past_at = (
        page.index("<h2>Open</h2>"),
        page.index("<h2>Upcoming</h2>"),
        page.index("<h2>Past</h2>"),
    )
    assert open_at < page.index("Open one") < upcoming_at < page.index("Soon one") < past_at < page.index("Over one")
    assert upcoming_at < page.index("Later one") < past_at and "when its game is hosted here" in page
    assert f'datetime="{(now + timedelta(days=2)).isoformat(timespec="seconds")[:16]}' in page
    assert "data-countdown" in page and "js/time.js" in page
