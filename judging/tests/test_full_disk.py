"""A full disk is named and survived. With the media folder full, every finished game failed to
save its replay, its task died, the attempt was noticed lost 20 s later and the match played
again: 123 games thrown away in 85 s, 36 matches failed, while /health/ said ok. Here the
media folder is a real tmpfs of 2 MB, filled to the last byte."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import uuid
from pathlib import Path

import pytest
from django.db import OperationalError

from contests.tests.factories import make_contest, make_entry, make_match, make_stage, make_submission, make_user
from judging import disks, metrics
from judging.models import Match, MatchAttempt, WorkerHeartbeat
from judging.play import matches
from judging.tests.conftest import PLAYERS, PROGRAMS

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(os.geteuid() != 0, reason="mounting a tmpfs to fill needs root"),
]


class SmallDisk:
    """MEDIA_ROOT moved to a 2 MB tmpfs (what it held copied over), to be filled at will."""

    def __init__(self, settings) -> None:
        self.folder = Path(f"/tmp/arbiter-full-{uuid.uuid4().hex[:8]}")
        self.folder.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(self.folder)], check=True)
        if Path(settings.MEDIA_ROOT).exists():
            shutil.copytree(settings.MEDIA_ROOT, self.folder, dirs_exist_ok=True)
        for sub in ("replays", "submissions", "spool"):
            (self.folder / sub).mkdir(exist_ok=True)
        settings.MEDIA_ROOT = self.folder

    def fill(self) -> None:
        with (self.folder / "filler").open("wb") as f:
            try:
                while True:
                    f.write(b"\0" * 65536)
            except OSError:  # ENOSPC: full to the last block
                pass

    def files(self) -> list[Path]:
        return [p for p in self.folder.rglob("*") if p.is_file() and p.name != "filler"]

    def remove(self) -> None:
        subprocess.run(["umount", "-l", str(self.folder)], check=False)
        self.folder.rmdir()


@pytest.fixture
def media(settings):
    disk = SmallDisk(settings)
    yield disk
    disk.remove()


def _chomp_match():
    contest = make_contest(game="chomp", game_params={"rows": 3, "cols": 3})
    stage = make_stage(contest, kind="round_robin", status="running")
    subs = [
        make_submission(make_entry(contest, name=name), source=path.read_bytes(), filename=path.name, language=lang)
        for name, path, lang in [
            ("Last", PROGRAMS / "chomp_last.c", "c"),
            ("Perfect", PLAYERS / "chomp/players/perfect.py", "python3"),
        ]
    ]
    return make_match(contest, subs, stage=stage, params={"rows": 3, "cols": 3})


def test_a_game_finished_on_a_full_disk_keeps_its_result_and_says_its_replay_is_lost(queued, settings):
    match = _chomp_match()
    disk = SmallDisk(settings)  # after the programs were saved: on the small disk with the rest
    try:
        disk.fill()
        assert matches.play_now(match.pk) == Match.Status.FINISHED
        match.refresh_from_db()
        (attempt,) = match.attempts.all()
        assert attempt.outcome == MatchAttempt.Outcome.FINISHED and attempt.result["seats"]
        assert "replay was not kept: the media disk is full" in attempt.error
        assert sorted(match.seats.values_list("status", flat=True)) == ["loss", "win"]  # counted
        assert not match.replay and not list((disk.folder / "replays").rglob("*.json.gz"))  # nothing half-written
    finally:
        disk.remove()


def test_a_worker_whose_disk_is_full_claims_nothing(media, settings, queued):
    settings.DISK_MIN_FREE_MB = 1
    match = _chomp_match()
    media.fill()
    with pytest.raises(disks.DiskFull, match=r"the media disk \(.*\) has 0 MB free, below 1 MB"):
        matches.play_next("w1")
    match.refresh_from_db()
    assert match.status == Match.Status.QUEUED and not match.attempts.exists()


def test_an_upload_on_a_full_disk_is_a_507_that_leaves_nothing(media, queued, client):
    from rest_framework.test import APIClient

    make_contest(slug="chomp", game="chomp")
    media.fill()
    api = APIClient()
    api.force_authenticate(make_user())
    source = "int main(){return 0;}\n" + "// padding\n" * 50_000
    answer = api.post("/api/contests/chomp/entries/", {"name": "N", "source": source, "filename": "m.c"}, format="json")
    assert answer.status_code == 507 and "disk is full" in answer.json()["error"]["message"]
    assert media.files() == [] and queued == []


def test_health_metrics_and_console_name_the_full_disk(media, settings, client):
    from django.utils import timezone

    settings.DISK_MIN_FREE_MB = 1
    media.fill()
    now = timezone.now()
    WorkerHeartbeat.objects.create(
        hostname="w@h",
        started_at=now,
        last_seen=now,
        sandbox_level="full",
        low_disk="the builds disk (/x) has 0 MB free",
    )
    health = client.get("/health/").json()
    assert health["status"] == "degraded" and not health["disks"]["ok"]
    assert any("the media disk" in low for low in health["disks"]["low"])
    assert any(low.startswith("w@h: the builds disk") for low in health["disks"]["low"])
    text = client.get("/metrics").content.decode()
    assert 'arbiter_disk_free_bytes{disk="media"}' in text and 'arbiter_worker_disk_low{worker="w@h"} 1.0' in text


def test_metrics_speak_prometheus_when_the_database_is_away(client, monkeypatch):
    def away():
        raise OperationalError("could not connect to server: Connection refused")

    monkeypatch.setattr(metrics, "snapshot", away)
    answer = client.get("/metrics")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/plain")
    assert "arbiter_database_up 0.0" in answer.content.decode()


@pytest.fixture
def media_tmpfs(settings, monkeypatch):
    """MEDIA_ROOT on a tmpfs of 64 MB for a real worker to share; the worker may claim while
    1 MB is free (the host's other disks are not this test's)."""
    folder = Path(f"/tmp/arbiter-media-{uuid.uuid4().hex[:8]}")
    folder.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", str(folder)], check=True)
    settings.MEDIA_ROOT = folder
    monkeypatch.setenv("DISK_MIN_FREE_MB", "1")
    settings.DISK_MIN_FREE_MB = 1
    yield folder
    subprocess.run(["umount", "-l", str(folder)], check=False)
    folder.rmdir()


@pytest.mark.worker
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_round_robin_through_a_full_disk_loses_no_game(media_tmpfs, worker):
    """The issue's trial: a 90-game round robin with the media disk filled for a while, then
    freed: every game counted once; none discarded, none failed."""
    from contests.services import submit
    from contests.tests.factories import make_user
    from judging.record import lifecycle
    from judging.tests.test_tournament import wait_for

    contest = make_contest(game="chomp", game_params={"rows": 3, "cols": 3}, max_entries_per_user=10)
    stage = make_stage(contest, kind="round_robin", params={"games_per_pairing": 2})
    user, source = make_user(), (PROGRAMS / "chomp_last.c").read_bytes()
    for n in range(10):
        submit(make_entry(contest, user, name=f"Last {n}"), filename="last.c", data=source)
    wait_for(lambda: contest.entries.filter(submissions__status="ready").count() == 10, worker=worker)
    assert len(lifecycle.run_stage(stage)) == 90

    wait_for(lambda: stage.matches.filter(status="finished").count() >= 15, worker=worker)
    filler = media_tmpfs / "filler"
    with filler.open("wb") as f:  # the disk full: games in hand finish, no new one is claimed
        try:
            while True:
                f.write(b"\0" * (1 << 20))
        except OSError:
            pass
    during = stage.matches.filter(status="finished").count()
    time.sleep(8)
    held = stage.matches.filter(status="finished").count()
    assert held - during <= 2, "a worker on a full disk went on claiming"  # only what it had in hand
    assert "below 1 MB" in WorkerHeartbeat.objects.get(hostname=worker.hostname).low_disk
    # Issue 36: each token went back to the broker every 30 s with an error line, and work began
    # minutes after the room came back. Now the worker says it once (a minute apart) and holds
    # its tokens: the next game ends within seconds of the room.
    said = worker.output()
    assert said.count("claims no match and builds nothing") == 1 and "takes no match" not in said
    filler.unlink()  # freed: the rest is played
    freed = time.monotonic()
    wait_for(lambda: stage.matches.filter(status="finished").count() > held, worker=worker, timeout=60)
    assert time.monotonic() - freed < 10, "the worker came back to work slowly after the disk was freed"
    wait_for(lambda: stage.matches.filter(status="finished").count() == 90, worker=worker, timeout=300)
    assert not stage.matches.exclude(status="finished").exists()
    assert MatchAttempt.objects.filter(match__stage=stage).exclude(outcome="finished").count() == 0
    assert MatchAttempt.objects.filter(match__stage=stage, outcome="finished").count() == 90  # each once
    from judging.record import standings

    assert standings.compute(contest, stage).finished == 90
    assert sum(row.games for row in standings.compute(contest, stage).rows) == 180
