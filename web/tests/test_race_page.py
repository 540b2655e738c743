"""A race being run shows its live table from the game's own columns (Wheels: deck of the
race's decks, sets of 13, round, moves, illegal moves), not from a page that knows Wheels."""

import pytest
from django.utils import timezone

from contests.tests.factories import make_contest, make_entry, make_match, make_stage, make_submission
from judging.models import Match, MatchAttempt

pytestmark = pytest.mark.django_db


def test_a_running_race_shows_the_games_live_columns(client):
    contest = make_contest(slug="wheels", game="wheels", game_params={})
    stage = make_stage(contest, kind="race", name="The race")
    subs = [make_submission(make_entry(contest, name=name), is_active=True, status="ready") for name in ("Ann", "Bob")]
    match = make_match(contest, subs, stage=stage, params={"decks": 5, "first_wins": 1})
    now = timezone.now()
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING, started_at=now)
    progress = {
        "t": 12.0,
        "started": True,
        "entrants": [
            {"name": "ann", "deck": 2, "discarded": 7, "round": 3, "moves": 40, "illegal": 1, "instructions": 50,
             "time_s": 12.0, "finished_s": None, "connected": True, "connections": 1},
            {"name": "bob", "deck": 5, "discarded": 13, "round": 2, "moves": 90, "illegal": 0, "instructions": 95,
             "time_s": 9.5, "finished_s": 9.5, "connected": False, "connections": 1},
        ],
    }  # fmt: skip
    MatchAttempt.objects.create(match=match, number=1, started_at=now, last_seen=now, progress=progress)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    table = page.split('class="list race live"')[1].split("</table>")[0]
    assert "<th>Deck</th><th>Sets</th><th>Round</th><th>Moves</th><th>Illegal</th>" in table
    assert "<td>Ann</td><td>2 of 5</td><td>7 of 13</td><td>3</td><td>40</td><td>1</td>" in table
    assert "racing" in table and "finished at 9.5 s" in table


def test_a_race_run_while_the_standings_are_frozen_is_watched_live_by_its_judges_only(client):
    """Its live table said who had finished, and when, of a race whose result waits for publish."""
    from contests.tests.factories import make_user, name_to
    from judging import services as judges

    contest = make_contest(slug="wheels", game="wheels", game_params={})
    stage = make_stage(contest, kind="race", name="The race", status="running")
    ann, bob = make_user(), make_user()
    subs = [
        make_submission(make_entry(contest, user, name=user.username), is_active=True, status="ready")
        for user in (ann, bob)
    ]
    match = make_match(contest, subs, stage=stage, params={"decks": 5, "first_wins": 1})
    judge = name_to(contest, make_user())
    judges.freeze_standings(judge, contest)
    now = timezone.now()
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING, started_at=now)
    progress = {"t": 3.0, "started": True, "entrants": [{"name": ann.username, "deck": 5, "finished_s": 2.5}]}
    MatchAttempt.objects.create(match=match, number=1, started_at=now, last_seen=now, progress=progress)
    assert "finished at 2.5 s" not in client.get(f"/matches/{match.pk}/").content.decode()
    client.force_login(make_user())  # a contestant of another game, the same
    assert "finished at 2.5 s" not in client.get(f"/matches/{match.pk}/").content.decode()
    for user in (judge, bob):  # its judges, and its own entrants
        client.force_login(user)
        assert "finished at 2.5 s" in client.get(f"/matches/{match.pk}/").content.decode()
