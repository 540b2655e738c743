"""A person's own language (issue 38): chosen in the header or on the profile, it follows them to
another browser at log-in, wins over that browser's Accept-Language, and is the language their
notifications are written in; a visitor's choice stays a cookie."""

import pytest
from django.test import Client

from accounts.models import Preference
from contests import services
from contests.tests.factories import make_contest, make_entry, make_user
from judging.models import Notification

PASSWORD = "a-long-enough-password-1"


def _client(language: str = "en") -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE=language)


def _log_in(client: Client, username: str) -> None:
    answer = client.post("/accounts/login/", {"username": username, "password": PASSWORD})
    assert answer.status_code == 302, answer.content.decode()[:500]


@pytest.mark.django_db
def test_the_header_s_choice_is_kept_and_follows_the_person_to_another_browser():
    make_user(username="anna", password=PASSWORD)
    home = _client()
    _log_in(home, "anna")
    answer = home.post("/i18n/setlang/", {"language": "nl", "next": "/"})
    assert answer.status_code == 302 and answer["Location"] == "/"
    assert Preference.objects.get(user__username="anna").language == "nl"
    assert ">Wedstrijden</h1>" in home.get("/").content.decode()

    elsewhere = _client("en-GB,en;q=0.9")  # another computer, an English browser, no cookie
    assert ">Contests</h1>" in elsewhere.get("/").content.decode()
    _log_in(elsewhere, "anna")
    page = elsewhere.get("/").content.decode()
    assert '<html lang="nl">' in page and ">Wedstrijden</h1>" in page
    elsewhere.post("/accounts/logout/")
    assert ">Contests</h1>" in elsewhere.get("/").content.decode()  # the next visitor's own


@pytest.mark.django_db
def test_a_visitor_s_choice_is_a_cookie_only():
    visitor = _client()
    visitor.post("/i18n/setlang/", {"language": "nl", "next": "/"})
    assert ">Wedstrijden</h1>" in visitor.get("/").content.decode()
    assert not Preference.objects.exists()


@pytest.mark.django_db
def test_the_profile_sets_a_language_and_gives_it_back_to_the_browser():
    make_user(username="bram", password=PASSWORD)
    client = _client("nl")
    _log_in(client, "bram")
    profile = client.get("/accounts/profile/").content.decode()
    assert 'id="profile-language"' in profile and '<option value="" selected>' in profile

    answer = client.post("/accounts/profile/language/", {"language": "en"}, follow=True)
    page = answer.content.decode()
    assert answer.redirect_chain[-1][0] == "/accounts/profile/"
    assert "Language saved: English." in page and '<option value="en" lang="en" selected>' in page
    assert ">Contests</h1>" in client.get("/").content.decode()  # over the browser's Dutch

    dutch = client.post("/accounts/profile/language/", {"language": "nl"}, follow=True).content.decode()
    assert "Taal opgeslagen: Nederlands." in dutch and '<option value="nl" lang="nl" selected>' in dutch
    client.post("/accounts/profile/language/", {"language": ""})  # the browser's again
    assert Preference.objects.get(user__username="bram").language == ""
    assert ">Wedstrijden</h1>" in client.get("/").content.decode()


@pytest.mark.django_db
def test_hostile_choices_change_nothing_and_never_fail():
    make_user(username="cleo", password=PASSWORD)
    anonymous = _client()
    answer = anonymous.post("/accounts/profile/language/", {"language": "nl"})
    assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    client = _client()
    _log_in(client, "cleo")
    for language in ["xx", "../../etc", "nl" * 40, "NL\n"]:
        answer = client.post("/accounts/profile/language/", {"language": language}, follow=True)
        assert answer.status_code == 200 and "The site does not speak that language." in answer.content.decode()
        answer = client.post("/i18n/setlang/", {"language": language, "next": "/"})
        assert answer.status_code == 302
    assert not Preference.objects.filter(language__gt="").exists()
    away = client.post("/accounts/profile/language/", {"language": "nl", "next": "https://evil.example/"})
    assert away["Location"] == "/accounts/profile/"  # not another site
    assert client.get("/accounts/profile/language/").status_code == 405


@pytest.mark.django_db
def test_notifications_are_written_in_the_language_their_reader_chose():
    ada = make_user(username="ada", password=PASSWORD)
    bob = make_user(username="bob", password=PASSWORD)
    Preference.objects.create(user=ada, language="nl")
    contest = make_contest(title="Chomp Open")
    judge = make_user(username="judge", password=None)
    services.disqualify(judge, make_entry(contest, ada, name="Muncher"), "Shared its program.")
    services.disqualify(judge, make_entry(contest, bob, name="Nibbler"), "Shared its program.")
    assert Notification.objects.get(user=ada).subject == "Muncher is gediskwalificeerd"
    assert Notification.objects.get(user=bob).subject == "Nibbler is disqualified"


@pytest.mark.django_db
def test_a_person_s_page_says_its_language_in_its_header():
    make_user(username="dora", password=PASSWORD)
    client = _client("en")
    _log_in(client, "dora")
    client.post("/i18n/setlang/", {"language": "nl", "next": "/"})
    assert client.get("/")["Content-Language"] == "nl"
