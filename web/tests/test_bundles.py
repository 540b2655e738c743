"""A match's bundle, downloaded from its page, plays the game again at home the same: every
move, verdict and score of deterministic programs, for each of the five games; a bundle that
differs says where, and a damaged or hostile one says what is wrong."""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from django.core.files.base import ContentFile

from contests.models import Submission
from contests.tests.factories import (
    make_contest,
    make_entry,
    make_match,
    make_stage,
    make_submission,
    make_user,
    name_to,
)
from games import registry
from judging import bundles
from judging.bundles import BundleError, check
from judging.models import Match
from judging.play import matches

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ROOT / "games"
ARBITER = Path(sys.executable).parent / "arbiter"


def _seeded(path: Path) -> bytes:
    """A random player made deterministic: its random numbers from a fixed seed."""
    return path.read_bytes().replace(b"import random\n", b"import random\nrandom.seed(7)\n", 1)


# game, parameters, clock, each seat's (file name, language, source)
GAMES = {
    "chomp": ({"rows": 4, "cols": 5}, {}, [("perfect.py", "python3", "chomp/players/perfect.py")] * 2),
    "sudoku": ({}, {}, [("random.py", "python3", _seeded(PLAYERS / "sudoku/players/random_player.py"))] * 2),
    "hearts_flowers": ({}, {}, [("minimax.c", "c", "hearts_flowers/players/minimax.c")] * 2),
    # The simple player plays until 0.6 of its limit has passed: with 60 s it ends its game on
    # its own (in about 3 s), the same game each time, however loaded the machine.
    "crossed_words": ({}, {"seconds": 60}, [("simple.py", "python3", "crossed_words/players/simple.py")]),
    "wheels": ({"decks": 1}, {"seconds": 60}, [("planner.py", "python3", "wheels/players/planner.py")]),
}


def _played(name: str, seed: int = 7) -> tuple[Match, list[Submission]]:
    params, clock, seats = GAMES[name]
    game = registry.get(name)
    contest = make_contest(game=name, game_params=params, clock=clock)
    submissions = []
    for filename, language, source in seats:
        data = source if isinstance(source, bytes) else (PLAYERS / source).read_bytes()
        entry = make_entry(contest, make_user())
        submissions.append(
            make_submission(entry, data, filename=filename, language=language, status=Submission.Status.READY)
        )
    match = make_match(contest, submissions, seed=seed, params=game.resolve_params(params))
    assert matches.play_now(match.pk) == Match.Status.FINISHED, Match.objects.get(pk=match.pk).error
    return match, submissions


def _source(submission: Submission) -> bytes:
    with submission.source.open("rb") as f:
        return f.read()


def _download(client, user, match: Match, path: Path, api: bool = False) -> Path:
    client.force_login(user)
    response = client.get(f"/api/matches/{match.pk}/bundle/" if api else f"/matches/{match.pk}/bundle.zip")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip", response.content[:300]
    assert f"match-{match.pk}-bundle.zip" in response["Content-Disposition"]
    path.write_bytes(response.content)
    return path


