"""Output-only runs (Crossed Words Solitaire): the batch referee in the real jail, the batch
stage, the standings with the MSO formula, and the judges' verification of the outputs."""

import re
from pathlib import Path

import pytest

from contests.models import JudgeAction, Stage, Submission
from contests.tests.factories import make_contest, make_entry, make_stage, make_submission, make_user, name_to
from games import registry
from games.clocks import Clock
from judging.models import Match
from judging.play import matches
from judging.play.referee import Player, play
from judging.record import lifecycle, publication, standings, verification
from judging.tests.conftest import PLAYERS, PROGRAMS, build

GAME = registry.get("crossed_words")
SIMPLE = PLAYERS / "crossed_words/players/simple.py"


def _tampered_source(base: bytes | None = None) -> bytes:
    """The simple player (or ``base``), then one figure changed in what it wrote: its first
    play's points."""
    return (
        (base or SIMPLE.read_bytes())
        + b"""
text = open("output.txt").read().split("\\n")
for i, line in enumerate(text):
    if line.startswith("PLAY "):
        fields = line.split()
        fields[-1] = str(int(fields[-1]) + 1)
        text[i] = " ".join(fields)
        break
open("output.txt", "w").write("\\n".join(text))
"""
    )


def _weak_source(moves: int = 5) -> bytes:
    """The simple player stopped after ``moves`` moves: a lower, honest claim, and the same
    however loaded the machine is (no move is cut short by its real-time deadline either)."""
    source = SIMPLE.read_bytes().decode()
    loop = "while time.monotonic() < deadline and game.step(deadline):"
    assert loop in source
    source = source.replace(
        loop, f"steps = iter(range({moves}))\n    while next(steps, None) is not None and game.step(float('inf')):"
    )
    return source.encode()


def _run(path: Path, seconds: int = 5, source: bytes | None = None):
    program = build(path) if source is None else _build_bytes(source)
    return play(
        GAME,
        {},
        GAME.practice_seed,
        [Player("p", program)],
        Clock.from_json({**GAME.default_clock, "seconds": seconds}),
    )


def _build_bytes(source: bytes):
    from sandbox.programs import build_program

    result = build_program(source, "main.py")
    assert result.ok, result.log
    return result.program


def test_a_program_written_from_the_page_is_verified_with_the_score_it_claims():
    record = _run(SIMPLE)
    report = record.replay["verification"]
    assert record.outcome.statuses == ("valid",) and report["ok"]
    assert record.outcome.points[0] == record.outcome.scores[0] == report["verified"] == report["claimed"] > 0
    assert record.replay["output"].splitlines()[0] == str(report["verified"])
    seat = record.replay["seats"][0]
    assert 0 < seat["wall_s"] < 5 and seat["program_bytes"] > SIMPLE.stat().st_size  # the interpreter counts
    assert "score" in record.replay["printed"]
    # the viewer's frames: the empty board, then one a line, the last the final board
    assert len(record.replay["frames"]) == len(record.replay["moves"]) + 1 == len(report["steps"]) + 1
    assert record.replay["frames"][-1]["grid"] == report["board"]


def test_the_greedy_reference_program_s_output_is_verified_too():
    record = _run(PLAYERS / "crossed_words/players/greedy.cpp", seconds=3)
    report = record.replay["verification"]
    assert report["ok"], report["reason"]
    assert record.outcome.statuses == ("valid",) and report["verified"] == report["claimed"] > 1000
    assert record.replay["seats"][0]["wall_s"] < 3


def test_one_tampered_figure_is_rejected_naming_its_line():
    record = _run(SIMPLE, source=_tampered_source())
    report = record.replay["verification"]
    assert record.outcome.statuses == ("illegal",) and record.outcome.details == ("WRONG_OUTPUT",)
    assert record.outcome.points == (0.0,) and record.outcome.scores[0] > 0
    lines = record.replay["output"].splitlines()
    first_play = next(i for i, line in enumerate(lines, start=1) if line.startswith("PLAY "))
    assert report["line"] == first_play
    assert f"line {first_play}" in record.outcome.reason


