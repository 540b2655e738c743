"""Recompute the kept standings' totals from the seats, and each stage's kept count of
matches by state from its matches, from scratch, and say what differed.

python manage.py rebuild_standings                   # every contest
python manage.py rebuild_standings --contest SLUG    # one

The totals are kept as results are counted (``judging.record.tallies``), the counts as matches are
made and move (``judging.record.counts``); this is the check on them, and the repair after anything
wrote seats or matches behind the platform's back (a database edited by hand, an old
backup's seats, rows made by SQL).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext, gettext_lazy

from contests.models import Contest
from judging.management.language import SpeaksTheShellsLanguage
from judging.record import counts, tallies

SHOWN = 50  # differences listed; the rest are counted


class Command(SpeaksTheShellsLanguage, BaseCommand):
    help = gettext_lazy(
        "Recompute the kept standings' totals from the seats and the counts of matches from the matches "
        "(one contest, or all) and say what differed."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--contest", help=gettext("the contest's slug (every contest if not given)"))

    def handle(self, *args, **options) -> None:
        contest = None
        if options["contest"]:
            contest = Contest.objects.filter(slug=options["contest"]).first()
            if contest is None:
                raise CommandError(gettext("no contest %(slug)s") % {"slug": repr(options["contest"])})
        rebuilt = tallies.rebuild(contest)
        recounted = counts.rebuild(contest)
        differences = rebuilt.differences + recounted
        for line in differences[:SHOWN]:
            self.stdout.write(line)
        if len(differences) > SHOWN:
            self.stdout.write(gettext("... and %(more)s more") % {"more": len(differences) - SHOWN})
        said = []
        if rebuilt.differences:
            n = len(rebuilt.differences)
            said.append(gettext("%(n)s kept rows differed") % {"n": n})
        if recounted:
            n = len(recounted)
            said.append(gettext("%(n)s stages' counts of matches differed") % {"n": n})
        differed = "; ".join(said) or gettext("nothing differed")
        self.stdout.write(
            gettext("%(contests)s contest(s), %(rows)s rows kept: %(differed)s")
            % {"contests": rebuilt.contests, "rows": rebuilt.rows, "differed": differed}
        )
