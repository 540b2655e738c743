"""The pages in a real Chromium: a newcomer signs up, logs out, logs in, opens a contest; a
contestant is asked before an entry is withdrawn."""

import shutil

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.browser, pytest.mark.slow]

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture
def demo(transactional_db, queued):  # the reference programs' builds are not sent to a broker
    call_command("load_demo", verbosity=0)


@pytest.fixture
def page(live_server, demo):
    # Playwright's sync API runs an event loop in this thread, so the database work is done
    # before it starts (Django refuses ORM calls from a thread with a running loop).
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
        )
        page = browser.new_page()
        page.set_default_timeout(15_000)
        yield page
        browser.close()


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


@pytest.fixture
def alices_entry(demo):
    from django.contrib.auth.models import User

    from contests.models import Contest, Entry

    alice = User.objects.get(username="alice")
    return Entry.objects.create(contest=Contest.objects.get(slug="chomp"), user=alice, name="Muncher")


def test_withdrawing_an_entry_asks_first(alices_entry, page, live_server):
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "arbiter-alice")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(live_server.url + "/")
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
