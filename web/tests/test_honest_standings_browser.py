"""Honest standings in a real Chromium: a ladder's rank intervals, tied rows and the rating chart
with its bands, and a contestant's versus batch followed on the version's page until it stops."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor

import pytest

from contests.models import Stage, Submission
from contests.tests.factories import finish_on_paper, make_contest, make_entry, make_match, make_stage, make_submission
from judging.models import Match
from judging.record import confidence
from judging.schedule import versus

pytestmark = [pytest.mark.browser, pytest.mark.slow]
FIELD = {"Strong": 600, "Medium": 250, "Weak A": 0, "Weak B": 0}


def _ready(entry) -> Submission:
    return make_submission(entry, status=Submission.Status.READY, is_active=True)


def _game(contest, stage, first, second, first_wins: bool) -> None:
    match = make_match(contest, [first, second], stage=stage, status=Match.Status.QUEUED)
    won, lost = (1, 5, "win"), (0, 0, "loss")
    finish_on_paper(match, [won, lost] if first_wins else [lost, won])


@pytest.fixture
def ladder(transactional_db, django_user_model):
    contest = make_contest(slug="chomp-ladder")
    stage = make_stage(contest, kind="ladder", status=Stage.Status.RUNNING, name="Ladder", params={"places": "1, 2"})
    alice = django_user_model.objects.create_user("alice", password="pw-alice-1")
    subs = {name: _ready(make_entry(contest, name=name)) for name in FIELD}
    subs["Weak B"].entry.user = alice
    subs["Weak B"].entry.save()
    rng = random.Random(1)
    names = list(FIELD)
    for _ in range(3):  # a fit after each round: the chart has points to draw
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                p = 1 / (1 + 10 ** ((FIELD[b] - FIELD[a]) / 400))
                for g in range(20):
                    first, second = (a, b) if g % 2 == 0 else (b, a)
                    _game(contest, stage, subs[first], subs[second], (rng.random() < p) == (first == a))
        confidence.rate(stage.pk)
    return contest, stage, subs, alice


@pytest.fixture
def newer(ladder):
    return make_submission(ladder[2]["Weak B"].entry, status=Submission.Status.READY)  # not yet active: a try


@pytest.fixture
def page(live_server, ladder, newer, chromium_page):
    return chromium_page


def test_the_ladder_shows_who_is_sure_and_who_is_tied(ladder, page, live_server):
    contest, stage, _, _ = ladder
    page.goto(f"{live_server.url}/contests/{contest.slug}/standings/")
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == 4
    first = rows.nth(0).locator("td").all_inner_texts()
    assert first[0] == "1" and first[1] == "1" and first[2] == "Strong"  # first, and surely so
    tied = page.locator("table.standings tbody tr.tied")
    assert sorted(tied.locator("td:nth-child(3)").all_inner_texts()) == ["Weak A", "Weak B"]
    assert tied.locator(".tie").count() == 2
    page.wait_for_selector(".history-chart svg polygon.band")
    assert page.locator(".history-chart svg polyline").count() == 4
    assert page.locator(".history-chart svg polygon.band").count() == 4
    # the legend said "1345 ± 236" (the line's μ ± 2σ) where the table said 1186
    legend = page.locator(".history-legend li").all_inner_texts()
    table = [f"{r[2]}: {r[3]}" for r in (rows.nth(i).locator("td").all_inner_texts() for i in range(4))]
    assert sorted(legend) == sorted(table)
    assert "±" in page.locator(".history-legend li").first.get_attribute("title")
    page.goto(f"{live_server.url}/contests/{contest.slug}/")
    assert "places 1, 2 from the next" in page.locator("small.ranked").inner_text()


def _elsewhere(fn):
    """Run ``fn`` in a thread of its own: Playwright's loop runs in this one, where Django
    refuses the ORM (see conftest's chromium_page)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(fn).result()


def test_a_contestant_plays_a_versus_batch_and_sees_it_stop(ladder, newer, page, live_server):
    from playwright.sync_api import expect

    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", "pw-alice-1")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")  # logged in, before the next address cuts the form's answer short
    page.goto(f"{live_server.url}/submissions/{newer.pk}/")
    form = page.locator("form.versus-form")
    form.locator("input[name=references]").uncheck()
    form.locator("input[name=top]").fill("3")
    form.locator("input[name=games]").fill("60")
    form.locator("button[type=submit]").click()
    expect(page.locator(".message").first).to_contain_text("is playing")  # the page the form's answer leads to

    def play_out() -> list[str]:  # the games end as a worker would end them: the new version wins them all
        batch = newer.versus_batches.get()
        while not versus.step(batch.pk):
            for match in Match.objects.filter(versus=batch, status=Match.Status.QUEUED):
                mine = match.seats.get(submission=newer).index
                won, lost = (1, 5, "win"), (0, 0, "loss")
                finish_on_paper(match, [won, lost] if mine == 0 else [lost, won])
        return [o["label"] for o in batch.opponents]

    assert _elsewhere(play_out) == ["my version 1", "Strong (top 3)", "Medium (top 3)", "Weak A (top 3)"]
    page.reload()
    row = page.locator("table.versus tbody tr").first
    cells = row.locator("td").all_inner_texts()
    assert cells[3].endswith("= 100%") and "Decided early" in cells[5] and "excludes 50%" in cells[5]
    assert row.locator(".interval-bar span").get_attribute("style").startswith("margin-left: 5")
    assert page.locator("text=versus batch").count() >= 8  # its games, named on the version's page


