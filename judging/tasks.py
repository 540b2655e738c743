"""Celery tasks of the judging layer: thin wrappers over services, ids only."""

from __future__ import annotations

from celery import shared_task

from judging import services


@shared_task(name="judging.ping", bind=True)
def ping(self, ping_id: int) -> None:
    services.answer_ping(ping_id, self.request.hostname or "")
