"""Versus batches (judging.schedule.versus): a version against a pool, unrated, stopped honestly."""

import numpy as np
import pytest
from django.test import Client, override_settings
from rest_framework.test import APIClient

from contests.models import Submission
from contests.tests.factories import finish_on_paper, make_contest, make_entry, make_submission, make_user
from judging.models import Match, VersusBatch
from judging.record import standings
from judging.record.formats import StageError
from judging.schedule import versus

pytestmark = pytest.mark.django_db


# --- The interval ------------------------------------------------------------------------------


def _stopped_early(rate: float, games: int, runs: int, seed: int) -> tuple[float, float]:
    """Share of batches whose interval excluded 50% at some game, and their median games."""
    rng = np.random.default_rng(seed)
    stops = []
    for _ in range(runs):
        score = 0.0
        for n in range(1, games + 1):
            score += rng.random() < rate
            low, high = versus.interval(n, score)
            if low > 0.5 or high < 0.5:
                stops.append(n)
                break
    return len(stops) / runs, float(np.median(stops)) if stops else float("inf")


def test_looking_after_every_game_stops_two_equal_programs_rarely():
    share, _ = _stopped_early(0.5, 200, 1000, seed=1)
    assert share <= 0.05  # the declared level, peeking at every game included


def test_a_clearly_better_version_is_called_early():
    share, median = _stopped_early(0.8, 200, 300, seed=2)
    assert share >= 0.99 and median <= 40


def test_the_interval_holds_its_level_at_a_fixed_count_too_and_narrows():
    widths = [versus.interval(n, n / 2)[1] - versus.interval(n, n / 2)[0] for n in (10, 50, 200, 1000)]
    assert widths == sorted(widths, reverse=True) and widths[-1] < 0.15
    assert versus.interval(0, 0) == (0.0, 1.0)


# --- A batch's life ----------------------------------------------------------------------------


def _contestant():
    contest = make_contest()
    user = make_user()
    entry = make_entry(contest, user=user, name="Mine")
    old = make_submission(entry, status=Submission.Status.READY)
    new = make_submission(entry, status=Submission.Status.READY, is_active=True)
    reference = make_entry(contest, name="Ref", is_reference=True)
    make_submission(reference, status=Submission.Status.READY, is_active=True)
    return contest, user, old, new


def _finish(batch, new_wins: bool = True) -> int:
    played = 0
    for match in Match.objects.filter(versus=batch, status=Match.Status.QUEUED):
        mine = match.seats.get(submission=batch.submission).index
        won, lost = (1, 5, "win"), (0, 0, "loss")
        results = [won, lost] if (mine == 0) == new_wins else [lost, won]
        finish_on_paper(match, results)
        played += 1
    return played


def test_a_better_version_stops_early_with_its_win_rate_and_interval():
    contest, user, old, new = _contestant()
    batch = versus.start(new, user, 100, versus.Pool())
    assert [o["label"] for o in batch.opponents] == ["my version 1", "Ref (reference)"]
    queued = Match.objects.filter(versus=batch)
    assert queued.count() == versus.IN_PLAY and all(m.stage_id is None for m in queued)
    assert {m.priority for m in queued} == {Match.Priority.TOURNAMENT}  # not ahead of a stage's games
    said = ""
    while not said:
        assert _finish(batch) > 0
        said = versus.step(batch.pk)
    batch.refresh_from_db()
    found = versus.win_rate(batch)
    assert batch.status == VersusBatch.Status.DECIDED and said.startswith("better than the pool")
    assert found.rate == 1.0 and found.low > 0.5 and found.games < 40
    assert not Match.objects.filter(versus=batch, status=Match.Status.QUEUED).exists()  # the rest called off
    assert standings.compute(contest).rows == []  # unrated: in no standings


