"""The standings page and API, and the match list API: what they show, and a number of
queries that does not grow with the entries or their games."""

import re

import pytest
from rest_framework.test import APIClient

from contests.models import Stage
from contests.tests.factories import finish_on_paper, make_contest, make_entry, make_match, make_stage, make_submission
from judging.models import Match
from judging.record import standings

pytestmark = pytest.mark.django_db


def _round(count):
    """A running stage of ``count`` entries, each having played the next two in a ring (the
    first seat wins), and one game still queued."""
    contest = make_contest(slug=f"ring-{count}")
    stage = make_stage(contest, status=Stage.Status.RUNNING)
    subs = [make_submission(make_entry(contest, name=f"E{i:02}"), is_active=True, status="ready") for i in range(count)]
    for i, sub in enumerate(subs):
        for step in (1, 2):
            other = subs[(i + step) % count]
            if other is not sub:
                match = make_match(contest, [sub, other], stage=stage)
                finish_on_paper(match, [(1, 5, "win"), (0, 0, "loss")])
    make_match(contest, subs[:2], stage=stage)
    return contest, stage, subs


@pytest.mark.parametrize("count", [2, 20])
def test_the_standings_page_takes_the_same_queries_however_many_entries(client, count, django_assert_num_queries):
    contest, stage, _ = _round(count)
    # the contest, the newest event's id (live.js polls from there), its current stage, the
    # table's four, the crosstable's one, the stages to choose from, and the workers' sandbox
    # warning every page has
    with django_assert_num_queries(10):
        page = client.get(f"/contests/{contest.slug}/standings/")
    assert page.status_code == 200
    table, crosstable = page.content.decode().split("<h2>Crosstable</h2>")
    assert table.count("<tr><td>") == count and crosstable.count("<tr><td>") == count
    games = 4 if count > 2 else 2  # two entries meet twice in a ring of two
    assert f"{games * count // 2} of {games * count // 2 + 1} matches played" in page.content.decode()


@pytest.mark.parametrize("count", [2, 20])
def test_the_standings_api_takes_the_same_queries_however_many_entries(count, django_assert_num_queries):
    contest, stage, subs = _round(count)
    with django_assert_num_queries(6):  # the contest, its current stage, the table's four
        table = APIClient().get(f"/api/contests/{contest.slug}/standings/").json()
    assert table["stage"] == stage.pk and len(table["rows"]) == count
    assert {row["name"] for row in table["rows"]} == {s.entry.name for s in subs}
    assert [row["values"]["wins"] for row in table["rows"]] == ([2] * count if count > 2 else [1, 1])


@pytest.mark.parametrize("count", [2, 20])
def test_the_match_list_takes_the_same_queries_however_many_matches(count, django_assert_num_queries):
    contest, _, subs = _round(count)
    api = APIClient()
    with django_assert_num_queries(4):  # the contest's id, its kept count, the page, the seats with their entries
        listing = api.get("/api/matches/", {"contest": contest.slug}).json()
    assert listing["count"] == Match.objects.filter(contest=contest).count()
    ids = [m["id"] for m in listing["results"]]
    assert ids == sorted(ids, reverse=True) and len(set(ids)) == len(ids)
    assert all(len(m["seats"]) == 2 and m["seats"][0]["entry_name"] for m in listing["results"])
    with django_assert_num_queries(3):
        mine = api.get("/api/matches/", {"entry": subs[0].entry_id}).json()
    assert mine["count"] == Match.objects.filter(seats__entry=subs[0].entry).count()  # each match once


# --- Pages of the standings -------------------------------------------------------------------


def _table(count=7, kind="round_robin"):
    """A running stage of ``count`` entries with random results (ranks of their own) and its
    stored ratings."""
    from judging.record import confidence
    from judging.tests.test_standings import _ring

    contest = make_contest(slug=f"paged-{count}")
    stage = make_stage(contest, kind=kind, status=Stage.Status.RUNNING)
    subs = _ring(contest, stage, count)
    confidence.rate(stage.pk)
    return contest, stage, subs


def test_the_standings_api_pages_the_table_each_row_ranked_in_the_whole_table():
    contest, stage, _ = _table()
    api, url = APIClient(), f"/api/contests/{contest.slug}/standings/"
    whole = api.get(url).json()
    assert (whole["count"], whole["page"], whole["pages"], whole["limit"]) == (7, 1, 1, 100)
    assert whole["next"] is None and whole["previous"] is None and whole["yours"] == []
    assert [row["rank"] for row in whole["rows"]] == [r.rank for r in standings.compute(contest, stage).rows]
    pages = [api.get(url, {"page": n, "limit": 3}).json() for n in (1, 2, 3)]
    assert [p["rows"] for p in pages] == [whole["rows"][:3], whole["rows"][3:6], whole["rows"][6:]]
    assert all((p["count"], p["pages"], p["limit"]) == (7, 3, 3) for p in pages)
    assert pages[0]["previous"] is None and pages[2]["next"] is None
    assert pages[1]["previous"] == "http://testserver/api/contests/paged-7/standings/?limit=3&page=1"
    assert pages[1]["next"] == "http://testserver/api/contests/paged-7/standings/?limit=3&page=3"
    assert api.get(pages[1]["next"]).json()["rows"] == pages[2]["rows"]