def _rewrite(path: Path, name: str, change) -> Path:
    """The bundle at ``path`` with one member changed by ``change`` (bytes -> bytes)."""
    with zipfile.ZipFile(path) as z:
        files = {n: z.read(n) for n in z.namelist()}
    files[name] = change(files[name])
    out = path.with_name("changed-" + path.name)
    with zipfile.ZipFile(out, "w") as z:
        for n, data in files.items():
            z.writestr(n, data)
    return out


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("name", list(GAMES))
def test_a_downloaded_bundle_plays_the_same_game_again_at_home(name, client, tmp_path):
    match, submissions = _played(name)
    owner = submissions[0].entry.user
    bundle = _download(client, owner, match, tmp_path / f"match-{match.pk}-bundle.zip", api=name == "sudoku")
    with zipfile.ZipFile(bundle) as z:
        manifest = json.loads(z.read("bundle.json"))
        assert z.read(manifest["seats"][0]["file"]) == _source(submissions[0])
    assert manifest["game"] == name and manifest["seed"] == 7 and manifest["referee_version"] == 1
    assert manifest["params"] == match.params and manifest["language_table"] == match.contest.language_table
    assert manifest["seats"][0]["build"] or manifest["seats"][0]["run"]
    others = {s.index: tmp_path / f"other-{s.index}" for s in match.seats.exclude(entry__user=owner)}
    for seat in manifest["seats"][1:]:  # another contestant's program: its hash alone
        assert seat["file"] is None and seat["sha256"] == submissions[seat["seat"]].sha256
        others[seat["seat"]].write_bytes(_source(submissions[seat["seat"]]))
    report = check(bundle, others)
    assert report.identical and report.differences == [] and report.notes == [], report.to_json()
    assert report.here["points"] == [s.points for s in match.seats.order_by("index")]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_bundle_that_does_not_match_says_where_and_the_cli_says_so_too(client, tmp_path):
    match, submissions = _played("chomp")
    judge = name_to(match.contest, make_user())
    bundle = _download(client, judge, match, tmp_path / "b.zip")  # a judge's: every program in it

    def changed(data: bytes) -> bytes:
        replay = json.loads(data)
        replay["moves"][2]["move"] = "9,9"
        replay["result"]["points"] = list(reversed(replay["result"]["points"]))
        return json.dumps(replay).encode()

    report = check(_rewrite(bundle, "replay.json", changed))
    assert not report.identical
    assert report.differences[0].startswith("move 3: on the site seat 0 played 9,9, here seat 0 played ")
    assert "pin its seed" in report.notes[-1]
    assert any(line.startswith("points: on the site") for line in report.differences)

    env = {**os.environ, "ARBITER_VAR_DIR": str(tmp_path / "var")}
    env.pop("DATABASE_URL", None)  # at home: no database
    same = subprocess.run([str(ARBITER), "replay", "--check", str(bundle)], capture_output=True, text=True, env=env)
    assert same.returncode == 0 and "identical" in same.stdout, same.stdout + same.stderr
    other = subprocess.run(
        [str(ARBITER), "replay", "--check", str(_rewrite(bundle, "replay.json", changed)), "--json"],
        capture_output=True, text=True, env=env,
    )  # fmt: skip
    assert other.returncode == 2 and json.loads(other.stdout)["differences"][0].startswith("move 3:"), other.stderr


@pytest.mark.django_db
def test_who_gets_which_bundle(client, tmp_path):
    """The programs its viewer may read, every other's hash; nothing of a match they may not see."""
    contest = make_contest()
    reference = make_entry(contest, name="House", is_reference=True)
    house = make_submission(reference, b"house\n", status=Submission.Status.READY)
    mine = make_submission(make_entry(contest), b"mine\n", status=Submission.Status.READY)
    match = make_match(contest, [mine, house], stage=make_stage(contest), status=Match.Status.FINISHED)
    match.replay.save("r.json.gz", ContentFile(gzip.compress(json.dumps({"moves": [], "result": {}}).encode())))
    response = client.get(f"/matches/{match.pk}/bundle.zip")  # a visitor: the house program only
    with zipfile.ZipFile(io.BytesIO(response.content)) as z:
        manifest = json.loads(z.read("bundle.json"))
        assert [s["file"] for s in manifest["seats"]] == [None, "programs/1/main.py"]
        assert sorted(z.namelist()) == ["bundle.json", "programs/1/main.py", "replay.json"]
    test_game = make_match(contest, [mine, house])  # a test game: its player's own
    assert client.get(f"/matches/{test_game.pk}/bundle.zip").status_code in (404, 302)
    hidden = make_match(make_contest(is_public=False), [mine, house], status=Match.Status.FINISHED)
    assert client.get(f"/api/matches/{hidden.pk}/bundle/").status_code == 404
    client.force_login(mine.entry.user)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert f"/matches/{match.pk}/bundle.zip" in page and "arbiter replay --check" in page


