"""The client's address (accounts/addresses.py): X-Forwarded-For only from TRUSTED_PROXIES, and
the lockout of wrong passwords counted by it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import RequestFactory

from accounts.addresses import client_address, parse_address


def _request(peer: str, forwarded: str | None = None):
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded is not None else {}
    return RequestFactory().get("/", REMOTE_ADDR=peer, **headers)


def test_with_no_trusted_proxy_the_header_changes_nothing(settings):
    settings.TRUSTED_PROXIES = []
    assert client_address(_request("198.51.100.7")) == "198.51.100.7"
    for forged in ("203.0.113.1", "10.0.0.1, 203.0.113.9", "127.0.0.1", "garbage"):
        assert client_address(_request("198.51.100.7", forged)) == "198.51.100.7"


def test_a_header_from_a_peer_that_is_not_a_trusted_proxy_is_ignored(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.5"]
    assert client_address(_request("198.51.100.7", "203.0.113.1")) == "198.51.100.7"


def test_behind_trusted_proxies_the_chain_is_walked_from_the_right(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.5", "10.1.0.0/16", "fd00::/8"]
    # The proxy appended the address it was reached from; what the client wrote is further left.
    assert client_address(_request("10.0.0.5", "203.0.113.1")) == "203.0.113.1"
    assert client_address(_request("10.0.0.5", "6.6.6.6, 203.0.113.1")) == "203.0.113.1"
    # Two trusted proxies in a row (a load balancer, then nginx): both are skipped.
    assert client_address(_request("10.0.0.5", "6.6.6.6, 203.0.113.1, 10.1.4.2")) == "203.0.113.1"
    assert client_address(_request("fd00::1", "2001:db8::7, fd00::2")) == "2001:db8::7"
    # Ports and brackets as proxies write them; an IPv4-mapped address is its IPv4 one.
    assert client_address(_request("10.0.0.5", "[2001:db8::7]:4711")) == "2001:db8::7"
    assert client_address(_request("10.0.0.5", "203.0.113.1:4711")) == "203.0.113.1"
    assert client_address(_request("::ffff:10.0.0.5", "::ffff:203.0.113.1")) == "203.0.113.1"


def test_behind_a_trusted_proxy_an_odd_header_falls_back_to_the_nearest_known_hop(settings):
    settings.TRUSTED_PROXIES = ["10.0.0.0/8"]
    assert client_address(_request("10.0.0.5")) == "10.0.0.5"  # the proxy itself, asking
    assert client_address(_request("10.0.0.5", "")) == "10.0.0.5"
    assert client_address(_request("10.0.0.5", "10.0.0.9")) == "10.0.0.9"  # only proxies: the farthest
    assert client_address(_request("10.0.0.5", "203.0.113.1, nonsense, 10.0.0.7")) == "10.0.0.7"


def test_parse_address_takes_what_servers_and_proxies_write():
    assert str(parse_address(" 192.0.2.1 ")) == "192.0.2.1"
    assert str(parse_address("[::1]:80")) == "::1"
    assert parse_address("unknown") is None and parse_address("") is None and parse_address("[::1") is None


def _log_in(client, password: str, forwarded: str, peer: str = "198.51.100.7"):
    return client.post(
        "/accounts/login/", {"username": "admin", "password": password},
        REMOTE_ADDR=peer, HTTP_X_FORWARDED_FOR=forwarded,
    )  # fmt: skip


@pytest.mark.django_db
def test_twelve_wrong_passwords_each_with_another_x_forwarded_for_are_locked_out(client, settings):
    """25 wrong passwords for admin, each with another X-Forwarded-For, were never locked out;
    during a lockout the right password with a fresh header logged in."""
    User.objects.create_user("admin", password="right-password")
    codes = [_log_in(client, "wrong", f"203.0.113.{n}").status_code for n in range(12)]
    assert codes == [200] * (settings.AXES_FAILURE_LIMIT - 1) + [429] * (13 - settings.AXES_FAILURE_LIMIT)
    locked = _log_in(client, "right-password", "192.0.2.200")
    assert locked.status_code == 429 and locked["Retry-After"] == str(settings.AXES_COOLOFF_TIME.seconds)


@pytest.mark.django_db
def test_behind_a_trusted_proxy_each_client_is_locked_out_alone(client, settings):
    settings.TRUSTED_PROXIES = ["10.0.0.5"]
    User.objects.create_user("admin", password="right-password")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _log_in(client, "wrong", "203.0.113.1", peer="10.0.0.5")
    assert _log_in(client, "right-password", "203.0.113.1", peer="10.0.0.5").status_code == 429
    # What the locked-out client writes left of its own address does not get it out...
    assert _log_in(client, "right-password", "192.0.2.9, 203.0.113.1", peer="10.0.0.5").status_code == 429
    # ...and another client behind the same proxy is not locked out with it.
    assert _log_in(client, "right-password", "203.0.113.2", peer="10.0.0.5").status_code == 302
