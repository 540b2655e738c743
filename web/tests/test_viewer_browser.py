"""The replay viewer in a real Chromium, on the committed sample replays."""

import io
import json
import re
from pathlib import Path

import pytest

from contests.tests.factories import make_contest, make_entry, make_match, make_stage, make_submission, make_user
from web.tests.accessibility import assert_accessible

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SAMPLES = Path(__file__).resolve().parents[2] / "games" / "tests" / "samples"


@pytest.fixture
def matches(transactional_db):
    """A finished match per game with the sample replay; alice owns seat 0 of each."""
    alice = make_user("alice", password="a-long-pass-phrase")
    made = {}
    for game in ("chomp", "hearts_flowers"):
        replay = json.loads((SAMPLES / f"{game}.json").read_text())
        contest = make_contest(game=game, game_params=replay["params"])
        subs = [make_submission(make_entry(contest, alice if i == 0 else None)) for i in range(2)]
        stage = make_stage(contest, name="Round robin")  # a stage's game: everyone may watch it
        match = make_match(contest, subs, status="finished", params=replay["params"], stage=stage)
        match.save_replay(replay)
        made[game] = (match, replay)
    return made


@pytest.fixture
def page(live_server, matches, chromium_page):
    return chromium_page  # after the data: see chromium_page


def _the_end_by_name_and_the_moves_by_keyboard(page, match, replay) -> None:
    """At the end the result names entries, not seats; #move=N typed into the address moves
    the viewer; the moves are buttons reached by Tab; the replay downloads as JSON."""
    page.keyboard.press("End")
    names = {str(seat["index"]): seat["name"] for seat in replay["seats"]}
    reason = re.sub(r"\bseat (\d+)\b", lambda m: names[m.group(1)], replay["result"]["reason"])
    assert f"Result: {reason}" in page.locator("#move-info").inner_text()
    page.evaluate("location.hash = '#move=2'")
    page.wait_for_function("document.querySelector('#jump').value === '2'")
    page.locator("#move-list button").first.focus()
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert page.locator("#jump").input_value() == "2" and page.locator("#move-list li.current").count() == 1
    link = page.get_by_role("link", name="Download the replay (JSON)")
    assert link.get_attribute("download") == f"match-{match.pk}.json"


def _login(page, live_server):
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "a-long-pass-phrase")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(live_server.url + "/")


def test_stepping_through_a_chomp_replay(page, live_server, matches):
    match, replay = matches["chomp"]
    _login(page, live_server)
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.wait_for_selector("#viewer[data-ready='1']")
    last = len(replay["moves"])
    assert page.locator("#total").inner_text() == str(last)
    assert page.locator("#jump").input_value() == str(last)  # opens on the final position

    page.get_by_title("First (Home)").click()
    assert page.locator(".chomp-grid .eaten").count() == 0
    assert page.locator(".chomp-grid .poison").count() == 1
    page.keyboard.press("ArrowRight")
    assert page.locator("#jump").input_value() == "1"
    assert page.locator(".chomp-grid .eaten.new").count() > 0  # what the first chomp ate, marked
    assert page.locator(".chomp-grid .coord").count() == 1 + len(replay["frames"][0]["grid"]) + len(
        replay["frames"][0]["grid"][0]
    )
    assert "the poison cookie" in page.locator(".legend").inner_text()
    first = replay["frames"][1]["grid"]
    assert page.locator(".chomp-grid .eaten").count() == sum(row.count("*") for row in first)
    info = page.locator("#move-info").inner_text()
    assert f"played {replay['moves'][0]['move']}" in info and "CPU" in info
    assert replay["moves"][0]["stderr"].strip() in info  # alice's own program: stderr shown
    page.keyboard.press("ArrowRight")
    assert "stderr" not in page.locator("#move-info").inner_text()  # the opponent's: hidden
    assert page.url.endswith("#move=2")

    page.fill("#jump", "4")
    page.locator("#jump").dispatch_event("change")
    assert page.url.endswith("#move=4")
    page.goto(f"{live_server.url}/matches/{match.pk}/#move=3")
    page.reload()
    page.wait_for_selector("#viewer[data-ready='1']")
    assert page.locator("#jump").input_value() == "3"  # a link to a move opens that move
    _the_end_by_name_and_the_moves_by_keyboard(page, match, replay)


