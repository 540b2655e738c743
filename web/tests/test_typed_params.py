"""An uploaded game's parameters of every JSON type (issue 37, item 7) on every surface that
takes them: a contest's settings (the API; the page uses the same form), a stage's (the API and
the judges' form), each value checked against the manifest's type, choices and bounds with a
message naming the parameter, and the site's numeric bound kept off strings and booleans.
(Written by a second engineer against their own version of typed parameters; its messages
are this one's.)"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from rest_framework.test import APIClient

from contests.hosted_games import SOURCE
from contests.models import Contest, GameVersion, Stage
from contests.services import ensure_organisers_group
from contests.tests.factories import make_contest, make_user, name_to
from judging.tests.conftest import PROGRAMS
from judging.uploaded import hosting

pytestmark = pytest.mark.django_db

PARAMS = {
    "stones": {"default": 15, "min": 1, "max": 1000},
    "fault": "0",
    "heaps": "3 4 5",
    "fast": True,
    "bias": {"default": 0.5, "min": 0, "max": 1, "help": "how often it errs"},
    "map": {"default": "ring", "choices": ["ring", "big grid"]},
}


@pytest.fixture
def typed_nim():
    files = hosting.read_folder(PROGRAMS / "nim")
    files["game.json"] = json.dumps({**json.loads(files["game.json"]), "params": PARAMS}).encode()
    version = hosting.upload(files, make_user())
    GameVersion.objects.filter(pk=version.pk).update(status=GameVersion.Status.ACCEPTED)  # its kit: elsewhere
    SOURCE.forget()
    return version


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def contest_body(**params) -> dict:
    return {"title": "Typed", "slug": "typed", "game": "nim@1", "game_params": params, "rules": "Take stones."}


@pytest.mark.parametrize(
    ("params", "said"),
    [
        ({"map": "hex"}, "map must be one of ring, big grid, not 'hex'"),
        ({"fast": "yes"}, "fast must be true or false, not 'yes'"),
        ({"bias": 2}, "bias must be between 0 and 1, not 2"),
        ({"heaps": 345}, "heaps must be one line of text of at most 200 characters"),
        ({"heaps": "1\n2"}, "heaps must be one line of text of at most 200 characters"),
        ({"stones": "9"}, "stones must be a whole number, not '9'"),
    ],
)
def test_a_contests_game_params_are_checked_by_type_naming_the_parameter(typed_nim, params, said):
    organiser = make_user()
    organiser.groups.add(ensure_organisers_group())
    refused = api(organiser).post("/api/contests/", contest_body(**params), format="json")
    assert refused.status_code == 400, refused.json()
    assert said in " ".join(refused.json()["error"]["fields"]["game_params"])
    assert not Contest.objects.filter(slug="typed").exists()


def test_a_contest_takes_strings_booleans_numbers_and_choices(typed_nim):
    organiser = make_user()
    organiser.groups.add(ensure_organisers_group())
    params = {"heaps": "1 2 3", "fast": False, "bias": 0.25, "map": "big grid", "stones": 9}
    made = api(organiser).post("/api/contests/", contest_body(**params), format="json")
    assert made.status_code == 201, made.json()
    assert Contest.objects.get(slug="typed").game_params == params
    shown = Client().get("/contests/typed/").content.decode()
    assert "<dt>fast</dt><dd>false</dd>" in shown  # as the manifest writes it, not Python's False
    page = Client().get("/games/nim@1/").content.decode()
    assert "<code>bias</code> 0.5 (between 0 and 1): how often it errs" in page
    assert "<code>map</code> ring (one of ring, big grid)" in page


def test_a_stage_takes_the_games_params_by_type_from_the_api_and_the_judges_form(typed_nim):
    contest = make_contest(slug="typed", game="nim@1", game_params={"heaps": "2 2"})
    judge = name_to(contest, make_user())
    refused = api(judge).post(
        "/api/contests/typed/stages/", {"kind": "round_robin", "name": "RR", "params": {"map": "hex"}}, format="json"
    )
    assert refused.status_code == 400 and "map must be one of" in str(refused.json()["error"]["fields"]["map"])
    made = api(judge).post(
        "/api/contests/typed/stages/",
        {"kind": "round_robin", "name": "RR", "params": {"heaps": "7 7 7", "fast": False}},
        format="json",
    )
    assert made.status_code == 201, made.json()
    assert Stage.objects.get().params == {"heaps": "7 7 7", "fast": False}

    client = Client()
    client.force_login(judge)
    form = client.get("/contests/typed/console/stages/new/?kind=round_robin").content.decode()
    assert 'name="game_map"' in form and '<option value="big grid">big grid</option>' in form
    assert "A line of text; the contest&#x27;s (2 2) if empty." in form
    posted = client.post(
        "/contests/typed/console/stages/new/?kind=round_robin",
        {"kind": "round_robin", "name": "Final", "order": 2, "game_heaps": "9 9", "game_fast": "false",
         "game_map": "big grid", "game_bias": "0.75"},
    )  # fmt: skip
    assert posted.status_code == 302, posted.content.decode()[-3000:]
    assert Stage.objects.get(name="Final").params == {"heaps": "9 9", "fast": False, "map": "big grid", "bias": 0.75}
