from django.contrib import admin

from judging.models import WorkerHeartbeat


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(admin.ModelAdmin):
    list_display = ("hostname", "queues", "concurrency", "sandbox_level", "last_seen", "stopped_at")
    readonly_fields = (
        "hostname",
        "queues",
        "concurrency",
        "pid",
        "started_at",
        "last_seen",
        "stopped_at",
        "sandbox_level",
    )
