"""A freeze is a snapshot: until the judges publish, every public surface (standings, match
pages and lists, the API, replays, entry pages) shows the results as they were at the
freeze, and a game played since as "played, result hidden"; judges, and a match's own
contestants on that match, see the live record. Whatever the judges do meanwhile (re-run a
stage or a match) never empties or changes the public table."""

import pytest

from contests.models import Stage
from contests.tests.factories import (
    finish_on_paper,
    make_contest,
    make_entry,
    make_match,
    make_stage,
    make_submission,
    make_user,
    name_to,
)
from judging import services as judges
from judging.models import Match
from judging.record import lifecycle, publication

pytestmark = pytest.mark.django_db


@pytest.fixture
def setting(queued):
    """A Chomp round robin of three entries, two games played: Ann beat Bob, Bob beat Cid."""
    contest = make_contest(slug="frozen", game="chomp", game_params={"rows": 3, "cols": 3})
    stage = make_stage(contest, name="Round robin", status=Stage.Status.RUNNING)
    users = {name: make_user(username=name.lower()) for name in ("Ann", "Bob", "Cid")}
    subs = {
        name: make_submission(make_entry(contest, users[name], name=name), is_active=True, status="ready")
        for name in users
    }
    ann_bob = finish_on_paper(
        make_match(contest, [subs["Ann"], subs["Bob"]], stage=stage), [(1, 4, "win"), (0, 0, "loss")]
    )
    bob_cid = finish_on_paper(
        make_match(contest, [subs["Bob"], subs["Cid"]], stage=stage), [(1, 3, "win"), (0, 0, "loss")]
    )
    cid_ann = make_match(contest, [subs["Cid"], subs["Ann"]], stage=stage)  # not played yet
    judge = name_to(contest, make_user(username="judge"))
    return {
        "contest": contest, "stage": stage, "users": users, "subs": subs, "judge": judge,
        "ann_bob": ann_bob, "bob_cid": bob_cid, "cid_ann": cid_ann,
    }  # fmt: skip


def wins(client, slug="frozen"):
    rows = client.get(f"/api/contests/{slug}/standings/").json()["rows"]
    return {row["name"]: row["values"]["wins"] for row in rows}


def test_a_rerun_stage_after_a_freeze_leaves_the_public_table_as_it_was(client, setting):
    judges.freeze_standings(setting["judge"], setting["contest"])
    assert lifecycle.rerun_stage(setting["stage"]) == 3
    assert wins(client) == {"Ann": 1, "Bob": 1, "Cid": 0}  # not emptied: the snapshot's
    page = client.get("/contests/frozen/standings/").content.decode()
    assert "frozen since" in page and "2 of 3 matches played" in page  # the snapshot holds two games
    # The games played again, with other results: still the snapshot's, to the public.
    finish_on_paper(Match.objects.get(pk=setting["ann_bob"].pk), [(0, 0, "loss"), (1, 9, "win")])
    finish_on_paper(Match.objects.get(pk=setting["cid_ann"].pk), [(1, 2, "win"), (0, 0, "loss")])
    assert wins(client) == {"Ann": 1, "Bob": 1, "Cid": 0}
    client.force_login(setting["judge"])
    assert wins(client) == {"Ann": 0, "Bob": 2, "Cid": 1}  # judges see the live record
    judges.publish_results(setting["judge"], setting["contest"])
    client.logout()
    assert wins(client) == {"Ann": 0, "Bob": 2, "Cid": 1}


def test_a_match_played_again_after_a_freeze_shows_its_frozen_result_everywhere_public(client, setting):
    match = setting["ann_bob"]
    judges.freeze_standings(setting["judge"], setting["contest"])
    lifecycle.rerun_match(match)
    finish_on_paper(Match.objects.get(pk=match.pk), [(0, 0, "loss"), (1, 9, "win")], reason="seat 0 ate it")

    detail = client.get(f"/api/matches/{match.pk}/").json()
    assert [s["status"] for s in detail["seats"]] == ["win", "loss"] and detail["result_as_frozen"]
    listed = client.get("/api/matches/?status=finished&contest=frozen").json()["results"]
    assert {m["id"]: [s["points"] for s in m["seats"]] for m in listed}[match.pk] == [1.0, 0.0]
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "the result this game had then" in page and "ate it" not in page
    # Its own contestants see their game as it is now; so do the judges.
    for user in (setting["users"]["Bob"], setting["judge"]):
        client.force_login(user)
        mine = client.get(f"/api/matches/{match.pk}/").json()
        assert [s["status"] for s in mine["seats"]] == ["loss", "win"] and not mine["result_as_frozen"]
    client.force_login(setting["users"]["Cid"])  # not one of its contestants
    assert [s["status"] for s in client.get(f"/api/matches/{match.pk}/").json()["seats"]] == ["win", "loss"]


