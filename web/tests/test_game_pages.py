"""Uploaded games on the site and through the API (issue 25): an organiser uploads an archive,
its kit runs (here in the test, as a worker would), the version's page shows the report; the
public sees accepted versions only; hostile uploads are refused in words; the archive plays
at home; a match of an uploaded game shows its frames with the generic viewer."""

from __future__ import annotations

import html
import io
import json
import zipfile
from pathlib import Path

import pytest
from django.test import Client

from contests.hosted_games import SOURCE
from contests.models import GameVersion
from contests.tests.factories import make_contest, make_user
from games import registry
from games.clocks import Clock
from judging.models import Notification
from judging.play.referee import Player, play
from judging.tests.conftest import PROGRAMS, build
from judging.uploaded import hosting

pytestmark = pytest.mark.django_db
NIM = PROGRAMS / "nim"


def nim_zip(**manifest) -> bytes:
    files = hosting.read_folder(NIM)
    files["game.json"] = json.dumps({**json.loads(files["game.json"]), **manifest}).encode()
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in files.items():
            archive.writestr(f"nim/{name}", data)
    return out.getvalue()


def accepted(user) -> GameVersion:
    """Nim uploaded and accepted without its kit (the kit is tested where it is the point)."""
    version = hosting.upload(hosting.read_archive(nim_zip()), user)
    GameVersion.objects.filter(pk=version.pk).update(status=GameVersion.Status.ACCEPTED)
    return version


def upload_file(data: bytes, name: str = "nim.zip"):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, data, content_type="application/zip")


@pytest.fixture
def organiser():
    from contests.services import ensure_organisers_group

    user = make_user()
    user.groups.add(ensure_organisers_group())  # as the demo's organiser is one
    client = Client()
    client.force_login(user)
    return user, client


def test_an_organiser_uploads_a_game_and_reads_its_kits_report(organiser, django_capture_on_commit_callbacks):
    user, client = organiser
    with django_capture_on_commit_callbacks() as queued:
        response = client.post("/games/upload/", {"archive": upload_file(nim_zip())})
    assert response.status_code == 302 and response["Location"] == "/games/nim@1/"
    assert len(queued) == 1  # the kit, for a worker
    page = client.get("/games/nim@1/").content.decode()
    assert "Being checked" in page and "its conformance kit is running" in page
    assert client.get("/games/nim@1/", HTTP_ACCEPT="text/html").status_code == 200

    hosting.check_queued(GameVersion.objects.get().pk)  # what the worker's task does
    page = client.get("/games/nim@1/").content.decode()
    assert "Accepted" in page and "Passed: 14 games" in page and "a program that never answers" in page
    # each game with its parameters, as the referee protocol says: the page named none
    assert "<td>stones=1</td>" in page and "<td>stones=1000</td>" in page and "<td>the defaults</td>" in page
    told = Notification.objects.get(user=user, kind="game")
    assert told.subject == "nim@1 accepted by its conformance kit" and told.link == "/games/nim@1/"
    listing = Client().get("/games/").content.decode()
    assert "nim@1" in listing and "CodeCup Sudoku (<code>sudoku</code>)" in listing  # public once accepted
    assert "5 s of real time for all of a program&#x27;s answers in a game" in page  # the clock in words
    public = Client().get("/games/nim@1/").content.decode()
    assert "Conformance kit" not in public and "download the game" in public
    # The command as typed at home: without --url it asked 127.0.0.1:8000, not this site.
    assert "<code>.venv/bin/arbiter --url http://testserver play nim@1 my_program other_program</code>" in public
    archive = Client().get("/games/nim@1/game.zip")
    assert archive.status_code == 200 and "game.json" in zipfile.ZipFile(io.BytesIO(archive.content)).namelist()


