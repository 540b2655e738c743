"""Organisers open and edit contests without the admin: on their pages (/organise/) and through
the API, with the admin's form and checks, each change written in the judges' log."""

from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone
from rest_framework.test import APIClient

from contests.hosted_games import SOURCE
from contests.models import Contest, GameVersion, JudgeAction, Stage
from contests.services import ensure_organisers_group
from contests.tests.factories import make_contest, make_entry, make_user, name_to
from games import registry
from judging.uploaded import hosting

pytestmark = pytest.mark.django_db
CONNECT_FOUR = Path(__file__).resolve().parents[2] / "examples" / "games" / "connect-four"


@pytest.fixture
def organiser():
    user = make_user(username="olga", password="a-long-pass-phrase")
    user.groups.add(ensure_organisers_group())
    return user


@pytest.fixture
def judge():
    """A user who judges a contest of someone else's (contests.roles): no organiser of anything."""
    return name_to(make_contest(slug="elsewhere"), make_user(username="jules"))


def page_fields(**changes) -> dict:
    """What the new contest's page sends for a valid Chomp contest, with ``changes`` (None: not sent)."""
    fields = {
        "title": "Chomp Open", "slug": "chomp-open", "summary": "Eat, but not the poison.", "is_public": "on",
        "game": "chomp", "game_params": '{"rows": 6}', "clock": "", "memory_mb": "", "game_data": None,
        "rules": "Eat **cookies**.", "rules_source": "", "opens_at": "2031-01-01T10:00:00",
        "closes_at": "2031-02-01T10:00:00", "language_table": "arbiter", "max_source_bytes": "65536",
        "source_counts": "bytes", "max_executable_bytes": "", "max_entries_per_user": "1",
        "max_submissions_per_day": "", "max_submissions_per_week": "", "entry_form": "", "reason": "",
    }  # fmt: skip
    fields.update(changes)
    return {name: value for name, value in fields.items() if value is not None}


def api_fields(**changes) -> dict:
    fields = {
        "title": "Chomp Open", "slug": "chomp-open", "game": "chomp", "game_params": {"rows": 6},
        "rules": "Eat **cookies**.", "opens_at": "2031-01-01T10:00:00Z", "closes_at": "2031-02-01T10:00:00Z",
        "max_source_bytes": 65536,
    }  # fmt: skip
    fields.update(changes)
    return {name: value for name, value in fields.items() if value is not None}


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


# --- Who may organise ---------------------------------------------------------------------------


def test_the_organisers_group_is_made_at_migrate_with_its_permissions(organiser, judge):
    group = Group.objects.get(name="Organisers")
    # Opening contests and uploading games: every other right is a contest's own (contests.roles).
    assert {p.codename for p in group.permissions.all()} == {"add_contest", "upload_game"}
    assert organiser.has_perms(["contests.add_contest", "contests.upload_game"])
    assert not judge.has_perm("contests.upload_game")  # games are the organisers' (the demo's judge could upload)
    assert not judge.has_perm(
        "contests.add_contest"
    )  # a judge changes contests in the admin; only an organiser opens one


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/organise/"),
        ("get", "/organise/contests/new/"),
        ("post", "/organise/contests/new/"),
        ("get", "/organise/contests/chomp/"),
        ("post", "/organise/contests/chomp/"),
        ("post", "/organise/preview/"),
    ],
)
def test_the_pages_send_a_visitor_to_log_in_and_refuse_contestants_and_judges(client, judge, method, path):
    name_to(make_contest(slug="chomp"), judge)  # its judge, not one of its organisers
    anonymous = getattr(client, method)(path)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/?next=")
    for who in (make_user(), judge):
        client.force_login(who)
        assert getattr(client, method)(path, page_fields()).status_code == 403
    assert not Contest.objects.exclude(slug__in=["chomp", "elsewhere"]).exists()


def test_the_api_refuses_anonymous_callers_contestants_and_judges(judge):
    contest = make_contest(slug="chomp", title="Chomp")
    name_to(contest, judge)
    assert api().post("/api/contests/", api_fields(), format="json").status_code == 401
    assert api().patch("/api/contests/chomp/", {"title": "Mine"}, format="json").status_code == 401
    for who in (make_user(), judge):
        refused = api(who).post("/api/contests/", api_fields(), format="json")
        assert refused.status_code == 403 and refused.json()["error"]["message"] == (
            "Only the site's organisers open contests."
        )
        assert api(who).patch("/api/contests/chomp/", {"title": "Mine"}, format="json").status_code == 403
    contest.refresh_from_db()
    assert contest.title == "Chomp" and Contest.objects.count() == 2 and not JudgeAction.objects.exists()


