"""A hostile organiser's own viewer in a real Chromium, with a judge logged in (issue 34): in its
frame on the match page, and opened by itself (its address typed, a link, a window), it reads no
cookie, makes no token, reaches no other address and moves no window; and the replay it is
given holds only what the page's visitor may see."""

from __future__ import annotations

import json
import threading
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from accounts.models import ApiToken
from contests.models import GameVersion
from contests.tests.factories import (
    make_contest,
    make_entry,
    make_match,
    make_stage,
    make_submission,
    make_user,
    name_to,
)
from judging.tests.conftest import PROGRAMS
from judging.uploaded import hosting

pytestmark = [pytest.mark.browser, pytest.mark.slow]
HOSTILE = Path(__file__).with_name("hostile_viewer.js")
PASSWORD = "a-long-pass-phrase"
# Each way the framed viewer tries to leave its frame last (hostile_viewer.js, `how`).
NAVIGATIONS = ("self", "top", "form", "top-form", "refresh", "link")


class Listener(ThreadingHTTPServer):
    """Another address on this machine that writes down every request it is sent."""

    daemon_threads = True

    def __init__(self):
        self.heard: list[str] = []
        self.lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), _Recorder)
        self.url = f"http://127.0.0.1:{self.server_address[1]}"

    def got(self) -> list[str]:
        with self.lock:
            return list(self.heard)


class _Recorder(BaseHTTPRequestHandler):
    def parse_request(self) -> bool:
        understood = super().parse_request()
        with self.server.lock:
            self.server.heard.append(self.requestline)
        return understood

    def _answer(self) -> None:  # as welcoming as a thief's server is: CORS open to all
        self.send_response(200)
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Content-Type", "text/plain")
        self.end_headers()
        self.wfile.write(b"thanks")

    do_GET = do_POST = do_HEAD = do_OPTIONS = do_PUT = _answer

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def listener():
    server = Listener()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def hostile(transactional_db, listener):
    """Nim uploaded with the hostile viewer, a match of it (alice's seat 0, bob's seat 1, each
    with stderr of its own), a judge, and contest rules that link to the viewer's page and show
    an image from the listener (which no visitor's browser fetches: RULES_REMOTE_IMAGES)."""
    files = hosting.read_folder(PROGRAMS / "nim")
    files["viewer.js"] = HOSTILE.read_text().replace("__LISTENER__", listener.url).encode()
    version = hosting.upload(files)
    GameVersion.objects.filter(pk=version.pk).update(status=GameVersion.Status.ACCEPTED)
    judge = make_user("judge", password=PASSWORD)
    alice, bob = make_user("alice", password=PASSWORD), make_user("bob")
    viewer = f"/games/{version.key}/viewer.html"
    contest = make_contest(
        game=version.key,
        game_params={"stones": 2},
        rules=f"[The viewer]({viewer}), [its script](/games/{version.key}/viewer.js) and ![a board]({listener.url}/pixel.png)",
    )
    name_to(contest, judge)  # its judge: every seat's stderr is theirs to read, never the viewer's
    subs = [make_submission(make_entry(contest, user)) for user in (alice, bob)]
    match = make_match(contest, subs, status="finished", stage=make_stage(contest))
    replay = {
        "schema": 1,
        "game": version.key,
        "seats": [{"index": 0, "name": "alice"}, {"index": 1, "name": "bob"}],
        "moves": [
            {"n": 1, "seat": 0, "move": "1", "stderr": "ALICE-OWN-STDERR"},
            {"n": 2, "seat": 1, "move": "1", "stderr": "BOB-SECRET-STDERR"},
        ],
        "frames": [{"text": ["2 left"]}, {"text": ["1 left"]}, {"text": ["0 left"]}],
        "result": {"points": [0, 1], "statuses": ["loss", "win"], "reason": "seat 1 took the last stone"},
    }
    match.save_replay(replay, match.result_attempt)
    return {"match": match, "viewer": viewer, "contest": contest, "key": version.key}


@pytest.fixture
def page(hostile, live_server, chromium_page):
    return chromium_page  # after the data: see chromium_page