def test_playing_a_hearts_and_flowers_replay(page, live_server, matches):
    match, replay = matches["hearts_flowers"]
    page.goto(f"{live_server.url}/matches/{match.pk}/#move=0")
    page.wait_for_selector("#viewer[data-ready='1']")
    assert page.locator(".hf-grid .heart").count() == 0
    page.get_by_role("button", name="Play", exact=True).click()
    # 2 or later: a move every 0.6 s, and a loaded host's checks can step over one
    page.wait_for_function("Number(document.querySelector('#jump').value) >= 2")
    page.get_by_role("button", name="Pause", exact=True).click()
    board = replay["frames"][int(page.locator("#jump").input_value())]["board"]
    assert page.locator(".hf-grid .heart").count() == sum(row.count("H") for row in board)
    assert page.locator(".hf-grid .flower").count() == sum(row.count("F") for row in board)
    page.locator(".move-list li").nth(len(replay["moves"]) - 1).click()
    assert page.locator("#jump").input_value() == str(len(replay["moves"]))
    assert "stderr" not in page.locator("#move-info").inner_text()  # not logged in: nobody's stderr
    assert_accessible(page)  # issue 38: each game's board, checked by axe-core


@pytest.fixture
def sudoku_match(transactional_db):
    replay = json.loads((SAMPLES / "sudoku.json").read_text())
    contest = make_contest(game="sudoku", game_params={})
    subs = [make_submission(make_entry(contest)) for _ in range(2)]
    match = make_match(contest, subs, status="finished", stage=make_stage(contest, name="Round robin"))
    match.save_replay(replay)
    return match, replay


def test_a_sudoku_replay_shows_the_grid_the_last_move_and_both_clocks(sudoku_match, page, live_server):
    match, replay = sudoku_match
    page.goto(f"{live_server.url}/matches/{match.pk}/#move=3")
    page.wait_for_selector("#viewer[data-ready='1']")
    frame = replay["frames"][3]
    assert page.locator(".sudoku-grid span").count() == 81
    filled = [t for t in page.locator(".sudoku-grid span").all_inner_texts() if t.strip()]
    assert len(filled) == sum(ch != "." for ch in frame["grid"]) == 3
    assert page.locator(".sudoku-grid span.last").inner_text() == frame["last"][2]
    assert page.locator(".sudoku-grid span.last").get_attribute("title") == frame["last"][:2]
    labels = page.locator(".sudoku-grid .coord").all_inner_texts()  # as the programs name them
    assert labels[:10] == ["", *"abcdefghi"] and labels[10:] == list("ABCDEFGHI")
    assert "the last move" in page.locator(".legend").inner_text()
    clocks = page.locator(".clocks").inner_text()
    expected = [m["clock_s"] for m in replay["moves"][:3]]
    assert f"{expected[2]:.2f} s of 30" in clocks and f"{expected[1]:.2f} s of 30" in clocks
    assert clocks.startswith("Clocks (real time): ")  # CodeCup's clock, not the move's CPU beside it
    assert_accessible(page)
    _the_end_by_name_and_the_moves_by_keyboard(page, match, replay)


@pytest.fixture
def wheels_match(transactional_db):
    """A race of the pace car and a client that logs in and never plays (arbiter play wheels
    pacecar.pl wheels_spinner.py --param decks=1 --clock seconds=20; its logs cut short)."""
    replay = json.loads((SAMPLES / "wheels.json").read_text())
    contest = make_contest(game="wheels", game_params=replay["params"])
    subs = [make_submission(make_entry(contest, name=seat["name"])) for seat in replay["seats"]]
    match = make_match(contest, subs, status="finished", stage=make_stage(contest, name="Race"))
    match.save_replay(replay)
    return match, replay


def test_a_finished_race_says_who_did_not_finish(wheels_match, page, live_server):
    match, replay = wheels_match
    page.goto(f"{live_server.url}/matches/{match.pk}/#move=1")
    page.wait_for_selector("#viewer[data-ready='1']")
    states = page.locator("table.wheels-race tbody tr td:last-child").all_inner_texts()
    assert states[0].startswith("finished at") and states[1] != "did not finish"  # still on its way then
    page.keyboard.press("End")
    page.wait_for_function("document.querySelector('table.wheels-race tbody tr:last-child td:last-child')"
                           ".textContent === 'did not finish'")  # fmt: skip
    assert page.locator("table.wheels-race tbody tr td:last-child").all_inner_texts()[0].startswith("finished at")
    assert_accessible(page)


@pytest.fixture
def crossed_words_match(transactional_db, tmp_path):
    """A real run of the simple player on the practice inputs, as `arbiter play` records it."""
    from django.core.management import call_command

    path = tmp_path / "replay.json"
    program = Path(__file__).resolve().parents[2] / "games/crossed_words/players/simple.py"
    call_command(
        "play", "crossed_words", str(program), "--clock", "seconds=20", "--replay", str(path), stdout=io.StringIO()
    )
    replay = json.loads(path.read_text())
    # At 3 s the player stopped at 1.8 s: on a loaded host before its first word (one frame).
    assert len(replay["frames"]) > 10, replay["result"]
    from datetime import timedelta

    from django.utils import timezone

    # closed: its runs are everyone's to watch (while open a run's solution is its author's)
    contest = make_contest(game="crossed_words", game_params={}, closes_at=timezone.now() - timedelta(days=1))
    sub = make_submission(make_entry(contest, name="Simple"))
    match = make_match(contest, [sub], status="finished", stage=make_stage(contest, name="Final run", kind="batch"))
    match.save_replay(replay)
    return match, replay


