"""The owners' check (arbiter/owners.py, run by ``make lint``): it finds each way a module
writes a result's state, and the project's running code writes none outside its owners."""

from pathlib import Path

from arbiter import owners

SOURCE = """
Match.objects.filter(pk=1).update(stage=other, priority=2)
seats.filter(index=0).update(points=1)
MatchSeat.objects.bulk_update(rows, ["score", "moves"])
match.status = "finished"
self.match.round, entry.status = 3, "disqualified"
setattr(attempt, "outcome", "lost")
error.status = 404
claim.status = 200
Match.objects.create(status="queued")
versions.update(is_active=True)
"""


def test_each_kind_of_write_is_found_and_nothing_else():
    found = sorted(owners.writes(Path("x.py"), SOURCE))
    assert found == [
        (2, "Match", "stage"),
        (3, "MatchSeat", "points"),
        (4, "MatchSeat", "score"),
        (5, "Match", "status"),
        (6, "Entry", "status"),
        (6, "Match", "round"),
        (7, "MatchAttempt", "outcome"),
        (11, "Submission", "is_active"),
    ]


def test_a_write_outside_its_owner_fails_the_check(tmp_path, monkeypatch):
    """The tournament's bye set its match's result_attempt itself before this check (now
    lifecycle.count_made_result): a module that does so again fails ``make lint``."""
    for package in ("record", "schedule"):
        (tmp_path / "judging" / package).mkdir(parents=True)
    (tmp_path / "judging" / "record" / "lifecycle.py").write_text("match.status = 'queued'\n")
    (tmp_path / "judging" / "schedule" / "tournaments.py").write_text(
        "Match.objects.filter(pk=1).update(result_attempt=attempt)\n"
    )
    (tmp_path / "judging" / "tests").mkdir()
    (tmp_path / "judging" / "tests" / "test_x.py").write_text("match.status = 'failed'\n")
    monkeypatch.setattr(owners, "ROOT", tmp_path)
    assert owners.trespasses() == [
        "judging/schedule/tournaments.py:1: Match.result_attempt is written only by "
        "judging/play/matches.py, judging/record/lifecycle.py"
    ]
    assert owners.main([]) == 1


def test_the_project_writes_each_state_only_through_its_owner():
    assert owners.trespasses() == []