def test_only_organisers_see_the_organise_link(client, organiser, judge):
    link = 'href="/organise/"'
    assert link not in client.get("/").content.decode()
    for who in (make_user(), judge):
        client.force_login(who)
        assert link not in client.get("/").content.decode()
    client.force_login(organiser)
    assert link in client.get("/").content.decode()
    assert api(organiser).get("/api/me/").json()["is_organiser"] is True
    assert api(judge).get("/api/me/").json()["is_organiser"] is False


# --- The pages ------------------------------------------------------------------------------------


def test_an_organiser_opens_a_contest_from_the_page_and_it_is_logged(client, organiser, judge):
    client.force_login(organiser)
    listing = client.get("/organise/").content.decode()
    assert 'href="/organise/contests/new/"' in listing and "New contest" in listing
    made = client.post("/organise/contests/new/", page_fields(reason="for the spring"))
    assert made.status_code == 302 and made["Location"] == "/organise/contests/chomp-open/"
    contest = Contest.objects.get(slug="chomp-open")
    assert (contest.title, contest.game, contest.game_params, contest.clock) == ("Chomp Open", "chomp", {"rows": 6}, {})
    assert contest.opens_at == datetime(2031, 1, 1, 10, tzinfo=UTC)
    assert (contest.max_source_bytes, contest.language_table, contest.allowed_languages) == (65536, "arbiter", [])
    action = JudgeAction.objects.get()
    assert (action.action, action.judge, action.contest, action.target, action.reason) == (
        "contest.create", organiser, contest, "contest chomp-open", "for the spring",
    )  # fmt: skip
    assert action.data["game_params"] == {"rows": 6} and action.data["opens_at"] == "2031-01-01T10:00:00+00:00"
    page = client.get("/organise/contests/chomp-open/").content.decode()
    assert "Chomp Open is created" in page and 'value="Chomp Open"' in page
    assert "/contests/chomp-open/console/stages/new/" in page  # its stages: the judges' form
    assert "Chomp Open" in client.get("/organise/").content.decode()
    assert client.get("/contests/chomp-open/judges-log/").status_code == 200  # the owner reads it too
    client.force_login(judge)
    assert client.get("/contests/chomp-open/judges-log/").status_code == 403  # not yet one of its judges
    client.force_login(organiser)
    named = client.post("/organise/contests/chomp-open/roles/", {"user": "jules", "role": "judge"}, follow=True)
    assert "jules is a judge of Chomp Open" in named.content.decode()
    client.force_login(judge)  # the judges read it in the contest's log
    log = client.get("/contests/chomp-open/judges-log/").content.decode()
    assert "contest.create" in log and "olga" in log and "role.grant" in log


def test_an_edit_logs_what_changed_from_and_to_and_a_save_without_change_logs_nothing(client, organiser):
    client.force_login(organiser)
    client.post("/organise/contests/new/", page_fields())
    edited = client.post(
        "/organise/contests/chomp-open/",
        page_fields(title="Chomp Open 2031", memory_mb="512", clock='{"wall_per_move_s": 60}'),
        follow=True,
    )
    assert "Saved: title, clock." in edited.content.decode()
    contest = Contest.objects.get(slug="chomp-open")
    assert contest.title == "Chomp Open 2031" and contest.clock == {"wall_per_move_s": 60, "memory_mb": 512}
    assert contest.memory_mb == 512
    action = JudgeAction.objects.get(action="contest.edit")
    assert action.target == "contest chomp-open: title, clock"
    assert action.data == {
        "title": {"from": "Chomp Open", "to": "Chomp Open 2031"},
        "clock": {"from": {}, "to": {"wall_per_move_s": 60, "memory_mb": 512}},
    }
    form = client.get("/organise/contests/chomp-open/").content.decode()
    assert 'name="memory_mb" value="512"' in form  # the memory in its own field, the rest in the clock
    same = client.post(
        "/organise/contests/chomp-open/",
        page_fields(title="Chomp Open 2031", memory_mb="512", clock='{"wall_per_move_s": 60}'),
        follow=True,
    )
    assert "Nothing changed." in same.content.decode() and JudgeAction.objects.count() == 2
    renamed = client.post("/organise/contests/chomp-open/", page_fields(title="Chomp Open 2031", slug="chomp-31",
                                                                        memory_mb="512", clock='{"wall_per_move_s": 60}'))  # fmt: skip
    assert renamed["Location"] == "/organise/contests/chomp-31/"


