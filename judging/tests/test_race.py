"""Races (the Solitaire 500): every program at once in its own jail against the game's
server, the reference clients and misbehaving ones; the trial laps and the race as stages."""

from __future__ import annotations

import pytest

from contests.models import Submission
from contests.tests.factories import make_contest, make_entry, make_stage, make_submission, make_user
from games import registry
from games.base import CRASH, EXIT, LOSS, WIN
from games.clocks import Clock
from judging.models import Match, MatchAttempt
from judging.play import matches
from judging.play.race import login_names
from judging.play.referee import Player, play
from judging.record import formats, lifecycle, standings
from judging.tests.conftest import PLAYERS, PROGRAMS

GAME = registry.get("wheels")
PACE = "wheels/players/pacecar.pl"
PLANNER = "wheels/players/planner.py"


def _race(program, seats: list[tuple[str, str]], seconds: int = 90, **params):
    progress = []
    record = play(
        GAME,
        {"decks": 3, **params},
        7,
        [Player(name, program(path)) for name, path in seats],
        Clock.from_json({**GAME.default_clock, "seconds": seconds}),
        on_progress=progress.append,
    )
    return record, progress


def test_login_names_are_safe_and_unique():
    assert login_names(["Pace car (Perl)", "Planner", "planner", "42", "", "ÉLAN vital!" * 5]) == [
        "pace-car-perl",
        "planner",
        "planner-2",
        "e-42",
        "entrant",
        "lan-vital-lan-vital-lan",
    ]


def test_trial_laps_measure_everyone_and_contain_every_misfit(program):
    misfit = "../judging/tests/programs/wheels_misfit.py"
    record, progress = _race(
        program,
        [("Pace car", PACE), ("Planner", PLANNER), ("Stray", misfit), ("Flood", misfit), ("Twice", misfit),
         ("Quitter", misfit)],
    )  # fmt: skip
    outcome, seats = record.outcome, record.replay["seats"]
    by_name = {s["name"]: (i, s) for i, s in enumerate(seats)}
    planner, pace = by_name["Planner"][0], by_name["Pace car"][0]
    assert outcome.statuses[planner] == WIN and outcome.statuses[pace] == WIN, outcome
    assert outcome.scores[planner] < outcome.scores[pace]  # fewer rounds
    assert outcome.points[planner] == 6 and outcome.points[pace] == 5  # places by rounds
    assert (
        outcome.statuses[by_name["Quitter"][0]] == CRASH
        and "exited with code 3" in outcome.details[by_name["Quitter"][0]]
    )
    for name in ("Stray", "Flood", "Twice"):
        assert outcome.statuses[by_name[name][0]] == EXIT, (name, outcome.details)
    stray = by_name["Stray"][1]["stderr"]
    assert "whoami stray SWP_USERNAME stray" in stray and "REACHED" not in stray, stray
    assert sum(line.startswith("refused ") for line in stray.splitlines()) == 5
    flood = by_name["Flood"][1]
    assert "answer: ERR line too long" in flood["stderr"] and "again: OK" in flood["stderr"], flood["stderr"]
    assert "over the limit: connection closed" in flood["server_log"]
    twice = by_name["Twice"][1]["stderr"]
    assert "second socket: ERR twice is already connected" in twice and "first still: OK" in twice
    assert all(seats[i]["cpu_s"] > 0 for i in (planner, pace))  # each entrant's CPU, measured apart
    assert "> OK FI NI SH ED" in by_name["Planner"][1]["server_log"]
    # the race's moments: live, and in the replay
    assert progress and progress[-1]["entrants"][planner]["finished_s"] is not None
    assert record.replay["frames"][-1] == progress[-1]


def test_the_race_ends_at_the_first_win_on_the_last_deck_with_delays_on(program):
    record, _ = _race(program, [("Pace car", PACE), ("Planner", PLANNER)], decks=2, delays=1, first_wins=1)
    outcome = record.outcome
    assert outcome.statuses == (LOSS, WIN) and outcome.points == (1.0, 2.0), outcome
    assert outcome.reason == "Planner won the last deck first"
    finished = record.replay["frames"][-1]["entrants"][1]["finished_s"]
    assert 2 <= finished < 30  # four move-containing instructions, a second apart at least
    assert "deck 1 of 2" in outcome.details[0] or "deck 2 of 2" in outcome.details[0]


