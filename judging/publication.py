"""What a visitor may see of the judging: which matches, and which part of a replay.

Test games are their players' and the judges'; another contestant's stderr and output are
never shown; an output-only run's solution stays its author's while the contest is open.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from contests.services import can_see_private
from judging.models import MatchSeat


def visible_matches(user, matches: QuerySet) -> QuerySet:
    """The matches of ``matches`` a user may see listed or opened: every stage's game, but a
    test game (no stage) only to the contestants who played in it and the judges."""
    if user.has_perm("contests.view_any_source"):
        return matches
    public = Q(stage__isnull=False)
    if not user.is_authenticated:
        return matches.filter(public)
    mine = Exists(MatchSeat.objects.filter(match=OuterRef("pk"), entry__user=user))
    return matches.filter(public | mine)


def replay_for(user, match) -> dict[str, Any] | None:
    """The match's replay with the stderr of every program the user may not see removed."""
    replay = match.load_replay()
    if replay is None:
        return None
    seats = {seat.index: seat for seat in match.seats.select_related("entry")}
    visible = {index for index, seat in seats.items() if can_see_private(user, seat.entry)}
    for move in replay.get("moves", []):
        if move.get("seat") not in visible:
            move.pop("stderr", None)
            move.pop("output", None)
    for index, seat in enumerate(replay.get("seats", [])):
        if index not in visible:  # a race's seat: what its program wrote, and while open its dialogue
            seat.pop("stderr", None)
            if match.contest.is_open():
                seat.pop("server_log", None)
    if "verification" in replay and 0 not in visible:  # an output-only run: its output is its program's work
        replay.pop("printed", None)
        replay.pop("stderr", None)
        if match.contest.is_open():  # the solution stays its author's until the contest is over
            _private_batch_run(replay)
    replay["visible_seats"] = sorted(visible)
    return replay


def _private_batch_run(replay: dict[str, Any]) -> None:
    """An output-only run as others see it while the contest is open: the score, not the game."""
    report = replay.get("verification") or {}
    replay["verification"] = {k: report.get(k) for k in ("ok", "claimed", "verified") if k in report}
    replay.pop("output", None)
    replay["moves"] = []
    replay["frames"] = replay.get("frames", [])[:1]
