"""The pages in a real Chromium: a newcomer signs up, logs out, logs in, opens a contest; a
contestant is asked before an entry is withdrawn; a Crossed Words entry goes from the entry
form to the judges' verification."""

import pytest
from django.core.management import call_command

from judging.record import lifecycle

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def demo(transactional_db, queued):  # the reference programs' builds are not sent to a broker
    call_command("load_demo", verbosity=0)


@pytest.fixture
def page(live_server, demo, chromium_page):
    return chromium_page  # after the data: see chromium_page


def test_sign_up_log_out_log_in_and_read_a_contest(page, live_server):
    page.goto(live_server.url)
    assert page.get_by_role("link", name="CodeCup 2024: Sudoku").is_visible()

    page.get_by_role("link", name="Sign up").click()
    page.fill("#id_username", "newcomer")
    page.fill("#id_email", "newcomer@example.org")
    page.fill("#id_password1", "a-long-pass-phrase")
    page.fill("#id_password2", "a-long-pass-phrase")
    page.get_by_role("button", name="Create account").click()
    page.wait_for_url(live_server.url + "/")
    assert page.locator(".who").inner_text() == "newcomer"

    page.get_by_role("button", name="Log out").click()
    page.get_by_role("link", name="Log in").click()
    page.fill("#id_username", "newcomer")
    page.fill("#id_password", "wrong password")
    page.get_by_role("button", name="Log in").click()
    assert "correct username and password" in page.content()
    page.fill("#id_password", "a-long-pass-phrase")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(live_server.url + "/")

    page.get_by_role("link", name="Chomp (POTM, summer 1995)").click()
    assert page.get_by_role("heading", name="Rules").is_visible()
    assert "poison cookie" in page.locator(".rules").inner_text()


def _log_in(page, live_server, name: str) -> None:
    """Log in as one of the demo's users (password arbiter-NAME)."""
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", f"arbiter-{name}")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(live_server.url + "/")


@pytest.fixture
def alices_entry(demo):
    from django.contrib.auth.models import User

    from contests.models import Contest, Entry

    alice = User.objects.get(username="alice")
    return Entry.objects.create(contest=Contest.objects.get(slug="chomp"), user=alice, name="Muncher")


def test_withdrawing_an_entry_asks_first(alices_entry, page, live_server):
    _log_in(page, live_server, "alice")
    page.goto(live_server.url + "/contests/chomp/")
    asked = []

    def answer(dialog, accept):
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda d: answer(d, False))
    page.get_by_role("button", name=f"Withdraw {alices_entry.name}").click()
    page.wait_for_timeout(300)
    assert "for good" in asked[0] and page.url == live_server.url + "/contests/chomp/"  # not sent
    page.once("dialog", lambda d: answer(d, True))
    page.get_by_role("button", name=f"Withdraw {alices_entry.name}").click()
    page.wait_for_selector("text=is withdrawn")
    assert len(asked) == 2


def _in_a_thread(work):
    """Database work while Playwright's loop runs in this thread: done in another one."""
    import threading

    out, errors = [], []

    def run():
        try:
            out.append(work())
        except Exception as e:  # re-raised in the test's thread
            errors.append(e)
        finally:
            from django.db import connection

            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(120)
    if errors:
        raise errors[0]
    return out[0]


def _build_and_test(entry_name: str) -> int:
    """What the worker does for a new submission: build it, play its system test."""
    from contests.models import Submission
    from judging.models import Match
    from judging.play import builds, matches

    submission = Submission.objects.get(entry__name=entry_name)
    builds.build_submission(submission.pk)
    for match in Match.objects.filter(seats__submission=submission, status=Match.Status.QUEUED):
        matches.play_now(match.pk)
    return submission.pk


