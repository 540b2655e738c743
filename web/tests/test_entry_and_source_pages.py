"""An entry's own page, a version's source (its author and the judges only, to read or to
download), and my submissions across contests on my profile."""

import pytest

from contests.models import Submission
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
from judging.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def played():
    contest = make_contest(slug="chomp", title="Chomp")
    stage = make_stage(contest, name="Round robin", status="running")
    alice, bob = make_user(username="alice"), make_user(username="bob")
    mine = make_entry(contest, alice, name="Alice's")
    v1 = make_submission(mine, source=b"int main(){return 1;}\n", filename="main.c", language="c",
                         status=Submission.Status.READY, is_active=True)  # fmt: skip
    theirs = make_entry(contest, bob, name="Bob's")
    other = make_submission(theirs, status=Submission.Status.READY, is_active=True)
    match = make_match(contest, [v1, other], stage=stage)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    finish_on_paper(match, [(1.0, 10, "win"), (0.0, 3, "loss")], reason="seat 1 ate the poison cookie")
    return contest, alice, bob, mine, v1, match


def test_an_entry_page_shows_its_results_versions_and_games(played, client):
    contest, alice, bob, mine, v1, match = played
    page = client.get(f"/contests/chomp/entries/{mine.pk}/").content.decode()
    assert "Alice&#x27;s" in page and "Round robin" in page and "1 of 2" in page
    assert f"/matches/{match.pk}/" in page and "Bob&#x27;s ate the poison cookie" in page
    assert f"/submissions/{v1.pk}/source/" not in page  # an anonymous visitor: no source links
    client.force_login(alice)
    assert f"/submissions/{v1.pk}/source/" in client.get(f"/contests/chomp/entries/{mine.pk}/").content.decode()
    standings = client.get("/contests/chomp/standings/").content.decode()
    assert f"/contests/chomp/entries/{mine.pk}/" in standings


def test_a_source_is_its_authors_and_the_judges_to_read_and_download(played, client):
    contest, alice, bob, mine, v1, match = played
    judge = name_to(contest, make_user(username="judge"))
    for user in (alice, judge):
        client.force_login(user)
        page = client.get(f"/submissions/{v1.pk}/source/")
        assert page.status_code == 200 and "int main(){return 1;}" in page.content.decode()
        download = client.get(f"/submissions/{v1.pk}/source/?download=1")
        assert download.content == b"int main(){return 1;}\n"
        assert download["Content-Disposition"] == 'attachment; filename="main.c"'
    client.force_login(bob)
    assert client.get(f"/submissions/{v1.pk}/source/").status_code == 403
    assert client.get(f"/submissions/{v1.pk}/source/?download=1").status_code == 403
    client.logout()
    assert client.get(f"/submissions/{v1.pk}/source/").status_code == 302  # to the login page


def test_a_binary_source_is_offered_for_download_only(played, client):
    contest, alice, bob, mine, v1, match = played
    archive = make_submission(mine, source=b"PK\x03\x04\x00\x00binary", filename="entry.zip", language="archive")
    client.force_login(alice)
    page = client.get(f"/submissions/{archive.pk}/source/").content.decode()
    assert "download it to look inside" in page


def test_my_profile_lists_my_submissions_across_contests(played, client):
    contest, alice, bob, mine, v1, match = played
    other_contest = make_contest(slug="other", title="Other contest")
    elsewhere = make_submission(make_entry(other_contest, alice, name="Alice elsewhere"))
    client.force_login(alice)
    page = client.get("/accounts/profile/").content.decode()
    assert f"/submissions/{v1.pk}/" in page and f"/submissions/{elsewhere.pk}/" in page and "Other contest" in page
    assert "Bob&#x27;s" not in page


def test_a_version_page_digests_the_games_it_lost_by_its_own_fault(played, client):
    contest, alice, bob, mine, v1, match = played
    stage = match.stage
    other = Submission.objects.get(entry__name="Bob's")
    for status, reason in [("timeout", "move 7: no answer within 2 s"), ("crash", "move 3: killed by SIGSEGV")]:
        game = make_match(contest, [v1, other], stage=stage)
        Match.objects.filter(pk=game.pk).update(status=Match.Status.FINISHED)
        finish_on_paper(game, [(0.0, 0, status), (1.0, 9, "win")])
        game.seats.filter(index=0).update(reason=reason)
    client.force_login(alice)
    page = client.get(f"/submissions/{v1.pk}/").content.decode()
    assert "2 of its 3 games lost by its own fault: 1 crash, 1 timeout." in page
    assert "move 7: no answer within 2 s" in page and "killed by SIGSEGV" in page


def test_a_reference_program_is_everyones_to_read_and_the_contest_page_says_how_to_play_it(client, queued):
    from django.core.management import call_command

    call_command("load_demo", verbosity=0)
    reference = Submission.objects.filter(entry__contest__slug="chomp", entry__is_reference=True).order_by("pk").first()
    page = client.get("/contests/chomp/").content.decode()
    assert "Play at home" in page and f"/submissions/{reference.pk}/source/" in page
    assert "make kit" in page and "play chomp YOUR_PROGRAM" in page and "--contest chomp</pre>" in page
    source = client.get(f"/submissions/{reference.pk}/source/?download=1")
    with reference.source.open("rb") as f:
        assert source.status_code == 200 and source.content == f.read()
