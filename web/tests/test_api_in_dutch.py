"""The API answers in the language the client asks for (``Accept-Language``): its refusals are
marked for translation, and Dutch is complete. LocaleMiddleware, which picks the language, is
placed in the settings by the site's own change; here it is put after the session's, as
Django's documentation places it."""

import pytest
from django.conf import settings
from django.test import override_settings
from django.utils import translation
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

WITH_LOCALE = [
    *(m for m in settings.MIDDLEWARE if m != "django.middleware.locale.LocaleMiddleware"),
]
WITH_LOCALE.insert(
    WITH_LOCALE.index("django.contrib.sessions.middleware.SessionMiddleware") + 1,
    "django.middleware.locale.LocaleMiddleware",
)


@pytest.fixture(autouse=True)
def back_to_the_sites_language():
    """LocaleMiddleware activates the request's language in the thread and leaves it there (the
    next request activates its own); the tests after these call code directly, in English."""
    yield
    translation.deactivate()


@override_settings(MIDDLEWARE=WITH_LOCALE)
def test_a_refusal_is_in_dutch_for_a_client_that_asks_for_dutch():
    dutch = APIClient(HTTP_ACCEPT_LANGUAGE="nl").post("/api/contests/", {"title": "Open"}, format="json")
    english = APIClient().post("/api/contests/", {"title": "Open"}, format="json")
    assert dutch.status_code == english.status_code == 401
    assert dutch.json()["error"]["message"] == "Log in (of stuur een token) als een van de organisatoren van de site."
    assert english.json()["error"]["message"] == "Log in (or send a token) as one of the site's organisers."
    assert dutch.json()["error"]["code"] == english.json()["error"]["code"]  # codes are for scripts: never translated


@override_settings(MIDDLEWARE=WITH_LOCALE)
def test_a_field_error_names_its_bounds_in_dutch():
    answer = APIClient(HTTP_ACCEPT_LANGUAGE="nl-NL,nl;q=0.9,en;q=0.5").get(
        "/api/matches/", {"contest": "x", "stage": "a"}
    )
    assert answer.status_code == 400
    assert answer.json()["error"]["fields"] == {"stage": ["Een stage-id is een getal."]}


@override_settings(MIDDLEWARE=WITH_LOCALE)
def test_an_unknown_address_is_said_in_dutch():
    answer = APIClient(HTTP_ACCEPT_LANGUAGE="nl").get("/api/no-such-thing/")
    assert answer.status_code == 404
    assert answer.json()["error"]["message"] == "Dit adres bestaat niet in de API."
