"""The proof of a referee's libraries and of games of N seats (issue 37): one adapter referee
(examples/games/openspiel), OpenSpiel's own library installed from its wheel, uploaded as an
organiser uploads it, hosts a two-seat game (Breakthrough) and a four-seat one (Hearts): at
home with ``arbiter play``, and on the site through a real worker, from the system test to a
round robin, a rated ladder, standings and intervals.

OpenSpiel comes from the package index this host's pip uses (PyPI): some 230 MB with numpy
and scipy, installed once a run (REFEREE_LIBRARIES_DIR)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from contests.models import GameVersion, Submission
from contests.services import submit
from contests.tests.factories import make_contest, make_entry, make_stage, make_user
from judging.models import Match
from judging.record import confidence, standings
from judging.schedule import tournaments
from judging.uploaded import hosting

pytestmark = [pytest.mark.slow]
OPENSPIEL = Path(__file__).resolve().parents[2] / "examples/games/openspiel"
PLAYERS = OPENSPIEL / "players"


@pytest.fixture(scope="module")
def libraries(tmp_path_factory):
    """One install of OpenSpiel for the module's tests (each test's settings point at it)."""
    return tmp_path_factory.mktemp("referee-libraries")


def _play(*args: str) -> dict:
    out = io.StringIO()
    call_command("play", str(OPENSPIEL), *args, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_two_and_four_seat_games_play_at_home(settings, libraries):
    settings.REFEREE_LIBRARIES_DIR = libraries
    two = _play(str(PLAYERS / "random_player.py"), str(PLAYERS / "first_legal.py"), "--param", "game=breakthrough")
    assert sorted(seat["status"] for seat in two["seats"]) == ["loss", "win"] and two["moves"] > 10
    assert sorted(seat["points"] for seat in two["seats"]) == [-1.0, 1.0]
    four = _play(*[str(PLAYERS / "random_player.py")] * 4, "--param", "game=hearts")
    assert len(four["seats"]) == 4 and four["moves"] >= 52  # every card played
    assert all(seat["status"] in ("win", "loss", "draw") for seat in four["seats"])


def test_a_replay_shows_the_whole_position_and_each_move_by_name(settings, libraries, tmp_path):
    """Hearts' replay kept the last 40 of its some 50 lines, the deal cut off, and the move
    list shows OpenSpiel's ids alone (walked on a fresh clone): each frame has the whole
    position and the move that led to it, by name. Two programs of Hearts are told to give four."""
    settings.REFEREE_LIBRARIES_DIR = libraries
    replay = tmp_path / "hearts.json"
    _play(*[str(PLAYERS / "first_legal.py")] * 4, "--param", "game=hearts", "--replay", str(replay))
    frames = json.loads(replay.read_text())["frames"]
    assert all(frame["text"][0].startswith("Pass Direction") for frame in frames[1:])
    assert frames[-1]["text"][-1].startswith("seat ") and " played " in frames[-1]["text"][-1]
    with pytest.raises(CommandError) as refused:
        _play(*[str(PLAYERS / "first_legal.py")] * 2, "--param", "game=hearts")
    assert "hearts is a game of 4 players, not 2" in str(refused.value) and "give 4 programs" in str(refused.value)


@pytest.mark.django_db
def test_an_organiser_uploads_it_on_the_games_page_and_its_kit_passes(settings, libraries):
    """Zipped and posted on the Games page as an organiser does; the worker's check installs
    OpenSpiel and plays the kit (at 2, 3 and 4 seats, each parameter at its bounds)."""
    import zipfile

    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    from contests.services import ensure_organisers_group

    settings.REFEREE_LIBRARIES_DIR = libraries
    organiser = make_user()
    organiser.groups.add(ensure_organisers_group())
    client = Client()
    client.force_login(organiser)
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        for name, data in hosting.read_folder(OPENSPIEL).items():
            archive.writestr(f"openspiel/{name}", data)
    response = client.post("/games/upload/", {"archive": SimpleUploadedFile("openspiel.zip", packed.getvalue())})
    assert response.status_code == 302 and response["Location"] == "/games/openspiel@1/"
    hosting.check_queued(GameVersion.objects.get().pk)  # what the worker's task does
    version = GameVersion.objects.get()
    assert version.status == GameVersion.Status.ACCEPTED, version.report
    assert {len(game["players"]) for game in version.report["games"]} == {2, 3, 4}
    assert "Accepted" in client.get("/games/openspiel@1/").content.decode()


@pytest.mark.worker
def test_a_contest_on_each_game_tests_plays_and_ranks(worker):
    """The worker installs OpenSpiel in its own installation's folder, once."""
    from judging.tests.test_tournament import wait_for

    version = hosting.upload(hosting.read_folder(OPENSPIEL), make_user())
    GameVersion.objects.filter(pk=version.pk).update(status=GameVersion.Status.ACCEPTED)  # its kit: above
    mine = (PLAYERS / "random_player.py").read_bytes()
    for game, seats in (("breakthrough", 2), ("hearts", 4)):
        contest = make_contest(slug=f"os-{game}", game=version.key, game_params={"game": game})
        make_stage(contest, kind="system_test", name="System test", params={"seats": seats, "games": seats})
        hosting.add_references(contest)
        wait_for(
            lambda c=contest: Submission.objects.filter(entry__contest=c, is_active=True).count() == 2,
            timeout=600, worker=worker,
        )  # fmt: skip
        versions = [submit(make_entry(contest, name=f"mine-{n}"), filename="mine.py", data=mine) for n in range(2)]
        for v in versions:
            wait_for(lambda v=v: Submission.objects.get(pk=v.pk).status in ("ready", "test_failed"), 600, worker)
            v.refresh_from_db()
            assert v.status == "ready", v.test_log
        stage = make_stage(contest, kind="round_robin", name="Round robin", params={"seats": seats})
        made = tournaments.schedule_round_robin(stage)
        assert len(made) == (12 if seats == 2 else 4)  # 6 pairs twice; one group of four in its 4 orders
        wait_for(
            lambda s=stage: not Match.objects.filter(stage=s, status__in=["queued", "running"]).exists(), 900, worker
        )
        assert not Match.objects.filter(stage=stage).exclude(status="finished").exists()
        replay = Match.objects.filter(stage=stage).first().load_replay()
        assert len(replay["frames"]) == len(replay["moves"]) + 1 and len(replay["seats"]) == seats
        confidence.rate(stage.pk)
        table = standings.compute(contest, stage)
        assert len(table.rows) == 4 and all(r.sure.rank_low <= r.rank <= r.sure.rank_high for r in table.rows)
        if seats == 2:  # a rated ladder of the same four
            ladder = make_stage(
                contest, kind="ladder", name="Ladder", status="running", params={"games_per_pairing": 1}
            )
            assert len(tournaments.schedule_continuous(ladder)) == 6
            wait_for(
                lambda s=ladder: not Match.objects.filter(stage=s, status__in=["queued", "running"]).exists(),
                900,
                worker,
            )
            confidence.rate(ladder.pk)
            table = standings.compute(contest, ladder)
            assert table.rated and all(r.sure is not None and r.sure.rating is not None for r in table.rows)
