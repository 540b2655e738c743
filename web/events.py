"""Server-sent events: a script waits for "submission status changed", "match finished" and
"standings changed" instead of polling. Events are rows (judging.Event) written with the change
they announce.

A stream costs no thread: the site runs under ASGI (uvicorn workers under gunicorn) and each
stream is a coroutine waiting on its process's one ``Hub``, which reads new events from the
database every ``EVENTS_POLL_SECONDS`` (one indexed query per web process, whatever the number
of streams, on one machine as on many) and hands each stream the ones its visitor may see.
Streams are capped per client (``EVENTS_STREAMS_PER_CLIENT``: its account, else its address as
``accounts.addresses`` tells it) and per process (``EVENTS_STREAMS_MAX``): one over is a 429 or
a 503 in the API's error shape.
A stream ends after ``EVENTS_STREAM_SECONDS``; clients reconnect with ``Last-Event-ID``
(browsers' EventSource does it by itself)."""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from dataclasses import dataclass, field

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import close_old_connections
from django.db.models import Q
from django.http import JsonResponse, StreamingHttpResponse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from accounts.addresses import client_address
from accounts.models import ApiToken
from contests import roles, services
from judging.models import Event
from web.converters import parse_id
from web.errors import error_body


@dataclass
class Seen:
    """One event as a stream writes it."""

    pk: int
    kind: str
    contest_id: int
    user_id: int | None
    text: str  # the SSE message, ready to send
    live: bool = False  # a change of a frozen contest's live standings: its judges' news only


@dataclass(eq=False)  # each stream is itself: hashed by identity
class Viewer:
    """What one stream may see: the contests visible to its visitor, and its own events."""

    contests: set[int]
    user_id: int | None
    judged: set[int] | None = None  # the contests it judges (None: every one, an administrator)
    contest: int | None = None  # only this contest's, if the stream asked
    since: int = 0  # the newest event when it asked: it is sent those after
    queue: asyncio.Queue = field(default_factory=lambda: asyncio.Queue(maxsize=1000))

    def sees(self, event: Seen) -> bool:
        if self.contest is not None and event.contest_id != self.contest:
            return False
        if event.live and self.judged is not None and event.contest_id not in self.judged:
            return False
        return event.contest_id in self.contests and (event.user_id is None or event.user_id == self.user_id)


class Hub:
    """The one reader of new events in a web process, and the streams it feeds."""

    def __init__(self) -> None:
        self.viewers: set[Viewer] = set()
        self.per_client: Counter[str] = Counter()
        self.last = 0
        self.task: asyncio.Task | None = None

    def full(self, client: str) -> JsonResponse | None:
        """The refusal of one stream more, if it would pass a cap."""
        if len(self.viewers) >= settings.EVENTS_STREAMS_MAX:
            body = error_body(503, "busy", "Too many event streams are open here; reconnect in a while.")
            return JsonResponse(body, status=503, headers={"Retry-After": "30"})
        if self.per_client[client] >= settings.EVENTS_STREAMS_PER_CLIENT:
            limit = settings.EVENTS_STREAMS_PER_CLIENT
            body = error_body(429, "too_many_streams", f"You have {limit} event streams open already; close one first.")
            return JsonResponse(body, status=429, headers={"Retry-After": "30"})
        return None

    def join(self, viewer: Viewer, client: str) -> None:
        """Feed ``viewer`` every event after its ``since``: a reader started for it starts
        there (not at whatever is newest when the reader first runs, which lost the events
        written in between on a busy machine)."""
        self.viewers.add(viewer)
        self.per_client[client] += 1
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.last = viewer.since
            self.task = loop.create_task(self._read())
        else:
            self.last = min(self.last, viewer.since)

    def leave(self, viewer: Viewer, client: str) -> None:
        self.viewers.discard(viewer)
        self.per_client[client] -= 1
        if self.per_client[client] <= 0:
            del self.per_client[client]

    async def _read(self) -> None:
        """Read new events while anyone is listening; hand each to those who may see it."""
        while self.viewers:
            try:
                found = await sync_to_async(_after, thread_sensitive=False)(self.last)
            except Exception:  # the database away for a moment: streams wait, the next read retries
                found = []
            for event in found:
                self.last = max(self.last, event.pk)
                for viewer in list(self.viewers):
                    if event.pk > viewer.since and viewer.sees(event) and not viewer.queue.full():
                        viewer.queue.put_nowait(event)
            await asyncio.sleep(settings.EVENTS_POLL_SECONDS)


HUB = Hub()


def _seen(event: Event) -> Seen:
    data = {**event.data, "contest": event.contest.slug, "at": event.created_at.isoformat()}
    text = f"id: {event.pk}\nevent: {event.kind}\ndata: {json.dumps(data)}\n\n"
    return Seen(event.pk, event.kind, event.contest_id, event.user_id, text, bool(event.data.get("live")))


