"""The kept standings (``judging.record.tallies``) and counts of matches (``judging.record.counts``): after
any history of results, platform faults, re-runs, cancellations, deletions,
disqualifications, new versions and freezes, every table read from the kept totals is the one added up from the
seats, and each stage's kept count of matches by state is its matches counted;
``manage.py rebuild_standings`` puts them right and says what differed."""

from __future__ import annotations

import contextlib
import itertools
from io import StringIO

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from contests import services
from contests.models import Entry, Submission
from contests.tests.factories import (
    make_contest,
    make_entry,
    make_match,
    make_stage,
    make_submission,
    make_user,
    name_to,
)
from games.base import GameResult
from judging import services as judges
from judging.models import Match, MatchAttempt, MatchCount, Tally
from judging.play import matches
from judging.play.referee import MatchRecord, SeatTotals
from judging.record import formats, lifecycle, standings
from judging.tests.kept import analyze_as_it_is, assert_kept_as_counted
from judging.tests.pairings import deliver_pairings

pytestmark = pytest.mark.django_db

_names = itertools.count()


def _record(seats: int, winner: int | None) -> MatchRecord:
    if winner is None:  # seat 0's program crashed
        points, statuses = (0.0, 1.0), ("crash", "win")
    else:
        points = tuple(1.0 if i == winner else 0.0 for i in range(seats))
        statuses = tuple("win" if i == winner else "loss" for i in range(seats))
    outcome = GameResult(points, tuple(p * 3.5 for p in points), statuses, "on paper", ("",) * seats)
    return MatchRecord(outcome, [SeatTotals(moves=i + 2, wall_s=0.1 * (i + 1)) for i in range(seats)], {"moves": []})


