from django.conf import settings

from contests import roles
from contests import services as contest_services
from judging.models import WorkerHeartbeat
from judging.news import notifications


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
    signed_in = user is not None and user.is_authenticated
    unread = notifications.unread_count(user) if signed_in else 0
    # The header's "Organise": whoever may open a contest or organises one (their roles are read
    # once for the page: contests.roles keeps them on the user).
    organises = signed_in and (
        contest_services.is_organiser(user) or roles.with_power(user, roles.Power.ORGANISE).exists()
    )
    # "brand", not "site_name": the login view puts the Sites framework's domain under that name.
    return {
        "brand": settings.SITE_NAME,
        "sandbox_warnings": warnings,
        "unread_notifications": unread,
        "organises": organises,
    }
