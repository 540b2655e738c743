from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from accounts.models import ApiToken
from contests.tests.factories import make_user

pytestmark = pytest.mark.django_db


def test_a_token_is_stored_hashed_and_authenticates_until_revoked():
    user = make_user()
    token, key = ApiToken.issue(user, "laptop")
    assert key.startswith("arb_") and key not in token.digest and token.digest != key
    assert ApiToken.authenticate(key) == token
    assert ApiToken.authenticate(key[:-1] + ("A" if key[-1] != "A" else "B")) is None
    assert ApiToken.authenticate("arb_short") is None and ApiToken.authenticate("") is None
    token.revoke()
    assert ApiToken.authenticate(key) is None


def test_create_token_prints_a_working_token():
    user = make_user("scripted")
    out = StringIO()
    call_command("create_token", "scripted", stdout=out)
    key = out.getvalue().strip()
    assert ApiToken.authenticate(key).user == user
    with pytest.raises(CommandError, match="no user named 'nobody'"):
        call_command("create_token", "nobody", stdout=StringIO())


def test_the_profile_page_creates_lists_and_revokes_tokens(client):
    user = make_user()
    client.force_login(user)
    page = client.post("/accounts/profile/", {"name": "ci script"}).content.decode()
    token = user.api_tokens.get()
    assert "shown this once" in page and f"arb_{token.lookup}" in page
    key = page.split('id="new-token">')[1].split("<code>")[1].split("</code>")[0]
    assert ApiToken.authenticate(key) == token
    client.post(f"/accounts/tokens/{token.pk}/revoke/")
    token.refresh_from_db()
    assert token.revoked_at is not None
    other = make_user()
    theirs, _ = ApiToken.issue(other, "theirs")
    assert client.post(f"/accounts/tokens/{theirs.pk}/revoke/").status_code == 404
