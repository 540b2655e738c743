import pytest
from django.db import IntegrityError, transaction

from contests.tests.factories import make_contest, make_entry, make_match, make_stage, make_submission
from judging.models import MatchSeat

pytestmark = pytest.mark.django_db


def test_a_match_has_as_many_seats_as_the_game_needs():
    contest = make_contest()
    stage = make_stage(contest)
    subs = [make_submission(make_entry(contest)) for _ in range(3)]
    match = make_match(contest, subs, stage=stage)
    assert [s.index for s in match.seats.all()] == [0, 1, 2]
    assert [s.entry for s in match.seats.all()] == [s.entry for s in subs]


def test_a_seat_index_is_taken_once_per_match():
    contest = make_contest()
    sub = make_submission(make_entry(contest))
    match = make_match(contest, [sub])
    with pytest.raises(IntegrityError), transaction.atomic():
        MatchSeat.objects.create(match=match, index=0, entry=sub.entry, submission=sub)


def test_an_entry_has_at_most_one_active_submission():
    entry = make_entry(make_contest())
    make_submission(entry, is_active=True)
    with pytest.raises(IntegrityError), transaction.atomic():
        make_submission(entry, is_active=True)
    make_submission(entry, is_active=False)
    assert entry.submissions.count() == 2
    assert entry.active_submission.number == 1


def test_submission_numbers_are_unique_per_entry():
    entry = make_entry(make_contest())
    make_submission(entry, number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        make_submission(entry, number=1)


def test_the_source_is_stored_under_the_contest_and_entry(settings):
    entry = make_entry(make_contest(slug="chomp-test"))
    sub = make_submission(entry, source=b"int main(){}", filename="main.c", language="c")
    assert sub.source.name == f"submissions/chomp-test/{entry.pk}/1/main.c"
    with sub.source.open("rb") as f:
        assert f.read() == b"int main(){}"
    assert sub.size == 12


def test_a_replay_round_trips_through_storage():
    contest = make_contest()
    match = make_match(contest, [make_submission(make_entry(contest))])
    assert match.load_replay() is None
    replay = {"schema": 1, "game": "chomp", "moves": [{"seat": 0, "move": "2 3", "cpu_s": 0.01}]}
    match.save_replay(replay)
    match.refresh_from_db()
    assert match.replay.name.endswith(f"{match.pk}.json.gz")
    assert match.load_replay() == replay
    match.save_replay({**replay, "moves": []})  # a re-run replaces the file, it does not pile up
    assert match.load_replay()["moves"] == []


def test_contest_is_open_follows_its_schedule():
    from datetime import timedelta

    from django.utils import timezone

    now = timezone.now()
    assert make_contest().is_open()
    assert not make_contest(opens_at=now + timedelta(days=1)).is_open()
    assert not make_contest(closes_at=now - timedelta(seconds=1)).is_open()
    assert make_contest(opens_at=now - timedelta(days=1), closes_at=now + timedelta(days=1)).is_open()