def test_an_equal_version_spends_its_games_undecided():
    contest, user, old, new = _contestant()
    batch = versus.start(new, user, 12, versus.Pool(references=False))
    flip = True
    while batch.status == VersusBatch.Status.RUNNING:
        flip = not flip
        _finish(batch, new_wins=flip)  # 8 lost, then 4 won
        versus.step(batch.pk)
        batch.refresh_from_db()
    assert batch.status == VersusBatch.Status.SPENT and batch.ended_by.startswith(
        "its 12 games spent: 4 of 12 (33%; 95% interval"
    )
    assert Match.objects.filter(versus=batch).count() == 12


def test_the_pool_takes_the_top_entries_and_only_rivals_who_allow_it():
    contest, user, old, new = _contestant()
    rival = make_entry(contest, name="Rival")
    make_submission(rival, status=Submission.Status.READY, is_active=True)
    with pytest.raises(StageError, match="allow versus games"):
        versus.start(new, user, 10, versus.Pool(rivals=(rival.pk,)))
    api = APIClient()
    api.force_authenticate(rival.user)
    allowed = api.post(f"/api/entries/{rival.pk}/versus-allowed/", {"allowed": True}, format="json")
    assert allowed.status_code == 200 and allowed.json()["versus_allowed"] is True
    api.force_authenticate(user)  # nobody allows it for another
    assert api.post(f"/api/entries/{rival.pk}/versus-allowed/", {"allowed": False}, format="json").status_code in (
        403,
        404,
    )
    batch = versus.start(new, user, 10, versus.Pool(previous=False, references=False, rivals=(rival.pk,)))
    assert [o["label"] for o in batch.opponents] == ["Rival (rival)"]
    with pytest.raises(StageError, match="pool is empty"):
        versus.start(new, user, 10, versus.Pool(previous=False, references=False))


@override_settings(VERSUS_GAMES_PER_DAY=20)
def test_the_quota_caps_a_batch_and_then_refuses():
    contest, user, old, new = _contestant()
    batch = versus.start(new, user, 500, versus.Pool())
    assert batch.games == 20
    _finish(batch)
    versus.step(batch.pk)  # decided early? not after 8 games: it plays on
    while versus.step(batch.pk) == "" and _finish(batch):
        pass
    batch.refresh_from_db()
    left = versus.games_left(user, contest)
    assert left == 20 - Match.objects.filter(versus=batch).exclude(status=Match.Status.CANCELLED).count()
    if left < 2:
        with pytest.raises(StageError, match="used your 20 versus games"):
            versus.start(new, user, 10, versus.Pool())


def test_someone_elses_version_and_an_unready_one_are_refused():
    contest, user, old, new = _contestant()
    other = make_user()
    api = APIClient()
    api.force_authenticate(other)
    assert api.post(f"/api/submissions/{new.pk}/versus/", {"games": 10}, format="json").status_code in (403, 404)
    building = make_submission(new.entry, status=Submission.Status.BUILDING)
    with pytest.raises(StageError, match="passed its system test"):
        versus.start(building, user, 10, versus.Pool())
    api.force_authenticate(user)
    bad = api.post(f"/api/submissions/{new.pk}/versus/", {"games": "many", "rivals": ["x"]}, format="json")
    assert bad.status_code == 400 and {"games", "rivals"} <= bad.json()["error"]["fields"].keys()


def test_the_api_and_the_page_follow_a_batch():
    contest, user, old, new = _contestant()
    api = APIClient()
    api.force_authenticate(user)
    made = api.post(f"/api/submissions/{new.pk}/versus/", {"games": 50}, format="json")
    assert made.status_code == 201 and made.json()["status"] == "running" and made.json()["played"] == 0
    batch = VersusBatch.objects.get(pk=made.json()["id"])
    _finish(batch)
    versus.step(batch.pk)
    listed = api.get(f"/api/submissions/{new.pk}/versus/").json()
    assert listed[0]["played"] == 8 and listed[0]["win_rate"] == 1.0 and listed[0]["status"] == "running"
    assert listed[0]["low"] < 0.5 < listed[0]["high"] == 1.0  # 8 games decide nothing yet
    client = Client()
    client.force_login(user)
    page = client.get(f"/submissions/{new.pk}/").content.decode()
    assert "Versus your pool" in page and "8/8 = <strong>100%</strong>" in page
    started = client.post(f"/submissions/{new.pk}/versus/", {"previous": "1", "games": "10", "rivals": "x, 99999"})
    assert started.status_code == 302
    assert "allow versus games" in client.get(started["Location"]).content.decode()
    contest_page = client.get(f"/contests/{contest.slug}/").content.decode()
    assert "Let others play versus games against Mine" in contest_page
    client.post(f"/contests/{contest.slug}/entries/{new.entry_id}/versus-allowed/", {"allowed": "1"})
    assert "Stop offering Mine as a versus rival" in client.get(f"/contests/{contest.slug}/").content.decode()


