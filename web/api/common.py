"""What every part of the API shares: pages of results, a contest by its slug, its stages."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.utils import OpenApiParameter, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotAuthenticated
from rest_framework.pagination import PageNumberPagination

from contests import roles, services
from contests.models import Contest, Stage
from judging.record import counts
from web import serializers as s
from web.views import KnownCountPaginator


def paged(serializer_class) -> serializers.Serializer:
    """The schema of a page of a list, as PageNumberPagination answers it."""
    name = serializer_class.__name__.removesuffix("Serializer")
    return inline_serializer(
        f"Paginated{name}List",
        {
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": serializer_class(many=True),
        },
    )


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    description="Send a retry with the same key to get the first answer back.",
)


def contest_of(request, slug: str) -> Contest:
    return get_object_or_404(services.visible_contests(request.user), slug=slug)


class KnownCountPagination(PageNumberPagination):
    """Pages of a list whose length is known already (``count``; None: counted as usual)."""

    def __init__(self, count: int | None = None) -> None:
        self.known = count

    def django_paginator_class(self, object_list, per_page) -> KnownCountPaginator:
        return KnownCountPaginator(object_list, per_page, count=self.known)


def paginate(request, queryset, serializer_class):
    paginator = PageNumberPagination()
    page = paginator.paginate_queryset(queryset, request)
    return paginator.get_paginated_response(serializer_class(page, many=True).data)


def _counted(stages: list[Stage]) -> list[Stage]:
    """The stages, each with its matches by status (from the kept counts: judging.record.counts)."""
    found = counts.by_status(stage.pk for stage in stages)
    for stage in stages:
        for state, n in found[stage.pk].items():
            setattr(stage, f"matches_{state}", n)
    return stages


def stages_of(contest: Contest) -> list[Stage]:
    return _counted(list(contest.stages.order_by("order")))


def stage_data(stage: Stage, **extra) -> dict:
    """A stage's state now (status, its matches by state), with what the action says of itself."""
    fresh = _counted([Stage.objects.select_related("contest").get(pk=stage.pk)])[0]
    return {**s.StageSerializer(fresh).data, **extra}


WHO = {
    roles.Power.JUDGE: gettext_lazy("the judges of %(title)s"),
    roles.Power.ORGANISE: gettext_lazy("the owner and co-organisers of %(title)s"),
    roles.Power.NAME: gettext_lazy("the owner of %(title)s or a site administrator"),
}


def require(request, contest: Contest, power: roles.Power = roles.Power.JUDGE) -> None:
    """A right on this contest (contests.roles): 401 without a user, 404 for a contest the
    user may not see, 403 for one they see but may not act on this way."""
    if not request.user.is_authenticated:
        who = WHO[power] % {"title": contest.title}
        raise NotAuthenticated(gettext("Log in (or send a token) as one of %(who)s.") % {"who": who})
    if not contest.is_public and not roles.may(request.user, contest, roles.Power.VIEW):
        raise Http404(gettext("No such contest."))
    if not roles.may(request.user, contest, power):
        raise PermissionDenied(gettext("Only %(who)s may do this.") % {"who": WHO[power] % {"title": contest.title}})
