"""The Celery queues and which task goes to which, named in one place.

``builds`` compiles submissions, ``matches`` plays games (its worker concurrency is the
number of sandbox slots), ``races`` plays races (every program of a stage at once against the
game's server, holding every slot of its host: give it hosts of its own), ``default`` takes
everything short: bookkeeping, pings. A worker serves the queues it is started with
(``celery worker --queues``).
Task names are explicit (``@shared_task(name=...)``) so that these globs stay true.
"""

from kombu import Queue

BUILDS = "builds"
MATCHES = "matches"
RACES = "races"
DEFAULT = "default"
ALL = (BUILDS, MATCHES, RACES, DEFAULT)

ROUTES = {
    "judging.build_*": {"queue": BUILDS},
    "judging.play_race": {"queue": RACES},
    "judging.play_*": {"queue": MATCHES},
    "*": {"queue": DEFAULT},
}


def kombu_queues() -> tuple[Queue, ...]:
    return tuple(Queue(name, routing_key=name) for name in ALL)
