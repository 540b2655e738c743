import pytest
from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def test_sign_up_creates_an_account_and_signs_in(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "carol",
            "email": "carol@example.org",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
        },
    )
    assert response.status_code == 302
    assert User.objects.get(username="carol").email == "carol@example.org"
    assert "carol" in client.get("/").content.decode()


@pytest.mark.parametrize(
    ("data", "error"),
    [
        (
            {"username": "dave", "email": "dave@example.org", "password1": "a-long-pass-phrase", "password2": "other"},
            "didn",
        ),
        (
            {
                "username": "dave",
                "email": "not-an-address",
                "password1": "a-long-pass-phrase",
                "password2": "a-long-pass-phrase",
            },
            "valid email",
        ),
        (
            {"username": "dave", "email": "dave@example.org", "password1": "12345678", "password2": "12345678"},
            "too common",
        ),
        (
            {
                "username": "",
                "email": "dave@example.org",
                "password1": "a-long-pass-phrase",
                "password2": "a-long-pass-phrase",
            },
            "required",
        ),
    ],
)
def test_sign_up_refuses_bad_input_with_a_message(client, data, error):
    response = client.post("/accounts/signup/", data)
    assert response.status_code == 200
    assert error in response.content.decode()
    assert not User.objects.filter(username="dave").exists()


def test_sign_up_refuses_a_taken_email(client):
    User.objects.create_user("erin", "erin@example.org", "x")
    response = client.post(
        "/accounts/signup/",
        {
            "username": "erin2",
            "email": "ERIN@example.org",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
        },
    )
    assert "already exists" in response.content.decode()


def test_log_in_and_log_out(client):
    User.objects.create_user("frank", "frank@example.org", "a-long-pass-phrase")
    response = client.post("/accounts/login/", {"username": "frank", "password": "a-long-pass-phrase"})
    assert response.status_code == 302
    assert "frank" in client.get("/").content.decode()
    assert client.post("/accounts/logout/").status_code == 302
    assert "Log in" in client.get("/").content.decode()


def test_a_wrong_password_is_refused(client):
    User.objects.create_user("gina", "gina@example.org", "a-long-pass-phrase")
    response = client.post("/accounts/login/", {"username": "gina", "password": "wrong"})
    assert response.status_code == 200
    assert "correct username and password" in response.content.decode()


@pytest.mark.django_db
def test_log_ins_are_throttled_by_address_and_a_success_resets_the_count(client, settings):
    """40 wrong passwords for admin in 11.5 s were all answered: now, after LOGIN_FAILURE_LIMIT
    of them from one address, that address is refused with a 429 and a sentence."""
    User.objects.create_user("admin", password="right-password")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert client.post("/accounts/login/", {"username": "admin", "password": "wrong"}).status_code == 200
    assert client.post("/accounts/login/", {"username": "admin", "password": "right-password"}).status_code == 302
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/accounts/login/", {"username": "admin", "password": "wrong"})
    locked = client.post("/accounts/login/", {"username": "admin", "password": "right-password"})
    assert locked.status_code == 429 and "Too many wrong passwords came from this address" in locked.content.decode()
    # Another address is not locked out of the same account.
    other = client.post("/accounts/login/", {"username": "admin", "password": "right-password"}, REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 302
