"""Limits that hold (web/limits.py, arbiter/cache.py): counters in the cache, atomic across
processes; the API's budget per token; the heavy answers' per address for visitors not signed
in; bodies refused by their size before they are read."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import ApiToken
from contests.tests.factories import make_contest, make_entry, make_match, make_submission, make_user
from web import limits

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


# --- The counter ------------------------------------------------------------------------------


def test_a_window_passes_its_budget_then_says_when_the_next_request_fits():
    start = 600_000.0  # the start of a minute's window
    assert [limits.hit("t:a", (3, 60), now=start + n) for n in range(3)] == [None, None, None]
    assert limits.hit("t:a", (3, 60), now=start + 3) == 57 + 20  # next window, where these 3 weigh 2/3 of it
    assert limits.hit("t:b", (3, 60), now=start + 3) is None  # another client, its own budget
    # The refused request was not counted: in the next window the previous 3 weigh less and less.
    assert limits.hit("t:a", (3, 60), now=start + 60 + 10) == 10  # 3 * (1 - 1/6) = 2.5, + 1 > 3
    assert limits.hit("t:a", (3, 60), now=start + 60 + 20) is None  # 3 * (1 - 1/3) = 2, + 1 fits


def test_a_burst_astride_two_windows_gets_the_budget_once():
    start = 600_000.0
    passed = sum(limits.hit("t:burst", (10, 60), now=start + 59 + n / 100) is None for n in range(20))
    passed += sum(limits.hit("t:burst", (10, 60), now=start + 60 + n / 100) is None for n in range(20))
    assert passed == 10


_COUNT = """
import sys
from arbiter.cache import FileCache
cache = FileCache(sys.argv[1], {})
for _ in range(int(sys.argv[2])):
    cache.add("n", 0, timeout=600)
    cache.incr("n")
print(sum(cache.add(f"once-{k}", 1, timeout=600) for k in range(50)))
"""


def test_the_one_machine_cache_counts_every_process_in_it(tmp_path):
    """Django's file cache counts by reading and writing back: processes counting at once lost
    counts, and one token's 1,300 requests in 50 s all passed a limit of 600 a minute."""
    folder = tmp_path / "cache"
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent(_COUNT), str(folder), "300"],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for _ in range(8)
    ]
    added = [int(p.communicate(timeout=120)[0]) for p in processes]
    assert all(p.returncode == 0 for p in processes)
    from arbiter.cache import FileCache

    cache = FileCache(str(folder), {})
    assert cache.get("n") == 8 * 300
    assert sum(added) == 50  # each key added by one process only


def test_counting_keeps_a_counter_s_expiry(tmp_path):
    from arbiter.cache import FileCache

    cache = FileCache(str(tmp_path), {})
    cache.add("n", 0, timeout=1)
    assert cache.incr("n") == 1 and cache.incr("n", 5) == 6
    time.sleep(1.1)
    with pytest.raises(ValueError):
        cache.incr("n")
    assert cache.add("n", 0, timeout=60)


def test_a_full_cache_drops_expired_counters_before_live_ones(tmp_path):
    from arbiter.cache import FileCache

    cache = FileCache(str(tmp_path), {"OPTIONS": {"MAX_ENTRIES": 10}})
    for n in range(6):
        cache.add(f"old-{n}", 1, timeout=1)
    for n in range(4):
        cache.add(f"live-{n}", 1, timeout=600)
    time.sleep(1.1)
    cache.add("new", 1, timeout=600)  # the eleventh: a cull
    assert [cache.get(f"live-{n}") for n in range(4)] == [1] * 4 and cache.get("new") == 1


# --- The API's budget -------------------------------------------------------------------------


def test_the_api_answers_429_with_retry_after_and_rotating_the_header_does_not_help(settings):
    settings.API_RATE_LIMIT = (3, 60)
    make_contest()
    anonymous = APIClient()
    codes = [
        anonymous.get("/api/contests/", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}").status_code for n in range(4)
    ]  # fmt: skip
    assert codes == [200, 200, 200, 429]
    over = anonymous.get("/api/contests/", HTTP_X_FORWARDED_FOR="192.0.2.1")
    assert over.status_code == 429 and 1 <= int(over["Retry-After"]) <= 120
    assert over.json()["error"]["code"] == "throttled" and over.json()["error"]["status"] == 429
    assert anonymous.get("/api/contests/", REMOTE_ADDR="192.0.2.1").status_code == 200  # another address