def test_a_crossed_words_entry_through_the_form_then_the_judges_verification(page, live_server):
    from pathlib import Path

    simple = Path(__file__).resolve().parents[2] / "games/crossed_words/players/simple.py"
    _log_in(page, live_server, "alice")
    page.goto(live_server.url + "/contests/crossed-words/")
    assert "PLAY <row 1-17>" in page.locator(".rules").inner_text()  # the published output format
    with page.expect_download() as download:
        page.get_by_role("link", name="Practice inputs and dictionary (zip)").click()
    assert download.value.suggested_filename == "crossed-words-practice.zip"
    form = page.locator("#entry-form")
    form.get_by_label("Entry name").fill("Wordsmith")
    form.get_by_label("First and last name").fill("Alice Liddell")
    form.get_by_label("State or province and country").fill("Oxford, England")
    form.locator("#id_form_email").fill("alice@example.org")
    form.get_by_label("Permission to post my e-mail address").check()
    form.get_by_label("Programming language and version").fill("Python 3.11")
    form.get_by_label("Your operating system").fill("Debian 12")
    form.get_by_label("Your best score").fill("4781")
    form.get_by_label("Escape valve").fill("Ctrl+C")
    form.locator("#id_source").set_input_files(str(simple))
    page.click("#entry-form button[type=submit]")
    page.wait_for_url("**/submissions/*/")
    submission = _in_a_thread(lambda: _build_and_test("Wordsmith"))
    page.goto(f"{live_server.url}/submissions/{submission}/")
    text = page.locator("main").inner_text()
    assert "Ready" in text and "valid" in text and "system test passed" in text
    # its system-test run, replayed on the board (its practice run waits for a worker)
    page.locator("li", has_text="System test").get_by_role("link", name="match", exact=False).first.click()
    page.wait_for_selector("#board .cw-grid")
    assert page.locator(".cw-letter").count() > 20  # the final board
    labels = page.locator(".cw-grid .coord").all_inner_texts()
    assert labels[:18] == [""] + [str(c) for c in range(1, 18)] and len(labels) == 1 + 17 + 17  # coordinates
    assert "triple word" in page.locator(".legend").inner_text()
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")  # the output's first line draws letters; its second plays a word
    assert page.locator(".cw-grid .cw-new").count() == 0
    page.keyboard.press("ArrowRight")
    assert page.locator(".cw-grid .cw-new").count() >= 2  # the letters it placed, marked
    # the judge runs the final and verifies from the highest claim down
    page.get_by_role("button", name="Log out").click()
    _log_in(page, live_server, "judge")

    def run_final():
        from contests.models import Stage
        from judging.play import matches

        stage = Stage.objects.get(contest__slug="crossed-words", kind="batch")
        for match in lifecycle.run_stage(stage):
            matches.play_now(match.pk)

    _in_a_thread(run_final)
    page.goto(live_server.url + "/contests/crossed-words/")
    page.get_by_role("link", name="Verification").click()
    assert "Wordsmith" in page.locator("table.verification").inner_text()
    page.get_by_role("link", name="Verify").first.click()
    page.wait_for_selector("#board .cw-grid")
    assert "accepted: every line replays" in page.locator("#verifier-verdict").inner_text()
    page.fill("textarea[name=note]", "every line checked")
    page.get_by_role("button", name="Accept the claim").click()
    page.wait_for_selector("text=Verification can stop")  # the only claim is verified
    page.goto(live_server.url + "/contests/crossed-words/standings/")
    standings = page.locator("table.standings").inner_text()
    assert "Verified score" in standings and "Claimed score" in standings and "Wordsmith" in standings
    page.goto(live_server.url + "/contests/crossed-words/judges-log/")
    log = page.locator("table").inner_text()
    assert "verification.accepted" in log and "every line checked" in log and "judge" in log


def test_the_standings_follow_a_finished_match_without_a_reload(page, live_server):
    from contests.models import Contest, Submission
    from contests.tests.factories import make_entry, make_match, make_submission, make_user
    from judging.models import Match
    from judging.news import events
    from judging.record import confidence

    page.goto(live_server.url + "/contests/chomp/standings/")
    page.evaluate("window.stillThisPage = true")
    # No pause for the page's first poll: it was rendered with the newest event's id (data-head),
    # and once waited 1.7 s for that poll, which a loaded host can answer later.
    assert "Latecomer" not in page.locator("#live").inner_text()

    def a_match_finishes():
        contest = Contest.objects.get(slug="chomp")
        stage = contest.stages.get(kind="ladder")
        subs = []
        for name in ("Latecomer", "Other latecomer"):
            entry = make_entry(contest, make_user(), name=name)
            subs.append(make_submission(entry, status=Submission.Status.READY, is_active=True))
        match = make_match(contest, subs, stage=stage, status=Match.Status.FINISHED)
        events.match_finished(match)
        confidence.rate(stage.pk)  # as the worker's task does after the result: the rated ladder's chart

    before = page.url
    _in_a_thread(a_match_finishes)
    page.wait_for_function("document.querySelector('#live').innerText.includes('Latecomer')")  # 15 s at most
    assert page.url == before and page.locator("#live").get_attribute("data-updated")
    # the chart of ratings over the games follows too: its legend once stayed as loaded
    page.wait_for_function(
        "(document.querySelector('.history-legend') || {innerText: ''}).innerText.includes('Latecomer')"
    )
    assert page.evaluate("window.stillThisPage") is True and page.locator("#history svg polyline").count() >= 2