def test_a_refused_or_unchecked_version_is_the_organisers_only(organiser):
    user, client = organiser
    version = hosting.upload(hosting.read_archive(nim_zip()), user)
    assert client.get(f"/games/{version.key}/").status_code == 200
    for path in (f"/games/{version.key}/", f"/games/{version.key}/game.zip", "/api/games/nim@1/"):
        assert Client().get(path).status_code == 404, path
    assert "nim@1" not in Client().get("/games/").content.decode()


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ("not-an-archive", "not a .zip or .tar.gz archive"),
        ("no-manifest", "no game.json at the top of the archive"),
        ("bad-clock", "kind must be 'total' or 'per_move'"),
        ("escape", "path with '..'"),
    ],
)
def test_a_hostile_or_wrong_upload_is_refused_in_words_and_nothing_is_kept(organiser, data, said):
    user, client = organiser
    if data == "not-an-archive":
        data = b"#!/bin/sh\necho not an archive at all\n"
    elif data == "no-manifest":
        data = _zip({"readme.md": b"hello"})
    elif data == "bad-clock":
        data = nim_zip(clock={"kind": "sometimes", "seconds": 1})
    elif data == "escape":
        data = _zip({"../../game.json": b"{}"})
    response = client.post("/games/upload/", {"archive": upload_file(data)}, follow=True)
    assert said in html.unescape(response.content.decode())
    api = client.post("/api/games/", {"archive": upload_file(data)})
    assert api.status_code == 400 and said in api.json()["error"]["message"]
    assert not GameVersion.objects.exists()