def test_an_edit_leaves_a_freeze_made_meanwhile(client, organiser):
    client.force_login(organiser)
    client.post("/organise/contests/new/", page_fields())
    contest = Contest.objects.get(slug="chomp-open")
    # The organiser's form was loaded before; a judge freezes the standings; then it is saved.
    frozen = timezone.now()
    Contest.objects.filter(pk=contest.pk).update(standings_frozen_at=frozen)
    client.post("/organise/contests/chomp-open/", page_fields(summary="Now with a freeze."))
    contest.refresh_from_db()
    assert contest.summary == "Now with a freeze." and contest.standings_frozen_at == frozen


PAGE_REFUSALS = [
    ({"game": "connect-five"}, "game", "connect-five is not a game hosted here; the games are: chomp"),
    ({"clock": '{"wall_per_move_s": -1}'}, "clock", "wall_per_move_s must be a positive number"),
    ({"clock": '{"per_move": 5}'}, "clock", "unknown clock setting per_move"),
    ({"clock": "[1, 2]"}, "clock", "The clock is a JSON object"),
    ({"memory_mb": "512", "clock": '{"memory_mb": 256}'}, "memory_mb", "set the memory in one place"),
    ({"game_params": '{"rows": 99}'}, "game_params", "rows must be between 2 and 50, not 99"),
    ({"game_params": '{"size": 3}'}, "game_params", "chomp has no parameter size (it has: rows, cols)"),
    ({"closes_at": "2030-12-31T10:00:00"}, "closes_at", "The contest must close after it opens"),
    ({"slug": "taken"}, "slug", "Another contest already has this slug; choose another."),
    ({"slug": "new"}, "slug", "new is the address of the new contest&#x27;s page"),
    ({"language_table": "potm", "allowed_languages": ["c", "pascal"]}, "allowed_languages", "has no pascal"),
    ({"entry_form": '[{"name": "os", "type": "choice"}]'}, "entry_form", "Field os is a choice with no choices."),
]


@pytest.mark.parametrize(("changes", "field", "message"), PAGE_REFUSALS)
def test_the_page_refuses_each_bad_setting_in_words(client, organiser, changes, field, message):
    make_contest(slug="taken")
    client.force_login(organiser)
    refused = client.post("/organise/contests/new/", page_fields(**changes))
    page = refused.content.decode()
    assert refused.status_code == 200 and message in page
    errors = page.split(f'id="field-{field}"')[1].split('<div class="field"')[0]
    assert message in errors  # under the setting it is about
    assert not Contest.objects.filter(title="Chomp Open").exists() and not JudgeAction.objects.exists()


API_REFUSALS = [
    ({"game": "connect-five"}, "game", "connect-five is not a game hosted here"),
    ({"clock": {"wall_per_move_s": -1}}, "clock", "wall_per_move_s must be a positive number"),
    ({"game_params": {"rows": 99}}, "game_params", "rows must be between 2 and 50, not 99"),
    ({"closes_at": "2030-12-31T10:00:00Z"}, "closes_at", "The contest must close after it opens"),
    ({"slug": "taken"}, "slug", "Another contest already has this slug; choose another."),
    ({"title": {"a": 1}}, "title", "Not a valid string."),
    ({"colour": "blue"}, "colour", "A contest has no setting of this name."),
]


@pytest.mark.parametrize(("changes", "field", "message"), API_REFUSALS)
def test_the_api_refuses_each_bad_setting_in_words(organiser, changes, field, message):
    make_contest(slug="taken")
    refused = api(organiser).post("/api/contests/", api_fields(**changes), format="json")
    assert refused.status_code == 400, refused.json()
    error = refused.json()["error"]
    assert message in " ".join(error["fields"][field]) and message in error["message"]
    assert not Contest.objects.filter(title="Chomp Open").exists() and not JudgeAction.objects.exists()


