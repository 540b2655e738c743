"""The site's bounds on what an organiser sets: a contest's clock, memory and limits, a stage's
numbers, a game's parameters, a versus batch's games, an uploaded game's clock and memory.

Each bound is a setting (``BOUND_*``, MIN..MAX, from the environment: arbiter/settings.py,
.env.example), read when asked. A value outside it is refused with a sentence naming the
setting, the bound and the value, whichever door it came through: the contest form (the admin,
the organisers' page, the API), a stage's parameters (``judging.record.formats.clean_params``), a
versus batch (``judging.schedule.versus.start``), an upload (``judging.uploaded.hosting``).

    problem = bounds.MEMORY.refusal("memory_mb", 10_000_000)   # a sentence, or None
    problems = bounds.clock_refusals({"wall_per_move_s": 1e9})  # {setting name: sentence}
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils.formats import get_format, number_format
from django.utils.translation import gettext, gettext_lazy


def number(value: float) -> str:
    """A value as a sentence shows it, in the reader's language's separators: 1,000,000,000
    rather than 1e+09 (1.000.000.000 in Dutch); 0.01 as it is (0,01); a whole number too large
    for a float by its digits."""
    if isinstance(value, int):
        return (
            number_format(value, force_grouping=True)
            if abs(value) < 10**18
            else gettext("a number of %(digits)s digits") % {"digits": len(str(abs(value)))}
        )
    if math.isfinite(value) and value.is_integer() and abs(value) < 1e18:
        return number_format(int(value), force_grouping=True)
    return f"{value:g}".replace(".", get_format("DECIMAL_SEPARATOR"))


@dataclass(frozen=True)
class Bound:
    setting: str  # the name of its setting, BOUND_...
    what: str  # what it bounds, as the sentence says it (marked for translation)
    unit: str = ""

    @property
    def range(self) -> tuple[float, float]:
        return getattr(settings, self.setting)

    def admits(self, value: Any) -> bool:
        low, high = self.range
        return isinstance(value, int | float) and not isinstance(value, bool) and low <= value <= high

    def said(self) -> str:
        low, high = self.range
        unit = f" {self.unit}" if self.unit else ""
        return gettext("%(low)s to %(high)s%(unit)s") % {"low": number(low), "high": number(high), "unit": unit}

    def refusal(self, name: str, value: Any) -> str | None:
        """Why ``value`` (of the setting ``name``) is refused, in one sentence; None if it fits."""
        if self.admits(value):
            return None
        shown = number(value) if isinstance(value, int | float) and not isinstance(value, bool) else repr(value)
        return gettext("%(name)s is %(value)s: this site's bound for %(what)s is %(bound)s (%(setting)s).") % {
            "name": name,
            "value": shown,
            "what": self.what,
            "bound": self.said(),
            "setting": self.setting,
        }


MOVE_SECONDS = Bound("BOUND_MOVE_SECONDS", gettext_lazy("a move's time limit"), "s")
GAME_SECONDS = Bound("BOUND_GAME_SECONDS", gettext_lazy("a game's time limit"), "s")
RUN_SECONDS = Bound("BOUND_RUN_SECONDS", gettext_lazy("a run's time limit"), "s")
MEMORY = Bound("BOUND_MEMORY_MB", gettext_lazy("a program's memory"), "MB")
SOURCE_BYTES = Bound("BOUND_SOURCE_BYTES", gettext_lazy("a source limit"), "bytes")
EXECUTABLE_BYTES = Bound("BOUND_EXECUTABLE_BYTES", gettext_lazy("a built program's limit"), "bytes")
SUBMISSIONS_PER_DAY = Bound("BOUND_SUBMISSIONS_PER_DAY", gettext_lazy("submissions a day"))
SUBMISSIONS_PER_WEEK = Bound("BOUND_SUBMISSIONS_PER_WEEK", gettext_lazy("submissions a week"))
ENTRIES_PER_USER = Bound("BOUND_ENTRIES_PER_USER", gettext_lazy("entries per contestant"))
ROUNDS = Bound("BOUND_ROUNDS", gettext_lazy("a stage's rounds"))
GAMES_PER_PAIRING = Bound("BOUND_GAMES_PER_PAIRING", gettext_lazy("a stage's games a pairing"))
STAGE_NUMBER = Bound("BOUND_STAGE_NUMBER", gettext_lazy("a stage's numbers"))
GAME_PARAM = Bound("BOUND_GAME_PARAM", gettext_lazy("a game's parameters"))
VERSUS_GAMES = Bound("BOUND_VERSUS_GAMES", gettext_lazy("a versus batch's games"))

# Every number of games.clocks.Clock, by what it limits (a test keeps this whole).
CLOCK: dict[str, Bound] = {
    "cpu_per_move_s": MOVE_SECONDS,
    "wall_per_move_s": MOVE_SECONDS,
    "cpu_average_per_move_s": MOVE_SECONDS,
    "move_limit_s": MOVE_SECONDS,
    "time_limit": GAME_SECONDS,
    "cpu_total_s": GAME_SECONDS,
    "overage_s": GAME_SECONDS,
    "seconds": RUN_SECONDS,
    "memory_mb": MEMORY,
}

# A contest's limits (contests.Contest's fields), None meaning no limit where the field allows it.
CONTEST_LIMITS: dict[str, Bound] = {
    "max_source_bytes": SOURCE_BYTES,
    "max_executable_bytes": EXECUTABLE_BYTES,
    "max_submissions_per_day": SUBMISSIONS_PER_DAY,
    "max_submissions_per_week": SUBMISSIONS_PER_WEEK,
    "max_entries_per_user": ENTRIES_PER_USER,
}

# A stage's parameters with bounds of their own; any other number a stage takes is a
# STAGE_NUMBER, but for the seed, which is a name for a draw, not a quantity.
STAGE_PARAMS: dict[str, Bound | None] = {
    "rounds": ROUNDS,
    "games_per_pairing": GAMES_PER_PAIRING,
    "seconds": RUN_SECONDS,
    "seed": None,
}


def clock_refusals(clock: Mapping[str, Any]) -> dict[str, str]:
    """Each setting of a clock (Clock's names, memory_mb among them) outside its bound, with
    why. Names Clock does not have are left to ``Clock.from_json`` to refuse."""
    found = {}
    for name, value in clock.items():
        bound = CLOCK.get(name)
        problem = bound.refusal(name, value) if bound is not None and value is not None else None
        if problem:
            found[name] = problem
    return found


def stage_bound(name: str) -> Bound | None:
    return STAGE_PARAMS.get(name, STAGE_NUMBER)
