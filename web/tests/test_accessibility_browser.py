"""Every page the crawl reaches (test_crawl.py), as an anonymous visitor, a contestant, a judge
and an organiser, checked with axe-core in a real Chromium: no serious or critical violation
(issue 38). Pages of one kind (the same URL pattern) share a template and differ in their rows only:
one of each kind is checked (and each contest's own page and standings, which its game
draws), which keeps the walk to about a minute; ARBITER_A11Y_EVERY_PAGE=1 checks them all."""

from __future__ import annotations

import os
import time

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import resolve

from web.tests.accessibility import violations
from web.tests.test_crawl import crawl, make_world

pytestmark = [pytest.mark.browser, pytest.mark.slow]
WHO = (None, "alice", "judge", "organiser")
# Swagger UI's own markup on /api/docs/ puts a link inside each operation's button: that is
# its structure, not a style this site can mend (its colours and language are mended, in
# templates/api_docs.html).
UPSTREAM = "nested-interactive"


# The pages a contest's game draws in a way of its own (its rules, its standings' columns):
# checked for every contest. Other pages of a contest are one template whatever the game.
PER_CONTEST = {"contests:detail", "contests:standings"}


def _kind(path: str) -> tuple:
    """Pages of one kind: the same URL pattern with the same query keys, and for the pages in
    PER_CONTEST the same contest."""
    url, _, query = path.partition("?")
    match = resolve(url)
    keys = tuple(sorted(part.partition("=")[0] for part in query.split("&") if part))
    return (match.view_name, keys, match.kwargs.get("slug") if match.view_name in PER_CONTEST else None)


@pytest.fixture
def pages(transactional_db, queued) -> dict[str | None, list[str]]:
    """The HTML pages each kind of user reaches, crawled with Django's client (before the
    browser starts: see chromium_page)."""
    make_world()
    every = os.environ.get("ARBITER_A11Y_EVERY_PAGE") == "1"
    reached = {}
    for who in WHO:
        client = Client()
        if who:
            client.force_login(User.objects.get(username=who))
        titles: dict[str, str] = {}  # given the HTML pages only
        crawl(client, titles)
        kinds: dict[tuple, str] = {}
        for path in titles:
            kinds.setdefault(path if every else _kind(path), path)
        reached[who] = list(kinds.values())
    return reached


@pytest.fixture
def page(live_server, pages, chromium_page):
    return chromium_page  # after the data: see chromium_page


def _log_in(page, live_server, name: str) -> None:
    page.context.clear_cookies()
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", f"arbiter-{name}")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(live_server.url + "/")


def test_no_page_has_a_serious_accessibility_violation(page, live_server, pages):
    started = time.monotonic()
    found: list[str] = []
    for who, paths in pages.items():
        if who:
            _log_in(page, live_server, who)
        for path in paths:
            page.goto(live_server.url + path, wait_until="load")
            # a replay viewer draws its board once the replay has come: check what it drew
            if page.locator("#viewer[data-replay]").count():
                page.wait_for_selector("#viewer[data-ready='1']")
            found += [
                f"{who or 'anonymous'}: {line}"
                for line in violations(page, path)
                if not (path == "/api/docs/" and line.startswith(UPSTREAM))
            ]
    checked = sum(map(len, pages.values()))
    print(f"\naxe-core checked {checked} pages in {time.monotonic() - started:.0f} s")
    assert not found, "\n".join(found)