@pytest.mark.django_db
def test_trial_laps_then_the_race_of_the_qualifiers_as_stages():
    contest = make_contest(slug="wheels", game="wheels", game_params={}, clock={"seconds": 120})
    for name, path, language in [("Pace car", PACE, "perl"), ("Planner", PLANNER, "python3")]:
        entry = make_entry(contest, make_user(), name=name)
        make_submission(
            entry,
            (PLAYERS / path).read_bytes(),
            filename=path.rsplit("/", 1)[1],
            language=language,
            status=Submission.Status.READY,
            is_active=True,
        )
    trial = make_stage(contest, kind="qualification", name="Trial laps", params={"decks": 2}, order=1)
    race = make_stage(contest, kind="race", name="Race", params={"decks": 1, "top": 1}, order=2)
    (match,) = lifecycle.run_stage(trial)
    assert match.seats.count() == 2
    matches.play_now(match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    attempt = MatchAttempt.objects.get(match=match)
    assert attempt.progress is None or attempt.progress["entrants"]  # the live page's last moment
    table = standings.compute(contest, trial)
    assert [row.entry.name for row in table.rows] == ["Planner", "Pace car"]
    assert lifecycle.run_stage(trial) == []  # once
    (final,) = lifecycle.run_stage(race)
    assert [s.entry.name for s in final.seats.all()] == ["Planner"]  # the top 1 of the trial laps


@pytest.mark.django_db
def test_a_race_replay_shows_server_logs_to_their_owner_and_judges_only_while_open(client):
    contest = make_contest(slug="wheels", game="wheels", game_params={}, clock={"seconds": 60})
    owner, other = make_user(), make_user()
    entry = make_entry(contest, owner, name="Planner")
    make_submission(
        entry,
        (PLAYERS / PLANNER).read_bytes(),
        filename="planner.py",
        status=Submission.Status.READY,
        is_active=True,
    )
    trial = make_stage(contest, kind="qualification", name="Trial laps", params={"decks": 1})
    (match,) = lifecycle.run_stage(trial)
    matches.play_now(match.pk)
    url = f"/matches/{match.pk}/replay.json"
    client.force_login(owner)
    mine = client.get(url).json()
    assert "> OK FI NI SH ED" in mine["seats"][0]["server_log"] and mine["moves"][0]["move"].endswith(" s")
    client.force_login(other)
    theirs = client.get(url).json()
    assert contest.is_open() and "server_log" not in theirs["seats"][0] and "stderr" not in theirs["seats"][0]
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "games/wheels.js" in page


@pytest.mark.django_db
def test_the_match_page_of_a_running_race_shows_each_entrant_live(client):
    contest = make_contest(slug="wheels", game="wheels", game_params={})
    entries = [make_entry(contest, make_user(), name=name) for name in ("Pace car (Perl)", "Planner")]
    for entry in entries:
        make_submission(entry, b"", filename="main.py", status=Submission.Status.READY, is_active=True)
    trial = make_stage(contest, kind="qualification", name="Trial laps", params={"decks": 3})
    (match,) = lifecycle.run_stage(trial)
    attempt = matches.claim("test-worker", match.pk)
    assert attempt is not None
    snapshot = GAME.server({"decks": 3, "delays": 0, "first_wins": 0}, 1, {"pace-car-perl": "x", "planner": "y"}, 1)
    progress = {"t": 4.0, "started": True, "entrants": []}
    for entrant in snapshot.entrants.values():
        entrant.table.execute("lay", 0)
        progress["entrants"].append(entrant.snapshot(0.0))
    matches._progress(attempt.pk, progress)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Live" in page and "Pace car (Perl)" in page and "1 of 3" in page and "12 of 13" not in page
    assert page.count("not logged in") == 2


def test_the_kit_runs_the_server_without_the_platform(tmp_path):
    """What the contest page offers: unzipped anywhere, the server and the planner race."""
    import os
    import socket
    import subprocess
    import sys
    import time

    for name, content in GAME.kit().items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(content)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-E", "-s", "-m", "games.wheels", "--port", str(port), "--count", "2", "--no-delays"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        env = {**os.environ, "SWP_SERVERPORT": str(port), "SWP_USERNAME": "me", "SWP_SERVERNAME": "127.0.0.1"}
        done = subprocess.run(
            [sys.executable, "-I", "planner.py"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0 and "planner: finished in round" in done.stderr, done.stderr
        with socket.create_connection(("127.0.0.1", port), timeout=10) as client:
            answers = client.makefile("rb")
            answers.readline()  # the greeting
            client.sendall(b"debugger:x\n")
            answers.readline()  # the status line
            client.sendall(b"dump\n")
            assert answers.readline().startswith(b"OK ")
    finally:
        server.terminate()
        out, err = server.communicate(timeout=10)
    assert f"Wheels server on 127.0.0.1:{port}: 2 decks, delays off" in out
    # Its standard output is the server log the page names: a client's author sees its dump.
    assert (
        "me " in out and "finished every deck in" in out and "debugger " in out and " logged in (connection 1)" in out
    )
    dump = out.split("debugger ", 2)[2].split(" dump: ", 1)[1].splitlines()[0]
    assert dump.startswith("deck 1 hand [") and "Ah" in dump and "piles (bottom first) [__ | __ | __ | __]" in dump
    assert "anyone may log in" in err
    assert "README.txt" in GAME.kit() and "pacecar.pl" in GAME.kit()


@pytest.mark.alone
def test_the_arenas_cpu_is_shared_evenly_and_each_entrants_is_recorded(program):
    spinner = "../judging/tests/programs/wheels_spinner.py"
    record, _ = _race(program, [(f"Spinner {i}", spinner) for i in range(4)], seconds=4, decks=1)
    assert set(record.outcome.statuses) == {"timeout"}  # stopped at the limit, nothing finished
    cpu = [seat["cpu_s"] for seat in record.replay["seats"]]
    # four programs on the host's cores, each its share (of what a loaded host leaves them)
    assert sum(cpu) > 0.5 and min(cpu) >= 0.6 * max(cpu), cpu


@pytest.mark.django_db
def test_a_race_stage_of_a_game_that_is_no_race_is_refused_in_words():
    contest = make_contest(game="crossed_words", game_params={}, title="Crossed Words")
    for kind in ("qualification", "race"):
        stage = make_stage(contest, kind=kind, name=str(kind))
        with pytest.raises(formats.StageError, match=r"Crossed Words is not a race: its game \(crossed_words\)"):
            lifecycle.run_stage(stage)
        assert not stage.matches.exists()


@pytest.mark.django_db(transaction=True)
def test_a_new_version_is_system_tested_in_a_race_of_its_own(queued):
    from judging.schedule import system_test

    contest = make_contest(slug="wheels", game="wheels", game_params={})
    make_stage(contest, kind="system_test", name="System test", params={"decks": 1, "seconds": 60})
    reference = make_entry(contest, make_user(), name="Pace car", is_reference=True)
    make_submission(reference, (PLAYERS / PACE).read_bytes(), filename="pacecar.pl", language="perl",
                    status=Submission.Status.READY, is_active=True)  # fmt: skip
    mine = make_entry(contest, make_user(), name="Mine")
    submission = make_submission(mine, (PLAYERS / PLANNER).read_bytes(), filename="planner.py")
    assert system_test.start(submission)
    (match,) = Match.objects.filter(seats__submission=submission)
    assert [s.entry.name for s in match.seats.all()] == ["Mine"]  # alone: no opponent in a race
    assert match.params["decks"] == 1
    matches.play_now(match.pk)
    submission.refresh_from_db()
    assert submission.status == Submission.Status.READY and submission.is_active, submission.test_log
    assert "finished" in submission.test_log


def test_a_client_written_from_the_page_alone_runs_unchanged(program):
    record, _ = _race(program, [("From the page", "../judging/tests/programs/wheels_page_client.c")], decks=2)
    assert record.outcome.statuses == (WIN,), record.outcome
    assert "finished after" in record.replay["seats"][0]["stderr"]


def test_a_finisher_ends_by_itself_with_its_last_words(program, tmp_path):
    # The server's answer to the last move ends the race at once; the program that made it
    # still writes its goodbye, here a moment later, and exits: it is not stopped meanwhile.
    source = (PROGRAMS / "wheels_page_client.c").read_text()
    late = source.replace(
        '    fprintf(stderr, "finished after', '    usleep(300000);\n    fprintf(stderr, "finished after'
    )
    assert late != source
    path = tmp_path / "late_goodbye.c"
    path.write_text(late)
    record, _ = _race(program, [("Late goodbye", str(path))], decks=2)
    assert record.outcome.statuses == (WIN,), record.outcome
    assert "finished after" in record.replay["seats"][0]["stderr"]


def _seat(name, finished_s=None, deck=1, decks_won=0, discarded=0, round=1, progressed_s=0.0, **extra):
    return {"name": name, "finished_s": finished_s, "deck": deck, "decks_won": decks_won, "discarded": discarded,
            "round": round, "progressed_s": progressed_s, **extra}  # fmt: skip


def test_places_of_a_race_and_of_trial_laps():
    params = {"decks": 3, "delays": 1, "first_wins": 1, "start_wait": 30}
    seats = [
        _seat("slow", deck=2, decks_won=1, discarded=4, progressed_s=9.0, stopped=True),
        _seat("second", finished_s=10.2, deck=3, decks_won=3, round=30),
        _seat("first", finished_s=10.0, deck=3, decks_won=3, round=40),
        _seat("same-but-later", deck=2, decks_won=1, discarded=4, progressed_s=9.5, stopped=True),
        _seat("crashed", fault=("crash", "exited with code 1")),
    ]
    race = GAME.race_outcome(params, seats)
    assert race.points == (3.0, 4.0, 5.0, 2.0, 1.0)
    assert race.statuses == (LOSS, LOSS, WIN, LOSS, CRASH)
    assert race.details[1] == "finished 0.200 s after the winner" and race.reason == "first won the last deck first"
    trial = GAME.race_outcome({**params, "first_wins": 0}, seats)
    assert trial.points == (3.0, 5.0, 4.0, 2.0, 1.0)  # the finishers by rounds
    assert trial.statuses == ("timeout", WIN, WIN, "timeout", CRASH)
