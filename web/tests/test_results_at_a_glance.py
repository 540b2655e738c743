"""A contestant reads each result without opening a match: their own side first, in words
("lost to Bob: crashed (move 1)"), on the entry, submission and match pages, the contest's
list of matches and the API; never "seat 0" or a game's internal name alone."""

import pytest
from django.test import Client

from accounts.models import ApiToken
from contests.tests.factories import make_contest, make_entry, make_match, make_stage, make_submission, make_user
from judging.models import Match
from judging.play import matches
from judging.tests.conftest import PROGRAMS

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.fixture
def crashed():
    contest = make_contest(slug="chomp", game="chomp", game_params={"rows": 2, "cols": 2})
    alice, bob = make_user("alice"), make_user("bob")
    subs = []
    for user, name, program in ((alice, "Alice", "chomp_crash.c"), (bob, "Bob", "chomp_last.c")):
        path = PROGRAMS / program
        subs.append(
            make_submission(
                make_entry(contest, user, name=name), source=path.read_bytes(), filename=path.name, language="c"
            )
        )
    stage = make_stage(contest, name="Round robin", kind="round_robin")
    match = make_match(contest, subs, stage=stage, params={"rows": 2, "cols": 2})
    assert matches.play_now(match.pk) == Match.Status.FINISHED
    return match, alice, bob, subs


def _page(user, path: str) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(path)
    assert response.status_code == 200, path
    return response.content.decode()


def test_each_side_reads_its_own_result_and_a_bystander_the_winner(crashed):
    match, alice, bob, (mine, theirs) = crashed
    seat = match.seats.get(index=0)
    assert seat.status == "crash" and seat.reason.startswith("move 1:"), seat.reason
    alices = _page(alice, f"/contests/chomp/entries/{mine.entry_id}/")
    assert '<strong class="outcome">lost to Bob: crashed (move 1)</strong>' in alices
    assert '<strong class="outcome">lost to Bob: crashed (move 1)</strong>' in _page(alice, f"/submissions/{mine.pk}/")
    bobs = _page(bob, f"/contests/chomp/entries/{theirs.entry_id}/")
    assert '<strong class="outcome">won against Alice (Alice crashed (move 1))</strong>' in bobs
    listed = _page(None, "/contests/chomp/matches/")
    assert '<strong class="outcome">Bob won against Alice (Alice crashed (move 1))</strong>' in listed
    assert '<strong class="outcome">lost to Bob: crashed (move 1)</strong>' in _page(alice, "/contests/chomp/matches/")
    page = _page(None, f"/matches/{match.pk}/")
    assert "<td>crashed (move 1)</td>" in page and "<td>won</td>" in page and "seat 0" not in page


def test_the_api_says_the_same(crashed):
    match, alice, _, _ = crashed
    token = ApiToken.issue(alice, "script")[1]
    body = Client().get(f"/api/matches/{match.pk}/", headers={"Authorization": f"Bearer {token}"}).json()
    assert body["summary"] == "lost to Bob: crashed (move 1)"
    assert [s["result"] for s in body["seats"]] == ["crashed (move 1)", "won"]
    listed = Client().get("/api/matches/", {"contest": "chomp"}).json()["results"]
    assert listed[0]["summary"] == "Bob won against Alice (Alice crashed (move 1))"


def test_a_crash_shows_the_last_lines_of_its_stderr_on_its_own_submission_page():
    contest = make_contest(slug="chomp", game="chomp", game_params={"rows": 2, "cols": 2})
    alice, bob = make_user("alice"), make_user("bob")
    crashing = b"import sys\nprint('thinking hard', file=sys.stderr)\nmoves = {}\nprint(moves['first'])\n"
    mine = make_submission(make_entry(contest, alice, name="Alice"), source=crashing, filename="main.py")
    path = PROGRAMS / "chomp_last.c"
    theirs = make_submission(
        make_entry(contest, bob, name="Bob"), source=path.read_bytes(), filename=path.name, language="c"
    )
    match = make_match(contest, [mine, theirs], params={"rows": 2, "cols": 2})
    assert matches.play_now(match.pk) == Match.Status.FINISHED
    page = _page(alice, f"/submissions/{mine.pk}/")
    assert "1 of its 1 games lost by its own fault: 1 crash." in page
    assert "<strong>crashed (move 1)</strong>" in page
    tail = page.split('class="log stderr-tail"', 1)[1].split("</pre>", 1)[0]
    assert "thinking hard" in tail and "KeyError: &#x27;first&#x27;" in tail
    client = Client()
    client.force_login(bob)
    assert client.get(f"/submissions/{mine.pk}/").status_code == 403  # another's stderr is theirs


def test_a_system_test_stage_reads_running_while_open_then_finished():
    """It showed "Pending" forever at "6 of 6 played": no judge runs it, it runs by itself."""
    from datetime import timedelta

    from django.utils import timezone

    contest = make_contest(slug="chomp", game="chomp", game_params={"rows": 2, "cols": 2})
    stage = make_stage(contest, name="System test", kind="system_test")
    judge = make_user("judge", is_superuser=True)

    def said():
        client = Client()
        client.force_login(judge)
        api = client.get(f"/api/stages/{stage.pk}/").json()["status"]
        page = _page(None, "/contests/chomp/")
        return api, f'<span class="tag">{api.capitalize()}</span>' in page

    assert said() == ("running", True)
    contest.closes_at = timezone.now() - timedelta(minutes=1)
    contest.save()
    assert said() == ("finished", True)
    path = PROGRAMS / "chomp_last.c"
    sub = make_submission(make_entry(contest, name="Late"), source=path.read_bytes(), filename=path.name, language="c")
    make_match(contest, [sub, sub], stage=stage, status=Match.Status.QUEUED)
    assert said() == ("running", True)  # a test game is left to play
    stage.status = "cancelled"
    stage.save()
    assert said() == ("cancelled", True)