def _zip(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return buffer.getvalue()


MANIFEST = {
    "format": "arbiter-bundle",
    "version": 1,
    "game": "chomp",
    "referee_version": 1,
    "seed": 1,
    "params": {"rows": 2, "cols": 2},
    "clock": {},
    "language_table": "arbiter",
    "seats": [
        {"seat": 0, "entry": "Other", "filename": "a.py", "language": "python3", "sha256": "0" * 64, "file": None}
    ],
}


@pytest.mark.django_db  # an unknown game's name is looked for among the uploaded ones
@pytest.mark.parametrize(
    "content, said",
    [
        (b"not a zip", "is not a bundle"),
        (_zip({"replay.json": b"{}"}), "has no file 'bundle.json'"),
        (_zip({"bundle.json": b"\xff\xfe"}), "bundle.json in the bundle is not JSON"),
        (_zip({"bundle.json": b"[1]"}), "not a JSON object"),
        (_zip({"bundle.json": json.dumps({**MANIFEST, "format": "x"}).encode()}), "is not an Arbiter bundle"),
        (_zip({"bundle.json": json.dumps({**MANIFEST, "version": 9}).encode()}), "not 9"),
        (_zip({"bundle.json": json.dumps({**MANIFEST, "game": "go"}).encode()}), "go"),
        (_zip({"bundle.json": json.dumps({**MANIFEST, "seats": "x"}).encode()}), "names no seats"),
        (_zip({"bundle.json": json.dumps({**MANIFEST, "language_table": "x"}).encode()}), "table 'x' is not known"),
        (_zip({"bundle.json": json.dumps({**MANIFEST, "params": {"rows": -1}}).encode()}), "do not read"),
        (_zip({"bundle.json": json.dumps(MANIFEST).encode(), "replay.json": b"{}"}), "give it with --program 0=FILE"),
        (_zip({f"f{i}": b"" for i in range(65)}), "holds 65 files"),
        (_zip({"bundle.json": b" " * 5000}), "unpacks to more than"),
    ],
)
def test_a_damaged_or_hostile_bundle_is_named_and_refused(content, said, tmp_path, monkeypatch):
    monkeypatch.setattr(bundles, "MAX_BYTES", 4096)  # a zip bomb, small
    path = tmp_path / "b.zip"
    path.write_bytes(content)
    with pytest.raises(BundleError) as e:
        check(path)
    assert said in str(e.value)


def test_a_program_given_for_a_seat_must_be_the_one_the_site_played(tmp_path):
    path = tmp_path / "b.zip"
    path.write_bytes(_zip({"bundle.json": json.dumps(MANIFEST).encode(), "replay.json": b"{}"}))
    (tmp_path / "a.py").write_text("print(1)\n")
    with pytest.raises(BundleError, match="is not the program the site played for Other"):
        check(path, {0: tmp_path / "a.py"})
    with pytest.raises(BundleError, match="no-such: No such file"):
        check(path, {0: tmp_path / "no-such"})


def test_a_race_is_compared_by_each_dialogue_until_its_finish():
    """Times differ and the race stops a finished client when it will: neither is compared."""
    log = (
        "    0.000 logged in (connection 2)\n    0.100 < lay\n    0.101 > OK 9d 7d 8c Kh time 3 round 1\n"
        "    1.000 < lay\n    1.002 > OK FI NI SH ED time 4 round 9\n    1.100 < status sync3\n"
    )
    long = "    0.000 < lay\n    0.001 > OK time 1\n… 12 lines left out …\n    9.000 < status\n"
    replay = {"seats": [{"server_log": log}, {"server_log": long}, {}], "result": {"statuses": ["win"] * 3}}
    assert registry.get("wheels").reproduced(replay)["dialogues"] == [
        ["< lay", "> OK 9d 7d 8c Kh time _ round 1", "< lay", "> OK FI NI SH ED time _ round 9"],
        ["< lay", "> OK time _"],
        None,  # another's, not in this viewer's replay
    ]


def test_a_race_that_went_another_way_names_the_first_line_of_the_dialogue_with_some_before():
    """A Wheels check that differed printed both whole dialogues on one line (some 70,000
    characters); now the first line that differs, after the three before it."""
    from judging.bundles import differences

    site = [f"< lay {n}" for n in range(2000)]
    here = [*site[:812], "< lay 9999", *site[813:1500]]
    found = differences({"dialogues": [site, site]}, {"dialogues": [site, here]})
    assert found == [
        "seat 1: its dialogue differs at line 813 of 2000 (here 1500):\n"
        "    < lay 809\n    < lay 810\n    < lay 811\n"
        "    on the site: < lay 812\n    here:        < lay 9999"
    ]
    assert max(len(line) for line in found[0].splitlines()) < 80
    short = differences({"dialogues": [site[:3]]}, {"dialogues": [site[:2]]})
    assert short[0].endswith("on the site: < lay 2\n    here:        (its dialogue ends here)")


def test_a_program_that_does_not_build_here_is_said_line_by_line(tmp_path):
    source = b"int main(void) { return undeclared; }\n"
    seat = {**MANIFEST["seats"][0], "file": "programs/0/a.c", "filename": "a.c", "language": "c"}
    seat["sha256"] = hashlib.sha256(source).hexdigest()
    manifest = {**MANIFEST, "seats": [seat]}
    path = tmp_path / "b.zip"
    path.write_bytes(_zip({"bundle.json": json.dumps(manifest).encode(), "replay.json": b"{}", seat["file"]: source}))
    env = {**os.environ, "ARBITER_VAR_DIR": str(tmp_path / "var")}
    said = subprocess.run([str(ARBITER), "replay", "--check", str(path)], capture_output=True, text=True, env=env)
    assert said.returncode == 1 and "\\n" not in said.stderr, said.stderr  # the compiler's lines, not one of \\n
    lines = said.stderr.splitlines()
    assert lines[0] == "arbiter: seat 0 (Other) did not build here:" and "compilation failed" in lines[1]
    assert any("undeclared" in line for line in lines[2:])
