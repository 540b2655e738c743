"""Uploaded games (issue 25): a referee program judges, jailed beside the players; whatever it
does wrong is the platform's fault, never a seat's; the conformance kit accepts a good referee
and refuses a bad one in words; manifests and archives are checked before anything runs; and
a contest on an uploaded game is played by a real worker from its system test to its replays.

The test game is Nim (judging/tests/programs/nim): its parameter ``fault`` makes its referee
misbehave in each way a referee can."""

from __future__ import annotations

import io
import json
import re
import tarfile
import zipfile

import pytest

from contests.models import GameVersion, Submission
from contests.services import submit
from contests.tests.factories import make_contest, make_entry, make_stage, make_user
from games import registry
from games.clocks import Clock
from games.hosted import ManifestError
from judging.models import Match, MatchAttempt
from judging.play.referee import Player, play
from judging.schedule import tournaments
from judging.tests.conftest import PROGRAMS, build
from judging.uploaded import hosting
from judging.uploaded.program_referee import RefereeFault
from sandbox.errors import UnsafeArchive

NIM = PROGRAMS / "nim"


def nim_files(**manifest) -> dict[str, bytes]:
    files = hosting.read_folder(NIM)
    data = {**json.loads(files["game.json"]), **manifest}
    return {**files, "game.json": json.dumps(data).encode()}


def play_nim(*players: str, seed: int = 1, **params):
    game = hosting.manifest_of(nim_files())
    programs = [Player(name, build(PROGRAMS / name)) for name in players]
    clock = Clock.from_json(game.default_clock)
    given = {
        name: str(value) if name == "fault" else value for name, value in params.items()
    }  # a string: see game.json
    return play(game, {**{p.name: p.default for p in game.info.params}, **given}, seed, programs, clock)


@pytest.mark.once
def test_a_referee_program_judges_a_game_of_nim():
    record = play_nim("nim/taker.py", "nim/one.py")
    outcome, replay = record.outcome, record.replay
    assert outcome.points == (2.0, 0.0) and outcome.statuses == ("win", "loss")
    assert outcome.reason == "seat 0 took the last stone"
    # 15 stones: the taker leaves 12, 8, 4, 0; the other takes one each time.
    assert [(m["seat"], m["move"]) for m in replay["moves"]] == [(0, "3"), (1, "1"), (0, "3"), (1, "1")] + [
        (0, "3"),
        (1, "1"),
        (0, "3"),
    ]
    assert [s.moves for s in record.seats] == [4, 3]
    assert len(replay["frames"]) == len(replay["moves"]) + 1  # one a position, the first before any move
    assert replay["frames"][0]["text"] == ["15 stones"] and replay["frames"][-1]["text"] == ["seat 0 took 3: 0 left"]
    referee = replay["referee"]  # its own costs, apart from the players'
    assert (
        replay["game"] == "nim@1" and referee["lines"] > 20 and referee["cpu_s"] > 0 and referee["peak_memory_mb"] > 1
    )


@pytest.mark.once
@pytest.mark.parametrize(
    ("fault", "said"),
    [
        (1, "ended before its result (exited with code 1)"),
        (2, "wrote no line for 2 s"),
        (3, "named seat '5', in a game of 2 seats"),
        (4, "wrote a line that is not of the protocol: 'hello platform'"),
        (5, "wrote a result of 1 points for 2 seats"),
        (6, "wrote more than 10,000 frames"),
        (8, "ended before its result (exited with code 0)"),
        (10, "gave seat 0 the word 'champion'"),
        (11, "wrote a result whose points are not numbers up to 1e+09: 'result 1e300 0'"),
        (12, "gave a result no game of outcome one_winner can have (2 seats won, and one wins at most)"),
    ],
)
def test_a_referee_that_breaks_the_protocol_is_the_platforms_fault_in_words(fault, said):
    with pytest.raises(RefereeFault, match=re.escape("the referee " + said)):
        play_nim("nim/taker.py", "nim/one.py", fault=fault)


@pytest.mark.once
def test_what_a_player_did_wrong_is_told_to_the_referee_and_charged_to_that_seat():
    crashed = play_nim("nim/taker.py", "chomp_crash.c")
    assert crashed.outcome.statuses == ("win", "crash") and crashed.outcome.points == (2.0, 0.0)
    assert crashed.replay["moves"][-1]["status"] == "crash"
    garbage = play_nim("nim_words.py", "nim/one.py")
    assert garbage.outcome.statuses == ("illegal", "win") and garbage.outcome.details == ("BAD_TAKE", "")
    assert garbage.outcome.reason.startswith("seat 0 took")


@pytest.mark.once
def test_the_platform_records_the_fault_it_saw_whatever_word_the_referee_gives():
    # fault 7: the referee calls the seat that played by the rules the one that crashed. The
    # crashed seat is recorded as crashed; the kit (below) refuses such a referee.
    record = play_nim("nim/taker.py", "chomp_crash.c", fault=7)
    assert record.outcome.statuses == ("crash", "crash")


