"""The Celery queues and which task goes to which, named in one place.

``builds`` compiles submissions, ``matches`` plays games (its worker concurrency is the
number of sandbox slots), ``races`` plays races (every program of a stage at once against the
game's server, holding every slot of its host: give it hosts of its own), ``default`` takes
everything short: bookkeeping, pings. A worker serves the queues it is started with
(``celery worker --queues``).
Task names are explicit (``@shared_task(name=...)``) so that these globs stay true.
"""

import functools

from django.db.models import Q, QuerySet
from kombu import Queue

from games import registry
from games.base import RaceGame

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


@functools.cache
def race_games() -> tuple[str, ...]:
    """The games played as races (every program at once against the game's server): their
    matches go to the ``races`` queue, played by the hosts that serve it."""
    return tuple(name for name, game in registry.BUILT_IN.items() if isinstance(game, RaceGame))


def of_queue(matches: QuerySet, races: bool) -> QuerySet:
    """The matches of a queryset that go to the races queue (``races``), or to the matches queue."""
    in_races = Q(contest__game__in=race_games())
    return matches.filter(in_races) if races else matches.exclude(in_races)
