"""/api/notifications/: the token's user's notifications, newest first, and marking them
read; nobody else's, and nothing for an anonymous caller."""

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from accounts.models import ApiToken
from contests.tests.factories import make_contest, make_user
from judging.models import Notification
from judging.news import notifications

pytestmark = pytest.mark.django_db


def api(user=None):
    client = APIClient()
    if user is not None:
        _, key = ApiToken.issue(user, "test")
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


@pytest.fixture
def ada():
    ada = make_user("ada", password=None)
    contest = make_contest(slug="chomp-open")
    notifications.notify(
        ada.pk, Notification.Kind.FAULTS, "Muncher: 1 crash since version 2", "Since you submitted version 2...",
        link="/contests/chomp-open/entries/1/", contest_id=contest.pk,
        lines=[{"text": "match 7 (Ladder), version 2: lost to Bob: crashed (move 1)", "link": "/matches/7/"}],
    )  # fmt: skip
    notifications.notify(ada.pk, Notification.Kind.JUDGED, "Muncher is reinstated", "A judge reinstated Muncher.")
    return ada


def test_the_list_is_the_users_own_newest_first_with_full_addresses(ada):
    listing = api(ada).get("/api/notifications/").json()
    assert listing["count"] == 2
    newest, digest = listing["results"]
    assert newest["subject"] == "Muncher is reinstated" and newest["read"] is False and newest["contest"] is None
    assert digest["kind"] == "faults" and digest["contest"] == "chomp-open"
    assert digest["url"] == f"{settings.SITE_URL}/contests/chomp-open/entries/1/"
    assert digest["lines"][0]["url"] == f"{settings.SITE_URL}/matches/7/"


def test_marking_read_by_id_or_all(ada):
    client = api(ada)
    first = client.get("/api/notifications/").json()["results"][0]["id"]
    assert client.post("/api/notifications/read/", {"ids": [first]}, format="json").json() == {"marked": 1, "unread": 1}
    unread = client.get("/api/notifications/?unread=1").json()["results"]
    assert [n["subject"] for n in unread] == ["Muncher: 1 crash since version 2"]
    assert client.post("/api/notifications/read/", {}, format="json").json() == {"marked": 1, "unread": 0}
    assert client.get("/api/notifications/").json()["results"][0]["read"] is True


def test_nobody_else_reads_or_marks_them(ada):
    bob = make_user("bob", password=None)
    assert api(bob).get("/api/notifications/").json()["count"] == 0
    ids = list(Notification.objects.values_list("pk", flat=True))
    assert api(bob).post("/api/notifications/read/", {"ids": ids}, format="json").json() == {"marked": 0, "unread": 0}
    assert notifications.unread_count(ada) == 2
    for answer in (api().get("/api/notifications/"), api().post("/api/notifications/read/", {}, format="json")):
        assert answer.status_code in (401, 403) and "error" in answer.json()
    refused = api(bob).post("/api/notifications/read/", {"ids": "all"}, format="json")
    assert refused.status_code == 400
