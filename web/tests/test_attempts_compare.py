"""A judge reads any two attempts of a match side by side on its page (``?a=N&b=M``), the first
differing move named, and each attempt's own replay (``replay.json?attempt=N``); nobody else
does, frozen or not."""

import pytest

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
from judging.record import lifecycle

pytestmark = pytest.mark.django_db


def _played(match, moves, results):
    """A result on paper, with a replay of these moves (seat 0 first, in turn) on its attempt."""
    match = finish_on_paper(Match.objects.get(pk=match.pk), results)
    replay = {
        "moves": [{"seat": n % 2, "move": move, "status": "ok"} for n, move in enumerate(moves)],
        "result": {"points": [r[0] for r in results], "statuses": [r[2] for r in results]},
    }
    match.save_replay(replay, match.result_attempt)
    return match


@pytest.fixture
def rerun(queued):
    contest = make_contest(slug="chomp-x", game="chomp", game_params={"rows": 3, "cols": 3})
    stage = make_stage(contest, status="running")
    subs = [make_submission(make_entry(contest, name=n), is_active=True, status="ready") for n in ("Ann", "Bob")]
    match = _played(make_match(contest, subs, stage=stage), ["c3", "a2", "b1"], [(1, 0, "win"), (0, 0, "loss")])
    lifecycle.rerun_match(match)
    match = _played(match, ["c3", "b2", "a1", "a3"], [(0, 0, "loss"), (1, 0, "win")])
    return {"contest": contest, "match": match, "judge": name_to(contest, make_user())}


def test_a_judge_compares_two_attempts_move_by_move(client, rerun):
    match = rerun["match"]
    client.force_login(rerun["judge"])
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Compare their moves" in page and "move by move" not in page  # offered, not made unasked
    page = client.get(f"/matches/{match.pk}/?a=1&b=2").content.decode()
    assert "Move 2 is the first that differs: attempt 1, seat 1: a2; attempt 2, seat 1: b2." in page
    table = page.split('class="list compare"')[1].split("</table>")[0]
    assert table.count('class="differs') == 3 and "<td>2 <strong>(first difference)</strong></td>" in table
    assert "<td>4</td><td>–</td><td>seat 1: a3</td>" in table  # a move of attempt 2 alone
    same = client.get(f"/matches/{match.pk}/?a=2&b=2").content.decode()
    assert "The attempts 2 and 2 agree: the same 4 moves and the same result." in same
    assert "has no attempt 7" in client.get(f"/matches/{match.pk}/?a=1&b=7").content.decode()


def test_each_attempts_replay_is_its_judges_only(client, rerun):
    match = rerun["match"]
    judges.freeze_standings(rerun["judge"], rerun["contest"])
    client.force_login(rerun["judge"])
    first = client.get(f"/matches/{match.pk}/replay.json?attempt=1").json()
    assert [m["move"] for m in first["moves"]] == ["c3", "a2", "b1"]
    assert [m["move"] for m in client.get(f"/api/matches/{match.pk}/replay/?attempt=2").json()["moves"]][1] == "b2"
    assert client.get(f"/matches/{match.pk}/replay.json?attempt=9").status_code == 404
    for user in (None, make_user()):  # a visitor, a contestant of another game: never an attempt's own
        client.logout() if user is None else client.force_login(user)
        assert client.get(f"/matches/{match.pk}/replay.json?attempt=2").status_code == 403
        assert client.get(f"/api/matches/{match.pk}/bundle/?attempt=2").status_code == 403
        assert "Compare their moves" not in client.get(f"/matches/{match.pk}/?a=1&b=2").content.decode()
