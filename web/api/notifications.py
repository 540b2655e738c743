"""A contestant's notifications."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from judging.models import Notification
from judging.news import notifications
from web import serializers as s
from web.api.common import paged, paginate
from web.api_support import body_object


@extend_schema(
    parameters=[OpenApiParameter("unread", bool, description="Only those not read yet.")],
    responses=paged(s.NotificationSerializer),
    summary="Your notifications, newest first: builds and system tests that failed, judges' decisions, faults",
    operation_id="notifications_list",
)
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def notification_list(request):
    mine = Notification.objects.filter(user=request.user).select_related("contest")
    if request.query_params.get("unread", "").lower() in ("1", "true", "yes"):
        mine = mine.filter(read_at__isnull=True)
    return paginate(request, mine, s.NotificationSerializer)


@extend_schema(
    request=s.MarkReadSerializer,
    responses=s.MarkedReadSerializer,
    summary="Mark your notifications read: those named, or all of them",
    operation_id="notifications_read",
)
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def notifications_read(request):
    body = s.MarkReadSerializer(data=body_object(request))
    body.is_valid(raise_exception=True)
    marked = notifications.mark_read(request.user, body.validated_data.get("ids"))
    return Response({"marked": marked, "unread": notifications.unread_count(request.user)})
