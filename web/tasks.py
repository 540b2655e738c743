"""The site's Celery task: the demo's games, played by a worker once the site is up."""

from __future__ import annotations

import logging

from celery import shared_task

from sandbox.errors import Interrupted
from web.demo.load import play_demo

log = logging.getLogger(__name__)


@shared_task(name="web.play_demo")
def play_demo_task() -> None:
    """What ``load_demo --background`` queues (``make run``): the demo's builds and first games
    in a worker, each line in its log as it is done, while the site already shows them. A
    stop halfway leaves the rest for the next ``load_demo --background``."""
    try:
        play_demo(say=lambda line: log.info("demo: %s", line))
    except Interrupted:
        log.info("demo: stopped halfway; the next make run goes on from here")
        return
    log.info("demo: ready: every demo contest has its standings")
