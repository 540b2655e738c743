"""Recompute the kept standings' totals from the seats, from scratch, and say what differed.

python manage.py rebuild_standings                   # every contest
python manage.py rebuild_standings --contest SLUG    # one

The totals are kept as results are counted (``judging.tallies``); this is the check on them,
and the repair after anything wrote seats behind the platform's back (a database edited by
hand, an old backup's seats).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from contests.models import Contest
from judging import tallies

SHOWN = 50  # differences listed; the rest are counted


class Command(BaseCommand):
    help = "Recompute the kept standings' totals from the seats (one contest, or all) and say what differed."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--contest", help="the contest's slug (every contest if not given)")

    def handle(self, *args, **options) -> None:
        contest = None
        if options["contest"]:
            contest = Contest.objects.filter(slug=options["contest"]).first()
            if contest is None:
                raise CommandError(f"no contest {options['contest']!r}")
        rebuilt = tallies.rebuild(contest)
        for line in rebuilt.differences[:SHOWN]:
            self.stdout.write(line)
        if len(rebuilt.differences) > SHOWN:
            self.stdout.write(f"... and {len(rebuilt.differences) - SHOWN} more")
        differed = f"{len(rebuilt.differences)} kept rows differed" if rebuilt.differences else "nothing differed"
        self.stdout.write(f"{rebuilt.contests} contest(s), {rebuilt.rows} rows kept: {differed}")
