"""/api/events/: server-sent events that cost no thread. 34 anonymous streams once held every
thread of the threaded web server (6 of 6 page loads timed out); now each stream is a coroutine
fed by one reader per process, capped per client and in total."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient

from accounts.models import ApiToken
from contests.tests.factories import make_contest, make_user
from judging.models import Event
from web import events as web_events

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def hub(monkeypatch):
    """A hub of this test's own: a stream another test left open counts against no cap here."""
    fresh = web_events.Hub()
    monkeypatch.setattr(web_events, "HUB", fresh)
    return fresh


async def _read(response, until: str, timeout: float = 10.0) -> str:
    """The stream's text until ``until`` appears (or its end)."""
    text = ""

    async def take():
        nonlocal text
        async for chunk in response.streaming_content:
            text += chunk.decode() if isinstance(chunk, bytes) else chunk
            if until in text:
                return

    await asyncio.wait_for(take(), timeout)
    return text


def _data(text: str) -> list[dict]:
    return [json.loads(line[5:]) for line in text.splitlines() if line.startswith("data:")]


def test_a_stream_gives_my_submissions_and_public_matches_from_where_i_left(settings):
    settings.EVENTS_STREAM_SECONDS = 1
    contest = make_contest(slug="chomp")
    ann, bob = make_user(), make_user()
    token = ApiToken.issue(ann, "script")[1]
    Event.objects.create(kind="submission", contest=contest, user=ann, data={"submission": 1, "status": "ready"})
    Event.objects.create(kind="submission", contest=contest, user=bob, data={"submission": 2, "status": "ready"})
    Event.objects.create(kind="match", contest=contest, data={"match": 5})

    async def scenario():
        response = await AsyncClient().get("/api/events/", {"after": 0}, headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 200 and response["Content-Type"] == "text/event-stream"
        return await _read(response, ": reconnect")

    text = async_to_sync(scenario)()
    events = _data(text)
    assert len(events) == 2, text
    assert events == [
        {"submission": 1, "status": "ready", "contest": "chomp", "at": events[0]["at"]},
        {"match": 5, "contest": "chomp", "at": events[1]["at"]},
    ]
    assert "event: submission" in text and "event: match" in text


@pytest.mark.parametrize("after", ["²", "x", "-1"])
def test_a_malformed_last_event_id_starts_from_the_beginning(settings, after):
    settings.EVENTS_STREAM_SECONDS = 1
    Event.objects.create(kind="match", contest=make_contest(slug="chomp"), data={"match": 5})

    async def scenario():
        response = await AsyncClient().get("/api/events/", headers={"Last-Event-ID": after})
        return await _read(response, '"match": 5')

    assert '"match": 5' in async_to_sync(scenario)()


def test_an_event_written_while_a_stream_is_open_reaches_it_and_only_whom_it_may(settings):
    settings.EVENTS_STREAM_SECONDS = 20
    settings.EVENTS_POLL_SECONDS = 0.05
    contest = make_contest(slug="chomp")
    hidden = make_contest(slug="secret", is_public=False)
    ann = make_user()

    def later():
        Event.objects.create(kind="match", contest=hidden, data={"match": 1})  # not for a visitor
        Event.objects.create(kind="submission", contest=contest, user=ann, data={"submission": 2})  # ann's
        Event.objects.create(kind="match", contest=contest, data={"match": 3, "status": "finished"})

    async def scenario():
        response = await AsyncClient().get("/api/events/", {"contest": "chomp"})
        first = await _read(response, "stream of anonymous")
        await sync_to_async(later, thread_sensitive=False)()
        return first + await _read(response, '"match": 3')

    text = async_to_sync(scenario)()
    assert [e.get("match") or e.get("submission") for e in _data(text)] == [3]


def test_an_event_written_as_a_stream_opens_reaches_it(settings, monkeypatch):
    """An event written after the stream was asked for but before the hub's first read was
    lost (the hub started from whatever was newest when it first ran): on a loaded machine."""
    settings.EVENTS_STREAM_SECONDS = 20
    settings.EVENTS_POLL_SECONDS = 0.05
    contest = make_contest(slug="chomp")
    viewer = web_events._viewer

    def asked_then_written(*args):
        found = viewer(*args)
        Event.objects.create(kind="match", contest=contest, data={"match": 7})
        return found

    monkeypatch.setattr(web_events, "_viewer", asked_then_written)

    async def scenario():
        response = await AsyncClient().get("/api/events/")
        try:
            return await _read(response, '"match": 7', timeout=5)
        finally:
            await response.streaming_content.aclose()

    assert [e["match"] for e in _data(async_to_sync(scenario)())] == [7]


def test_streams_are_capped_per_client_and_in_total(settings, hub):
    settings.EVENTS_STREAM_SECONDS = 30
    settings.EVENTS_STREAMS_PER_CLIENT = 2
    settings.EVENTS_STREAMS_MAX = 3
    make_contest(slug="chomp")
    ann, bob, cid = (ApiToken.issue(make_user(), "script")[1] for _ in range(3))

    def of(token):
        return {"Authorization": f"Bearer {token}"}

    async def scenario():
        held = []
        for _ in range(2):
            response = await AsyncClient().get("/api/events/", headers=of(ann))
            assert response.status_code == 200
            await _read(response, "stream of")
            held.append(response)
        third = await AsyncClient().get("/api/events/", headers=of(ann))
        other = await AsyncClient().get("/api/events/", headers=of(bob))
        await _read(other, "stream of")
        over = await AsyncClient().get("/api/events/", headers=of(cid))
        for response in [*held, other]:
            await response.streaming_content.aclose()
        return third, over

    third, over = async_to_sync(scenario)()
    assert not hub.viewers and not hub.per_client  # each closed stream left
    assert third.status_code == 429 and json.loads(third.content)["error"]["code"] == "too_many_streams"
    assert over.status_code == 503 and json.loads(over.content)["error"]["code"] == "busy"
    assert third["Retry-After"] == over["Retry-After"] == "30"


def test_anonymous_streams_are_capped_per_address_whatever_x_forwarded_for_says(settings, hub):
    """1,000 anonymous streams were opened from one address, each with another X-Forwarded-For."""
    settings.EVENTS_STREAM_SECONDS = 30
    settings.EVENTS_STREAMS_PER_CLIENT = 2
    make_contest(slug="chomp")

    async def scenario():
        answers = [
            await AsyncClient().get("/api/events/", headers={"X-Forwarded-For": f"203.0.113.{n}"}) for n in range(4)
        ]
        for response in answers:
            if response.status_code == 200:
                await _read(response, "stream of")
                await response.streaming_content.aclose()
        return [response.status_code for response in answers]

    assert async_to_sync(scenario)() == [200, 200, 429, 429]
    assert not hub.viewers


def test_a_page_loads_while_streams_are_open(settings, client):
    """A stream holds no thread: pages answer beside them (here in the same process)."""
    settings.EVENTS_STREAM_SECONDS = 30
    settings.EVENTS_STREAMS_PER_CLIENT = 100
    make_contest(slug="chomp")
    loaded = threading.Event()

    async def scenario():
        streams = [await AsyncClient().get("/api/events/") for _ in range(40)]
        for stream in streams:
            await _read(stream, "stream of")
        page = await AsyncClient().get("/contests/chomp/")
        loaded.set()
        for stream in streams:
            await stream.streaming_content.aclose()
        return page

    assert async_to_sync(scenario)().status_code == 200 and loaded.is_set()
