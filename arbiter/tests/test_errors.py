"""Every error under /api/ answers the API's error body; every other page its HTML page."""

import json

import pytest
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import ApiToken
from contests.tests.factories import make_contest, make_entry, make_submission, make_user

pytestmark = pytest.mark.django_db


def _error(response) -> dict:
    assert response["Content-Type"] == "application/json", response.content[:200]
    body = json.loads(response.content)
    assert set(body) == {"error"} and body["error"]["status"] == response.status_code
    assert isinstance(body["error"]["code"], str) and body["error"]["message"]
    return body["error"]


@pytest.fixture
def broken_contest_list(monkeypatch):
    """A platform bug: the service behind the home page and the contest list raises."""

    def broken(user):
        raise RuntimeError("a bug in the service")

    monkeypatch.setattr("contests.services.visible_contests", broken)


def test_a_server_error_under_the_api_has_the_api_body(broken_contest_list):
    client = APIClient(raise_request_exception=False)
    response = client.get("/api/contests/")
    assert response.status_code == 500
    error = _error(response)
    assert error["code"] == "server_error" and "a bug in the service" not in error["message"]


def test_a_server_error_elsewhere_is_the_html_page(broken_contest_list):
    response = Client(raise_request_exception=False).get("/")
    assert response.status_code == 500
    body = response.content.decode()
    assert response["Content-Type"].startswith("text/html") and "<h1>Server error</h1>" in body  # the styled page
    assert "arbiter.css" in body and "<title>Server error · Arbiter</title>" in body


def test_django_level_400_403_and_404_under_the_api_have_the_api_body(client, settings):
    from arbiter import views

    request = APIClient().get("/api/x/").wsgi_request
    for handler, status in [(views.bad_request, 400), (views.permission_denied, 403), (views.page_not_found, 404)]:
        error = _error(handler(request, Exception("why")))
        assert error["status"] == status
    settings.ALLOWED_HOSTS = ["localhost"]
    error = _error(client.get("/api/contests/", HTTP_HOST="evil.example"))  # DisallowedHost: Django's 400
    assert error["status"] == 400 and error["code"] == "bad_request"
    page = client.get("/contests/", HTTP_HOST="evil.example")
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")


def test_pages_keep_their_html_404():
    response = Client().get("/contests/no-such-contest/")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")


def test_a_json_body_too_large_to_read_is_a_413_in_the_api_body(settings, queued):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    entry = make_entry(make_contest())
    _, key = ApiToken.issue(entry.user, "test")
    client = APIClient(HTTP_AUTHORIZATION=f"Bearer {key}")
    body = json.dumps({"filename": "a.c", "source": "x" * 5000})
    response = client.post(f"/api/entries/{entry.pk}/submissions/", body, content_type="application/json")
    assert response.status_code == 413
    error = _error(response)
    assert error["code"] == "too_large" and "1,000 bytes" in error["message"]
    assert "multipart" in error["message"]


@pytest.mark.parametrize("body", ["null", "[]", '"x"', "1", "true"])
def test_a_body_that_is_not_a_json_object_is_a_400_everywhere(body, queued):
    contest = make_contest(slug="chomp")
    user = make_user(is_superuser=True)
    entry = make_entry(contest, user)
    _, key = ApiToken.issue(user, "test")
    client = APIClient(HTTP_AUTHORIZATION=f"Bearer {key}", raise_request_exception=False)
    submission = make_submission(entry, is_active=True, status="ready")
    for url in [
        "/api/contests/chomp/entries/",
        f"/api/entries/{entry.pk}/submissions/",
        f"/api/submissions/{submission.pk}/test-games/",
        f"/api/entries/{entry.pk}/disqualify/",
        f"/api/entries/{entry.pk}/reinstate/",
    ]:
        response = client.post(url, body, content_type="application/json")
        assert response.status_code == 400, (url, response.content[:300])
        assert _error(response)["code"] == "invalid"
    assert queued == []


def test_the_icon_is_where_browsers_look_for_it_on_pages_that_name_none(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"] == "/static/favicon.svg"