# --- The quota, asked for at once ------------------------------------------------------------


def test_three_quick_batches_of_the_most_games_reserve_the_quota_once():
    """Three quick POSTs of 10,000 games each got 201 with 200, 192 and 184 games against a quota
    of 200: each saw only the 8 games the one before had queued. A batch now reserves its games
    when it starts (and 10,000 is over the bound of a batch's games)."""
    contest, user, old, new = _contestant()
    api = APIClient()
    api.force_authenticate(user)
    url = f"/api/submissions/{new.pk}/versus/"
    assert all(400 <= api.post(url, {"games": 10000}, format="json").status_code < 500 for _ in range(3))
    assert not VersusBatch.objects.exists()
    answers = [api.post(url, {"games": 1000}, format="json") for _ in range(3)]
    assert answers[0].status_code == 201 and answers[0].json()["games"] == 200
    note = answers[0].json()["note"]
    assert note.startswith("Cut to 200 games: that is what is left of your 200 versus games") and "1,000" in note
    for refused in answers[1:]:
        assert refused.status_code == 409
        assert "You have used your 200 versus games of the last 24 hours" in refused.json()["error"]["message"]
    assert sum(VersusBatch.objects.values_list("games", flat=True)) == 200
    assert versus.games_left(user, contest) == 0


def test_the_page_says_when_a_batch_is_cut_to_the_quota():
    contest, user, old, new = _contestant()
    client = Client()
    client.force_login(user)
    page = client.post(f"/submissions/{new.pk}/versus/", {"previous": "1", "games": "1000"}, follow=True)
    assert "is playing" in page.content.decode() and "Cut to 200 games" in page.content.decode()


@override_settings(VERSUS_GAMES_PER_DAY=60)
def test_a_batch_over_what_is_left_is_cut_and_one_stopped_early_gives_back_the_rest():
    contest, user, old, new = _contestant()
    batch = versus.start(new, user, 40, versus.Pool())
    assert batch.note == "" and versus.games_left(user, contest) == 20
    cut = versus.start(new, user, 40, versus.Pool())
    assert cut.games == 20 and cut.note.startswith("Cut to 20 games") and "(you asked for 40)" in cut.note
    with pytest.raises(StageError, match="used your 60 versus games"):
        versus.start(new, user, 40, versus.Pool())
    said = ""
    while not said:
        _finish(batch)
        said = versus.step(batch.pk)
    made = Match.objects.filter(versus=batch).exclude(status=Match.Status.CANCELLED).count()
    assert said.startswith("better than the pool") and made < 40
    assert versus.games_left(user, contest) == 60 - made - 20  # the cut batch still holds its 20


@pytest.mark.django_db(transaction=True)
def test_batches_asked_for_at_once_do_not_over_commit_the_quota():
    """Eight POSTs at the same moment, each in its own thread and connection (on PostgreSQL each
    its own transaction, all reading the quota before any writes): 200 games in all."""
    import threading

    from django.db import connection

    contest, user, old, new = _contestant()
    start = threading.Barrier(8)
    answers = []

    def ask():
        api = APIClient()
        api.force_authenticate(user)
        try:
            start.wait(timeout=10)
            answers.append(api.post(f"/api/submissions/{new.pk}/versus/", {"games": 150}, format="json").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(answers) == [201, 201] + [409] * 6, answers
    assert sorted(VersusBatch.objects.values_list("games", flat=True)) == [50, 150]
    assert versus.games_left(user, contest) == 0
