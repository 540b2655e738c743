"""The judges' API is at parity with the console: an organiser scripts a contest with it, and
each call goes through the same service as the console's button, answering the new state."""

import pytest
from rest_framework.test import APIClient

from contests.models import JudgeAction, Stage
from contests.tests.factories import (
    finish_on_paper,
    make_contest,
    make_entry,
    make_stage,
    make_submission,
    make_user,
    name_to,
)
from judging.models import Match

pytestmark = pytest.mark.django_db


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def chomp(queued):
    contest = make_contest(slug="chomp", game="chomp", game_params={"rows": 3, "cols": 3})
    entries = [make_entry(contest, name=name) for name in ("Ann", "Bob", "Cid")]
    for entry in entries:
        make_submission(entry, is_active=True, status="ready")
    return contest, entries


@pytest.fixture
def judge(chomp):
    """A judge of the chomp contest (contests.roles), of no other."""
    return name_to(chomp[0], make_user(username="judge"))


def test_a_whole_stage_scripted_through_the_api(judge, chomp):
    contest, entries = chomp
    boss = api(judge)
    made = boss.post(
        "/api/contests/chomp/stages/",
        {"kind": "round_robin", "name": "Final", "params": {"games_per_pairing": 2}, "entries": "ready"},
        format="json",
    )
    assert made.status_code == 201, made.json()
    stage = made.json()
    assert (stage["kind"], stage["name"], stage["status"], stage["params"]) == (
        "round_robin", "Final", "pending", {"games_per_pairing": 2},
    )  # fmt: skip
    ran = boss.post(f"/api/stages/{stage['id']}/run/", {"reason": "on time"}, format="json").json()
    assert (ran["status"], ran["matches_total"], ran["scheduled"]) == ("running", 6, 6)
    for match in Match.objects.filter(stage_id=stage["id"]):
        finish_on_paper(match, [(1, 3, "win"), (0, 0, "loss")])
    detail = api().get(f"/api/stages/{stage['id']}/").json()  # anyone may follow it
    assert (detail["matches_played"], detail["matches_total"]) == (6, 6)
    frozen = boss.post("/api/contests/chomp/freeze/", {"reason": "the final is over"}, format="json").json()
    assert frozen["frozen_at"] and frozen["frozen_results"] == 12
    assert boss.post("/api/contests/chomp/freeze/").status_code == 409  # once
    rerun = boss.post(f"/api/stages/{stage['id']}/rerun/").json()
    assert rerun["queued"] == 6 and rerun["status"] == "running"
    assert api().get("/api/contests/chomp/standings/").json()["matches_played"] == 6  # the snapshot's games
    assert len(api().get("/api/contests/chomp/standings/").json()["rows"]) == 3  # the snapshot's table
    cancelled = boss.post(f"/api/stages/{stage['id']}/cancel/").json()
    assert cancelled["status"] == "cancelled" and cancelled["stopped"]["queued"] == 6
    assert boss.post(f"/api/stages/{stage['id']}/rerun/").status_code == 409  # cancelled for good
    published = boss.post("/api/contests/chomp/publish/").json()
    assert published["frozen_at"] is None and published["results_published_at"]
    actions = list(JudgeAction.objects.order_by("pk").values_list("action", flat=True))
    assert actions == [
        "stage.add", "stage.run", "standings.freeze", "stage.rerun", "stage.cancel", "standings.publish",
    ]  # fmt: skip


def test_a_stage_of_named_entries_plays_only_those(judge, chomp):
    contest, entries = chomp
    made = (
        api(judge)
        .post(
            "/api/contests/chomp/stages/",
            {
                "kind": "round_robin",
                "name": "Duel",
                "params": {"games_per_pairing": 1},
                "entries": [entries[0].pk, entries[2].pk],
            },
            format="json",
        )
        .json()
    )
    api(judge).post(f"/api/stages/{made['id']}/run/")
    (match,) = Match.objects.filter(stage_id=made["id"])
    assert {seat.entry.name for seat in match.seats.all()} == {"Ann", "Cid"}


@pytest.mark.parametrize(
    "body, field",
    [
        ({"kind": "tiddlywinks", "name": "x"}, "kind"),
        ({"kind": "batch", "name": "x"}, "kind"),  # Chomp is not an output-only game
        ({"kind": "round_robin", "name": "x", "params": {"games_per_pairing": 0}}, "games_per_pairing"),
        ({"kind": "round_robin", "name": "x", "params": {"games_per_pairing": "2"}}, "games_per_pairing"),
        ({"kind": "round_robin", "name": "x", "params": {"rows": 99}}, "rows"),
        ({"kind": "round_robin", "name": "x", "params": {"decks": 3}}, "decks"),
        ({"kind": "round_robin", "name": "x", "entries": [999999]}, "entries"),
        ({"kind": "round_robin", "name": "x", "entries": "all"}, "entries"),
        ({"kind": "round_robin", "name": "   "}, "name"),
        ({"kind": "swiss", "name": "x", "order": 1}, None),  # allowed: the first stage
    ],
)
def test_a_stage_the_api_cannot_make_is_refused_naming_the_parameter(judge, chomp, body, field):
    answer = api(judge).post("/api/contests/chomp/stages/", body, format="json")
    if field is None:
        assert answer.status_code == 201
        assert api(judge).post("/api/contests/chomp/stages/", body, format="json").status_code == 400  # place taken
        return
    assert answer.status_code == 400, answer.json()
    assert field in answer.json()["error"]["fields"] and not Stage.objects.filter(name=body["name"]).exists()


