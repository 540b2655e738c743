"""A contestant's pages in Dutch (issue 38): the contest, its standings, a match and a version,
asked for with the browser's Accept-Language, say their sentences in Dutch and leave none in
English; the same pages without it stay English."""

import pytest
from django.test import Client

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
    """Alice's entry, one finished game against Bob's, and Alice logged in (in Dutch)."""
    contest = make_contest(slug="chomp", title="Chomp", is_public=True)
    stage = make_stage(contest, name="Round robin", status="running")
    alice, bob = make_user(username="alice"), make_user(username="bob")
    mine = make_entry(contest, alice, name="Alice's")
    v1 = make_submission(mine, filename="main.c", language="c", status=Submission.Status.READY, is_active=True)
    theirs = make_entry(contest, bob, name="Bobs")
    other = make_submission(theirs, status=Submission.Status.READY, is_active=True)
    match = make_match(contest, [v1, other], stage=stage)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED)
    finish_on_paper(match, [(1.0, 10, "win"), (0.0, 3, "loss")], reason="seat 1 ate the poison cookie")
    dutch = Client(HTTP_ACCEPT_LANGUAGE="nl")
    dutch.force_login(alice)
    english = Client()
    english.force_login(alice)
    return {"contest": contest, "entry": mine, "version": v1, "match": match, "nl": dutch, "en": english}


def _both(played, address: str) -> tuple[str, str]:
    dutch, english = (played[language].get(address) for language in ("nl", "en"))
    assert dutch.status_code == english.status_code == 200
    return dutch.content.decode(), english.content.decode()


def test_the_contest_page_in_dutch(played):
    dutch, english = _both(played, "/contests/chomp/")
    for said in (">Mijn inzendingen</h2>", ">Thuis spelen</h2>", ">Nieuwe versie indienen</button>",
                 ">Fasen</h2>", "Speel het spel van deze wedstrijd op je eigen machine"):  # fmt: skip
        assert said in dutch
    for said in (">My entries</h2>", ">Play at home</h2>", ">Submit a new version</button>", ">Stages</h2>",
                 "Play this contest's game on your own machine"):  # fmt: skip
        assert said in english and said not in dutch


def test_the_standings_in_dutch(played):
    dutch, english = _both(played, "/contests/chomp/standings/")
    for said in ("<title>Stand · Chomp", ">Stand: Round robin</h1>", "van 1 partijen gespeeld.", ">Partijen</th>",
                 ">Kruistabel</h2>", 'title="Nog geen rating: een versie die nieuwer is dan de laatste fit"'):  # fmt: skip
        assert said in dutch
    for said in ("<title>Standings · Chomp", ">Standings: Round robin</h1>", "of 1 matches played.", ">Games</th>",
                 ">Crosstable</h2>", 'title="Not rated yet: a version newer than the last fit"'):  # fmt: skip
        assert said in english and said not in dutch


def test_a_match_in_dutch(played):
    match = played["match"].pk
    dutch, english = _both(played, f"/matches/{match}/")
    for said in (f"<h1>Partij {match}", ">Positie</th>", ">Uitslag</th>", ">Zetten</th>"):
        assert said in dutch
    for said in (f"<h1>Match {match}", ">Seat</th>", ">Result</th>", ">Moves</th>"):
        assert said in english and said not in dutch


def test_a_version_in_dutch(played):
    version = played["version"].pk
    dutch, english = _both(played, f"/submissions/{version}/")
    for said in ("Alice&#x27;s, versie 1</h1>", ">Fouten van deze versie</h2>", "Doe een testrun</button>",
                 "Alleen jij en de jury zien testpartijen."):  # fmt: skip
        assert said in dutch
    for said in ("Alice&#x27;s, version 1</h1>", ">Errors of this version</h2>", "Play a test run</button>",
                 "Test games are seen by you and the judges only."):  # fmt: skip
        assert said in english and said not in dutch


def test_an_entry_its_source_and_the_matches_in_dutch(played):
    entry, version = played["entry"].pk, played["version"].pk
    dutch, english = _both(played, f"/contests/chomp/entries/{entry}/")
    assert ">Uitslagen</h2>" in dutch and ">Versies</h2>" in dutch and ">broncode</a>" in dutch
    assert ">Results</h2>" in english and ">Versions</h2>" in english and ">Results</h2>" not in dutch
    dutch, english = _both(played, f"/submissions/{version}/source/")
    assert ">Downloaden</a>" in dutch and "Alice&#x27;s, versie 1</a>" in dutch
    assert ">Download</a>" in english and ">Download</a>" not in dutch
    dutch, english = _both(played, "/contests/chomp/matches/")
    assert "<h1>Partijen</h1>" in dutch and " tegen " in dutch and ">Posities</th>" in dutch
    assert "<h1>Matches</h1>" in english and " vs " in english and ">Seats</th>" not in dutch


def test_the_judges_log_in_dutch(played):
    judge = name_to(played["contest"], make_user(username="judge"))
    dutch, english = Client(HTTP_ACCEPT_LANGUAGE="nl"), Client()
    dutch.force_login(judge)
    english.force_login(judge)
    said = dutch.get("/contests/chomp/judges-log/").content.decode()
    assert "<h1>Logboek van de jury</h1>" in said and "Geen enkel jurylid heeft nog iets gedaan" in said
    assert "<h1>Judges' log</h1>" in english.get("/contests/chomp/judges-log/").content.decode()