def test_every_game_of_the_registry_is_offered_by_title_with_its_defaults(client, organiser):
    # An uploaded game joins the registry under a versioned key; the form lists what is there.
    uploaded = hosting.upload(hosting.read_folder(CONNECT_FOUR), organiser)
    GameVersion.objects.filter(pk=uploaded.pk).update(status=GameVersion.Status.ACCEPTED)  # its kit: elsewhere
    SOURCE.forget()
    client.force_login(organiser)
    page = client.get("/organise/contests/new/").content.decode()
    for name, game in registry.GAMES.items():
        assert f'<option value="{name}">{game.info.title} ({name})</option>' in page
    # the first game's defaults as placeholders, and every game's for the script
    assert 'placeholder="{&quot;cpu_average_per_move_s&quot;: 30, &quot;wall_per_move_s&quot;: 120}"' in page
    assert 'name="memory_mb" min="1" placeholder="256"' in page and "rows: 2 to 50, 5 if not set" in page
    assert '"connect-four@1": {"params"' in page and 'id="game-defaults"' in page
    sudoku = client.get("/organise/contests/new/?game=sudoku").content.decode()
    assert 'placeholder="{&quot;time_limit&quot;: 30, &quot;measure&quot;: &quot;wall&quot;}"' in sudoku
    assert 'name="memory_mb" min="1" placeholder="1536"' in sudoku and "Sudoku" in sudoku
    made = client.post("/organise/contests/new/", page_fields(game="connect-four@1", game_params="", rules=""))
    assert made.status_code == 302
    contest = Contest.objects.get(slug="chomp-open")
    assert contest.game == "connect-four@1" and contest.rules.startswith("# Connect Four")  # the game's rules page
    # Made with it: the game's reference players, the opponent first.
    assert list(contest.entries.values_list("name", "is_reference")) == [("greedy", True), ("random", True)]
    # A new version of the game: the contest moves to it, entries and all, when its organiser says.
    newer = hosting.upload(hosting.read_folder(CONNECT_FOUR), organiser)
    GameVersion.objects.filter(pk=newer.pk).update(status=GameVersion.Status.ACCEPTED)
    moved = client.post(
        "/organise/contests/chomp-open/", page_fields(game="connect-four@2", game_params="", rules=contest.rules)
    )
    assert moved.status_code == 302 and Contest.objects.get(slug="chomp-open").game == "connect-four@2"
    refused = client.post("/organise/contests/chomp-open/", page_fields(game="chomp", game_params=""))
    assert "The game cannot change" in refused.content.decode()
    SOURCE.forget()


def test_a_contest_for_a_game_to_come_keeps_it_until_the_game_is_hosted(client, organiser):
    later = make_contest(slug="later", title="Later", game="connect-four", game_params={"rows": 6})
    client.force_login(organiser)
    assert client.get("/organise/contests/later/").status_code == 403  # someone else's
    name_to(later, organiser, role="organiser")  # a co-organiser edits it
    page = client.get("/organise/contests/later/").content.decode()
    assert '<option value="connect-four" selected>connect-four (not hosted yet: the contest cannot open)' in page
    assert "Its game is not hosted here" in page and "/console/stages/new/" not in page
    saved = client.post("/organise/contests/later/", page_fields(title="Later, renamed", slug="later",
                                                                 game="connect-four", game_params='{"rows": 6}'))  # fmt: skip
    assert saved.status_code == 302
    assert Contest.objects.filter(slug="later", game="connect-four", title="Later, renamed").exists()


def test_the_game_cannot_change_once_the_contest_has_entries(client, organiser):
    client.force_login(organiser)
    client.post("/organise/contests/new/", page_fields())
    make_entry(Contest.objects.get(slug="chomp-open"))
    refused = client.post("/organise/contests/chomp-open/", page_fields(game="sudoku", game_params=""))
    assert "The game cannot change: Chomp Open has entries" in refused.content.decode()
    assert Contest.objects.get(slug="chomp-open").game == "chomp"