@pytest.mark.django_db
def test_the_kit_accepts_nim_and_its_versions_are_played_by_name_at_version():
    version = hosting.check(hosting.upload(nim_files(), make_user()))
    assert version.key == "nim@1" and version.status == GameVersion.Status.ACCEPTED, version.report["problems"]
    report = version.report
    assert len(report["games"]) == 4 + 2 + 4 * 2 and report["passed"]  # and stones at its min and max
    bounds = [g["params"]["stones"] for g in report["games"] if g["changed"]]
    assert bounds == [1, 1000] and all("params" in g for g in report["games"])
    assert {g["what"] for g in report["games"]} == {
        "references",
        "a program that crashes",
        "a program that never answers",
        "a program that writes garbage",
        "a program that exits at once",
    }
    assert registry.get("nim@1").info.title == "Nim (a test game)" and registry.get("nim").info.name == "nim@1"
    assert "nim@1" in registry.GAMES and "nim@1" in list(registry.GAMES)
    second = hosting.upload(nim_files(title="Nim, again"))
    assert second.key == "nim@2" and second.status == GameVersion.Status.CHECKING
    assert "nim@2" not in registry.GAMES and registry.get("nim").info.name == "nim@1"  # until it passes


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("fault", "problem"),
    [
        (1, "references (taker v one, seed 1): the referee ended before its result"),
        (7, "(a program that crashes v taker, seed 1): seat 1 (taker) played by the rules, and was given crash"),
    ],
)
def test_the_kit_refuses_a_referee_that_fails_or_blames_the_wrong_seat(fault, problem):
    params = json.loads(nim_files()["game.json"])["params"]
    version = hosting.check(hosting.upload(nim_files(params={**params, "fault": {"default": str(fault)}})))
    assert version.status == GameVersion.Status.REFUSED
    assert any(problem in p for p in version.report["problems"]), version.report["problems"]
    assert "nim@1" not in registry.GAMES
    if fault == 1:
        assert "skipped" in version.report  # no broken player is tried beside a failing reference


@pytest.mark.once
@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"name": "Nim!"}, "'name' must be a lower-case letter"),
        ({"seats": 0}, "'seats' must be from 1 to 16"),
        ({"seats": {"min": 3, "max": 2}}, "'seats' must be from 1 to 16, the fewest first"),
        ({"clock": {"kind": "forever", "seconds": 5}}, "kind must be 'total' or 'per_move'"),
        ({"clock": {"kind": "total", "seconds": -1}}, "'seconds' must be more than 0"),
        ({"referee": "missing.py"}, "the referee 'missing.py' is not in the archive"),
        ({"referee": "../../etc/passwd"}, "must be a path inside the archive"),
        ({"players": []}, "needs at least one reference player"),
        ({"players": [{"name": "a", "source": "one.py"}, {"name": "a", "source": "taker.py"}]}, "two players"),
        ({"params": {"stones": {"default": 0, "min": 1, "max": 9}}}, "its default 0 is not between 1 and 9"),
        ({"colour": "blue"}, "unknown keys colour"),
        ({"outcome": "winner"}, "'outcome' must be one of zero_sum, one_winner, ranking, free, not 'winner'"),
        ({"rules": "taker.py", "title": ""}, "'title' must be a non-empty string"),
    ],
)
def test_a_manifest_is_refused_in_words_before_anything_runs(change, said):
    with pytest.raises(ManifestError, match=re.escape(said)):
        hosting.manifest_of(nim_files(**change))


def _zip(members: dict[str, bytes], links: dict[str, str] | None = None) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
        for name, target in (links or {}).items():
            info = zipfile.ZipInfo(name)
            info.external_attr = 0o120777 << 16
            archive.writestr(info, target)
    return out.getvalue()


@pytest.mark.once
def test_an_archive_of_the_folder_reads_as_the_folder_and_hostile_ones_are_refused():
    files = hosting.read_folder(NIM)
    inside_a_folder = hosting.read_archive(_zip({f"nim/{name}": data for name, data in files.items()}))
    assert inside_a_folder == files and hosting.manifest_of(inside_a_folder).info.name == "nim@1"
    tar = io.BytesIO()
    with tarfile.open(fileobj=tar, mode="w:gz") as archive:
        device = tarfile.TarInfo("game.json")
        device.type, device.devmajor, device.devminor = tarfile.CHRTYPE, 1, 3
        archive.addfile(device)
    hostile = {
        "a path out": _zip({"../game.json": b"{}"}),
        "a link out": _zip({"game.json": b"{}"}, links={"referee.py": "/etc/passwd"}),
        "not an archive": b"#!/bin/sh\nrm -rf /\n",
        "a zip bomb": _zip({"game.json": b"{}", "bomb": b"\0" * (20 << 20)}),
        "a device": tar.getvalue(),
    }
    for what, data in hostile.items():
        with pytest.raises(UnsafeArchive):
            hosting.read_archive(data)
            pytest.fail(f"{what} was read")
    for files, said in (
        ({"readme.txt": b"hi"}, "no game.json at the top of the archive"),
        ({"game.json": b"\xff\xfe{"}, "game.json is not JSON"),
        ({"game.json": b"[1, 2]"}, "game.json must hold a JSON object"),
    ):
        with pytest.raises(ManifestError, match=said):
            hosting.manifest_of(files)