def test_a_contestant_sees_a_page_of_the_ladder_with_its_own_row_marked(ladder, page, live_server, monkeypatch):
    from judging.record import standings

    monkeypatch.setattr(standings, "PAGE_ROWS", 2)  # four rows: two pages
    contest, _, _, _ = ladder
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "alice")
    page.fill("input[name=password]", "pw-alice-1")
    page.click("button[type=submit]")
    page.wait_for_url(f"{live_server.url}/")  # logged in, before the next address cuts the form's answer short
    page.goto(f"{live_server.url}/contests/{contest.slug}/standings/")
    rows = page.locator("table.standings tbody tr")
    names = [rows.nth(i).locator("td").nth(2).inner_text() if "gap" not in (rows.nth(i).get_attribute("class") or "")
             else "…" for i in range(rows.count())]  # fmt: skip
    # its own row below the page's two, after a gap unless it is the next place
    assert names[:2] == ["Strong", "Medium"] and names[2:] in (["Weak B", "…"], ["…", "Weak B"])
    mine = page.locator("table.standings tbody tr.mine")
    assert mine.count() == 1 and mine.locator("td").nth(2).inner_text() == "Weak B"
    assert mine.get_attribute("aria-current") == "true"  # said to a screen reader, not only drawn
    marked = mine.locator("td").nth(2).evaluate("td => getComputedStyle(td).backgroundColor")
    plain = rows.nth(0).locator("td").nth(2).evaluate("td => getComputedStyle(td).backgroundColor")
    assert marked != plain  # highlighted
    assert "places 1–2 of 4 (page 1 of 2)" in page.locator("nav.pages").inner_text()
    page.click("nav.pages a[rel=next]")
    assert "page 2 of 2" in page.locator("nav.pages").inner_text()
    assert page.locator("table.standings tbody tr.gap").count() == 1  # above the page's rows
    assert page.locator("table.standings tbody tr.mine").count() == 1  # on its page, in place, once


def test_a_screen_reader_reads_the_standings_and_their_ties(ladder, page, live_server):
    """Issue 38: the table is named by its caption, its headers are the columns', and a tied
    row says so in words and in the band's pattern, not in its colour alone."""
    from web.tests.accessibility import assert_accessible

    contest, _, _, _ = ladder
    page.goto(f"{live_server.url}/contests/{contest.slug}/standings/")
    table = page.get_by_role("table", name=f"{contest.title}: standings of Ladder")
    assert table.count() == 1
    headers = table.locator("thead th")
    assert headers.count() > 4 and headers.count() == table.locator("thead th[scope=col]").count()
    assert table.get_by_role("columnheader", name="Entry").count() == 1
    tied = table.locator("tbody tr.tied")
    said = tied.locator(".tie").all_text_contents()
    assert len(said) == 2 and len(set(said)) == 1 and "statistically tied, group" in said[0]
    style = tied.first.locator("td").first.evaluate("td => getComputedStyle(td).borderLeftStyle")
    untied = table.locator("tbody tr:not(.tied)").first.locator("td").first
    assert style in ("solid", "dotted") and untied.evaluate("td => getComputedStyle(td).borderLeftColor") == (
        "rgba(0, 0, 0, 0)"
    )
    page.wait_for_selector(".history-chart svg")
    assert_accessible(page)