def test_a_script_in_the_rules_is_removed_from_the_preview_and_the_contests_page(client, organiser):
    hostile = "# Rules\n\nEat **cookies**.\n\n<script>alert('rules')</script>\n\n[x](javascript:alert(1))"
    client.force_login(organiser)
    preview = client.post("/organise/preview/", {"rules": hostile})
    assert preview.status_code == 200 and preview["Content-Type"] == "text/html; charset=utf-8"
    html = preview.content.decode()
    assert "<h1>Rules</h1>" in html and "<strong>cookies</strong>" in html
    assert "<script" not in html and "javascript:" not in html
    # Without JavaScript, the Preview button sends the whole form back: shown again, not saved.
    again = client.post("/organise/contests/new/", page_fields(rules=hostile, preview="1")).content.decode()
    shown = again.split('id="rules-preview"')[1].split("</div>")[0]
    assert "<strong>cookies</strong>" in shown and "hidden" not in shown.split(">")[0]
    assert "<script>alert" not in again and 'value="Chomp Open"' in again
    assert not Contest.objects.exists()
    client.post("/organise/contests/new/", page_fields(rules=hostile))
    public = client.get("/contests/chomp-open/").content.decode()
    assert "<strong>cookies</strong>" in public and "<script>alert" not in public
    assert Contest.objects.get().rules == hostile  # kept as written; sanitised when shown


def test_an_organiser_adds_a_stage_with_the_judges_form_and_the_judges_run_it(client, organiser, queued):
    client.force_login(organiser)
    client.post("/organise/contests/new/", page_fields())
    form = client.get("/contests/chomp-open/console/stages/new/?kind=round_robin").content.decode()
    assert '/contests/chomp-open/console/"' in form  # its owner judges it too
    added = client.post(
        "/contests/chomp-open/console/stages/new/", {"kind": "round_robin", "name": "Final", "order": 1}, follow=True
    )
    assert added.redirect_chain[-1][0] == "/contests/chomp-open/console/"
    page = added.content.decode()
    assert "Final is added; run it from the console when it is time." in page
    assert Stage.objects.get().status == Stage.Status.PENDING
    assert list(JudgeAction.objects.values_list("action", flat=True).order_by("pk")) == [
        "contest.create",
        "stage.add",
    ]
    client.force_login(make_user())
    assert client.get("/contests/chomp-open/console/").status_code == 403


def test_a_hidden_contest_is_seen_by_its_organisers(client, organiser):
    client.force_login(organiser)
    client.post("/organise/contests/new/", page_fields(is_public=None))
    assert Contest.objects.get().is_public is False
    assert client.get("/contests/chomp-open/").status_code == 200
    client.force_login(make_user())
    assert client.get("/contests/chomp-open/").status_code == 404


def test_the_admin_checks_and_logs_with_the_same_form(admin_client):
    from web.admin import ContestAdmin, ContestForm
    from web.contest_form import ContestForm as Shared

    assert ContestAdmin.form is Shared and ContestForm is Shared
    contest = make_contest(slug="chomp", title="Chomp")
    fields = {
        "title": "Chomp", "slug": "chomp", "game": "chomp", "game_params": '{"rows": 4, "cols": 5}', "clock": "{}",
        "entry_form": "[]", "max_entries_per_user": 1, "max_source_bytes": 1048576, "language_table": "arbiter",
        "source_counts": "bytes", "is_public": "on",
        "stages-TOTAL_FORMS": 0, "stages-INITIAL_FORMS": 0, "stages-MIN_NUM_FORMS": 0, "stages-MAX_NUM_FORMS": 1000,
    }  # fmt: skip
    url = f"/admin/contests/contest/{contest.pk}/change/"
    refused = admin_client.post(url, {**fields, "clock": '{"wall_per_move_s": 0}'})
    assert refused.status_code == 200 and "wall_per_move_s must be a positive number" in refused.content.decode()
    saved = admin_client.post(url, {**fields, "title": "Chomp (admin)"})
    assert saved.status_code == 302
    action = JudgeAction.objects.get()
    assert action.action == "contest.edit" and action.data == {"title": {"from": "Chomp", "to": "Chomp (admin)"}}


# --- The API --------------------------------------------------------------------------------------