def test_a_program_still_running_at_the_limit_is_disqualified_and_its_last_lines_kept():
    record = _run(PROGRAMS / "cw_sleeper.py", seconds=1)
    assert record.outcome.statuses == ("timeout",)
    assert "still running after the 1 s limit" in record.outcome.reason
    assert "thinking... best so far 0" in record.replay["printed"]
    assert record.replay["seats"][0]["wall_s"] < 4


def test_an_output_file_that_is_a_link_is_not_followed():
    record = _run(PROGRAMS / "cw_symlink.py")
    assert record.outcome.statuses == ("crash",)
    assert record.outcome.reason == "output.txt: output.txt is a symbolic link"
    assert "root:" not in str(record.replay)


def test_an_output_file_that_is_a_folder_is_the_program_s_crash_not_the_platform_s():
    """It once raised IsADirectoryError: the match was retried as a platform fault."""
    record = _run(PROGRAMS / "cw_folder.py")
    assert record.outcome.statuses == ("crash",)
    assert record.outcome.reason == "output.txt: output.txt is a folder"


def test_a_program_over_its_memory_is_stopped_and_said_so():
    record = _run(PROGRAMS / "cw_hog.py")
    assert record.outcome.statuses == ("crash",) and record.outcome.reason == "over the memory limit of 512 MB"


def test_no_output_file_is_refused_in_words():
    record = _run(PROGRAMS / "cw_silent.py")
    assert record.outcome.statuses == ("illegal",) and record.outcome.details == ("NO_OUTPUT",)
    assert record.outcome.reason == "no output.txt was written"


# --- The stage, the standings and the judges -------------------------------------------------


def _contest_with_runs(db, count=3, sources=None):
    # Runs of a fixed number of moves: a run cut by the clock could score differently on a
    # loaded machine, and the tampered run must claim what the honest one does. Their limit is
    # only a backstop: 20 moves take about 0.6 s of CPU, several seconds on a loaded host.
    contest = make_contest(game="crossed_words", game_params={}, clock={"seconds": 20})
    stage = make_stage(contest, name="Final run", kind="batch")
    honest = _weak_source(20)
    sources = sources or [honest, _tampered_source(honest), _weak_source(5)][:count]
    for i, source in enumerate(sources):
        entry = make_entry(contest, name=f"Entry {i}")
        make_submission(entry, source=source, status=Submission.Status.READY, is_active=True)
    return contest, stage


@pytest.mark.django_db
def test_a_batch_stage_runs_every_entry_on_the_same_inputs_and_ranks_by_verified_score(db, queued):
    contest, stage = _contest_with_runs(db)
    made = lifecycle.run_stage(stage)
    assert len(made) == 3 and len({m.seed for m in made}) == 1 and all(m.seats.count() == 1 for m in made)
    assert lifecycle.run_stage(stage) == []  # once only
    for match in made:
        assert matches.play_now(match.pk) == Match.Status.FINISHED
    stage.refresh_from_db()
    assert stage.status == Stage.Status.FINISHED
    table = standings.compute(contest, stage)
    assert [c.key for c in table.columns] == ["verified", "claimed", "formula"]
    by_name = {row.entry.name: row for row in table.rows}
    assert by_name["Entry 1"].values["verified"] == 0 and by_name["Entry 1"].values["claimed"] > 0
    assert by_name["Entry 0"].values["verified"] > by_name["Entry 2"].values["verified"] > 0
    assert [row.entry.name for row in table.rows] == ["Entry 0", "Entry 2", "Entry 1"]