def test_judges_endpoints_are_for_judges(chomp):
    contest, entries = chomp
    stage = make_stage(contest)
    contestant = api(entries[0].user)
    anonymous = api()
    for client, code in ((contestant, 403), (anonymous, 401)):
        assert (
            client.post("/api/contests/chomp/stages/", {"kind": "round_robin", "name": "x"}, format="json").status_code
            == code
        )
        for path in ("run", "rerun", "cancel", "credit-rest"):
            assert client.post(f"/api/stages/{stage.pk}/{path}/").status_code == code
        for path in ("freeze", "publish"):
            assert client.post(f"/api/contests/chomp/{path}/").status_code == code
    assert not JudgeAction.objects.exists()


def test_an_output_is_verified_through_the_api_and_its_contestant_reads_the_note(judge, queued):
    contest = make_contest(slug="words", game="crossed_words", game_params={})
    stage = make_stage(contest, kind="batch", name="Final run", status="running")
    owner = make_user(username="wordsmith")
    submission = make_submission(make_entry(contest, owner), is_active=True, status="ready")
    from contests.tests.factories import make_match

    match = finish_on_paper(make_match(contest, [submission], stage=stage), [(110.0, 110.0, "valid")])
    assert (
        api(judge).post(f"/api/matches/{match.pk}/verify/", {"decision": "accepted"}, format="json").status_code == 403
    )
    judge = name_to(contest, judge)  # a judge of the chomp contest only, until named to this one
    no_note = api(judge).post(f"/api/matches/{match.pk}/verify/", {"decision": "rejected"}, format="json")
    assert no_note.status_code == 409 and "Say why" in no_note.json()["error"]["message"]
    done = api(judge).post(
        f"/api/matches/{match.pk}/verify/", {"decision": "rejected", "note": "line 3 is wrong"}, format="json"
    )
    assert done.status_code == 200 and done.json()["decision"]["status"] == "rejected"
    assert api(owner).get(f"/api/matches/{match.pk}/").json()["decision"]["note"] == "line 3 is wrong"
    assert (
        api(owner).post(f"/api/matches/{match.pk}/verify/", {"decision": "accepted"}, format="json").status_code == 403
    )
    chomp = make_contest(slug="c2", game="chomp")
    judge = name_to(chomp, judge)
    other = make_submission(make_entry(chomp), is_active=True, status="ready")
    game = finish_on_paper(make_match(chomp, [other], stage=make_stage(chomp)), [(1, 1, "win")])
    assert (
        api(judge).post(f"/api/matches/{game.pk}/verify/", {"decision": "accepted"}, format="json").status_code == 409
    )


def test_a_stage_that_never_ran_is_deleted_and_logged_one_that_ran_is_refused(judge, chomp, client):
    """Issue 36: a mistaken pending stage could not be removed by a judge."""
    from contests.models import Stage
    from contests.tests.factories import make_user

    contest, _ = chomp
    boss = api(judge)
    added = boss.post("/api/contests/chomp/stages/", {"kind": "round_robin", "name": "Oops"}, format="json").json()
    assert api(make_user()).delete(f"/api/stages/{added['id']}/").status_code == 403  # not a judge of it
    assert api().delete(f"/api/stages/{added['id']}/").status_code == 401
    gone = boss.delete(f"/api/stages/{added['id']}/", {"reason": "added by mistake"}, format="json")
    assert gone.status_code == 204 and not Stage.objects.filter(pk=added["id"]).exists()
    line = JudgeAction.objects.get(action="stage.delete")
    assert (line.target, line.reason, line.judge) == ("stage Oops", "added by mistake", judge)
    # Run, its games all queued: it never ran either; the console offers it, and deletes it.
    queued = boss.post("/api/contests/chomp/stages/", {"kind": "round_robin", "name": "Queued"}, format="json").json()
    boss.post(f"/api/stages/{queued['id']}/run/")
    client.force_login(judge)
    assert 'value="delete_stage"' in client.get("/contests/chomp/console/").content.decode()
    client.post("/contests/chomp/console/act/", {"action": "delete_stage", "stage": queued["id"]})
    assert not Stage.objects.filter(pk=queued["id"]).exists() and not Match.objects.filter(contest=contest).exists()
    # One game played: it ran. Refused with the sentence, no button offered, nothing logged.
    played = boss.post("/api/contests/chomp/stages/", {"kind": "round_robin", "name": "Final"}, format="json").json()
    boss.post(f"/api/stages/{played['id']}/run/")
    finish_on_paper(Match.objects.filter(stage_id=played["id"]).first(), [(1, 3, "win"), (0, 0, "loss")])
    refused = boss.delete(f"/api/stages/{played['id']}/")
    assert (
        refused.status_code == 409
        and "only a stage that never ran can be deleted" in refused.json()["error"]["message"]
    )
    assert 'value="delete_stage"' not in client.get("/contests/chomp/console/").content.decode()
    client.post("/contests/chomp/console/act/", {"action": "delete_stage", "stage": played["id"]})
    assert (
        Stage.objects.filter(pk=played["id"]).exists()
        and JudgeAction.objects.filter(action="stage.delete").count() == 2
    )