def _after(pk: int, limit: int = 500) -> list[Seen]:
    """Events after ``pk``, oldest first (every visitor's: each stream filters its own)."""
    try:
        events = Event.objects.filter(pk__gt=pk).select_related("contest").order_by("pk")[:limit]
        return [_seen(event) for event in events]
    finally:
        close_old_connections()


def _visible(user):
    events = Event.objects.filter(contest__in=services.visible_contests(user))
    mine = Q(user__isnull=True)
    if user.is_authenticated:
        mine |= Q(user=user)
    judged = roles.judged_ids(user)
    if judged is not None:  # a frozen contest's live standings: its judges' only
        events = events.filter(Q(data__live__isnull=True) | Q(contest_id__in=judged))  # "live" is set only when true
    return events.filter(mine)


def _viewer(request, contest_slug: str | None):
    """Who asks, what they may see, and from which event on (sync: the database)."""
    try:
        user = _user(request)
        contests = set(services.visible_contests(user).values_list("pk", flat=True))
        contest = None
        if contest_slug:
            contest = services.visible_contests(user).filter(slug=contest_slug).values_list("pk", flat=True).first()
            contest = contest or -1  # an unknown contest: a stream of nothing
        since = Event.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        viewer = Viewer(contests, user.pk if user.is_authenticated else None, roles.judged_ids(user), contest, since)
        return user, viewer
    finally:
        close_old_connections()


def _user(request):
    """The session's user, or the API token's (``Authorization: Bearer arb_...``)."""
    header = request.headers.get("Authorization", "").split()
    if len(header) == 2 and header[0].lower() in ("bearer", "token"):
        token = ApiToken.authenticate(header[1])
        return token.user if token is not None else AnonymousUser()
    return request.user if request.user.is_authenticated else AnonymousUser()


def _backlog(user, viewer: Viewer, after: int) -> list[Seen]:
    """What the visitor missed since ``after`` (a reconnect), oldest first."""
    try:
        events = _visible(user).filter(pk__gt=after).select_related("contest").order_by("pk")
        if viewer.contest is not None:
            events = events.filter(contest_id=viewer.contest)
        return [_seen(event) for event in events[:100]]
    finally:
        close_old_connections()


async def _stream(viewer: Viewer, backlog: list[Seen], client: str, who: str):
    deadline = time.monotonic() + settings.EVENTS_STREAM_SECONDS
    last = backlog[-1].pk if backlog else 0
    try:
        yield f"retry: 2000\n: stream of {who}\n\n"
        for event in backlog:
            yield event.text
        while (left := deadline - time.monotonic()) > 0:
            try:
                event = await asyncio.wait_for(viewer.queue.get(), timeout=min(left, 15))
            except TimeoutError:
                yield ": still here\n\n"  # keeps proxies from closing an idle stream
                continue
            if event.pk > last:
                last = event.pk
                yield event.text
        yield ": reconnect\n\n"
    finally:
        HUB.leave(viewer, client)


async def events(request):
    """GET /api/events/: the stream (see the module's docstring)."""
    if request.method != "GET":
        return JsonResponse(error_body(405, "method_not_allowed", "Only GET."), status=405)
    user, viewer = await sync_to_async(_viewer, thread_sensitive=False)(request, request.GET.get("contest"))
    client = f"user:{user.pk}" if user.is_authenticated else f"address:{client_address(request)}"
    refused = HUB.full(client)
    if refused is not None:
        return refused
    HUB.join(viewer, client)  # first: what comes meanwhile is queued (and not sent twice)
    after = request.headers.get("Last-Event-ID") or request.GET.get("after")
    backlog: list[Seen] = []
    if after is not None:
        start = parse_id(str(after))
        try:
            backlog = await sync_to_async(_backlog, thread_sensitive=False)(user, viewer, start or 0)
        except BaseException:
            HUB.leave(viewer, client)
            raise
    response = StreamingHttpResponse(
        _stream(viewer, backlog, client, user.username or "anonymous"), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


@extend_schema(
    parameters=[OpenApiParameter("contest", str, description="Only this contest's events.")],
    responses={200: dict},
    summary="The newest event's id: pages poll it (cheap) to know when to fetch again",
    operation_id="events_head",
)
@api_view(["GET"])
@permission_classes([AllowAny])
def events_head(request):
    """The id of the newest event the user may see (of ``contest``, if given). A page polls this
    every second or two and fetches its own content again when it moves: an open page holds no
    stream."""
    return Response({"id": newest_id(request.user, request.query_params.get("contest"))})


def newest_id(user, contest_slug: str | None = None) -> int:
    """The id of the newest event ``user`` may see (of that contest, if given), 0 if none: what
    events_head answers, and what a page that polls it is rendered with (data-head), so that an
    event between the page's render and its first poll still brings the page up to date."""
    events = _visible(user)
    if contest_slug:
        events = events.filter(contest__slug=contest_slug)
    return events.order_by("-pk").values_list("pk", flat=True).first() or 0