@pytest.mark.django_db
def test_equal_scores_are_ranked_by_the_mso_formula(db, queued):
    # Two runs of the same moves (a run cut by the clock could score differently on a loaded machine).
    same = _weak_source(8)
    contest, stage = _contest_with_runs(db, sources=[same, same + b"# " + b"x" * 5000])
    for match in lifecycle.run_stage(stage):
        matches.play_now(match.pk)
    rows = standings.compute(contest, stage).rows
    assert rows[0].values["verified"] == rows[1].values["verified"] > 0
    # the same program but 5,000 bytes longer: its size term is larger; submitted at the same moment and run
    # for about as long, it ranks second
    small, large = (Submission.objects.get(entry__name=n).program_bytes for n in ("Entry 0", "Entry 1"))
    assert large == small + 5002
    formula = {row.entry.name: row.values["formula"] for row in rows}
    assert all(value >= 1 + 1 / 5 for value in formula.values())  # each term at least 1 (x/5 for programming time)
    assert [row.entry.name for row in rows] == sorted(formula, key=formula.get)


@pytest.mark.django_db
def test_judges_verify_from_the_highest_claim_and_may_credit_the_rest_once_the_winner_is_certain(db, queued):
    contest, stage = _contest_with_runs(db)
    for match in lifecycle.run_stage(stage):
        matches.play_now(match.pk)
    judge = make_user(username="judge")
    state = verification.progress(stage)
    claims = state.claims
    assert [c.claimed for c in claims] == sorted((c.claimed for c in claims), reverse=True)
    assert not state.can_stop and state.waiting == 3
    tampered = next(c for c in claims if not c.valid)
    with pytest.raises(verification.VerificationError, match="Say why"):
        verification.decide(tampered.match, judge, "rejected", "")
    with pytest.raises(verification.VerificationError, match="Not yet"):
        verification.credit_rest(stage, judge)
    honest = next(c for c in claims if c.valid and c.seat.entry.name == "Entry 0")
    weak = next(c for c in claims if c.seat.entry.name == "Entry 2")
    assert weak.claimed < honest.claimed == tampered.claimed  # the tampered file kept its total
    verification.decide(tampered.match, judge, "rejected", "line 30: the figure is one too many")
    assert not verification.progress(stage).can_stop  # nothing verified yet
    verification.decide(honest.match, judge, "accepted", "")
    state = verification.progress(stage)
    assert state.can_stop and state.winner.match == honest.match and state.waiting == 1
    assert verification.credit_rest(stage, judge, "the winner is verified") == 1
    state = verification.progress(stage)
    assert state.waiting == 0 and next(c for c in state.claims if c.match == weak.match).status == "credited"
    table = standings.compute(contest, stage)
    by_name = {row.entry.name: row for row in table.rows}
    assert by_name["Entry 1"].values["verified"] == 0
    assert by_name["Entry 2"].values["verified"] == weak.claimed
    assert [row.entry.name for row in table.rows] == ["Entry 0", "Entry 2", "Entry 1"]
    actions = list(JudgeAction.objects.filter(contest=contest).order_by("at", "pk"))
    assert [a.action for a in actions] == [
        "verification.rejected",
        "verification.accepted",
        "verification.credit_rest",
    ]
    assert actions[0].judge == judge and actions[0].reason == "line 30: the figure is one too many"
    assert actions[2].data["matches"] == [weak.match.pk]


@pytest.mark.django_db
def test_verification_may_stop_when_a_verified_score_beats_every_waiting_claim(db, queued):
    contest, stage = _contest_with_runs(db, count=2)
    for match in lifecycle.run_stage(stage):
        matches.play_now(match.pk)
    judge = make_user(username="judge")
    claims = verification.progress(stage).claims
    honest = next(c for c in claims if c.valid)
    tampered = next(c for c in claims if not c.valid)
    # a judge accepts the honest run; the tampered one claims as much and still waits
    verification.decide(honest.match, judge, "accepted")
    assert not verification.progress(stage).can_stop
    verification.decide(tampered.match, judge, "rejected", "a wrong figure")
    state = verification.progress(stage)
    assert state.can_stop and state.winner.match == honest.match and state.waiting == 0
    # a re-run's new result waits for a judge again, with the verifier's figure counting
    lifecycle.rerun_match(honest.match)
    matches.play_now(honest.match.pk)
    state = verification.progress(stage)
    assert next(c for c in state.claims if c.match == honest.match).status == "pending"