def _elsewhere(fn):
    """Run ``fn`` in a thread of its own: Playwright's loop runs in this one, where Django
    refuses the ORM (see conftest's chromium_page)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(fn).result()


def _tokens() -> int:
    return _elsewhere(ApiToken.objects.count)


def _login(page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")


def _heard_only_the_control(page, listener) -> list[str]:
    """What reached the listener before a request the test itself sends from the site's page
    (so that anything the viewer sent earlier has had its time to arrive)."""
    page.evaluate("url => fetch(url, {mode: 'no-cors'})", f"{listener.url}/control")
    for _ in range(100):
        heard = listener.got()
        if any("/control" in line for line in heard):
            return [line for line in heard if "/control" not in line]
        page.wait_for_timeout(50)
    raise AssertionError(f"the control request never reached the listener: {heard}")


def _said_until(page, heard: list[str], last: str) -> str:
    """What the viewer said, from its console, once it has said a line starting ``last``. Read
    from the console, not its page: the frame navigates 0.5 s after its tries, and on a loaded
    host that came before a read of the page (the element was gone)."""
    for _ in range(300):
        lines = [text.removeprefix("hostile-said ") for text in heard if text.startswith("hostile-said ")]
        if any(line.startswith(last) for line in lines):
            return "\n".join(lines)
        page.wait_for_timeout(50)
    raise AssertionError(f"the viewer never said {last!r}: {heard}")


def test_a_hostile_viewer_in_its_frame_reaches_nothing(hostile, page, live_server, listener):
    _login(page, live_server, "judge")
    tokens = _tokens()
    heard: list[str] = []
    page.on("console", lambda message: heard.append(message.text))
    match_url = f"{live_server.url}/matches/{hostile['match'].pk}/"
    for how in NAVIGATIONS:
        heard.clear()
        page.goto(f"{match_url}?try={how}")
        tried = _said_until(page, heard, "navigating:")
        assert "drew a frame" in tried  # the frame works
        for refused in ("cookie", "storage", "fetch", "api", "token", "beacon", "open", "open out", "popup form"):
            assert f"{refused}: " in tried and f"{refused}: reached" not in tried, (how, tried)
        assert "cookie read" not in tried and "sessionid" not in tried
        page.wait_for_timeout(1500)  # its navigation, said just before it starts
        assert page.url.split("#")[0] == f"{match_url}?try={how}", how
        assert len(page.context.pages) == 1, how  # no window opened
        assert _heard_only_the_control(page, listener) == [], how
        listener.heard.clear()
    assert _tokens() == tokens


def test_a_hostile_viewer_opened_by_itself_runs_nothing(hostile, page, live_server, listener):
    _login(page, live_server, "judge")
    tokens = _tokens()
    key = hostile["key"]
    for address in (hostile["viewer"], f"/games/{key}/viewer.js", f"{hostile['viewer']}?x=1"):
        response = page.goto(live_server.url + address)
        assert response.status == 403, address
        assert "opens only in its frame on a match page" in page.content(), address
    # A link on a page of the site, as the contest's rules can hold.
    page.goto(f"{live_server.url}/contests/{hostile['contest'].slug}/")
    page.get_by_role("link", name="The viewer").click()
    page.wait_for_load_state()
    assert "opens only in its frame on a match page" in page.content()
    # A window the site's page opens.
    page.goto(f"{live_server.url}/contests/{hostile['contest'].slug}/")
    with page.context.expect_page() as opened:
        page.evaluate("url => window.open(url)", hostile["viewer"])
    opened.value.wait_for_load_state()
    assert "opens only in its frame on a match page" in opened.value.content()
    opened.value.wait_for_timeout(1000)
    opened.value.close()
    assert _heard_only_the_control(page, listener) == []
    assert _tokens() == tokens


def test_the_frame_is_given_no_programs_stderr(hostile, page, live_server, listener):
    """The page's own viewer shows alice her program's stderr (and not bob's); the game's viewer
    is given neither: what the programs wrote for themselves is not the game's to draw."""
    _login(page, live_server, "alice")
    # `stay`: the viewer makes its tries but does not navigate, which would take its page (and
    # the replay it drew there) away before a loaded host reads it.
    page.goto(f"{live_server.url}/matches/{hostile['match'].pk}/?try=stay")
    own = page.frame_locator("#own-viewer")
    given = own.locator("pre.hostile-replay").first
    given.wait_for()
    replay = json.loads(given.inner_text())
    assert [move["move"] for move in replay["moves"]] == ["1", "1"] and replay["frames"][2] == {"text": ["0 left"]}
    assert "STDERR" not in given.inner_text() and "STDERR" not in own.locator("body").inner_text()
    hers = page.evaluate("url => fetch(url).then(r => r.json())", f"/matches/{hostile['match'].pk}/replay.json")
    assert [move.get("stderr") for move in hers["moves"]] == ["ALICE-OWN-STDERR", None]
    assert _heard_only_the_control(page, listener) == []