def test_a_submission_page_follows_its_build_and_test_without_a_reload(alices_entry, page, live_server):
    from contests.models import Submission
    from contests.tests.factories import make_submission
    from judging.news import events

    made = []
    _in_a_thread(lambda: made.append(make_submission(alices_entry, status=Submission.Status.QUEUED)))
    submission = made[0]
    _log_in(page, live_server, "alice")
    page.goto(f"{live_server.url}/submissions/{submission.pk}/")
    assert page.locator("#status").inner_text().startswith("Queued")
    page.evaluate("window.stillThisPage = true")

    def step(status, **fields):
        def work():
            Submission.objects.filter(pk=submission.pk).update(status=status, **fields)
            events.submission_changed(Submission.objects.get(pk=submission.pk))

        _in_a_thread(work)

    step(Submission.Status.BUILDING)
    page.wait_for_function("document.querySelector('#status').innerText.startsWith('Building')")  # 15 s at most
    # a screen reader is told the new status, not the whole page part again (issue 38)
    assert page.locator("#live").get_attribute("aria-live") is None
    assert page.locator("#live-announce").inner_text().startswith("Building")
    step(Submission.Status.READY, is_active=True, build_log="compiled: 0 warnings", test_log="system test passed")
    page.wait_for_function("document.querySelector('#status').innerText.startsWith('Ready')")
    assert "system test passed" in page.locator("#live").inner_text()
    steps = page.locator("ol.timeline li span").all_inner_texts()
    assert steps == ["sent", "Building", "Ready"], steps  # its way so far, each step timed
    assert page.evaluate("window.stillThisPage") is True  # updated in place, not reloaded