def _zip(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return out.getvalue()


def test_only_organisers_upload(organiser):
    contestant = Client()
    contestant.force_login(make_user())
    assert contestant.post("/games/upload/", {"archive": upload_file(nim_zip())}).status_code == 403
    assert contestant.post("/api/games/", {"archive": upload_file(nim_zip())}).status_code == 403
    assert Client().post("/api/games/", {"archive": upload_file(nim_zip())}).status_code in (401, 403)
    assert "Upload a game" not in contestant.get("/games/").content.decode()
    assert "Upload a game" in organiser[1].get("/games/").content.decode()
    assert not GameVersion.objects.exists()


def test_the_api_uploads_and_reports(organiser, django_capture_on_commit_callbacks):
    user, client = organiser
    with django_capture_on_commit_callbacks(execute=False):
        response = client.post("/api/games/", {"archive": upload_file(nim_zip())})
    assert response.status_code == 202 and response.json()["key"] == "nim@1" and response.json()["status"] == "checking"
    hosting.check_queued(GameVersion.objects.get().pk)
    data = client.get("/api/games/nim@1/").json()
    assert (
        data["status"] == "accepted" and data["report"]["passed"] and data["archive"].endswith("/games/nim@1/game.zip")
    )
    public = Client().get("/api/games/").json()
    assert [g["key"] for g in public] == ["nim@1"] and public[0]["report"] is None


def test_a_match_of_an_uploaded_game_shows_its_frames_with_the_generic_viewer(organiser):
    from contests.tests.factories import make_entry, make_match, make_stage, make_submission

    user, _ = organiser
    accepted(user)
    contest = make_contest(game="nim@1", game_params={"stones": 5})
    subs = [make_submission(make_entry(contest)) for _ in range(2)]
    match = make_match(contest, subs, status="finished", stage=make_stage(contest))
    game = registry.get("nim@1")
    players = [Player(name, build(NIM / name)) for name in ("taker.py", "one.py")]
    record = play(game, {"stones": 5, "fault": "0"}, 1, players, Clock.from_json(game.default_clock))
    match.save_replay(record.replay, match.result_attempt)
    page = Client().get(f"/matches/{match.pk}/").content.decode()
    assert "games/frames.js" in page and "games/nim@1.js" not in page
    rules = html.unescape(Client().get(f"/contests/{contest.slug}/").content.decode())
    assert "Time: 5 s of real time for all of a program's answers in a game (a chess clock)." in rules
    assert '<a href="/games/nim@1/">Nim (a test game)</a>' in rules  # its rules, referee and players
    chomp = make_contest(game="chomp")
    chomp_subs = [make_submission(make_entry(chomp)) for _ in range(2)]
    chomp_match = make_match(chomp, chomp_subs, status="finished", stage=make_stage(chomp))
    chomp_match.save_replay({"game": "chomp", "moves": [], "frames": []}, chomp_match.result_attempt)
    assert "games/chomp.js" in Client().get(f"/matches/{chomp_match.pk}/").content.decode()
    chomp_page = html.unescape(Client().get(f"/contests/{chomp.slug}/").content.decode())
    assert (
        "Time: 30 s of CPU a move on average over a game (a guideline; one move at most 120 s); "
        "120 s of real time a move." in chomp_page
    )


def test_an_uploaded_game_of_two_is_offered_the_stages_of_games_of_two(organiser):
    from judging.record import formats

    accepted(organiser[0])
    kinds = {kind for kind, _ in formats.choices(registry.get("nim@1"))}
    assert {"system_test", "round_robin", "swiss", "ladder"} <= kinds
    assert not {"batch", "race", "practice"} & kinds  # an output-only or race game's
    more = hosting.manifest_of(hosting.read_archive(nim_zip(seats={"min": 3, "max": 4})))
    kinds = {kind for kind, _ in formats.choices(more)}  # games of three or four: in groups
    assert {"system_test", "round_robin", "swiss", "ladder"} <= kinds


def test_a_full_disk_keeps_nothing_of_an_upload_and_says_so(organiser, monkeypatch):
    import errno

    from django.core.files.storage import FileSystemStorage

    user, client = organiser
    real_save = FileSystemStorage._save

    def full(self, name, content):
        real_save(self, name, content)  # half of it written, then the disk is full
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(FileSystemStorage, "_save", full)
    response = client.post("/games/upload/", {"archive": upload_file(nim_zip())}, follow=True)
    assert "the site&#x27;s disk is full: nothing was kept" in response.content.decode()
    api = client.post("/api/games/", {"archive": upload_file(nim_zip())})
    assert api.status_code == 507 and "disk is full" in api.json()["error"]["message"]
    monkeypatch.undo()
    assert not GameVersion.objects.exists()
    from django.conf import settings

    games = Path(settings.MEDIA_ROOT) / "games"
    assert not games.exists() or not any(games.iterdir())


@pytest.mark.django_db(transaction=True)
def test_a_bundle_of_an_uploaded_game_carries_its_referee_and_plays_again_with_no_site(organiser, tmp_path):
    from contests.models import Submission
    from contests.tests.factories import make_entry, make_match, make_stage, make_submission
    from judging.bundles import check
    from judging.models import Match
    from judging.play import matches

    user, client = organiser
    accepted(user)
    contest = make_contest(game="nim@1", game_params={"stones": 11})
    subs = [
        make_submission(make_entry(contest), (NIM / name).read_bytes(), filename=name, status=Submission.Status.READY)
        for name in ("taker.py", "one.py")
    ]
    match = make_match(contest, subs, stage=make_stage(contest), params={"stones": 11, "fault": "0"})
    assert matches.play_now(match.pk) == Match.Status.FINISHED, Match.objects.get(pk=match.pk).error
    response = client.get(f"/matches/{match.pk}/bundle.zip")
    bundle = tmp_path / "bundle.zip"
    bundle.write_bytes(response.content)
    with zipfile.ZipFile(bundle) as z:
        manifest = json.loads(z.read("bundle.json"))
        assert manifest["game"] == "nim@1" and "game.json" in zipfile.ZipFile(io.BytesIO(z.read("game.zip"))).namelist()
    GameVersion.objects.all().delete()  # at home: no site, no database of games
    SOURCE.forget()
    report = check(bundle, {0: NIM / "taker.py", 1: NIM / "one.py"})  # the programs: the organiser has them
    assert report.identical and report.differences == [], report.to_json()
    assert report.here["points"] == [2.0, 0.0]


@pytest.mark.django_db(transaction=True)
def test_arbiter_play_fetches_an_uploaded_game_from_the_site(organiser, live_server, tmp_path):
    import os
    import subprocess
    import sys

    accepted(organiser[0])
    arbiter = Path(sys.executable).parent / "arbiter"
    home = {**os.environ, "ARBITER_VAR_DIR": str(tmp_path / "home")}  # a contestant's machine: no database of games
    result = subprocess.run(
        [str(arbiter), "--url", live_server.url, "play", "--json", "nim@1", str(NIM / "taker.py"), str(NIM / "one.py")],
        capture_output=True, text=True, timeout=300, env=home,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    summary = json.loads(result.stdout)
    assert summary["game"] == "nim@1" and [s["status"] for s in summary["seats"]] == ["win", "loss"]
    missing = subprocess.run(
        [str(arbiter), "--url", live_server.url, "play", "nim@7", str(NIM / "taker.py"), str(NIM / "one.py")],
        capture_output=True, text=True, timeout=300, env=home,
    )  # fmt: skip
    assert missing.returncode == 1 and "No such game" in missing.stderr + missing.stdout


def test_a_game_name_is_its_first_uploaders_and_no_built_in_game_is_taken(organiser):
    from contests.services import ensure_organisers_group

    user, client = organiser
    assert client.post("/games/upload/", {"archive": upload_file(nim_zip())}).status_code == 302
    other = make_user()
    other.groups.add(ensure_organisers_group())
    rival = Client()
    rival.force_login(other)
    said = html.unescape(
        rival.post("/games/upload/", {"archive": upload_file(nim_zip())}, follow=True).content.decode()
    )
    assert f"the game 'nim' is {user.username}'s: only they and the co-owners they name upload its next" in said
    for taken in ("chomp", "crossed-words"):  # nor one that would pass for a built-in game in a list
        said = client.post("/games/upload/", {"archive": upload_file(nim_zip(name=taken))}, follow=True)
        assert f"'{taken}' is the name of a game built into the platform" in html.unescape(said.content.decode())
    assert client.post("/games/upload/", {"archive": upload_file(nim_zip(title="Nim 2"))}).status_code == 302
    assert list(GameVersion.objects.values_list("name", "version", "uploaded_by")) == [
        ("nim", 2, user.pk),
        ("nim", 1, user.pk),
    ]
    # The owner names the rival co-owner (the API): the rival uploads the next version; only the owner names.
    from rest_framework.test import APIClient

    rival_api, owner_api = APIClient(), APIClient()
    rival_api.force_authenticate(other)
    owner_api.force_authenticate(user)
    # no version accepted yet: the game is its owners' alone to see
    assert rival_api.post("/api/games/nim/owners/", {"user": other.username}, format="json").status_code == 404
    GameVersion.objects.filter(name="nim", version=1).update(status=GameVersion.Status.ACCEPTED)
    assert rival_api.post("/api/games/nim/owners/", {"user": other.username}, format="json").status_code == 403
    named = owner_api.post("/api/games/nim/owners/", {"user": other.username}, format="json")
    assert named.status_code == 201 and named.json() == [
        {"user": user.username, "role": "owner"},
        {"user": other.username, "role": "co-owner"},
    ]
    assert rival.post("/games/upload/", {"archive": upload_file(nim_zip(title="Nim 3"))}).status_code == 302
    assert GameVersion.objects.filter(name="nim", version=3, uploaded_by=other).exists()
    assert rival_api.get("/api/games/nim@3/").json()["report"] is not None  # a co-owner reads the kit's report
    assert owner_api.delete(f"/api/games/nim/owners/{other.username}/").status_code == 200
    said = html.unescape(
        rival.post("/games/upload/", {"archive": upload_file(nim_zip())}, follow=True).content.decode()
    )
    assert "only they and the co-owners they name" in said
    assert APIClient().get("/api/games/nim@3/").status_code == 404  # still being checked: not a visitor's
    assert APIClient().get("/api/games/nim@1/").json()["report"] is None  # accepted: listed; its report is the owners'