@pytest.mark.parametrize(
    "query,status,said",
    [
        ({"limit": 0}, 400, "A whole number from 1 to 500."),
        ({"limit": 501}, 400, "A whole number from 1 to 500."),
        ({"limit": "ten"}, 400, "A whole number from 1 to 500."),
        ({"page": 0}, 400, "A whole number from 1."),
        ({"page": "-1"}, 400, "A whole number from 1."),
        ({"page": 4, "limit": 3}, 404, "There is no page 4: the table's 7 rows make 3 pages of 3."),
    ],
)
def test_a_page_or_a_limit_out_of_bounds_is_refused_and_said_why(query, status, said):
    contest, _, _ = _table()
    response = APIClient().get(f"/api/contests/{contest.slug}/standings/", query)
    assert response.status_code == status
    assert response.json()["error"]["status"] == status and response.json()["error"]["message"] == said


def test_the_api_gives_a_contestant_its_own_rows_wherever_they_are():
    contest, stage, subs = _table()
    whole = standings.compute(contest, stage).rows
    mine = whole[-1].entry  # on the last page
    api = APIClient()
    api.force_authenticate(mine.user)
    first = api.get(f"/api/contests/{contest.slug}/standings/", {"limit": 2}).json()
    assert mine.pk not in [row["entry"] for row in first["rows"]]
    assert [(row["entry"], row["rank"]) for row in first["yours"]] == [(mine.pk, whole[-1].rank)]
    other = APIClient()
    other.force_authenticate(make_entry(make_contest(slug="elsewhere"), name="Far").user)
    assert other.get(f"/api/contests/{contest.slug}/standings/").json()["yours"] == []


def _lines(html: str) -> list[str]:
    """The standings' rows as (class, rank, name), a gap as "…"."""
    body = html.split('<table class="list standings">')[1].split("</tbody>")[0]
    found = []
    for tr in re.findall(r"<tr[^>]*>.*?</tr>", body.split("<tbody>")[1], re.S):
        if 'class="gap"' in tr:
            found.append("…")
            continue
        classes = re.match(r'<tr(?: class="([^"]*)")?[^>]*>', tr).group(1) or ""
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        found.append((" ".join(c for c in classes.split() if c == "mine"), cells[0], re.sub("<[^>]+>", "", cells[2])))
    return found


def test_the_standings_page_shows_a_page_of_rows_its_links_and_the_contestants_own_row(client, monkeypatch):
    monkeypatch.setattr(standings, "PAGE_ROWS", 3)
    contest, stage, _ = _table()
    whole = [("", str(r.rank), r.entry.name) for r in standings.compute(contest, stage).rows]
    mine = standings.compute(contest, stage).rows[-1].entry
    url = f"/contests/{contest.slug}/standings/?stage={stage.pk}"

    html = client.get(url).content.decode()  # a visitor
    assert _lines(html) == [*whole[:3], "…"]
    assert f'href="?stage={stage.pk}&amp;page=2" rel="next"' in html and 'rel="prev"' not in html
    assert "places 1–3 of 7 (page 1 of 3)" in html

    client.force_login(mine.user)
    html = client.get(url).content.decode()
    assert _lines(html) == [*whole[:3], "…", ("mine", *whole[6][1:])]  # its own row, below a gap
    html = client.get(url + "&page=2").content.decode()
    assert _lines(html) == ["…", *whole[3:6], ("mine", *whole[6][1:])]  # right below: no gap
    assert f'href="?stage={stage.pk}&amp;page=1" rel="prev"' in html and "places 4–6 of 7" in html
    html = client.get(url + "&page=3").content.decode()
    assert _lines(html) == ["…", ("mine", *whole[6][1:])]  # on its page: in place, once
    assert _lines(client.get(url + "&page=9").content.decode()) == ["…", ("mine", *whole[6][1:])]  # the last
    for wrong in ("&page=x", "&page=0", "&page=-2"):  # not a page: the first
        assert _lines(client.get(url + wrong).content.decode())[:3] == whole[:3]


def test_a_table_of_one_page_has_no_page_links_and_keeps_its_crosstable(client):
    contest, stage, _ = _table(5)
    html = client.get(f"/contests/{contest.slug}/standings/").content.decode()
    assert 'aria-label="Pages of the standings"' not in html and "<h2>Crosstable</h2>" in html
    assert len(_lines(html)) == 5 and "…" not in _lines(html)
