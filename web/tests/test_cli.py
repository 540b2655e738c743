"""The `arbiter` command-line client against a live test server with a real worker."""

import io
import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from accounts.models import ApiToken
from contests.models import Entry, Submission
from contests.services import submit
from contests.tests.factories import make_contest, make_entry, make_stage, make_user
from judging.tests.test_tournament import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
ARBITER = Path(sys.executable).parent / "arbiter"


def run(live_server, token, *args, expect=0):
    result = subprocess.run(
        [str(ARBITER), "--url", live_server.url, "--token", token, *args],
        capture_output=True, text=True, timeout=300, cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == expect, result.stdout + result.stderr
    return result


def test_submit_wait_and_follow_a_contest_from_the_command_line(worker, live_server, tmp_path, settings):
    settings.EVENTS_STREAM_SECONDS = 3  # the live server's event streams end before the test does
    contest = make_contest(slug="chomp", game_params={"rows": 4, "cols": 5})
    make_stage(contest, kind="system_test", params={"games": 2})
    reference = make_entry(contest, name="Random", is_reference=True)
    player = ROOT / "games/chomp/players/random_player.c"
    submit(reference, filename=player.name, data=player.read_bytes())
    wait_for(lambda: Submission.objects.filter(entry=reference, status="ready").exists(), worker=worker)
    _, token = ApiToken.issue(make_user("carol"), "cli")

    listing = json.loads(run(live_server, token, "contests", "--json").stdout)
    assert [c["slug"] for c in listing] == ["chomp"]

    program = tmp_path / "mine.c"
    program.write_text((ROOT / "judging/tests/programs/chomp_last.c").read_text())
    done = json.loads(run(live_server, token, "submit", "chomp", str(program), "--wait", "--json").stdout)
    assert done["status"] == "ready" and done["is_active"], done
    assert done["test_log"].endswith("system test passed")

    status = run(live_server, token, "status").stdout
    assert "chomp" in status and "carol" in status and "v1 ready" in status
    table = json.loads(run(live_server, token, "standings", "chomp", "--json").stdout)
    assert table["columns"][0]["key"] == "wins"
    mine = json.loads(run(live_server, token, "matches", "chomp", "--mine", "--json").stdout)
    assert len(mine) == 2 and all(m["status"] == "finished" for m in mine)
    replay = run(live_server, token, "replay", str(mine[0]["id"])).stdout
    assert "result:" in replay and "seat 0" in replay
    bundle = tmp_path / "game.zip"
    said = run(live_server, token, "bundle", str(mine[0]["id"]), "-o", str(bundle)).stdout
    assert f"arbiter replay --check {bundle}" in said
    again = subprocess.run([str(ARBITER), "replay", "--check", str(bundle), "--json"], capture_output=True, text=True)
    report = json.loads(again.stdout)  # the reference program plays at random: the same game, or where not
    assert again.returncode == (0 if report["identical"] else 2) and report["game"] == "chomp", again.stderr

    empty = tmp_path / "empty.c"
    empty.write_text("")
    refused = run(live_server, token, "submit", "chomp", str(empty), expect=1)
    assert refused.stderr.strip() == "arbiter: The file is empty."
    _, newcomer = ApiToken.issue(make_user("dave"), "cli")
    refused = run(live_server, newcomer, "submit", "chomp", str(empty), expect=1)
    assert refused.stderr.strip() == "arbiter: The file is empty."
    assert not Entry.objects.filter(user__username="dave").exists()  # no entry without its program
    unknown = run(live_server, token, "submit", "nope", str(program), expect=1)
    assert "no contest 'nope'" in unknown.stderr
    bad = run(live_server, "arb_0000000000000000000000", "contests", expect=1)
    assert "refused the token" in bad.stderr


def test_play_runs_a_local_game_without_a_server(tmp_path):
    result = subprocess.run(
        [str(ARBITER), "play", "--json", "chomp", "judging/tests/programs/chomp_poison.sh", "judging/tests/programs/chomp_last.c"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert [s["status"] for s in summary["seats"]] == ["loss", "win"]


def test_play_runs_an_output_only_program_on_the_practice_inputs_and_prints_its_verdict():
    result = subprocess.run(
        [str(ARBITER), "play", "--json", "crossed_words", "games/crossed_words/players/simple.py", "--clock", "seconds=3"],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["verdict"] == "valid" and summary["verified"] == summary["claimed"] > 0
    assert summary["wrong_line"] is None and summary["seats"][0]["status"] == "valid"
    assert 0 < summary["time_s"] < 3 and summary["program_bytes"] > 0


def test_a_url_that_is_not_an_arbiter_site_is_said_so():
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Page(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<html>a blog</html>")

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        result = subprocess.run([str(ARBITER), "--url", url, "contests"], capture_output=True, text=True, timeout=60)
    finally:
        server.shutdown()
        server.server_close()
    assert result.returncode == 1
    assert result.stderr.strip() == f"arbiter: {url} did not answer as an Arbiter site does; is ARBITER_URL right?"


# What requirements-dev.txt adds to requirements.txt: the kit (`make kit`) has none of it.
TEST_ONLY = ["pytest", "pytest_django", "pytest_timeout", "hypothesis", "playwright", "schemathesis", "importlinter"]


@pytest.mark.django_db(transaction=True)
def test_the_contest_pages_play_at_home_command_works_as_written_with_the_kit_alone(live_server, tmp_path):
    """The page's command, word for word, with no test package importable and no database:
    a contestant's kit plays under the site contest's own table, clock and parameters."""
    contest = make_contest(
        slug="home", game="chomp", game_params={"rows": 2, "cols": 3}, clock={"cpu_per_move_s": 2},
        language_table="potm",
    )  # fmt: skip
    reference = make_entry(contest, name="Random", is_reference=True)
    player = ROOT / "games/chomp/players/random_player.c"
    submit(reference, filename=player.name, data=player.read_bytes())
    from django.test import Client

    page = Client().get(f"/contests/{contest.slug}/").content.decode()
    assert "make kit" in page
    fetch = page.split('<pre tabindex="0" class="log">', 1)[1].split("\n", 1)[0]
    assert fetch == "curl -sSL http://testserver/kit/arbiter.tar.gz | tar xz"  # no SOURCE_URL: the site's own code
    archive = b"".join(Client().get("/kit/arbiter.tar.gz").streaming_content)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        names = tar.getnames()
        tar.extractall(tmp_path / "fetched", filter="data")
    assert "arbiter/Makefile" in names and "arbiter/scripts/system-deps.sh" in names
    assert not [n for n in names if n.split("/")[1] in ("var", ".venv", ".git", ".env")], names
    command = page.split("make kit\n", 1)[1].split("</pre>", 1)[0].replace("&amp;", "&")
    words = command.split()
    assert words[:3] == [".venv/bin/arbiter", "--url", "http://testserver"] and words[-2:] == ["--contest", "home"]
    (tmp_path / player.name).write_bytes(player.read_bytes())  # downloaded from the page's link
    (tmp_path / "mine.c").write_text((ROOT / "judging/tests/programs/chomp_last.c").read_text())
    words[2] = live_server.url
    argv = [w.replace("YOUR_PROGRAM", "mine.c") for w in words[1:]] + ["--json"]
    kit = (
        "import sys\n"
        f"for name in {TEST_ONLY!r}: sys.modules[name] = None\n"
        "from arbiter.cli import main\n"
        "assert '/fetched/' in sys.modules['arbiter.cli'].__file__, 'not the fetched code'\n"
        f"sys.exit(main({argv!r}))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    env["ARBITER_VAR_DIR"] = str(tmp_path / "var")  # no database there: play must not need one
    env["PYTHONPATH"] = str(tmp_path / "fetched/arbiter")  # the code as fetched, not this checkout
    result = subprocess.run(
        [sys.executable, "-c", kit], capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env
    )
    assert result.returncode == 0, result.stdout + result.stderr
    summary = json.loads(result.stdout)
    assert (
        summary["conditions"]["from"].startswith("the contest ") and summary["conditions"]["language_table"] == "potm"
    )
    assert summary["params"] == {"rows": 2, "cols": 3} and summary["conditions"]["clock"]["cpu_per_move_s"] == 2
    assert {s["status"] for s in summary["seats"]} <= {"win", "loss"}
    assert not (tmp_path / "var" / "arbiter.sqlite3").exists()


def test_the_standings_say_each_rows_interval_and_rating(transactional_db, live_server):
    from judging.record import confidence
    from judging.tests.test_confidence import DEMO, _field

    contest = make_contest(slug="ladder")
    stage = make_stage(contest, kind="ladder", status="running")
    _field(contest, stage, DEMO, 40)
    confidence.rate(stage.pk)
    _, token = ApiToken.issue(make_user("erin"), "cli")
    lines = run(live_server, token, "standings", "ladder").stdout.splitlines()
    assert lines[1].split()[:5] == ["#", "95%", "rank", "entry", "rating"]
    assert lines[2].split()[:3] == ["1", "1", "Strong"]
    assert all(" 3-4 ~ " in line and "Weak" in line for line in lines[4:6]), lines
    assert lines[-1].startswith("rank: each row's 95% interval from 240 games; ~ statistically tied; rating 1500")


def test_the_clients_requests_are_not_written_among_a_summarys_lines():
    """``arbiter play openspiel@1 … --contest …`` printed httpx's "INFO httpx: HTTP Request: GET
    …/game.zip" lines above its summary (walked on a fresh clone): Django's logging, set up to
    play, wrote them at INFO."""
    import logging

    assert logging.getLogger("httpx").getEffectiveLevel() >= logging.WARNING
