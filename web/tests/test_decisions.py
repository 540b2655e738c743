"""The contestant sees what the judges decided: a rejected output's note on its match page,
entry page and submission page and in the API, its verified score beside the claim; a
disqualification's reason on its entry and submission pages. Others see the decision, not
the note; while the standings are frozen, not a decision made since."""

import pytest

from contests import services
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
from judging.record import publication, verification

pytestmark = pytest.mark.django_db

NOTE = "line 30: the figure is one too many; the contestant reads it"


@pytest.fixture
def run(queued):
    contest = make_contest(slug="words", game="crossed_words", game_params={})
    stage = make_stage(contest, kind="batch", name="Final run", status="running")
    owner = make_user(username="mso")
    submission = make_submission(make_entry(contest, owner, name="Wordy"), is_active=True, status="ready")
    match = make_match(contest, [submission], stage=stage)
    # As the verifier recorded it: it recomputed 110 (the points), the output claims 110 (the score).
    finish_on_paper(match, [(110.0, 110.0, "valid")], reason="verified: 110 points")
    judge = name_to(contest, make_user(username="judge"))
    return {"contest": contest, "match": match, "owner": owner, "submission": submission, "judge": judge}


def test_a_rejection_and_its_note_reach_the_contestant_everywhere(client, run):
    match, submission = run["match"], run["submission"]
    verification.decide(match, run["judge"], "rejected", NOTE)
    client.force_login(run["owner"])
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "The judges' decision: rejected" in page and "the verifier had found 110" in page
    assert "line 30: the figure is one too many" in page
    entry_page = client.get(f"/contests/words/entries/{submission.entry_id}/").content.decode()
    assert "rejected by the judges" in entry_page and "line 30" in entry_page
    submission_page = client.get(f"/submissions/{submission.pk}/").content.decode()
    assert "rejected by the judges" in submission_page and "line 30" in submission_page
    decision = client.get(f"/api/matches/{match.pk}/").json()["decision"]
    assert decision["status"] == "rejected" and decision["note"] == NOTE
    assert (decision["claimed"], decision["verifier"], decision["counted"]) == (110.0, 110.0, 0.0)
    # Another contestant, or a visitor, sees the decision but not the note.
    client.force_login(make_user())
    other = client.get(f"/api/matches/{match.pk}/").json()["decision"]
    assert other["status"] == "rejected" and "note" not in other
    assert "line 30" not in client.get(f"/matches/{match.pk}/").content.decode()


def test_a_decision_made_after_a_freeze_waits_for_the_results_but_its_contestant_reads_it(client, run):
    match = run["match"]
    judges.freeze_standings(run["judge"], run["contest"])
    verification.decide(match, run["judge"], "rejected", NOTE)
    assert client.get(f"/api/matches/{match.pk}/").json()["decision"] is None
    standings = client.get("/api/contests/words/standings/").json()
    assert standings["rows"][0]["values"]["verified"] == 110.0  # the table as it was at the freeze
    # The match as it was at the freeze too, everywhere public (issue 36: its page and the
    # list showed the rejection's 0 points beside the table's 110)
    detail = client.get(f"/api/matches/{match.pk}/").json()
    assert [s["points"] for s in detail["seats"]] == [110.0] and detail["result_as_frozen"]
    listed = client.get("/api/matches/?contest=words").json()["results"]
    assert [s["points"] for s in next(m for m in listed if m["id"] == match.pk)["seats"]] == [110.0]
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "valid output, 110 points" in page and "output, 0 points" not in page
    client.force_login(run["owner"])
    assert client.get(f"/api/matches/{match.pk}/").json()["decision"]["note"] == NOTE
    assert [s["points"] for s in client.get(f"/api/matches/{match.pk}/").json()["seats"]] == [0.0]
    judges.publish_results(run["judge"], run["contest"])
    client.logout()
    assert client.get(f"/api/matches/{match.pk}/").json()["decision"]["status"] == "rejected"
    assert [s["points"] for s in client.get(f"/api/matches/{match.pk}/").json()["seats"]] == [0.0]


def test_a_disqualification_reason_is_on_the_contestants_entry_and_submission_pages(client, run):
    submission = run["submission"]
    services.disqualify(run["judge"], submission.entry, "Shared its program with another entrant.")
    client.force_login(run["owner"])
    for url in (f"/contests/words/entries/{submission.entry_id}/", f"/submissions/{submission.pk}/"):
        assert "Shared its program with another entrant." in client.get(url).content.decode()
    mine = client.get("/api/contests/words/entries/").json()["results"][0]
    assert mine["status"] == "disqualified" and mine["status_reason"] == "Shared its program with another entrant."
    client.force_login(make_user())
    assert "Shared its program" not in client.get(f"/contests/words/entries/{submission.entry_id}/").content.decode()


def test_decisions_of_an_earlier_result_are_not_shown_for_a_new_one(run):
    match = run["match"]
    verification.decide(match, run["judge"], "accepted")
    finish_on_paper(match, [(90.0, 120.0, "valid")])  # a re-run's new result waits for a judge
    match = type(match).objects.select_related("verification", "result_attempt", "contest").get(pk=match.pk)
    assert publication.decisions(run["owner"], [match]) == {}


def test_a_decision_made_after_a_freeze_is_no_event_for_the_public(client, run):
    """Its "standings changed" told every visitor, to the second, that the judges had decided
    on something since the freeze: while frozen it is the judges' news only."""
    from judging.models import Event
    from web import events as web_events

    judges.freeze_standings(run["judge"], run["contest"])
    head = client.get("/api/events/head/?contest=words").json()["id"]
    assert head > 0  # the freeze itself is everyone's news
    verification.decide(run["match"], run["judge"], "rejected", NOTE)
    assert client.get("/api/events/head/?contest=words").json()["id"] == head  # a visitor's page stays still
    client.force_login(run["owner"])
    assert client.get("/api/events/head/?contest=words").json()["id"] == head
    client.force_login(run["judge"])
    assert client.get("/api/events/head/?contest=words").json()["id"] > head  # the judges' console follows
    seen = web_events._seen(Event.objects.get(pk=client.get("/api/events/head/?contest=words").json()["id"]))
    contest = run["contest"].pk
    assert not web_events.Viewer({contest}, None, judged=set()).sees(seen)  # a stream, the same
    assert web_events.Viewer({contest}, run["judge"].pk, judged={contest}).sees(seen)
    judges.publish_results(run["judge"], run["contest"])
    client.logout()
    assert client.get("/api/events/head/?contest=words").json()["id"] > head  # the publish is everyone's news
