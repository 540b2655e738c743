from django.conf import settings

from judging import notifications
from judging.models import WorkerHeartbeat


def site(request):
    warnings = []
    if settings.ARBITER_INSECURE_ALLOW_DEGRADED_SANDBOX:
        warnings.append(
            "ARBITER_INSECURE_ALLOW_DEGRADED_SANDBOX is on: contestants' programs may run without full isolation."
        )
    weak = WorkerHeartbeat.objects.filter(stopped_at__isnull=True).exclude(sandbox_level__in=["", "full"])
    for worker in weak.only("hostname", "sandbox_level")[:5]:
        warnings.append(f"Worker {worker.hostname} runs programs with {worker.sandbox_level} isolation.")
    # The unread count in the header: one indexed count, for a signed-in visitor only.
    user = getattr(request, "user", None)
    unread = notifications.unread_count(user) if user is not None and user.is_authenticated else 0
    # "brand", not "site_name": the login view puts the Sites framework's domain under that name.
    return {"brand": settings.SITE_NAME, "sandbox_warnings": warnings, "unread_notifications": unread}
