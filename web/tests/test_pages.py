import pytest

from contests.tests.factories import make_contest, make_entry, make_stage, make_user, name_to

pytestmark = pytest.mark.django_db


def test_home_lists_public_contests(client):
    make_contest(title="Public Chomp", summary="Eat cookies")
    make_contest(title="Secret Sudoku", is_public=False)
    page = client.get("/").content.decode()
    assert "Public Chomp" in page
    assert "Eat cookies" in page
    assert "Secret Sudoku" not in page


def test_contest_page_shows_rules_parameters_stages_and_entries(client):
    contest = make_contest(slug="chomp", rules="Do not eat the poison cookie.", game_params={"rows": 7, "cols": 9})
    make_stage(contest, name="Summer round robin")
    make_entry(contest, name="Cookie Monster")
    page = client.get("/contests/chomp/").content.decode()
    for text in ["Do not eat the poison cookie.", "rows", "7", "Summer round robin", "Cookie Monster"]:
        assert text in page


def test_a_hidden_contest_is_a_404_except_for_its_own_people(client):
    hidden = make_contest(slug="hidden", is_public=False)
    other = make_contest(slug="other", is_public=False)
    assert client.get("/contests/hidden/").status_code == 404
    assert client.get("/contests/no-such-contest/").status_code == 404
    judge = name_to(hidden, make_user())
    client.force_login(judge)
    assert client.get("/contests/hidden/").status_code == 200
    assert client.get("/contests/other/").status_code == 404  # a judge of another contest sees nothing of it
    name_to(other, judge, role="organiser")
    assert client.get("/contests/other/").status_code == 200


def test_pages_refuse_methods_they_do_not_serve(client):
    make_contest(slug="chomp")
    assert client.post("/contests/chomp/").status_code == 405
    assert client.post("/").status_code == 405


@pytest.mark.parametrize(
    "query", ["?stage=abc", "?stage=99999999999999999999999", "?entry=-1", "?entry=1e9", "?stage=²", "?entry=١"]
)
def test_malformed_filters_never_crash_a_page(client, query):
    make_contest(slug="chomp")
    assert client.get(f"/contests/chomp/matches/{query}").status_code == 200
    assert client.get(f"/contests/chomp/standings/{query}").status_code in (200, 404)


def test_an_id_too_large_for_the_database_is_a_404(client):
    assert client.get("/matches/99999999999999999999999/").status_code == 404
    assert client.get("/api/matches/99999999999999999999999/").json()["error"]["status"] == 404


@pytest.mark.django_db
def test_a_403_is_logged_in_one_line_without_a_traceback(client, caplog):
    from contests.tests.factories import make_contest, make_user

    make_contest(slug="chomp")
    client.force_login(make_user())
    assert client.get("/contests/chomp/console/").status_code == 403
    forbidden = [r for r in caplog.records if r.name == "django.request" and r.getMessage().startswith("Forbidden")]
    assert forbidden and all(r.exc_info is None for r in forbidden)
