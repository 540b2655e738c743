"""A referee's bug is the referee's (issue 37): a referee that hangs is given up on time, a
result that its game's declared outcome cannot have is refused as the referee's fault, and
neither is ever charged to a seat or to a contestant's version."""

from __future__ import annotations

import html
import os
import subprocess
import sys
import time
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from contests.models import GameVersion, Submission
from contests.tests.factories import make_contest, make_entry, make_stage, make_submission, make_user, name_to
from games.clocks import Clock
from games.hosted import ManifestError, impossible
from judging import tasks  # noqa: F401  (the tasks by name, as dispatch looks them up)
from judging.models import Match, Notification
from judging.play import matches
from judging.play.referee import Player, play
from judging.record import lifecycle
from judging.schedule import system_test
from judging.tests.conftest import PROGRAMS, build
from judging.tests.test_hosted_games import nim_files
from judging.uploaded import hosting
from judging.uploaded.program_referee import RefereeFault

CORES = len(os.sched_getaffinity(0))


@pytest.mark.once
@pytest.mark.alone  # it crowds every core on purpose
def test_a_referee_that_hangs_computing_is_given_up_within_its_seconds_on_a_crowded_host():
    # Fault 9: the referee spins after `begin`, never writing a line. Its CPU is not what stops
    # it (600 s): its 2 s for a line are, in real time however crowded the host. Before, the
    # time the host kept it from a CPU moved its deadline on (a crowded host: 127 s for 20).
    game = hosting.manifest_of(nim_files(referee_seconds=2, referee_cpu_seconds=600))
    players = [Player(name, build(PROGRAMS / "nim" / name)) for name in ("taker.py", "one.py")]
    asked: list[float] = []

    def should_stop() -> bool:  # asked before the referee's every line: the last is when it hung
        asked.append(time.monotonic())
        return False

    crowd = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(3 * CORES)]
    try:
        with pytest.raises(RefereeFault, match="the referee wrote no line for 2 s"):
            play(game, {"stones": 5, "fault": "9"}, 1, players, Clock.from_json(game.default_clock), should_stop)
        took = time.monotonic() - asked[-1]
    finally:
        for spinner in crowd:
            spinner.kill()
            spinner.wait()
    assert 2 <= took < 3, took


@pytest.mark.parametrize(
    ("outcome", "points", "statuses", "why"),
    [
        ("one_winner", (2, 2), ("win", "win"), "2 seats won, and one wins at most"),
        ("one_winner", (0, 2), ("win", "loss"), "a seat that won has 0 points, no more than a seat that lost (2)"),
        ("one_winner", (1, 1), ("win", "crash"), "a seat that won has 1 points, no more than a seat that lost (1)"),
        ("one_winner", (2, 0), ("win", "timeout"), ""),
        ("one_winner", (1, 1), ("draw", "draw"), ""),
        ("one_winner", (0, 2), ("crash", "crash"), ""),  # no seat won: the points are the referee's
        ("zero_sum", (1, -1), ("win", "loss"), ""),
        ("zero_sum", (2, 0), ("win", "loss"), "its points add up to 2, not 0"),
        ("ranking", (3, 3, 1), ("win", "win", "loss"), ""),  # tied for first
        ("ranking", (3, 2, 1), ("win", "win", "loss"), "a seat that won has 2 points, fewer than the most (3)"),
        ("ranking", (3, 4, 1), ("win", "draw", "loss"), "a seat that won has 3 points, fewer than the most (4)"),
        ("free", (0, 2), ("win", "win"), ""),
    ],
)
def test_a_result_is_checked_against_the_games_declared_outcome(outcome, points, statuses, why):
    assert impossible(outcome, points, statuses) == why


def test_the_outcome_defaults_to_the_strictest_that_fits_and_is_refused_in_words_when_unknown():
    assert hosting.manifest_of(nim_files()).manifest.outcome == "one_winner"
    assert hosting.manifest_of(nim_files(seats={"min": 2, "max": 4})).manifest.outcome == "ranking"
    assert hosting.manifest_of(nim_files(outcome="zero_sum")).manifest.outcome == "zero_sum"
    for bad in ("winner", ["free"], None):
        with pytest.raises(ManifestError, match="'outcome' must be one of zero_sum, one_winner, ranking, free"):
            hosting.manifest_of(nim_files(outcome=bad))


