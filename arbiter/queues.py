"""The Celery queues and which task goes to which, named in one place.

``builds`` compiles submissions, ``matches`` plays games (its worker concurrency is the
number of sandbox slots), ``default`` takes everything short: bookkeeping, pings.
Task names are explicit (``@shared_task(name=...)``) so that these globs stay true.
"""

from kombu import Queue

BUILDS = "builds"
MATCHES = "matches"
DEFAULT = "default"
ALL = (BUILDS, MATCHES, DEFAULT)

ROUTES = {
    "judging.build_*": {"queue": BUILDS},
    "judging.play_*": {"queue": MATCHES},
    "*": {"queue": DEFAULT},
}


def kombu_queues() -> tuple[Queue, ...]:
    return tuple(Queue(name, routing_key=name) for name in ALL)
