"""A contest for a game the platform does not host (TPJ's "Stones", of the page before the
Solitaire 500's): listed, never open, and no page or API answer is a 500."""

import pytest
from django.urls import reverse

from contests import services
from contests.models import Contest
from contests.tests.factories import make_contest, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def contest():
    return make_contest(slug="stones", game="stones", title="Stones")


def test_it_is_never_open_and_refuses_entries_saying_why(contest):
    assert not contest.is_hosted and not contest.is_open()
    with pytest.raises(services.Refused, match="its game \\(stones\\) is not hosted here"):
        services.create_entry(contest, make_user(), "Mine")


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/contests/stones/",
        "/contests/stones/standings/",
        "/contests/stones/matches/",
        "/api/contests/",
        "/api/contests/stones/",
        "/api/contests/stones/standings/",
        "/api/matches/?contest=stones",
    ],
)
def test_no_page_answers_500(client, contest, path):
    client.force_login(make_user())
    response = client.get(path)
    assert response.status_code in (200, 409), response.content[:500]
    if path == "/contests/stones/standings/":
        assert "its game is not hosted here yet" in response.content.decode()


def test_entering_through_the_page_and_the_api_is_refused(client, contest):
    client.force_login(make_user())
    response = client.post("/api/contests/stones/entries/", {"name": "Mine"}, content_type="application/json")
    assert response.status_code in (400, 409) and "not hosted" in response.json()["error"]["message"]
    assert not contest.entries.exists()


def test_a_judge_cannot_make_a_contest_for_a_game_that_is_not_hosted(admin_client):
    form = admin_client.get(reverse("admin:contests_contest_add")).content.decode()
    assert 'value="chomp"' in form and "stones" not in form
    response = admin_client.post(
        reverse("admin:contests_contest_add"),
        {"title": "New", "slug": "new", "game": "stones", "max_source_bytes": 1000, "max_entries_per_user": 1,
         "game_params": "{}", "clock": "{}", "allowed_languages": "[]", "entry_form": "[]",
         "stages-TOTAL_FORMS": 0, "stages-INITIAL_FORMS": 0},
    )  # fmt: skip
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    assert not Contest.objects.filter(slug="new").exists()
    # The demo's placeholder keeps its game (and stays closed) when a judge edits it.
    placeholder = make_contest(slug="stones", game="stones")
    page = admin_client.get(reverse("admin:contests_contest_change", args=[placeholder.pk])).content.decode()
    assert "not hosted yet: the contest cannot open" in page