def _players() -> list[Player]:
    return [Player(name, build(PROGRAMS / "nim" / name)) for name in ("taker.py", "one.py")]


@pytest.mark.once
def test_a_game_declared_free_may_end_with_two_winners():
    game = hosting.manifest_of(nim_files(outcome="free"))
    record = play(game, {"stones": 5, "fault": "12"}, 1, _players(), Clock.from_json(game.default_clock))
    assert record.outcome.statuses == ("win", "win") and record.outcome.points == (2.0, 2.0)


@pytest.mark.once
@pytest.mark.slow
def test_play_at_home_refuses_a_result_with_two_winners(tmp_path):
    nim = tmp_path / "nim"
    nim.mkdir()
    for name, data in nim_files().items():
        (nim / name).write_bytes(data)
    with pytest.raises(CommandError) as refused:
        call_command(
            "play", str(nim), str(nim / "taker.py"), str(nim / "one.py"), "--param", "fault=12", stdout=StringIO()
        )
    said = str(refused.value)
    assert said.startswith("the game's referee failed (not a player's fault): the referee gave a result no game")
    assert "(2 seats won, and one wins at most): 'result 2 2 | win win'" in said


@pytest.mark.django_db
@pytest.mark.slow
@pytest.mark.parametrize(
    ("fault", "said"),
    [
        (1, "the referee ended before its result (exited with code 1)"),
        (12, "the referee gave a result no game of outcome one_winner can have (2 seats won, and one wins at most)"),
    ],
)
def test_a_system_test_the_referee_cannot_decide_waits_for_a_judge_and_blames_nobody(client, queued, fault, said):
    organiser = make_user()
    version = hosting.upload(nim_files(), organiser)
    GameVersion.objects.filter(pk=version.pk).update(status=GameVersion.Status.ACCEPTED)  # its kit: elsewhere
    contest = make_contest(game="nim@1", game_params={"stones": 5, "fault": str(fault)})
    stage = make_stage(contest, kind="system_test", name="System test", params={"games": 1})
    Submission.objects.filter(entry__contest=contest, entry__name="taker").update(status="ready", is_active=True)
    alice = make_entry(contest, name="alice")
    mine = make_submission(alice, source=(PROGRAMS / "nim" / "one.py").read_bytes(), filename="one.py")
    assert system_test.start(mine)
    (match,) = Match.objects.filter(stage=stage)
    for _ in range(lifecycle.MAX_FAULTS):  # tried again after each fault, then held for a judge
        matches.play_now(match.pk)
    match.refresh_from_db()
    assert match.status == "failed" and match.result_attempt is None
    assert match.error.startswith("not played: the game's referee failed 3 times in a row; last: the game's referee")
    assert said in match.error
    attempts = list(match.attempts.all())
    assert len(attempts) == 3 and {a.get_outcome_display() for a in attempts} == {
        "The game's referee failed (not a player's fault)"
    }
    assert not match.seats.exclude(status="").exists()  # no seat charged, nothing counted
    client.force_login(name_to(contest, make_user()))  # a judge's page of the match
    page = html.unescape(client.get(reverse("contests:match", args=[match.pk])).content.decode())
    assert page.count("The game's referee failed (not a player's fault)") == 3 and "Infrastructure fault" not in page

    mine.refresh_from_db()
    assert mine.status == "testing" and not mine.is_active  # waiting: neither failed nor passed
    assert mine.test_log.splitlines() == [
        f"game 1 (match {match.pk}): not played, not your program's doing: the game's referee failed in it",
        "system test waiting for a judge to play again a game that could not be played",
    ]
    assert not Notification.objects.filter(user=alice.user).exists()  # nothing blames alice's program
    told = Notification.objects.get(user=organiser, kind="game")  # the game's owner is told
    assert told.subject == "the referee of nim@1 failed in a match" and said in told.log