@pytest.mark.django_db
def test_the_judges_pages_show_the_queue_an_output_and_the_log(client, db, queued):
    contest, stage = _contest_with_runs(db, count=2)
    for match in lifecycle.run_stage(stage):
        matches.play_now(match.pk)
    judge = name_to(contest, make_user(username="judge"))
    contestant = make_user(username="alice")
    client.force_login(contestant)
    assert client.get(f"/contests/{contest.slug}/verification/").status_code == 403
    assert client.get(f"/contests/{contest.slug}/judges-log/").status_code == 403
    client.force_login(judge)
    page = client.get(f"/contests/{contest.slug}/verification/").content.decode()
    assert "Entry 0" in page and "Entry 1" in page and "refused" in page
    claim = next(c for c in verification.progress(stage).claims if not c.valid)
    url = f"/contests/{contest.slug}/verification/{claim.match.pk}/"
    page = client.get(url).content.decode()
    assert "Every line, replayed" in page and re.search(r"refused at line \d+", page)
    response = client.post(url, {"decision": "rejected", "note": "wrong figure"})
    assert response.status_code == 302
    log = client.get(f"/contests/{contest.slug}/judges-log/").content.decode()
    assert "verification.rejected" in log and "wrong figure" in log and "judge" in log
    csv = client.get(f"/contests/{contest.slug}/judges-log/?format=csv").content.decode()
    assert csv.startswith("when (UTC),judge,action") and "verification.rejected" in csv


@pytest.mark.django_db
def test_contestants_download_the_practice_inputs_as_the_program_finds_them(client):
    import io
    import zipfile

    from games.crossed_words import inputs

    contest = make_contest(game="crossed_words", game_params={}, clock={"seconds": 300})
    page = client.get(f"/contests/{contest.slug}/").content.decode()
    assert "practice.zip" in page
    response = client.get(f"/contests/{contest.slug}/practice.zip")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = set(archive.namelist())
    assert {"input10.txt", "input13.txt", "input1310.txt", "seconds.txt", "seconds10.txt", "dict10/a.txt"} <= names
    assert len([n for n in names if n.startswith("dict1310/")]) == 26
    assert archive.read("seconds.txt") == b"300\r\n" and archive.read("seconds10.txt") == b"300\n"
    assert archive.read("input10.txt").decode().split("\n")[:3] == list(inputs.shuffle_pool(inputs.PRACTICE_SEED))
    chomp = make_contest(game="chomp")
    assert client.get(f"/contests/{chomp.slug}/practice.zip").status_code == 404


@pytest.mark.django_db
def test_another_contestant_sees_a_run_s_score_but_not_its_game_while_the_contest_is_open(client, db, queued):

    contest, stage = _contest_with_runs(db, count=1)
    (match,) = lifecycle.run_stage(stage)
    matches.play_now(match.pk)
    match.refresh_from_db()
    owner = match.seats.get().entry.user
    other = make_user(username="rival")
    mine = publication.replay_for(owner, match)
    assert mine["output"] and mine["printed"] and mine["moves"] and mine["verification"]["steps"]
    theirs = publication.replay_for(other, match)
    report = mine["verification"]
    assert theirs["verification"] == {"ok": True, "claimed": report["claimed"], "verified": report["verified"]}
    assert "output" not in theirs and "printed" not in theirs and theirs["moves"] == [] and len(theirs["frames"]) == 1
    client.force_login(other)
    body = client.get(f"/matches/{match.pk}/replay.json").content.decode()
    assert "DRAW" not in body and "PLAY" not in body


STDERR_FIRST = b'import sys\nprint("MY-OWN-STDERR", file=sys.stderr, flush=True)\n'


def test_a_run_s_stderr_is_the_run_s_not_an_empty_one_a_move():
    """The viewer showed "stderr (nothing)" on every move of a Crossed Words run that wrote to
    stderr: each move carried an empty stderr of its own, the run's sat beside them unread."""
    record = _run(SIMPLE, source=STDERR_FIRST + _weak_source(3))
    assert "MY-OWN-STDERR" in record.replay["stderr"]
    assert record.replay["moves"] and not any("stderr" in move for move in record.replay["moves"])
