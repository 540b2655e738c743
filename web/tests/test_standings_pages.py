"""The standings page and API, and the match list API: what they show, and a number of
queries that does not grow with the entries or their games."""

import pytest
from rest_framework.test import APIClient

from contests.models import Stage
from contests.tests.factories import finish_on_paper, make_contest, make_entry, make_match, make_stage, make_submission
from judging.models import Match

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
    # the contest, its current stage, the table's four, the crosstable's one, the stages to
    # choose from, and the workers' sandbox warning every page has
    with django_assert_num_queries(9):
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
