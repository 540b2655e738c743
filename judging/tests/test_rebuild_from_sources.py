"""Hearts and Flowers: "If the supplied executable does not work, we will attempt to rebuild
your program from the sources you provide." An archive whose runme cannot run in its first
system-test game is made again from src/Makefile and tested once more, with the build log
saying so; the games are played for real, in the sandbox, without a broker."""

import pytest

from contests.models import Submission
from contests.tests.factories import finish_on_paper, make_contest, make_entry, make_match, make_stage, make_submission
from judging.models import Match
from judging.play import builds, matches
from judging.schedule import system_test
from judging.tests.conftest import PLAYERS
from sandbox.tests.test_rebuild import SEGFAULT, WRONG_FORMAT, entry

pytestmark = pytest.mark.django_db


def _contest():
    contest = make_contest(game="hearts_flowers", game_params={"n": 3})
    make_stage(contest, kind="system_test", params={"games": 2})
    path = PLAYERS / "hearts_flowers/players/random_player.py"
    ref = make_submission(
        make_entry(contest, name="Random", is_reference=True),
        source=path.read_bytes(),
        filename=path.name,
        language="python3",
    )
    assert builds.build_submission(ref.pk) == Submission.Status.READY
    return contest


def _archive(contest, data):
    sub = make_submission(make_entry(contest, name="Valentine"), source=data, filename="entry.zip", language="archive")
    assert builds.build_submission(sub.pk) == Submission.Status.TESTING  # the supplied runme is taken as it is
    return sub


def _play_test_games(sub):
    for match in Match.objects.filter(seats__submission=sub, status=Match.Status.QUEUED).order_by("pk"):
        assert matches.play_now(match.pk) == Match.Status.FINISHED
    sub.refresh_from_db()
    return sub


@pytest.mark.parametrize(
    ("runme", "why"),
    [
        (WRONG_FORMAT, "move 1: cannot start ./runme: Exec format error"),
        (SEGFAULT, "move 1: killed by SIGSEGV"),
    ],
    ids=["wrong-format", "segfault"],
)
def test_a_runme_that_cannot_run_is_rebuilt_from_src_and_tested_again(queued, runme, why):
    sub = _archive(_contest(), entry(runme))
    first = _play_test_games(sub)
    assert first.status == Submission.Status.QUEUED and first.rebuilt_from_sources and not first.is_active
    assert ("build_submission", sub.pk) in queued
    assert "the supplied runme did not run (system test, game 1 (match " in first.build_log
    assert why in first.build_log and first.build_log.endswith("rebuilding from src/ with make")
    assert first.test_log.endswith("tested again")

    assert builds.build_submission(sub.pk) == Submission.Status.TESTING
    sub = _play_test_games(sub)
    assert sub.status == Submission.Status.READY and sub.is_active, sub.test_log
    assert "rebuilt from src/ with make:\nmake: Entering directory" in sub.build_log
    assert "gcc -O2 -o runme main.c" in sub.build_log
    assert sub.test_log.endswith("system test passed") and sub.test_log.count("game ") == 2  # the new games only
    replay = Match.objects.filter(seats__submission=sub).order_by("pk").last().load_replay()
    assert "status" not in replay["moves"][0]
    assert Match.objects.filter(seats__submission=sub).count() == 4  # the first games stay on record


def test_a_rebuild_that_fails_is_a_build_failure_with_both_logs(queued):
    sub = _archive(_contest(), entry(WRONG_FORMAT, b"runme: main.c\n\tgcc -o runme nosuch.c\n"))
    assert _play_test_games(sub).status == Submission.Status.QUEUED
    assert builds.build_submission(sub.pk) == Submission.Status.BUILD_FAILED
    sub.refresh_from_db()
    assert "Exec format error" in sub.build_log and "rebuilding from src/ failed:" in sub.build_log
    assert "nosuch.c" in sub.build_log and not sub.is_active


def _concluded(game, language, moves=0, rebuilt=False):
    """A system test whose first game ended with the submission's crash after ``moves`` moves made, on paper."""
    contest = make_contest(game=game)
    stage = make_stage(contest, kind="system_test")
    ref = make_submission(make_entry(contest, name="Random", is_reference=True), is_active=True, status="ready")
    mine = make_submission(make_entry(contest), language=language, status="testing", rebuilt_from_sources=rebuilt)
    match = make_match(contest, [mine, ref], stage=stage, round=mine.number)
    finish_on_paper(match, [(0, 0, "crash"), (2, 0, "win")])
    match.seats.filter(index=0).update(moves=moves, reason=f"move {moves + 1}: killed by SIGSEGV")
    system_test.conclude(Match.objects.get(pk=match.pk))
    mine.refresh_from_db()
    return mine


@pytest.mark.parametrize(
    ("game", "language", "moves", "rebuilt"),
    [
        ("hearts_flowers", "archive", 0, True),  # rebuilt once already: tested again only once
        ("hearts_flowers", "archive", 1, False),  # it did run (one move made): a crash later is the program's
        ("hearts_flowers", "archive", 3, False),
        ("hearts_flowers", "c", 0, False),  # no sources to rebuild from but the one it was built from
        ("chomp", "archive", 0, False),  # Chomp's page promises no rebuild
    ],
)
def test_no_rebuild_where_the_runme_ran_or_none_is_promised(queued, game, language, moves, rebuilt):
    mine = _concluded(game, language, moves, rebuilt)
    assert mine.status == Submission.Status.TEST_FAILED and queued == [], mine.test_log
    assert mine.rebuilt_from_sources == rebuilt


def test_the_rebuild_is_asked_for_once_whoever_concludes(queued):
    mine = _concluded("hearts_flowers", "archive")
    assert mine.status == Submission.Status.QUEUED and queued == [("build_submission", mine.pk)]
    match = Match.objects.get(seats__submission=mine)
    system_test.conclude(match)  # a second end of the same game (a redelivered task) changes nothing
    assert queued == [("build_submission", mine.pk)]
