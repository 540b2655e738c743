"""Server-sent events: a script waits for "submission status changed", "match finished" and
"standings changed" instead of polling. Events are rows (judging.Event) written with the
change they announce; the stream polls them, so it works with any number of web and
worker processes. A stream ends after ``EVENTS_STREAM_SECONDS``; clients reconnect with
``Last-Event-ID`` (browsers' EventSource does it by itself)."""

from __future__ import annotations

import json
import time

from django.conf import settings
from django.db import close_old_connections
from django.db.models import Q
from django.http import StreamingHttpResponse
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.decorators import api_view, permission_classes, renderer_classes
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer
from rest_framework.response import Response

from contests import services
from judging.models import Event
from web.converters import parse_id


class EventStreamRenderer(BaseRenderer):
    media_type = "text/event-stream"
    format = "event-stream"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return data


def _visible(request):
    events = Event.objects.filter(contest__in=services.visible_contests(request.user))
    mine = Q(user__isnull=True)
    if request.user.is_authenticated:
        mine |= Q(user=request.user)
    return events.filter(mine)


def _stream(request, after: int, contest: str | None):
    deadline = time.monotonic() + settings.EVENTS_STREAM_SECONDS
    yield f"retry: 2000\n: stream of {request.user.username or 'anonymous'}\n\n"
    while time.monotonic() < deadline:
        events = _visible(request).filter(pk__gt=after).select_related("contest").order_by("pk")
        if contest:
            events = events.filter(contest__slug=contest)
        for event in events[:100]:
            after = event.pk
            data = {**event.data, "contest": event.contest.slug, "at": event.created_at.isoformat()}
            yield f"id: {event.pk}\nevent: {event.kind}\ndata: {json.dumps(data)}\n\n"
        close_old_connections()
        time.sleep(settings.EVENTS_POLL_SECONDS)
    yield ": reconnect\n\n"


@extend_schema(
    parameters=[
        OpenApiParameter("contest", str, description="Only this contest's events."),
        OpenApiParameter("after", int, description="Only events after this id (or send Last-Event-ID)."),
    ],
    responses={(200, "text/event-stream"): str},
    summary="Server-sent events: submission, match and standings",
    operation_id="events",
)
@api_view(["GET"])
@permission_classes([AllowAny])
@renderer_classes([EventStreamRenderer])
def events(request):
    after = request.headers.get("Last-Event-ID") or request.query_params.get("after")
    if after is None:
        last = Event.objects.order_by("-pk").values_list("pk", flat=True).first()
        after = last or 0
    elif parse_id(str(after)) is None:
        after = 0
    response = StreamingHttpResponse(
        _stream(request, int(after), request.query_params.get("contest")), content_type="text/event-stream"
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
    server thread, as a stream would under the threaded web server."""
    events = _visible(request)
    if request.query_params.get("contest"):
        events = events.filter(contest__slug=request.query_params["contest"])
    latest = events.order_by("-pk").values_list("pk", flat=True).first()
    return Response({"id": latest or 0})
