"""The header's language switcher in a real Chromium (issue 38): a visitor on an English
browser picks Nederlands and reads the site in Dutch at once; logged in, the choice is theirs
and a second browser gets it at log-in; the profile gives it back to the browser."""

import pytest

from contests.tests.factories import make_user

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PASSWORD = "a-long-pass-phrase-2"


@pytest.fixture
def anna(transactional_db):
    return make_user(username="anna", password=PASSWORD)


@pytest.fixture
def page(anna, live_server, chromium_page):  # anna first: no ORM call once the browser's loop runs
    return chromium_page


def _log_in(page, live_server) -> None:
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", "anna")
    page.fill("#id_password", PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(live_server.url + "/")


def test_the_switcher_turns_the_site_dutch_and_a_person_keeps_it(page, live_server):
    page.goto(live_server.url + "/")
    assert page.locator("h1").inner_text() == "Contests" and page.locator("html").get_attribute("lang") == "en"
    page.select_option("#language-choice", "nl")  # the form is sent on change
    page.wait_for_function("document.documentElement.lang === 'nl'")
    assert page.locator("h1").inner_text() == "Wedstrijden"
    assert page.get_by_role("link", name="Inloggen").is_visible()

    _log_in(page, live_server)
    page.select_option("#language-choice", "nl")  # chosen again, now as anna: kept for her
    page.wait_for_function("document.documentElement.lang === 'nl'")

    other = page.context.browser.new_context(locale="en-GB")  # another computer, an English browser
    try:
        second = other.new_page()
        second.goto(live_server.url + "/")
        assert second.locator("h1").inner_text() == "Contests"
        _log_in(second, live_server)
        assert second.locator("h1").inner_text() == "Wedstrijden"
        second.goto(live_server.url + "/accounts/profile/")
        second.select_option("#profile-language", "")
        second.get_by_role("button", name="Opslaan").click()
        second.wait_for_function("document.documentElement.lang === 'en'")
        assert "Language saved" in second.locator("main").inner_text()
    finally:
        other.close()
