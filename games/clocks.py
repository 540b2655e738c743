"""The clocks a contest sets, and what each one leaves a program for its next move."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any

from django.utils.translation import gettext

UNLIMITED_CPU_S = 60.0  # what a move may take when the contest sets no CPU limit at all
# With only an average set, one move may take this many times the average: the cap that keeps
# a game finite (Chomp: 2 minutes), past which "the guidelines are clearly violated".
AVERAGE_CAP_FACTOR = 4


class ClockError(ValueError):
    pass


@dataclass(frozen=True)
class Clock:
    """Time limits of a contest; None means no such limit.

    cpu_per_move_s           CPU a program may use for one move
    wall_per_move_s          real time for one move (a program that sleeps or waits)
    cpu_average_per_move_s   CPU averaged over the moves of a game (Chomp: 30 s), a guideline:
                             a move over it, or a game's average over it, is a warning, not a
                             loss; one move may take up to cpu_per_move_s, or when that is
                             not set AVERAGE_CAP_FACTOR times the average
    cpu_total_s              CPU for a whole game
    time_limit               a chess clock: seconds for the whole game, of the time a program
                             takes to answer (CodeCup: 30), measured as ``measure`` says
    measure                  "wall" or "cpu": what the chess clock counts
    move_limit_s             at most this long for one answer, on the same measure...
    overage_s                ...unless a bank of this many seconds a game covers the excess
    memory_mb                memory of a program
    seconds                  an output-only run's limit in real time, as the program reads it
                             from seconds.txt (the MSO's "300"); still running at it: disqualified
    """

    cpu_per_move_s: float | None = None
    wall_per_move_s: float | None = None
    cpu_average_per_move_s: float | None = None
    cpu_total_s: float | None = None
    time_limit: float | None = None
    measure: str = "wall"
    move_limit_s: float | None = None
    overage_s: float | None = None
    memory_mb: int = 256
    seconds: float | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Clock:
        data = dict(data or {})
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise ClockError(f"unknown clock setting {', '.join(unknown)} (known: {', '.join(sorted(names))})")
        measure = data.get("measure", "wall")
        if measure not in ("wall", "cpu"):
            raise ClockError(f"measure must be 'wall' or 'cpu', not {measure!r}")
        for name, value in data.items():
            if name == "measure":
                continue
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < math.inf
            ):
                raise ClockError(f"{name} must be a positive number of seconds (or megabytes), not {value!r}")
        return cls(**data)

    def in_words(self) -> list[str]:
        """Each limit as a contestant reads it ("30 s of real time for all of a program's
        answers in a game"), memory aside, in the reader's language."""
        wall = self.measure == "wall"
        said = []
        if self.time_limit is not None:
            if wall:
                line = gettext("%(s)s s of real time for all of a program's answers in a game (a chess clock)")
            else:
                line = gettext("%(s)s s of CPU time for all of a program's answers in a game (a chess clock)")
            said.append(line % {"s": f"{self.time_limit:g}"})
        if self.move_limit_s is not None:
            if wall:
                line = gettext("%(s)s s of real time for one answer")
            else:
                line = gettext("%(s)s s of CPU time for one answer")
            line %= {"s": f"{self.move_limit_s:g}"}
            if self.overage_s:
                line += gettext(", or more from a bank of %(s)s s a game") % {"s": f"{self.overage_s:g}"}
            said.append(line)
        if self.cpu_per_move_s is not None:
            said.append(gettext("%(s)s s of CPU a move") % {"s": f"{self.cpu_per_move_s:g}"})
        if self.cpu_average_per_move_s is not None:
            s = f"{self.cpu_average_per_move_s:g}"
            if self.cpu_per_move_s is not None:
                line = gettext("%(s)s s of CPU a move on average over a game (a guideline)") % {"s": s}
            else:
                line = gettext(
                    "%(s)s s of CPU a move on average over a game (a guideline; one move at most %(cap)s s)"
                ) % {"s": s, "cap": f"{self.move_cap_s():g}"}
            said.append(line)
        if self.cpu_total_s is not None:
            said.append(gettext("%(s)s s of CPU in a game") % {"s": f"{self.cpu_total_s:g}"})
        if self.wall_per_move_s is not None:
            said.append(gettext("%(s)s s of real time a move") % {"s": f"{self.wall_per_move_s:g}"})
        if self.seconds is not None:
            said.append(gettext("%(s)s s of real time a run") % {"s": f"{self.seconds:g}"})
        return said

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None}

    # -- the chess clock of long-lived programs -------------------------------------------

    def answer_budget(self, used: float, bank: float) -> float:
        """The longest the next answer may take on the chess clock's measure, given the time
        used so far this game and what is left of the overage bank."""
        budget = [] if self.time_limit is None else [self.time_limit - used]
        if self.move_limit_s is not None:
            budget.append(self.move_limit_s + bank)
        return max(min(budget), 0.0) if budget else UNLIMITED_CPU_S

    def charge(self, used: float, bank: float, took: float) -> tuple[float, float, str | None]:
        """(used, bank, why out of time or None) after an answer that took ``took`` seconds."""
        used += took
        if self.move_limit_s is not None and took > self.move_limit_s:
            bank -= took - self.move_limit_s
            if bank < 0:
                return used, bank, f"{took:.2f} s for one answer, over the {self.move_limit_s:g} s limit"
        if self.time_limit is not None and used > self.time_limit:
            return used, bank, f"{used:.2f} s in the game, over the {self.time_limit:g} s limit"
        return used, bank, None

    def move_cap_s(self) -> float | None:
        """The most CPU one move may take, whatever its game's average."""
        if self.cpu_per_move_s is not None:
            return self.cpu_per_move_s
        if self.cpu_average_per_move_s is not None:
            return AVERAGE_CAP_FACTOR * self.cpu_average_per_move_s
        return None

    def cpu_for_move(self, cpu_used: float) -> float:
        """CPU the program may use on its next move, given its CPU so far this game.
        The average is judged over the whole game (a warning), so it limits no single move."""
        cap = self.move_cap_s()
        budget = [] if cap is None else [cap]
        if self.cpu_total_s is not None:
            budget.append(self.cpu_total_s - cpu_used)
        return max(min(budget), 0.0) if budget else UNLIMITED_CPU_S

    def wall_for_move(self, cpu_s: float) -> float:
        if self.wall_per_move_s is not None:
            return self.wall_per_move_s
        return 2 * cpu_s + 1.0

    def over(self, cpu_used: float, cpu_this_move: float) -> str | None:
        """Why the program is out of time after a move it finished, or None."""
        cap = self.move_cap_s()
        if cap is not None and cpu_this_move > cap:
            return f"{cpu_this_move:.2f} s of CPU, over the {cap:g} s limit per move"
        if self.cpu_total_s is not None and cpu_used > self.cpu_total_s:
            return f"{cpu_used:.2f} s of CPU in the game, over the {self.cpu_total_s:g} s limit"
        return None

    def move_warning(self, cpu_this_move: float) -> str | None:
        """A warning for a move over the average the contest asks, or None."""
        average = self.cpu_average_per_move_s
        if average is not None and cpu_this_move > average:
            return f"{cpu_this_move:.2f} s of CPU, over the {average:g} s a move the game should average"
        return None

    def game_warning(self, moves: int, cpu_used: float) -> str | None:
        """A warning for a game whose average per move is over the contest's, or None."""
        average = self.cpu_average_per_move_s
        if average is not None and moves and cpu_used > average * moves:
            return (
                f"{cpu_used / moves:.2f} s of CPU a move over the game ({moves} moves), over the {average:g} s average"
            )
        return None
