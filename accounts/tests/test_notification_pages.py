"""The notifications page (newest first, the unread ones marked, then read), the unread count
in the header, and the e-mail settings (a checkbox per kind): each the signed-in user's own."""

from datetime import timedelta

import pytest
from django.utils import timezone

from contests.tests.factories import make_contest, make_user
from judging.models import EmailOptOut, Notification
from judging.news import notifications

pytestmark = pytest.mark.django_db

Kind = Notification.Kind
BADGE = '<span class="badge" title="unread">'


def _told(user, subject, minutes_ago=0, **kwargs):
    return notifications.notify(
        user.pk, kwargs.pop("kind", Kind.JUDGED), subject, f"{subject}, in words.",
        at=timezone.now() - timedelta(minutes=minutes_ago), **kwargs,
    )  # fmt: skip


def test_the_list_is_newest_first_marks_the_unread_and_reads_them_once_shown(client):
    ada = make_user("ada", password=None)
    contest = make_contest(title="Chomp Open")
    _told(ada, "Muncher is disqualified", minutes_ago=5, contest_id=contest.pk, link=f"/contests/{contest.slug}/")
    _told(
        ada, "Muncher version 2: system test failed", kind=Kind.TEST_FAILED,
        lines=[{"text": "game 1 (match 7): crashed (move 1)", "link": "/matches/7/"}], log_tail="Traceback\n  boom",
    )  # fmt: skip
    client.force_login(ada)
    assert f"{BADGE}2</span>" in client.get("/accounts/profile/").content.decode()

    page = client.get("/accounts/notifications/").content.decode()
    assert page.index("system test failed") < page.index("is disqualified")  # newest first
    assert page.count('class="unread"') == 2 and page.count('<span class="badge">new</span>') == 2
    assert '<a href="/matches/7/">game 1 (match 7): crashed (move 1)</a>' in page
    assert '<pre tabindex="0" class="log">Traceback\n  boom</pre>' in page and ">Chomp Open</a>" in page
    assert BADGE not in page  # read once shown: the header counts none left
    again = client.get("/accounts/notifications/").content.decode()
    assert 'class="unread"' not in again and "is disqualified" in again


def test_mark_all_read_reaches_beyond_the_page_shown(client):
    ada = make_user("ada", password=None)
    for n in range(51):
        _told(ada, f"notification {n}", minutes_ago=n)
    client.force_login(ada)
    client.get("/accounts/notifications/")
    assert notifications.unread_count(ada) == 1  # the oldest, on page 2
    assert client.post("/accounts/notifications/").status_code == 302
    assert notifications.unread_count(ada) == 0


def test_only_their_owner_sees_notifications(client):
    ada, bob = make_user("ada", password=None), make_user("bob", password=None)
    _told(ada, "Muncher is disqualified")
    client.force_login(bob)
    page = client.get("/accounts/notifications/").content.decode()
    assert "Muncher" not in page and "None yet." in page and BADGE not in page
    client.post("/accounts/notifications/")  # bob's "mark all read" reads none of ada's
    assert notifications.unread_count(ada) == 1
    client.logout()
    for url in ("/accounts/notifications/", "/accounts/notifications/settings/"):
        answer = client.get(url)
        assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")
    assert "Notifications" not in client.get("/").content.decode()


def test_email_is_opted_out_of_kind_by_kind(client):
    ada = make_user("ada", email="ada@example.org", password=None)
    client.force_login(ada)
    page = client.get("/accounts/notifications/settings/").content.decode()
    assert page.count('type="checkbox"') == 4 and page.count("checked") == 4 and "ada@example.org" in page
    answer = client.post("/accounts/notifications/settings/", {"email": [Kind.BUILD_FAILED, Kind.TEST_FAILED]})
    assert answer.status_code == 302
    assert set(EmailOptOut.objects.filter(user=ada).values_list("kind", flat=True)) == {Kind.JUDGED, Kind.FAULTS}
    assert notifications.wants_email(ada.pk, Kind.BUILD_FAILED) and not notifications.wants_email(ada.pk, Kind.FAULTS)
    assert client.get("/accounts/notifications/settings/").content.decode().count("checked") == 2
    client.post("/accounts/notifications/settings/", {"email": notifications.kinds_for(ada)})
    assert not EmailOptOut.objects.exists()
    assert Kind.GAME not in notifications.kinds_for(ada)  # told of games only when uploading them
    refused = client.post("/accounts/notifications/settings/", {"email": ["everything"]})
    assert refused.status_code == 200 and "not one of the available choices" in refused.content.decode()
