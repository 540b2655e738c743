"""Test games: against a reference program or one of my own earlier versions, on the side I
choose, within a quota, never for an entry that is out, and seen only by their players and
the judges."""

import pytest

from contests.models import Entry, Submission
from contests.tests.factories import make_contest, make_entry, make_submission, make_user, name_to
from judging.models import Match
from judging.record.formats import StageError
from judging.schedule.testgames import create_test_game

pytestmark = pytest.mark.django_db

READY = {"status": Submission.Status.READY, "is_active": True}


@pytest.fixture
def setup(queued):
    contest = make_contest(slug="chomp")
    reference = make_entry(contest, make_user(), name="Random", is_reference=True)
    ref_sub = make_submission(reference, **READY)
    alice = make_user(username="alice")
    entry = make_entry(contest, alice, name="Alice's")
    v1 = make_submission(entry, status=Submission.Status.READY)
    v2 = make_submission(entry, **READY)
    rival = make_entry(contest, make_user(username="bob"), name="Bob's")
    bobs = make_submission(rival, **READY)
    return contest, alice, v1, v2, ref_sub, bobs


def test_against_my_earlier_version_on_the_side_i_choose(setup):
    contest, alice, v1, v2, ref_sub, bobs = setup
    match = create_test_game(v2, v1, first=False)
    assert [s.submission_id for s in match.seats.order_by("index")] == [v1.pk, v2.pk]
    assert match.stage is None
    default = create_test_game(v2)
    assert [s.submission_id for s in default.seats.order_by("index")] == [v2.pk, ref_sub.pk]
    with pytest.raises(StageError, match="reference program or one of your own earlier built versions"):
        create_test_game(v2, bobs)  # someone else's program is no opponent


def test_the_page_offers_the_opponents_and_the_quota(setup, client, settings):
    contest, alice, v1, v2, ref_sub, bobs = setup
    settings.TEST_GAMES_PER_DAY = 2
    client.force_login(alice)
    page = client.get(f"/submissions/{v2.pk}/").content.decode()
    assert f'<option value="{ref_sub.pk}">Random (reference)</option>' in page
    assert f'<option value="{v1.pk}">my version 1</option>' in page and f'value="{bobs.pk}"' not in page
    assert "2 of 2 test games left in any 24 hours" in page
    response = client.post(f"/submissions/{v2.pk}/test-game/", {"opponent": v1.pk, "first": "0"})
    assert response.status_code == 302 and Match.objects.filter(stage__isnull=True).count() == 1
    client.post(f"/submissions/{v2.pk}/test-game/", {"opponent": ref_sub.pk, "first": "1"})
    page = client.get(f"/submissions/{v2.pk}/", follow=True).content.decode()
    assert "0 of 2 test games left" in page and "the next at" in page
    refused = client.post(f"/submissions/{v2.pk}/test-game/", {"opponent": v1.pk}, follow=True).content.decode()
    assert "You have played your 2 test games of the last 24 hours" in refused
    assert Match.objects.filter(stage__isnull=True).count() == 2


def test_an_entry_that_is_out_plays_no_test_games(setup, client):
    contest, alice, v1, v2, ref_sub, bobs = setup
    Entry.objects.filter(pk=v2.entry_id).update(status=Entry.Status.DISQUALIFIED)
    v2.refresh_from_db()
    with pytest.raises(StageError, match="is disqualified: it plays no test games"):
        create_test_game(v2)
    client.force_login(alice)
    assert "it plays no test games" in client.get(f"/submissions/{v2.pk}/").content.decode()


def test_a_test_game_is_seen_by_its_players_and_the_judges_only(setup, client):
    contest, alice, v1, v2, ref_sub, bobs = setup
    match = create_test_game(v2)
    judge = name_to(contest, make_user(username="judge"))
    for user, sees in [(alice, True), (judge, True), (bobs.entry.user, False), (None, False)]:
        client.logout()
        if user is not None:
            client.force_login(user)
        listed = f"/matches/{match.pk}/" in client.get("/contests/chomp/matches/").content.decode()
        api_listed = match.pk in [m["id"] for m in client.get("/api/matches/?contest=chomp").json()["results"]]
        opened = client.get(f"/matches/{match.pk}/").status_code
        api_opened = client.get(f"/api/matches/{match.pk}/").status_code
        assert (listed, api_listed, opened, api_opened) == (
            (True, True, 200, 200) if sees else (False, False, 404, 404)
        ), user


def test_the_api_takes_an_opponent_version(setup, client):
    from rest_framework.test import APIClient

    contest, alice, v1, v2, ref_sub, bobs = setup
    api = APIClient()
    api.force_authenticate(alice)
    made = api.post(
        f"/api/submissions/{v2.pk}/test-games/", {"opponent_submission": v1.pk, "first": False}, format="json"
    )
    assert made.status_code == 201
    match = Match.objects.get(pk=made.json()["id"])
    assert [s.submission_id for s in match.seats.order_by("index")] == [v1.pk, v2.pk]  # mine second, as asked
    refused = api.post(f"/api/submissions/{v2.pk}/test-games/", {"opponent_submission": bobs.pk}, format="json")
    assert refused.status_code == 409 and "earlier built versions" in refused.json()["error"]["message"]


def test_a_test_games_end_is_news_for_its_player_only(queued, client):
    """/api/events/?after=0 listed every contestant's test-game finishes to anonymous visitors."""
    from judging.models import Event
    from judging.news import events

    contest = make_contest(slug="chomp", game="chomp")
    ref = make_submission(make_entry(contest, name="Random", is_reference=True), is_active=True, status="ready")
    alice = make_user(username="alice")
    mine = make_submission(make_entry(contest, alice), is_active=True, status="ready")
    match = create_test_game(mine, ref)
    events.match_finished(match)
    (news,) = Event.objects.filter(kind="match", data__match=match.pk)
    assert news.user_id == alice.pk and not Event.objects.filter(kind="standings").exists()
    assert client.get("/api/events/head/?contest=chomp").json()["id"] == 0  # nothing for a visitor
    # a page that polls it is rendered with the same id: it moves on from there (static/js/live.js)
    assert 'data-head="0"' in client.get("/contests/chomp/standings/").content.decode()
    client.force_login(alice)
    assert client.get("/api/events/head/?contest=chomp").json()["id"] == news.pk
    assert f'data-head="{news.pk}"' in client.get("/contests/chomp/standings/").content.decode()
    assert f'data-head="{news.pk}"' in client.get(f"/submissions/{mine.pk}/").content.decode()
    assert f'data-head="{news.pk}"' in client.get(f"/matches/{match.pk}/").content.decode()