def test_no_page_scrolls_sideways_on_a_phone(page, live_server):
    page.set_viewport_size({"width": 390, "height": 844})
    paths = ["/", "/accounts/login/", "/accounts/signup/"]
    for slug in ("chomp", "hearts-and-flowers", "codecup-sudoku", "solitaire-500", "crossed-words"):
        paths += [f"/contests/{slug}/", f"/contests/{slug}/standings/", f"/contests/{slug}/matches/"]
    wide = {}
    for path in paths:
        page.goto(live_server.url + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide[path] = width
    assert not wide, wide


def test_a_wide_table_on_a_phone_says_it_scrolls_and_keeps_the_rank_and_entry_in_view(judged, page, live_server):
    """At 390 px Chomp's Wins, Cookies and Chomps were cut at the right edge with no hint that
    the table scrolls; scrolled, the rows lost their names."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/contests/chomp/standings/")
    table = page.locator("table.standings")
    assert page.evaluate("t => t.scrollWidth > t.clientWidth", table.element_handle())  # Chomp's is wide
    hint = page.locator("table.standings").locator("xpath=preceding-sibling::p[1]")
    assert hint.get_attribute("class") == "scroll-hint" and "scroll the table sideways" in hint.inner_text()
    page.evaluate("t => { t.scrollLeft = t.scrollWidth; }", table.element_handle())
    page.wait_for_function("document.querySelector('table.standings').scrollLeft > 0")
    row = page.locator("table.standings tbody tr").first
    for cell in (row.locator("td").nth(0), row.locator("td").nth(2)):  # the rank, the entry
        box = cell.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    entry = row.locator("td").nth(2).bounding_box()
    seen = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('td').cellIndex",
        [entry["x"] + entry["width"] / 2, entry["y"] + entry["height"] / 2],
    )
    assert seen == 2  # the name is what one sees there, not a column scrolled under it
    page.set_viewport_size({"width": 1200, "height": 844})
    page.wait_for_function("!document.querySelector('.scroll-hint')")  # wide enough: no hint


@pytest.fixture
def judged(demo):
    """Alice's and Bob's entries in Chomp, a finished round-robin game between them."""
    from django.contrib.auth.models import User

    from contests.models import Contest, Submission
    from contests.tests.factories import finish_on_paper, make_entry, make_match, make_stage, make_submission

    chomp = Contest.objects.get(slug="chomp")
    subs = [
        make_submission(
            make_entry(chomp, User.objects.get(username=name), name=f"{name}'s"), status="ready", is_active=True
        )
        for name in ("alice", "bob")
    ]
    stage = make_stage(chomp, name="Final round robin", status="running")
    match = make_match(chomp, subs, stage=stage)
    finish_on_paper(match, [(1, 10, "win"), (0, 3, "loss")], reason="seat 1 ate the poison cookie")
    return match, Submission


def test_a_judge_reruns_a_match_disqualifies_adds_a_stage_freezes_publishes_and_reads_the_log(
    judged, page, live_server
):
    from contests.tests.factories import finish_on_paper

    match, _ = judged
    _log_in(page, live_server, "judge")
    page.goto(f"{live_server.url}/matches/{match.pk}/")
    page.get_by_role("button", name="Re-run").click()
    page.wait_for_selector("text=queued to be played again")

    def played_again():
        from judging.models import Match

        finish_on_paper(
            Match.objects.get(pk=match.pk), [(0, 2, "loss"), (1, 12, "win")], reason="seat 0 ate the poison cookie"
        )

    _in_a_thread(played_again)
    page.reload()
    assert page.locator("table.attempts tbody tr").count() == 2  # both results, side by side
    change = page.locator("table.change").inner_text()
    assert "alice's" in change and "bob's" in change and "→" in change  # and what moved in the standings

    page.goto(f"{live_server.url}/contests/chomp/console/")
    page.fill('input[aria-label="Why bob\'s is disqualified"]', "copied alice's program")
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Disqualify").nth(
        [t.strip() for t in page.locator("table.console-entries td:first-child").all_inner_texts()].index("bob's")
    ).click()
    page.wait_for_selector("text=bob's is disqualified.")
    assert "copied alice's program" in page.locator("table.console-entries").inner_text()

    page.get_by_role("link", name="add a stage").click()
    page.select_option("select[name=kind]", "swiss")
    page.get_by_role("button", name="Choose").click()
    page.fill("input[name=name]", "Swiss rounds")
    page.fill("input[name=stage_rounds]", "5")
    page.get_by_role("button", name="Add the stage").click()
    page.wait_for_selector("text=Swiss rounds is added")
    assert "Swiss rounds" in page.locator("table.console-stages").inner_text()

    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Freeze the public standings").click()
    page.wait_for_selector("text=Frozen since")
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Publish the results").click()
    page.wait_for_selector("text=The results are published")

    page.get_by_role("link", name="judges' log").click()
    log = page.locator("main").inner_text()
    for action in ("match.rerun", "entry.disqualify", "stage.add", "standings.freeze", "standings.publish"):
        assert action in log, action


def test_a_contestant_asks_for_a_test_game_against_her_earlier_version(judged, page, live_server):
    def versions():
        from contests.models import Submission
        from contests.tests.factories import make_submission

        first = Submission.objects.get(entry__name="alice's")
        second = make_submission(first.entry, status="ready")  # built; the active one stays the first
        return first.pk, second.pk

    first, second = _in_a_thread(versions)
    _log_in(page, live_server, "alice")
    page.goto(f"{live_server.url}/submissions/{second}/")
    assert "test games left in any 24 hours" in page.locator("main").inner_text()
    page.select_option("select[name=opponent]", str(first))
    page.select_option("select[name=first]", "0")
    page.get_by_role("button", name="Play a test game").click()
    page.wait_for_selector("text=The test game is queued")
    seats = page.locator("table.seats tbody tr").all_inner_texts()
    assert "alice's" in seats[0] and "alice's" in seats[1]  # her version 1 first, as she chose