@pytest.mark.django_db(transaction=True)
def test_720_requests_of_one_token_from_16_threads_see_429s():
    """In this process, through Django, with the real cache: 600 a minute pass, no more."""
    from django.db import connection

    token = ApiToken.issue(make_user(), "script")[1]
    codes: list[int] = []
    lock = threading.Lock()

    def client_thread():
        client = APIClient(HTTP_AUTHORIZATION=f"Bearer {token}")
        try:
            for _ in range(45):
                code = client.get("/api/me/").status_code
                with lock:
                    codes.append(code)
        finally:
            connection.close()

    started = time.monotonic()
    threads = [threading.Thread(target=client_thread) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    took = time.monotonic() - started
    assert len(codes) == 720 and set(codes) <= {200, 429}
    assert codes.count(429) > 0 and codes.count(200) <= 600 * (1 + took / 60) + 1, (codes.count(200), took)


# --- The heavy answers ------------------------------------------------------------------------


def _finished_match(contest):
    seats = [make_submission(make_entry(contest), status="ready") for _ in range(2)]
    return make_match(contest, seats, status="finished")


def test_the_heavy_answers_are_limited_per_address_for_visitors_not_signed_in(settings):
    """16 visitors fetching a standings' history.json for 20 s were never refused while another
    visitor's contest page went from 0.2 s to 1.6-3.8 s."""
    settings.HEAVY_RATE_LIMIT = (5, 60)
    contest = make_contest(slug="chomp")
    url = "/contests/chomp/standings/history.json"
    visitor = Client()
    codes = [visitor.get(url, HTTP_X_FORWARDED_FOR=f"203.0.113.{n}").status_code for n in range(6)]
    assert codes == [200] * 5 + [429]
    over = visitor.get(url)
    body = over.json()["error"]
    assert over.status_code == 429 and int(over["Retry-After"]) >= 1
    assert body["code"] == "throttled" and "at most 5 a minute without signing in" in body["message"]
    # The same budget for the API's heavy endpoints, and for the downloads (a page that says so).
    assert APIClient().get("/api/contests/chomp/standings/").status_code == 429
    match = _finished_match(contest)
    bundle = visitor.get(f"/matches/{match.pk}/bundle.zip")
    assert bundle.status_code == 429 and "Try again in" in bundle.content.decode()
    # Another address, and anyone signed in, are not held back by it.
    assert visitor.get(url, REMOTE_ADDR="192.0.2.1").status_code == 200
    member = Client()
    member.force_login(make_user())
    assert all(member.get(url).status_code == 200 for _ in range(8))
    assert APIClient().get("/api/contests/chomp/", HTTP_X_FORWARDED_FOR="203.0.113.99").status_code == 200  # light


# --- Bodies -----------------------------------------------------------------------------------


def test_a_large_json_body_is_refused_by_its_length_before_it_is_parsed(monkeypatch):
    """A 4.9 MB JSON body of 200,000 keys took 7-15 s of a web worker before its 400."""
    from web.api_support import JSONParser

    def never(*args, **kwargs):  # pragma: no cover - what must not happen
        raise AssertionError("the body was parsed")

    monkeypatch.setattr(JSONParser, "parse", never)
    user = make_user()
    submission = make_submission(make_entry(make_contest(), user=user), status="ready")
    body = json.dumps({f"key-{n:06d}": n for n in range(200_000)}) + " " * 800_000
    assert len(body) > 4_900_000
    client = APIClient(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(user, 'script')[1]}")
    started = time.monotonic()
    answer = client.post(f"/api/submissions/{submission.pk}/versus/", body, content_type="application/json")
    assert answer.status_code == 413 and time.monotonic() - started < 2
    error = answer.json()["error"]
    assert error["code"] == "too_large" and "larger than 1,048,576 bytes" in error["message"]
    # A form on a page is refused alike, on a page.
    page = Client().post("/accounts/login/", "x=" + "a" * 2_000_000, content_type="application/x-www-form-urlencoded")
    assert page.status_code == 413 and "larger than 1,048,576 bytes" in page.content.decode()


def test_an_upload_keeps_its_own_larger_limit(queued):
    make_contest(slug="chomp", max_source_bytes=4 * 1024 * 1024)
    client = APIClient(HTTP_AUTHORIZATION=f"Bearer {ApiToken.issue(make_user(), 'script')[1]}")
    source = b"int main(void) { return 0; }\n" + b"// padding\n" * 200_000  # 2.2 MB: over BODY_MAX_BYTES
    answer = client.post(
        "/api/contests/chomp/entries/", {"name": "Big", "source": SimpleUploadedFile("big.c", source)},
        format="multipart",
    )  # fmt: skip
    assert answer.status_code == 201, answer.content[:300]


def test_a_refused_request_is_logged_with_the_client_s_address(settings, caplog):
    settings.API_RATE_LIMIT = (1, 60)
    settings.TRUSTED_PROXIES = ["10.0.0.5"]
    make_contest()
    behind_the_proxy = APIClient(REMOTE_ADDR="10.0.0.5", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7")
    assert [behind_the_proxy.get("/api/contests/").status_code for _ in range(2)] == [200, 429]
    lines = [r.getMessage() for r in caplog.records if r.name == "django.request"]
    assert lines == ["Too Many Requests: /api/contests/ (from 203.0.113.7)"]


def test_a_cache_that_is_away_limits_nothing_and_says_so(settings, caplog):
    """A Redis that is down (here: a port nothing listens on) must not turn every request into a 500."""
    from judging.tests.installation import free_port

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
            "OPTIONS": {"socket_connect_timeout": 0.2},
        }
    }
    settings.API_RATE_LIMIT = (1, 60)
    make_contest()
    assert [APIClient().get("/api/contests/").status_code for _ in range(3)] == [200, 200, 200]
    assert "rate limits are off while the cache is away" in caplog.text
