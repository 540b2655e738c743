"""Contests: who is asking, the contests, one contest's settings and its standings."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext, ngettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, permission_classes, throttle_classes
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from contests import roles, services
from contests.models import Contest
from games import registry
from judging.record import fits, publication
from judging.record import standings as standings_service
from web import serializers as s
from web.api.common import IDEMPOTENCY_KEY, contest_of, paged, paginate, require, stages_of
from web.api_support import HEAVY_THROTTLES, body_object, error_body, idempotent, refused
from web.contest_form import ContestForm, settings_of
from web.converters import parse_id
from web.views import own_entries


@extend_schema(responses=s.MeSerializer, summary="Who the token or session belongs to", operation_id="me")
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def me(request):
    return Response(
        {
            "username": request.user.username,
            "is_judge": services.is_judge(request.user),
            "is_organiser": services.is_organiser(request.user),
            "is_admin": request.user.is_superuser,
            "roles": [
                {"contest": slug, "role": role}
                for slug, role in request.user.contest_roles.order_by("contest__slug").values_list(
                    "contest__slug", "role"
                )
            ],
        }
    )


@extend_schema(methods=["GET"], responses=paged(s.ContestSerializer), summary="Contests", operation_id="contests_list")
@extend_schema(
    methods=["POST"],
    request=s.ContestWriteSerializer,
    responses={201: s.ContestDetailSerializer},
    parameters=[IDEMPOTENCY_KEY],
    summary="Organisers: open a contest",
    description="Its settings are checked as on the organisers' page and in the admin (a 400 names each one "
    "refused, in words); the contest is written in its judges' log (contest.create). Add its stages with "
    "POST /api/contests/SLUG/stages/.",
    operation_id="contests_create",
)
@api_view(["GET", "POST"])
@permission_classes([AllowAny])
@idempotent
def contest_list(request):
    if request.method == "POST":
        _require_organiser(request)
        return _save_contest(request, None)
    return paginate(request, services.visible_contests(request.user), s.ContestSerializer)


@extend_schema(
    methods=["GET"],
    responses=s.ContestDetailSerializer,
    summary="A contest: rules, parameters, time limits, stages, policy",
    operation_id="contests_detail",
)
@extend_schema(
    methods=["PATCH"],
    request=s.ContestWriteSerializer,
    responses={200: s.ContestDetailSerializer},
    summary="Organisers: edit a contest (only the settings sent change)",
    description="Checked as on the organisers' page and in the admin (a 400 names each setting refused); "
    "written in the judges' log (contest.edit, with each setting changed, from and to).",
    operation_id="contests_edit",
)
@api_view(["GET", "PATCH"])
@permission_classes([AllowAny])
def contest_detail(request, slug: str):
    contest = contest_of(request, slug)
    if request.method == "PATCH":
        require(request, contest, roles.Power.ORGANISE)
        return _save_contest(request, contest)
    return Response(_contest_data(contest))


def _require_organiser(request) -> None:
    if not request.user.is_authenticated:
        raise NotAuthenticated(gettext("Log in (or send a token) as one of the site's organisers."))
    if not services.is_organiser(request.user):
        raise PermissionDenied(gettext("Only the site's organisers open contests."))


def _save_contest(request, contest: Contest | None) -> Response:
    """A new contest (POST) or the settings sent of one (PATCH), over its others, checked by
    the form of the admin and of the organisers' page, saved and logged by the service."""
    sent = body_object(request)
    body = s.ContestWriteSerializer(data=sent, partial=contest is not None)
    unknown = sorted(set(sent) - set(body.fields))
    if unknown:
        raise serializers.ValidationError(
            {name: [gettext("A contest has no setting of this name.")] for name in unknown}
        )
    body.is_valid(raise_exception=True)
    values = dict(body.validated_data)
    reason = values.pop("reason", "")
    instance = contest or Contest()
    form = ContestForm({**settings_of(instance), **values}, instance=instance)
    if not form.is_valid():
        fields = {
            "non_field_errors" if name == "__all__" else name: list(errors) for name, errors in form.errors.items()
        }
        message = "; ".join(f"{name}: {' '.join(errors)}" for name, errors in fields.items())
        return Response(error_body(400, "invalid", message, fields), status=status.HTTP_400_BAD_REQUEST)
    try:
        services.save_contest(request.user, form.save(commit=False), reason)
    except services.Refused as e:
        return Response(error_body(400, "invalid", str(e), {"slug": [str(e)]}), status=status.HTTP_400_BAD_REQUEST)
    created = status.HTTP_201_CREATED if contest is None else status.HTTP_200_OK
    return Response(_contest_data(form.instance), status=created)


