"""A practice stage: in an open output-only or race contest, each version that passes its
system test runs at once, alone, on the stage's inputs; its standings rank current versions.
An entry submitted after the judges' run used to show "Ready (active)" and never play."""

import pytest

from contests.models import Stage, Submission
from contests.tests.factories import make_contest, make_entry, make_stage, make_submission
from judging.models import Match
from judging.play import matches
from judging.record import lifecycle, standings
from judging.schedule import system_test
from judging.schedule.tournaments import practice_seed
from judging.tests.conftest import PLAYERS
from judging.tests.test_batch import _weak_source

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def _version(entry, source: bytes, filename="main.py", language="python3") -> Submission:
    sub = make_submission(entry, source=source, filename=filename, language=language, status=Submission.Status.READY)
    system_test.choose_active(entry.pk)  # what a passed system test does
    return sub


def test_each_new_version_runs_once_alone_on_the_same_inputs_and_the_standings_count_the_current(queued):
    contest = make_contest(slug="words", game="crossed_words", game_params={}, clock={"seconds": 20})
    stage = make_stage(contest, name="Practice", kind="practice")
    assert lifecycle.run_stage(stage) == []  # nobody yet: it opens and waits
    stage.refresh_from_db()
    assert stage.status == Stage.Status.RUNNING

    alice = make_entry(contest, name="Alice")
    first = _version(alice, _weak_source(3))
    runs = list(stage.matches.all())
    assert len(runs) == 1 and runs[0].seed == practice_seed(stage) and runs[0].seats.get().submission == first
    assert matches.play_now(runs[0].pk) == Match.Status.FINISHED
    system_test.choose_active(alice.pk)  # the same version again: nothing owed
    assert stage.matches.count() == 1

    second = _version(alice, _weak_source(12))
    bob = make_entry(contest, name="Bob")
    _version(bob, _weak_source(6))
    waiting = stage.matches.filter(status=Match.Status.QUEUED)
    assert {m.seats.get().submission.entry.name for m in waiting} == {"Alice", "Bob"}
    assert {m.seed for m in stage.matches.all()} == {practice_seed(stage)}  # results that compare
    for match in waiting:
        assert matches.play_now(match.pk) == Match.Status.FINISHED
    table = standings.compute(contest, stage)
    assert [row.entry.name for row in table.rows] == ["Alice", "Bob"]  # her 12 moves beat his 6
    assert [row.games for row in table.rows] == [1, 1]  # Alice's first version no longer counts
    stage.refresh_from_db()
    second.refresh_from_db()
    assert stage.status == Stage.Status.RUNNING and second.is_active


def test_a_practice_stage_runs_a_race_clients_laps_alone():
    contest = make_contest(slug="wheels", game="wheels", game_params={"decks": 1}, clock={"seconds": 60})
    stage = make_stage(contest, name="Practice laps", kind="practice", params={"seconds": 30})
    lifecycle.run_stage(stage)
    path = PLAYERS / "wheels/players/pacecar.pl"
    entry = make_entry(contest, name="Pace car")
    _version(entry, path.read_bytes(), filename=path.name, language="perl")
    run = stage.matches.get()
    assert matches.play_now(run.pk) == Match.Status.FINISHED
    seat = run.seats.get()
    assert seat.status == "win" and seat.score > 0


def test_an_entry_says_when_it_plays_next(queued):
    """A version that arrives after the judges' run is told that a judge must add a stage; a
    practice stage plays it at once; a pending stage plays it when the judges run it."""
    from judging.schedule.plans import next_games

    contest = make_contest(slug="words", game="crossed_words", game_params={}, clock={"seconds": 20})
    final = make_stage(contest, name="Final run", kind="batch", params={"seconds": 20})
    alice = make_entry(contest, name="Alice")
    assert next_games(alice).text == "No program yet: submit one to play."
    _version(alice, _weak_source(3))
    assert (
        next_games(alice).text == "It plays in Final run when the judges run it."
        and next_games(alice).stage == final.pk
    )
    lifecycle.run_stage(final)
    said = next_games(alice)
    assert said.text == "1 game queued or playing in Final run." and said.queued == 1
    assert matches.play_now(final.matches.get().pk) == Match.Status.FINISHED
    late = make_entry(contest, name="Late")
    _version(late, _weak_source(3))
    said = next_games(late)
    assert said.judge_needed and "a judge must add or re-run one" in said.text
    practice = make_stage(contest, name="Practice", kind="practice", order=0)
    lifecycle.run_stage(practice)
    assert next_games(late).text == "1 game queued or playing in Practice."
    assert matches.play_now(practice.matches.get(seats__entry=late).pk) == Match.Status.FINISHED
    said = next_games(late)
    assert said.stage == practice.pk and "as soon as a new version passes its system test" in said.text
    newest = make_submission(late, source=_weak_source(2), status=Submission.Status.BUILDING)
    assert next_games(late).text.startswith(
        f"Version {newest.number} is being built and tested; it plays in Practice once"
    )


def test_a_wheels_archive_whose_install_script_writes_what_it_needs_races(queued):
    """The page: "If you include an INSTALL script ... it will be run." Built by the worker's
    own path, its output in the build log, then a lap of the practice stage."""
    import io
    import tarfile

    from judging.play import builds

    def member(name: str, data: bytes) -> tuple[tarfile.TarInfo, bytes]:
        info = tarfile.TarInfo(name)
        info.size, info.mode = len(data), 0o755
        return info, data

    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        for info, data in (
            member("INSTALL", b"#!/bin/sh\necho 'PACE=pacecar.pl' > settings.sh\necho configured\n"),
            member("runme", b'#!/bin/sh\n. ./settings.sh\nexec perl "$PACE"\n'),
            member("pacecar.pl", (PLAYERS / "wheels/players/pacecar.pl").read_bytes()),
        ):
            archive.addfile(info, io.BytesIO(data))
    contest = make_contest(slug="wheels", game="wheels", game_params={"decks": 1}, clock={"seconds": 60})
    stage = make_stage(contest, name="Practice laps", kind="practice", params={"seconds": 30})
    lifecycle.run_stage(stage)
    entry = make_entry(contest, name="Installed")
    sub = make_submission(
        entry, source=out.getvalue(), filename="entry.tar.gz", language="archive", status=Submission.Status.QUEUED
    )
    builds.build_submission(sub.pk)
    sub.refresh_from_db()
    assert sub.status == Submission.Status.READY, sub.build_log
    assert "$ ./INSTALL\nconfigured" in sub.build_log
    run = stage.matches.get()
    assert matches.play_now(run.pk) == Match.Status.FINISHED
    assert run.seats.get().status == "win"