@pytest.mark.worker
@pytest.mark.slow
def test_a_contest_on_an_uploaded_game_runs_its_system_test_round_robin_and_replays(worker):
    from judging.tests.test_tournament import wait_for

    organiser = make_user()
    version = hosting.upload(nim_files(), organiser)
    GameVersion.objects.filter(pk=version.pk).update(status=GameVersion.Status.ACCEPTED)  # its kit: above
    contest = make_contest(game="nim@1", game_params={"stones": 9})
    make_stage(contest, kind="system_test", name="System test", params={"games": 2})
    stage = make_stage(contest, kind="round_robin", params={"games_per_pairing": 2})
    # Made with the contest, the opponent first (the system test plays the first reference).
    assert list(contest.entries.order_by("pk").values_list("name", "user", "is_reference")) == [
        ("taker", organiser.pk, True),
        ("one", organiser.pk, True),
    ]
    assert hosting.add_references(contest) == []  # once
    wait_for(lambda: Submission.objects.filter(entry__is_reference=True, is_active=True).count() == 2, worker=worker)

    mine = submit(
        make_entry(contest, name="Two"),
        filename="two.py",
        data=b"import sys\nfor l in sys.stdin:\n print(2, flush=True)\n",
    )
    wait_for(lambda: Submission.objects.get(pk=mine.pk).status in ("ready", "test_failed"), worker=worker)
    mine.refresh_from_db()
    assert mine.status == "ready" and mine.is_active, mine.test_log
    assert "took the last stone" in mine.test_log and "seat 0" not in mine.test_log  # entries by name

    matches = tournaments.schedule_round_robin(stage)
    assert len(matches) == 6  # three pairings, two games each
    wait_for(lambda: not Match.objects.filter(stage=stage, status__in=["queued", "running"]).exists(), worker=worker)
    assert not Match.objects.filter(stage=stage).exclude(status="finished").exists()
    replay = Match.objects.filter(stage=stage).first().load_replay()
    assert replay["game"] == "nim@1" and len(replay["frames"]) == len(replay["moves"]) + 1
    assert replay["frames"][0]["text"] == ["9 stones"]

    # A referee that fails in a contest's own conditions: the platform's fault, retried, then a
    # judge's; no seat is charged.
    faulty = make_contest(game="nim@1", game_params={"fault": "8"})
    faulty_stage = make_stage(faulty, kind="round_robin")
    for name in ("a", "b"):
        submit(make_entry(faulty, name=name), filename="one.py", data=(NIM / "one.py").read_bytes())
    wait_for(
        lambda: Submission.objects.filter(entry__contest=faulty, is_active=True).count() == 4, worker=worker
    )  # and its references
    tournaments.schedule_round_robin(faulty_stage)
    wait_for(
        lambda: not Match.objects.filter(stage=faulty_stage, status__in=["queued", "running"]).exists(), worker=worker
    )
    failed = Match.objects.filter(stage=faulty_stage).first()
    assert failed.status == "failed"
    errors = list(MatchAttempt.objects.filter(match=failed).values_list("outcome", "error"))
    assert errors and all(
        o == "referee" and "the game's referee: the referee ended before its result" in e for o, e in errors
    )
    assert not failed.seats.exclude(status="").exists()


@pytest.mark.once
def test_a_match_called_off_stops_a_referee_that_never_asks():
    from judging.play.referee import Cancelled

    game = hosting.manifest_of(nim_files())
    players = [Player(name, build(PROGRAMS / "nim" / name)) for name in ("taker.py", "one.py")]
    calls = iter(range(10**6))
    with pytest.raises(Cancelled, match="called off before the referee's line 501"):
        play(
            game,
            {"stones": 15, "fault": "6"},  # 10,001 frames and never an ask
            1,
            players,
            Clock.from_json(game.default_clock),
            should_stop=lambda: next(calls) >= 500,
        )


@pytest.mark.once
def test_a_referees_own_words_for_a_result_read_as_words():
    from types import SimpleNamespace

    from judging.news import results

    game = hosting.manifest_of(nim_files())
    seat = SimpleNamespace(status="illegal", detail="BAD_TAKE", reason="move 3: a take of 4", points=0.0)
    assert results.seat_words(game, seat) == "bad take (move 3)"
    won = SimpleNamespace(status="win", detail="THREE_IN_A_ROW", reason="", points=2.0)
    assert results.seat_words(game, won) == "won: three in a row"
