"""Matches: the list, one match, its replay and its bundle."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Prefetch, QuerySet
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes, throttle_classes
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from contests import services
from contests.models import Contest
from judging.models import Match, MatchSeat
from judging.record import publication
from web import serializers as s
from web.api.common import KnownCountPagination, contest_of, paged
from web.api_support import HEAVY_THROTTLES
from web.converters import parse_id
from web.views import bundle_response, replay_shown


def _id_param(params, name: str) -> int | None:
    """An id given as a query parameter; None if not given, a 400 if not a number."""
    if not params.get(name):
        return None
    value = parse_id(params[name])
    if value is None:
        raise serializers.ValidationError({name: [gettext("A %(name)s id is a number.") % {"name": name}]})
    return value


@extend_schema(
    parameters=[
        OpenApiParameter("contest", str, description="A contest's slug."),
        OpenApiParameter("stage", int),
        OpenApiParameter("entry", int),
        OpenApiParameter("mine", bool, description="Only games of my entries."),
        OpenApiParameter("status", str, enum=[c for c, _ in Match.Status.choices]),
    ],
    responses=paged(s.MatchSerializer),
    summary="Matches, newest first",
    operation_id="matches_list",
)
@api_view(["GET"])
@permission_classes([AllowAny])
def match_list(request):
    q = request.query_params
    contests: QuerySet[Contest] | list[int] = services.visible_contests(request.user)
    if q.get("contest"):
        # The contest's id, not a join on its slug: its newest games come by the (contest, -id)
        # index, not by the primary key's past every newer game of other contests.
        contests = list(contests.filter(slug=q["contest"]).values_list("pk", flat=True)[:1])
    matches = publication.visible_matches(request.user, Match.objects.filter(contest__in=contests))
    # A seat condition is an EXISTS, not a join: a match is listed once without a DISTINCT,
    # which would make the page's COUNT sort every match.
    seats = MatchSeat.objects.filter(match=OuterRef("pk"))
    if (stage_id := _id_param(q, "stage")) is not None:
        matches = matches.filter(stage_id=stage_id)
    if (entry_id := _id_param(q, "entry")) is not None:
        matches = publication.played_by(matches, entry_id)
    mine = q.get("mine") in ("1", "true", "yes")
    if mine:
        if not request.user.is_authenticated:
            raise NotAuthenticated(gettext("Log in (or send a token) to list your own games."))
        matches = matches.filter(Exists(seats.filter(entry__user=request.user)))
    if q.get("status"):
        if q["status"] not in Match.Status.values:
            raise serializers.ValidationError(
                {"status": [gettext("One of: %(values)s.") % {"values": ", ".join(Match.Status.values)}]}
            )
        matches = matches.filter(status=q["status"])
    matches = (
        matches.select_related("contest", "verification", "result_attempt")
        .prefetch_related(Prefetch("seats", MatchSeat.objects.select_related("entry").order_by("index")))
        .order_by("-pk")
    )
    # Of a stage's games, how many there are is kept (judging.record.counts), not counted.
    known = None
    if entry_id is None and not mine:
        known = publication.visible_count(request.user, contests, stage_id, q.get("status") or None)
    paginator = KnownCountPagination(known)
    page = paginator.paginate_queryset(matches, request)
    shown = publication.shown_matches(request.user, page)
    return paginator.get_paginated_response(
        s.MatchSerializer(page, many=True, context={"shown": shown, "user": request.user}).data
    )


def match_of(request, pk: int) -> Match:
    match = get_object_or_404(
        publication.visible_matches(request.user, Match.objects.all())
        .select_related("contest")
        .prefetch_related("seats__entry"),
        pk=pk,
    )
    contest_of(request, match.contest.slug)
    return match


def match_data(request, match: Match) -> dict:
    """A match as the user sees it (see ``MatchSerializer``)."""
    match = (
        Match.objects.select_related("contest", "verification", "result_attempt")
        .prefetch_related("seats__entry")
        .get(pk=match.pk)
    )
    shown = publication.shown_matches(request.user, [match])
    return s.MatchSerializer(match, context={"shown": shown, "user": request.user}).data


@extend_schema(responses=s.MatchSerializer, summary="A match and its seats", operation_id="matches_detail")
@api_view(["GET"])
@permission_classes([AllowAny])
def match_detail(request, pk: int):
    return Response(match_data(request, match_of(request, pk)))


@extend_schema(
    responses=inline_serializer(
        "Replay", {"game": serializers.CharField(), "moves": serializers.ListField(), "frames": serializers.ListField()}
    ),
    summary="The replay: every move with its times; stderr only of my own programs",
    operation_id="matches_replay",
)
@api_view(["GET"])
@permission_classes([AllowAny])
@throttle_classes(HEAVY_THROTTLES)
def match_replay(request, pk: int):
    return Response(replay_shown(request, match_of(request, pk)))


@extend_schema(
    responses={(200, "application/zip"): OpenApiTypes.BINARY},
    summary="The bundle to play the match again at home: `arbiter replay --check BUNDLE`",
    description="A zip: bundle.json (game, referee version, seed, parameters, clock, language table, each "
    "seat's language, SHA-256 and build command), replay.json, the programs the caller may read, the contest's "
    "data file. Another contestant's program is named by its SHA-256 alone.",
    operation_id="matches_bundle",
)
@api_view(["GET"])
@permission_classes([AllowAny])
@throttle_classes(HEAVY_THROTTLES)
def match_bundle(request, pk: int):
    return bundle_response(request, match_of(request, pk))
