"""Swiss pairings in tests: a round's last result queues its next round's pairing as a task
sent after the commit (``dispatch.queue_pairing``), which the ``queued`` fixture records;
``deliver_pairings`` plays the worker's part. The checks the judges' sequences make of it."""

from __future__ import annotations

from collections import defaultdict

from contests.models import Stage
from judging.models import Match, MatchSeat
from judging.record.lifecycle import OPEN
from judging.schedule.tournaments import swiss_rounds
from judging.tasks import pair_swiss_round

TASK = pair_swiss_round.name.rpartition(".")[2]


def deliver_pairings(queued: list, stage_id: int | None = None) -> int:
    """Run the pairing tasks ``queued`` holds (those of ``stage_id`` only, if given), in the
    order they were sent, as a worker does (the task itself, in this process), and take them
    off the list; how many matches they scheduled."""
    mine = [item for item in queued if item[0] == TASK and stage_id in (None, item[1])]
    for item in mine:
        queued.remove(item)
    before = Match.objects.count()
    for _, pk in mine:
        pair_swiss_round(pk)
    return Match.objects.count() - before


def pairings_of(queued: list, stage_id: int) -> int:
    """How many pairing tasks of the stage ``queued`` holds."""
    return sum(1 for item in queued if item == (TASK, stage_id))


def assert_each_round_pairs_each_entry_once(stage_id: int) -> None:
    """Every round of a Swiss stage seats each entry in one pairing (its games) or its bye, and
    there are no more rounds than the stage's: a pairing delivered twice paired nothing twice."""
    stage = Stage.objects.get(pk=stage_id)
    games = int(stage.params.get("games_per_pairing", 2))
    seats = MatchSeat.objects.filter(match__stage=stage).values_list("match__round", "match_id", "entry_id")
    entries_of = defaultdict(set)
    for _, match_id, entry_id in seats:
        entries_of[match_id].add(entry_id)
    matches, opponents = defaultdict(int), defaultdict(set)
    for round_no, match_id, entry_id in seats:
        matches[round_no, entry_id] += 1
        opponents[round_no, entry_id] |= entries_of[match_id] - {entry_id}
    assert max((round_no for round_no, _ in matches), default=0) <= swiss_rounds(stage)
    for (round_no, entry_id), count in matches.items():
        assert count <= games, f"round {round_no}: entry {entry_id} sits in {count} matches"
        met = opponents[round_no, entry_id]
        assert len(met) <= 1, f"round {round_no}: entry {entry_id} meets {sorted(met)}"


def assert_no_round_waits_for_nothing(stage_id: int, queued: list) -> None:
    """A running Swiss stage none of whose games is open or failed has its pairing queued."""
    stage = Stage.objects.get(pk=stage_id)
    if stage.status != Stage.Status.RUNNING or not stage.matches.exists():
        return
    if not stage.matches.filter(status__in=[*OPEN, Match.Status.FAILED]).exists():
        assert pairings_of(queued, stage_id), "a round ended and nothing will pair the next"