def _contest_data(contest: Contest) -> dict:
    game = registry.get(contest.game) if contest.game in registry.GAMES else None
    data = s.ContestDetailSerializer(contest).data
    data["clock"] = {**(game.default_clock if game else {}), **contest.clock}
    data["stages"] = s.StageSerializer(stages_of(contest), many=True).data
    data["policy"] = {
        "languages": services.offered_languages(contest),
        "max_source_bytes": contest.max_source_bytes,
        "max_executable_bytes": contest.max_executable_bytes,
        "max_submissions_per_day": contest.max_submissions_per_day,
        "max_submissions_per_week": contest.max_submissions_per_week,
        "max_entries_per_user": contest.max_entries_per_user,
        "entry_form": contest.entry_form,
    }
    return data


@extend_schema(
    parameters=[
        OpenApiParameter(
            "stage",
            int,
            description="A stage id; by default the contest's current stage (the latest under way or over).",
        ),
        OpenApiParameter("page", int, description="Which page of rows, from 1 (the top)."),
        OpenApiParameter(
            "limit",
            int,
            description=f"Rows a page: {standings_service.PAGE_ROWS} by default, "
            f"from 1 to {standings_service.MAX_PAGE_ROWS}.",
        ),
    ],
    responses=s.StandingsSerializer,
    summary="Standings with every tie-break column",
    operation_id="standings",
)
@api_view(["GET"])
@permission_classes([AllowAny])
@throttle_classes(HEAVY_THROTTLES)
def standings(request, slug: str):
    contest = contest_of(request, slug)
    if request.query_params.get("stage"):
        stage_id = parse_id(request.query_params["stage"])
        if stage_id is None:
            raise serializers.ValidationError({"stage": [gettext("A stage id is a number.")]})
        stage = get_object_or_404(contest.stages, pk=stage_id)
    else:  # the contest's current stage
        stage = standings_service.current_stage(contest)
    if not contest.is_hosted:
        return refused(
            gettext("%(contest)s has no standings: its game is not hosted yet.") % {"contest": contest.title},
            status.HTTP_409_CONFLICT,
        )
    record = publication.record_for(contest, request.user)
    number = _whole_number(request, "page", 1, None)
    limit = _whole_number(request, "limit", standings_service.PAGE_ROWS, standings_service.MAX_PAGE_ROWS)
    found = standings_service.page(contest, stage, record, number, limit, own=own_entries(request, contest))
    table = found.table
    if found.number != number:
        said = ngettext(
            "There is no page %(number)s: the table's %(rows)s rows make %(pages)s page of %(limit)s.",
            "There is no page %(number)s: the table's %(rows)s rows make %(pages)s pages of %(limit)s.",
            found.pages,
        )
        raise Http404(said % {"number": number, "rows": table.count, "pages": found.pages, "limit": limit})

    def link(n: int) -> str | None:
        return replace_query_param(request.build_absolute_uri(), "page", n) if 1 <= n <= found.pages else None

    return Response(
        {
            "contest": contest.slug,
            "stage": stage.pk if stage else None,
            "frozen": record.frozen,
            "frozen_at": contest.standings_frozen_at if record.frozen else None,
            "results_hidden": publication.hidden_results(contest, stage) if record.frozen else 0,
            "matches_played": table.finished,
            "matches_total": table.total,
            "columns": [
                {"key": c.key, "label": c.label, "higher_is_better": c.higher_is_better} for c in table.columns
            ],
            "ratings": _ratings(table),
            "count": table.count,
            "page": found.number,
            "pages": found.pages,
            "limit": limit,
            "next": link(found.number + 1),
            "previous": link(found.number - 1),
            "rows": s.StandingRowSerializer(table.rows, many=True).data,
            "yours": s.StandingRowSerializer(found.yours, many=True).data,
        }
    )


def _whole_number(request, name: str, default: int, most: int | None) -> int:
    """A query parameter that is a whole number from 1 (to ``most``), else a 400 that says so."""
    given = request.query_params.get(name)
    if given is None:
        return default
    value = parse_id(given)
    if value is None or value < 1 or (most is not None and value > most):
        if most is None:
            said = gettext("A whole number from 1.")
        else:
            said = gettext("A whole number from 1 to %(most)s.") % {"most": most}
        raise serializers.ValidationError({name: [said]})
    return value


def _ratings(table: standings_service.Standings) -> dict | None:
    if table.fit is None:
        return None
    fit = table.fit
    return {
        "rated": table.rated, "games": fit.games, "computed_at": fit.computed_at, "level": fit.level, "k": fit.k,
        "method": fits.METHOD,
    }  # fmt: skip