class KeptTotals(RuleBasedStateMachine):
    """Three entries of a Chomp contest in a continuous stage (a ladder: only current versions
    count) and a Swiss stage (an odd number: byes)."""

    def __init__(self, queued: list) -> None:
        super().__init__()
        self.queued = queued  # the tasks sent after commits (the ``queued`` fixture)

    @initialize()
    def contest(self):
        analyze_as_it_is()  # the rows of the examples before
        n = next(_names)
        self.contest = make_contest(slug=f"kept-{n}", game="chomp", game_params={"rows": 3, "cols": 3})
        self.judge = name_to(self.contest, make_user(username=f"kept-judge-{n}"))
        self.entries = []
        for i in range(3):
            entry = make_entry(self.contest, name=f"K{i}")
            make_submission(entry, is_active=True, status="ready")
            self.entries.append(entry.pk)
        self.ladder = make_stage(self.contest, kind="ladder", name="Ladder", order=1)
        self.swiss = make_stage(
            self.contest, kind="swiss", name="Swiss", order=2, params={"rounds": 3, "games_per_pairing": 1}
        )
        self.running: dict[int, int] = {}  # match -> its running attempt
        self.done: list[int] = []  # attempts that finished, or were called off: a second result is refused

    def _queued(self):
        return list(
            Match.objects.filter(contest=self.contest, status="queued").order_by("pk").values_list("pk", flat=True)
        )

    @rule(data=st.data())
    def pair_in_the_ladder(self, data):
        a, b = data.draw(st.permutations(self.entries))[:2]
        versions = [Submission.objects.get(entry_id=pk, is_active=True) for pk in (a, b)]
        make_match(self.contest, versions, stage=self.ladder, status=Match.Status.QUEUED)

    @rule()
    def run_swiss(self):
        with contextlib.suppress(formats.StageError):
            judges.run_stage(self.judge, self.swiss)

    @rule()
    def pair_the_next_round(self):
        """A worker takes the pairing task a Swiss round's end queued: its new round, or its end."""
        deliver_pairings(self.queued, self.swiss.pk)

    @rule(data=st.data())
    def claim(self, data):
        queued = self._queued()
        if queued:
            pk = data.draw(st.sampled_from(queued))
            attempt = matches.claim("w1", match_id=pk)
            if attempt is not None:
                self.running[pk] = attempt.pk

    @rule(data=st.data(), winner=st.sampled_from([0, 1, None]))
    def finish(self, data, winner):
        if self.running:
            pk = data.draw(st.sampled_from(sorted(self.running)))
            attempt = self.running.pop(pk)
            seats = Match.objects.get(pk=pk).seats.count()
            assert matches.write_result(attempt, _record(seats, winner if seats == 2 else 0))
            self.done.append(attempt)

    @rule(data=st.data())
    def a_platform_fault(self, data):
        """The sandbox failed: the match is queued again, or failed for a judge the third time."""
        if self.running:
            pk = data.draw(st.sampled_from(sorted(self.running)))
            attempt = self.running.pop(pk)
            assert matches.end_attempt(attempt, MatchAttempt.Outcome.INFRA, "SandboxError: no jail")
            self.done.append(attempt)

    @rule(data=st.data())
    def fail_for_a_judge(self, data):
        """The platform gave up on an open match (as after its third fault): a judge decides."""
        open_ = list(
            Match.objects.filter(contest=self.contest, status__in=["queued", "running"]).values_list("pk", flat=True)
        )
        if open_:
            pk = data.draw(st.sampled_from(sorted(open_)))
            lifecycle.fail_match(pk, "SandboxError: no jail, three times")
            if pk in self.running:
                self.done.append(self.running.pop(pk))

    @rule(data=st.data())
    def cancel_match(self, data):
        every = list(Match.objects.filter(contest=self.contest).values_list("pk", flat=True))
        if every:
            pk = data.draw(st.sampled_from(sorted(every)))
            if judges.cancel_match(self.judge, Match.objects.get(pk=pk)) is not None and pk in self.running:
                self.done.append(self.running.pop(pk))

    @rule(data=st.data())
    def delete_a_match(self, data):
        """The admin's delete: its attempts go with it."""
        every = list(Match.objects.filter(contest=self.contest).values_list("pk", flat=True))
        if every:
            pk = data.draw(st.sampled_from(sorted(every)))
            judges.delete_match(self.judge, Match.objects.get(pk=pk))
            self.running.pop(pk, None)
            self.done = list(MatchAttempt.objects.filter(pk__in=self.done).values_list("pk", flat=True))

    @rule(data=st.data(), winner=st.sampled_from([0, 1]))
    def a_result_again(self, data, winner):
        """A result delivered twice, or one of an attempt called off: not counted."""
        if self.done:
            attempt = MatchAttempt.objects.get(pk=data.draw(st.sampled_from(self.done)))
            assert not matches.write_result(attempt.pk, _record(attempt.match.seats.count(), winner))

    @rule(data=st.data())
    def rerun(self, data):
        every = list(Match.objects.filter(contest=self.contest).values_list("pk", flat=True))
        if every:
            pk = data.draw(st.sampled_from(sorted(every)))
            try:
                judges.rerun_match(self.judge, Match.objects.get(pk=pk))
            except formats.StageError:
                return
            if pk in self.running:
                self.done.append(self.running.pop(pk))

    @rule(data=st.data())
    def new_version(self, data):
        entry = Entry.objects.get(pk=data.draw(st.sampled_from(self.entries)))
        Submission.objects.filter(entry=entry).update(is_active=False)
        make_submission(entry, is_active=True, status="ready")

    @rule(data=st.data())
    def disqualify_or_reinstate(self, data):
        entry = Entry.objects.get(pk=data.draw(st.sampled_from(self.entries)))
        if entry.status == Entry.Status.DISQUALIFIED:
            services.reinstate(self.judge, entry)
        else:
            services.disqualify(self.judge, entry, "a judge's reason")  # its open games called off
            for pk in [pk for pk in self.running if Match.objects.get(pk=pk).status != Match.Status.RUNNING]:
                self.done.append(self.running.pop(pk))

    @rule(which=st.sampled_from(["ladder", "swiss"]))
    def cancel_stage(self, which):
        try:
            judges.cancel_stage(self.judge, getattr(self, which))
        except formats.StageError:
            return
        for pk in list(self.running):
            if Match.objects.get(pk=pk).status != Match.Status.RUNNING:
                self.done.append(self.running.pop(pk))

    @precondition(lambda self: hasattr(self, "contest"))
    @rule()
    def freeze_or_publish(self):
        self.contest.refresh_from_db()
        if self.contest.standings_frozen_at is None:
            judges.freeze_standings(self.judge, self.contest)
        else:
            judges.publish_results(self.judge, self.contest)

    @invariant()
    def the_kept_totals_are_the_seats_added_up(self):
        if hasattr(self, "contest"):
            assert_kept_as_counted(self.contest)


