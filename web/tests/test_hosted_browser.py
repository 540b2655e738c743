"""An uploaded game in a real Chromium: the replay of a Connect Four game (the example's
referee, played in the jails) drawn by the generic frame renderer, step by step; and a
referee's hostile frame shown as text, never as markup."""

from __future__ import annotations

from pathlib import Path

import pytest

from contests.hosted_games import SOURCE
from contests.models import GameVersion
from contests.tests.factories import make_contest, make_entry, make_match, make_stage, make_submission
from games import registry
from games.clocks import Clock
from judging.play.referee import Player, play
from judging.tests.conftest import build
from judging.uploaded import hosting
from web.tests.accessibility import assert_accessible

pytestmark = [pytest.mark.browser, pytest.mark.slow]
CONNECT_FOUR = Path(__file__).resolve().parents[2] / "examples" / "games" / "connect-four"


@pytest.fixture
def game(transactional_db):
    SOURCE.forget()
    version = hosting.upload(hosting.read_folder(CONNECT_FOUR))
    GameVersion.objects.filter(pk=version.pk).update(status=GameVersion.Status.ACCEPTED)  # its kit: elsewhere
    yield registry.get(version.key)
    SOURCE.forget()


def _match(game, replay):
    contest = make_contest(game=game.info.name, game_params={})
    subs = [make_submission(make_entry(contest, name=name)) for name in ("Greedy", "Random")]
    match = make_match(contest, subs, status="finished", stage=make_stage(contest))
    match.save_replay(replay, match.result_attempt)
    return match


@pytest.fixture
def page(live_server, chromium_page):
    return chromium_page  # after the data: see chromium_page


def _roomy(game) -> Clock:
    """The game's clock with a minute a seat: its own (10 s of wall time a seat for Connect
    Four, 5 s for Nim) is not what these tests check, and a loaded host that ran a player out
    of it would change the game the page is to draw (as a 3 s clock once cut a test's run)."""
    return Clock.from_json({**game.default_clock, "time_limit": 60})


@pytest.fixture
def played(game):
    """A game of the example's players, played in the jails by its referee, as a match."""
    players = [Player(name, build(CONNECT_FOUR / "players" / name)) for name in ("greedy.c", "random_player.py")]
    record = play(game, {"rows": 6, "columns": 7}, 1, players, _roomy(game))
    assert record.outcome.statuses == ("win", "loss")
    return _match(game, record.replay), record.replay


def test_a_connect_four_replay_is_drawn_from_its_frames(played, page, live_server):
    match, replay = played
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.wait_for_selector("table.frames-grid")
    assert page.locator("table.frames-grid tr").count() == 6
    assert page.locator("table.frames-grid td").count() == 42
    page.locator("#viewer").focus()
    page.keyboard.press("Home")
    assert page.locator("table.frames-grid td.mark").count() == 0  # the empty board
    page.keyboard.press("End")
    page.wait_for_function(f"document.querySelector('#jump').value === String({len(replay['moves'])})")
    last = replay["frames"][-1]
    assert page.locator("table.frames-grid td.mark").count() == len(last["marks"])  # the four in a row
    discs = sum(row.count("X") for row in last["grid"])
    assert page.locator('table.frames-grid td[data-cell="X"]').count() == discs
    board = page.locator("#board").inner_text()
    assert f"{replay['seats'][0]['name']} (X) drops" in board and "seat 0" not in board  # a name, not a seat
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    assert page.locator('table.frames-grid td[data-cell="X"]').count() == 1
    assert_accessible(page)  # issue 38: an uploaded game's board, drawn from its frames


HOSTILE = "<img src=x onerror=\"document.title='pwned'\">"


@pytest.fixture
def hostile_match(game):
    replay = {
        "schema": 1,
        "game": game.info.name,
        "seats": [{"index": 0, "name": "A"}, {"index": 1, "name": "B"}],
        "moves": [{"n": 1, "seat": 0, "move": HOSTILE}],
        "frames": [
            {"grid": ["<b>", 7, None], "marks": [[0, 0], "x", [99, 99]], "text": [HOSTILE, {"a": 1}], "scores": ["x"]},
            {"grid": ["." * 300] * 300, "text": "one line"},
        ],
        "result": {"points": [1, 1], "statuses": ["draw", "draw"], "reason": HOSTILE},
    }
    return _match(game, replay)


def test_a_hostile_frame_is_shown_as_text(hostile_match, page, live_server):
    page.goto(f"{live_server.url}/matches/{hostile_match.pk}/")
    page.wait_for_selector("text=The board is cut at 100 × 100 cells.")  # it opens at the end
    page.locator("#viewer").focus()
    page.keyboard.press("Home")
    page.wait_for_selector("text=Scores: A: ?")
    assert page.locator("#board img").count() == 0 and page.title() != "pwned"
    assert HOSTILE in page.locator("#board").inner_text()
    page.keyboard.press("End")
    assert page.locator("table.frames-grid td").count() == 100 * 100
    assert page.locator("img").count() == 0 and page.title() != "pwned"


NIM = Path(__file__).resolve().parents[2] / "judging" / "tests" / "programs" / "nim"


@pytest.fixture
def nim_match(transactional_db):
    """A Nim game (the platform's test game, which ships a viewer of its own) as a match that
    alice may watch, logged in."""
    from contests.tests.factories import make_user

    SOURCE.forget()
    version = hosting.upload(hosting.read_folder(NIM))
    GameVersion.objects.filter(pk=version.pk).update(status=GameVersion.Status.ACCEPTED)
    game = registry.get(version.key)
    players = [Player(name, build(NIM / name)) for name in ("taker.py", "one.py")]
    record = play(game, {"stones": 6, "fault": "0"}, 1, players, _roomy(game))
    make_user("alice", password="a-long-pass-phrase")
    yield _match(game, record.replay)
    SOURCE.forget()


def test_a_games_own_viewer_runs_in_a_sandbox_that_sees_the_replay_only(nim_match, page, live_server):
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", "a-long-pass-phrase")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")  # logged in, before the next address cuts the form's answer short
    page.goto(f"{live_server.url}/matches/{nim_match.pk}/")
    own = page.frame_locator("#own-viewer")
    own.locator("p.nim-own").wait_for()
    assert "Nim's own viewer: seat 0 took 3: 0 left" in own.locator("p.nim-own").inner_text()  # at the end
    probe = own.locator("p.nim-probe")
    page.wait_for_function(
        "() => document.querySelector('#own-viewer').contentDocument === null"
    )  # the page cannot reach into the frame either: it has an origin of its own
    probe.filter(has_text="fetch:").wait_for()
    said = probe.inner_text()
    assert "fetch: refused" in said and "sessionid" not in said and "csrftoken" not in said
    # The platform's own viewer is still on the page, beside it.
    assert page.locator("#viewer #board").count() == 1
    assert_accessible(page)