def test_an_organiser_opens_and_edits_a_contest_through_the_api(organiser, judge):
    made = api(organiser).post("/api/contests/", api_fields(reason="scripted"), format="json")
    assert made.status_code == 201, made.json()
    body = made.json()
    assert (body["slug"], body["game"], body["game_params"], body["rules"]) == (
        "chomp-open", "chomp", {"rows": 6}, "Eat **cookies**.",
    )  # fmt: skip
    assert body["clock"] == {"cpu_average_per_move_s": 30, "wall_per_move_s": 120}  # the game's
    assert body["policy"]["max_source_bytes"] == 65536 and body["stages"] == []
    created = JudgeAction.objects.get()
    assert (created.action, created.judge, created.reason) == ("contest.create", organiser, "scripted")

    edited = api(organiser).patch(
        "/api/contests/chomp-open/", {"clock": {"wall_per_move_s": 10, "memory_mb": 128}}, format="json"
    )
    assert edited.status_code == 200, edited.json()
    assert edited.json()["clock"] == {"cpu_average_per_move_s": 30, "wall_per_move_s": 10, "memory_mb": 128}
    contest = Contest.objects.get(slug="chomp-open")
    assert contest.title == "Chomp Open" and contest.game_params == {"rows": 6}  # what was not sent stays
    action = JudgeAction.objects.get(action="contest.edit")
    assert action.data == {"clock": {"from": {}, "to": {"wall_per_move_s": 10, "memory_mb": 128}}}

    refused = api(organiser).patch("/api/contests/chomp-open/", {"game_params": {"rows": 1}}, format="json")
    assert refused.status_code == 400 and "rows must be between 2 and 50, not 1" in refused.json()["error"]["message"]
    again = api(organiser).patch("/api/contests/chomp-open/", {"title": "Chomp Open"}, format="json")
    assert again.status_code == 200 and JudgeAction.objects.count() == 2  # nothing changed, nothing logged
    assert api(organiser).patch("/api/contests/nowhere/", {"title": "x"}, format="json").status_code == 404
    # The judges read both lines in the log's CSV, with what changed.
    assert api(organiser).post("/api/contests/chomp-open/roles/", {"user": "jules", "role": "judge"}).status_code == 201
    client = APIClient()
    client.force_login(judge)
    csv = client.get("/contests/chomp-open/judges-log/?format=csv").content.decode()
    assert "contest.create" in csv and "contest.edit" in csv and "wall_per_move_s" in csv


# --- In a browser -----------------------------------------------------------------------------------


@pytest.fixture
def olga(transactional_db):
    """An organiser who logs in with a password, made before the browser starts (no query may
    run in the test's thread once Playwright's loop runs in it)."""
    organiser = make_user(username="olga", password="a-long-pass-phrase")
    organiser.groups.add(ensure_organisers_group())
    return organiser


@pytest.fixture
def page(live_server, olga, chromium_page):
    return chromium_page  # after the data: see chromium_page


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_an_organiser_opens_a_contest_in_a_browser_with_the_rules_previewed(page, live_server):
    page.goto(live_server.url + "/accounts/login/")
    page.fill("#id_username", "olga")
    page.fill("#id_password", "a-long-pass-phrase")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(live_server.url + "/")

    page.get_by_role("link", name="Organise").click()
    page.get_by_role("link", name="New contest").click()
    # loaded, its script too: a game chosen before the script runs changes no placeholder, and on
    # a loaded host the deferred script can run well after the form is there to fill
    page.wait_for_url(live_server.url + "/organise/contests/new/")
    page.fill("#id_title", "Hearts in the browser")
    page.fill("#id_slug", "hearts-browser")
    page.select_option("#id_game", "hearts_flowers")
    assert page.locator("#id_clock").get_attribute("placeholder") == '{"cpu_per_move_s":30,"wall_per_move_s":30}'
    assert "n: 3 to 12, 5 if not set" in page.locator("#game-params-help").inner_text()
    page.fill("#id_game_params", '{"n": 4}')
    page.fill("#id_rules", "Make a **line of n**.\n\n<script>document.title = 'owned'</script>")
    page.get_by_role("button", name="Preview").click()
    preview = page.locator("#rules-preview")
    preview.locator("strong").wait_for()
    assert preview.locator("strong").inner_text() == "line of n" and preview.locator("script").count() == 0
    assert page.url.endswith("/organise/contests/new/")  # previewed in place, nothing sent but the rules

    page.get_by_role("button", name="Create the contest").click()
    page.wait_for_url(live_server.url + "/organise/contests/hearts-browser/")
    assert "Hearts in the browser is created" in page.content()
    page.get_by_role("link", name="its page").click()
    page.wait_for_url(live_server.url + "/contests/hearts-browser/")
    rules = page.locator(".rules")
    assert rules.locator("strong").inner_text() == "line of n" and rules.locator("script").count() == 0
    assert page.title() != "owned"
    assert (
        "hearts_flowers\nn\n4"
        in page.locator("section", has=page.get_by_role("heading", name="Parameters")).inner_text()
    )
    page.get_by_role("link", name="Judges' log").click()
    assert "contest.create" in page.locator("table.judges-actions").inner_text()