def test_the_kept_standings_are_the_counted_ones_after_any_history(queued):
    run_state_machine_as_test(
        lambda: KeptTotals(queued),
        settings=settings(
            max_examples=12,
            stateful_step_count=30,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        ),
    )


def test_a_match_deleted_while_the_standings_are_frozen_leaves_the_frozen_table_too():
    # Found by the machine above: the admin's delete took the match's frozen seats with it
    # (they cascade) but left its frozen totals, so the public table counted a game no longer
    # anywhere.
    from contests.tests.factories import finish_on_paper

    contest = make_contest(slug="deleted-frozen", game="chomp")
    stage = make_stage(contest)
    judge = name_to(contest, make_user(username="deleted-frozen-judge"))
    a, b = (make_submission(make_entry(contest, name=n), is_active=True) for n in ("Ann", "Bea"))
    for _ in range(2):
        make_match(contest, [a, b], stage=stage, status=Match.Status.QUEUED)
    for match in Match.objects.filter(contest=contest):
        finish_on_paper(match, [(1.0, 4.0, "win"), (0.0, 0.0, "loss")])
    judges.freeze_standings(judge, contest)
    judges.delete_match(judge, Match.objects.filter(contest=contest).first())
    assert_kept_as_counted(contest)
    frozen = standings.compute(contest, stage, standings.FROZEN)
    assert [row.values["wins"] for row in frozen.rows] == [1, 0]


def test_rebuild_standings_puts_the_kept_totals_right_and_says_what_differed():
    contest = make_contest(slug="rebuilt", game="chomp")
    stage = make_stage(contest)
    a, b = (make_submission(make_entry(contest, name=n), is_active=True) for n in ("Ann", "Bea"))
    make_match(contest, [a, b], stage=stage, status=Match.Status.QUEUED)
    from contests.tests.factories import finish_on_paper

    match = Match.objects.get(contest=contest)
    finish_on_paper(match, [(1.0, 4.0, "win"), (0.0, 0.0, "loss")])
    out = StringIO()
    call_command("rebuild_standings", "--contest", "rebuilt", stdout=out)
    assert out.getvalue().strip().endswith("nothing differed")

    Tally.objects.filter(entry=a.entry, status="win").update(points=7.0)  # behind the platform's back
    assert standings.compute(contest, stage).rows[0].values["wins"] == 7  # Chomp's wins are its points
    out = StringIO()
    call_command("rebuild_standings", "--contest", "rebuilt", stdout=out)
    said = out.getvalue()
    assert "Ann" in said and "1 kept rows differed" in said, said
    assert Tally.objects.get(entry=a.entry, status="win").points == 1.0
    assert standings.compute(contest, stage).rows[0].values["wins"] == 1
    assert_kept_as_counted(contest)


def test_rebuild_standings_puts_the_counts_of_matches_right():
    contest = make_contest(slug="recounted", game="chomp")
    stage = make_stage(contest, name="Round 1")
    a, b = (make_submission(make_entry(contest, name=n), is_active=True) for n in ("Ann", "Bea"))
    make_match(contest, [a, b], stage=stage, status=Match.Status.FINISHED)
    make_match(contest, [b, a], stage=stage, status=Match.Status.QUEUED)
    Match.objects.create(contest=contest, stage=stage, seed=3, status=Match.Status.FAILED)  # behind its back
    MatchCount.objects.filter(stage=stage).update(finished=5)
    out = StringIO()
    call_command("rebuild_standings", "--contest", "recounted", stdout=out)
    said = out.getvalue()
    assert "recounted, Round 1" in said and "1 stages' counts of matches differed" in said, said
    assert "kept 1 open, 5 finished, 0 failed" in said and "counted 1 open, 1 finished, 1 failed" in said, said
    table = standings.compute(contest, stage)
    assert (table.finished, table.total) == (1, 3)
    assert_kept_as_counted(contest)
    out = StringIO()
    call_command("rebuild_standings", "--contest", "recounted", stdout=out)
    assert out.getvalue().strip().endswith("nothing differed")
