"""Every page's title ends with the site's name; styled 403 and 404 pages (the 500 page:
arbiter/tests/test_errors.py); a favicon; the match list in pages instead of stopping silently
at 200."""

import pytest

from contests.tests.factories import make_contest, make_stage, make_user
from judging.models import Match
from judging.record import counts

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
    match = Match.objects.create(contest=contest, stage=make_stage(contest), seed=1)  # public: a stage's game
    client.force_login(make_user())
    response = client.post(f"/matches/{match.pk}/rerun/")
    assert response.status_code == 403 and "<h1>Not allowed</h1>" in response.content.decode()


def test_the_match_list_comes_in_pages(client):
    contest = make_contest(slug="many")
    stage = make_stage(contest)
    made = Match.objects.bulk_create(Match(contest=contest, stage=stage, seed=i) for i in range(250))
    counts.moved((m.contest_id, m.stage_id, None, m.status) for m in made)  # as every maker of matches does
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


def test_a_moment_is_a_time_element_in_utc_that_the_browser_shows_in_its_own_zone():
    from datetime import UTC, datetime, timedelta, timezone

    from web.templatetags.arbiter_text import when

    moment = datetime(2026, 3, 4, 23, 30, 5, tzinfo=timezone(timedelta(hours=-2)))  # 01:30:05 UTC the next day
    assert when(moment) == '<time datetime="2026-03-05T01:30:05+00:00">5 Mar 2026 01:30 UTC</time>'
    assert when(moment, "time") == '<time datetime="2026-03-05T01:30:05+00:00" data-format="time">01:30:05 UTC</time>'
    assert when(moment, "seconds").endswith(">5 Mar 2026 01:30:05 UTC</time>")
    assert when(moment, "date").endswith('data-format="date">5 Mar 2026 UTC</time>')
    assert "data-countdown>5 Mar 2026 01:30 UTC<" in when(moment, "countdown")
    assert when(None) == "" and when(datetime(2026, 1, 1, tzinfo=UTC), "no-such-style").endswith(
        ">1 Jan 2026 00:00 UTC</time>"
    )


def test_no_page_writes_a_moment_except_through_when():
    """Every moment on a page is a <time> the visitor's browser puts in their zone (the
    judges' log, submission lists and timelines were UTC only)."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    raw = re.compile(r'\|date:"')
    found = [
        f"{path.relative_to(root)}:{n}"
        for folder in ("templates", "contests/templates", "accounts/templates")
        for path in (root / folder).rglob("*.html")
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if raw.search(line)
    ]
    assert found == []


def test_an_entrys_games_and_my_submissions_come_in_pages(client):
    from contests.tests.factories import make_entry, make_submission

    contest = make_contest(slug="paged")
    stage = make_stage(contest)
    user = make_user("pat")
    entry = make_entry(contest, user, name="Pat")
    submission = make_submission(entry)
    for seed in range(120):
        match = Match.objects.create(contest=contest, stage=stage, seed=seed)
        match.seats.create(index=0, entry=entry, submission=submission)
    page = client.get(f"/contests/paged/entries/{entry.pk}/").content.decode()
    assert "page 1 of 3 (120 games)" in page and 'href="?page=2#games" rel="next"' in page
    last = client.get(f"/contests/paged/entries/{entry.pk}/?page=3").content.decode()
    assert last.count(">match ") == 20 and "page 3 of 3" in last
    for _ in range(60):
        make_submission(entry)
    client.force_login(user)
    profile = client.get("/accounts/profile/").content.decode()
    assert "page 1 of 2 (61 submissions)" in profile and 'href="?page=2#submissions"' in profile