def test_a_game_played_after_the_freeze_is_played_with_its_result_hidden(client, setting):
    match = setting["cid_ann"]
    judges.freeze_standings(setting["judge"], setting["contest"])
    finish_on_paper(match, [(1, 2, "win"), (0, 0, "loss")], reason="seat 1 ate the poison cookie")
    Match.objects.filter(pk=match.pk).update(replay="replays/frozen/x.json.gz")

    detail = client.get(f"/api/matches/{match.pk}/").json()
    assert detail["status"] == "finished" and detail["result_hidden"] and detail["reason"] == ""
    assert [(s["status"], s["points"], s["moves"]) for s in detail["seats"]] == [("", None, 0), ("", None, 0)]
    listed = client.get("/api/matches/?status=finished").json()["results"]
    assert next(m for m in listed if m["id"] == match.pk)["result_hidden"]
    assert client.get(f"/api/matches/{match.pk}/replay/").status_code == 403
    assert client.get(f"/matches/{match.pk}/replay.json").status_code == 403
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "its result is hidden until the judges publish" in page and "poison" not in page
    assert "result hidden until published" in client.get("/contests/frozen/matches/").content.decode()
    entry = setting["subs"]["Cid"].entry
    entry_page = client.get(f"/contests/frozen/entries/{entry.pk}/").content.decode()
    assert "result hidden until published" in entry_page and "poison" not in entry_page
    assert client.get("/contests/frozen/standings/history.json").json()["lines"][0]["points"][-1] == 1.0
    # The contestant whose game it is sees it.
    client.force_login(setting["users"]["Cid"])
    assert not client.get(f"/api/matches/{match.pk}/").json()["result_hidden"]
    assert wins(client) == {"Ann": 1, "Bob": 1, "Cid": 0}  # but the standings stay the snapshot's
    judges.publish_results(setting["judge"], setting["contest"])
    client.logout()
    assert not client.get(f"/api/matches/{match.pk}/").json()["result_hidden"]
    assert wins(client) == {"Ann": 1, "Bob": 1, "Cid": 1}


def test_freezing_twice_is_refused_and_a_publish_drops_the_snapshot(setting):
    contest = setting["contest"]
    assert judges.freeze_standings(setting["judge"], contest) == 4  # two games, two seats each
    with pytest.raises(publication.Refused, match="frozen already"):
        judges.freeze_standings(setting["judge"], contest)
    judges.publish_results(setting["judge"], contest)
    from judging.models import FrozenSeat

    assert not FrozenSeat.objects.filter(contest=contest).exists()
    assert judges.freeze_standings(setting["judge"], contest) == 4  # a fresh one


def test_a_rerun_after_the_freeze_leaves_the_public_played_count_as_it_was(client, setting):
    """Issue 36: the frozen table's "played" went 20 -> 19 while a match was played again."""
    from judging.record import standings
    from judging.record.standings import FROZEN

    judges.freeze_standings(setting["judge"], setting["contest"])
    lifecycle.rerun_match(setting["ann_bob"])
    assert client.get("/api/contests/frozen/standings/").json()["matches_played"] == 2
    assert "2 of 3 matches played" in client.get("/contests/frozen/standings/").content.decode()
    assert "2 of 3 matches played" in client.get("/contests/frozen/").content.decode()
    for kept in (True, False):  # the reference counts it the same way
        assert standings.compute(setting["contest"], setting["stage"], FROZEN, kept=kept).finished == 2
    client.force_login(setting["judge"])  # the live record: one game is being played again
    assert client.get("/api/contests/frozen/standings/").json()["matches_played"] == 1
    assert "1 of 3 matches played" in client.get("/contests/frozen/").content.decode()
    judges.publish_results(setting["judge"], setting["contest"])
    client.logout()
    assert client.get("/api/contests/frozen/standings/").json()["matches_played"] == 1