def test_the_crossed_words_board_fits_a_phone(crossed_words_match, page, live_server):
    """At a 390 px wide phone the 17x17 board was 420 px wide: the page scrolled sideways."""
    match, replay = crossed_words_match
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/matches/{match.pk}/#move={len(replay['frames']) - 1}")
    page.wait_for_selector("#viewer[data-ready='1']")
    board = page.locator(".cw-grid").bounding_box()
    assert board is not None and board["x"] >= 0 and board["x"] + board["width"] <= 390, board
    wide = page.evaluate("""[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > 391)
        .filter(e => !e.closest('table')).map(e => e.tagName + '.' + e.className + '#' + e.id + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 12)""")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, wide
    letters = page.locator(".cw-letter")
    assert letters.count() > 10 and letters.first.bounding_box()["width"] >= 12  # still readable
    assert_accessible(page)


@pytest.fixture
def batch_run(matches):
    """A Crossed Words run whose program wrote to stderr, alice's."""
    from django.contrib.auth.models import User

    from judging.tests.test_batch import STDERR_FIRST, _run, _weak_source

    record = _run(SAMPLES.parents[2] / "crossed_words/players/simple.py", source=STDERR_FIRST + _weak_source(3))
    contest = make_contest(game="crossed_words", game_params={})
    sub = make_submission(make_entry(contest, User.objects.get(username="alice")))
    match = make_match(contest, [sub], status="finished", stage=make_stage(contest, name="Final run", kind="batch"))
    match.save_replay(record.replay)
    return match


def test_an_output_only_run_shows_its_program_s_stderr_beside_each_move(batch_run, page, live_server):
    _login(page, live_server)
    page.goto(f"{live_server.url}/matches/{batch_run.pk}/#move=2")
    page.wait_for_selector("#viewer[data-ready='1']")
    info = page.locator("#move-info")
    assert "stderr (of the whole run)" in info.inner_text() and "MY-OWN-STDERR" in info.inner_text()


def test_the_viewer_by_keyboard_alone_says_each_move(page, live_server, matches):
    """Issue 38: the slider, the buttons and the keys step the replay; each move is said in a
    live region as a sentence; the focus is drawn; axe-core finds nothing serious."""
    match, replay = matches["chomp"]
    page.goto(f"{live_server.url}/matches/{match.pk}/#move=0")
    page.wait_for_selector("#viewer[data-ready='1']")
    announce = page.locator("#announce")
    # the position the page opens on is not a change: nothing is said
    assert announce.get_attribute("aria-live") == "polite" and announce.inner_text() == ""

    def said(text: str) -> None:
        page.wait_for_function("text => document.querySelector('#announce').textContent === text", arg=text)

    seat, move = replay["moves"][0]["seat"], replay["moves"][0]
    name = replay["seats"][seat]["name"]

    page.locator("#scrub").focus()
    page.keyboard.press("ArrowRight")
    said(f"Move 1: seat {seat} ({name}) played {move['move']}")
    assert page.locator("#jump").input_value() == "1" and page.locator(".chomp-grid .eaten").count() > 0
    assert page.locator("#scrub").get_attribute("aria-valuetext") == f"1 of {len(replay['moves'])}"
    assert page.locator("#move-list button[aria-current='step']").inner_text().endswith(move["move"])
    page.keyboard.press("ArrowLeft")
    said("The start of the game.")
    assert page.locator(".chomp-grid .eaten").count() == 0

    # Tab from the slider's buttons: each has a name a screen reader says, and a drawn focus.
    forward = page.get_by_role("button", name="Forward one move")
    forward.focus()
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"
    page.keyboard.press("Enter")
    said(f"Move 1: seat {seat} ({name}) played {move['move']}")
    page.get_by_role("button", name="Last move").focus()
    page.keyboard.press("Enter")
    reason = replay["result"]["reason"].replace("seat 1", replay["seats"][1]["name"])
    assert announce.inner_text().endswith(f"Result: {reason}")
    page.get_by_role("button", name="First move").focus()
    page.keyboard.press("Space")
    said("The start of the game.")
    page.get_by_role("button", name="Play", exact=True).focus()
    page.keyboard.press("Space")  # plays from the start: the moves are said as they come
    said(f"Move 2: seat {replay['moves'][1]['seat']} ({replay['seats'][replay['moves'][1]['seat']]['name']}) "
         f"played {replay['moves'][1]['move']}")  # fmt: skip
    page.keyboard.press("Space")
    assert page.get_by_role("button", name="Play", exact=True).is_visible()
    assert_accessible(page)
