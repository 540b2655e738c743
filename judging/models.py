from __future__ import annotations

from datetime import timedelta

from django.db import models
from django.utils import timezone


class WorkerHeartbeat(models.Model):
    """One row per Celery worker, refreshed while it runs; /health/ reads them."""

    hostname = models.CharField(max_length=255, unique=True)
    queues = models.JSONField(default=list)
    concurrency = models.PositiveSmallIntegerField(default=1)
    pid = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField()
    last_seen = models.DateTimeField()
    stopped_at = models.DateTimeField(null=True, blank=True)
    sandbox_level = models.CharField(
        max_length=40, blank=True, help_text="Isolation the sandbox self-check found on this host."
    )

    class Meta:
        ordering = ["hostname"]

    def __str__(self) -> str:
        return self.hostname

    def is_alive(self, stale_after: timedelta, now=None) -> bool:
        now = now or timezone.now()
        return self.stopped_at is None and now - self.last_seen <= stale_after


class Ping(models.Model):
    """A round trip through the broker: created by the web side, answered by a worker."""

    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.CharField(max_length=255, blank=True)

    def __str__(self) -> str:
        return f"ping {self.pk}"


class Event(models.Model):
    """Something a script may wait for, streamed by /api/events/ (server-sent events)."""

    class Kind(models.TextChoices):
        SUBMISSION = "submission", "submission status changed"
        MATCH = "match", "match finished"
        STANDINGS = "standings", "standings changed"

    kind = models.CharField(max_length=12, choices=Kind.choices)
    contest = models.ForeignKey("contests.Contest", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        "auth.User",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        help_text="Only this user sees it.",
    )
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.kind} {self.data}"


class Lease(models.Model):
    """A job that one process at a time should do across every worker (the watchdog): its
    holder has it until ``expires_at`` and renews it while it works."""

    name = models.CharField(max_length=40, primary_key=True)
    holder = models.CharField(max_length=255, blank=True)
    expires_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name}: {self.holder} until {self.expires_at:%H:%M:%S}"


class Latency(models.Model):
    """One bucket of a latency histogram of one worker host (``judging/metrics.py``): how many
    observations fell in it (not cumulative), ever. ``le`` is the bucket's upper bound in
    seconds; the row with ``le`` None holds the sum of every observation, its ``count`` how
    many there were. Grown by increments each worker process writes every few seconds (what its
    attempts measured), read by /metrics."""

    host = models.CharField(max_length=255)
    name = models.CharField(max_length=40)
    le = models.FloatField(null=True, blank=True)
    count = models.BigIntegerField(default=0)
    total = models.FloatField(default=0.0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["host", "name", "le"], name="one_latency_bucket"),
            models.UniqueConstraint(
                fields=["host", "name"], condition=models.Q(le__isnull=True), name="one_latency_sum"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} on {self.host}: {self.count} ≤ {self.le}"
