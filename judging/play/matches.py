"""Playing a match: claim it, play it under its referee, record the result once.

Every try is a ``MatchAttempt``: claimed by one worker process, kept alive by a heartbeat
thread while the game is played, and ended in exactly one recorded way. Whatever happens to
the platform, a match is never lost and never counted twice:

- a worker that dies (killed, paused, cut off) stops beating; the watchdog gives its attempt
  up as ``lost`` and puts the match back at the head of the queue (``judging/watchdog.py``);
- a platform fault during the game (the sandbox, a stall of the host) ends the attempt as an
  infrastructure fault and queues the match again, up to ``MAX_FAULTS`` times, then fails it
  for a judge to look at; a program's own crash or timeout is a result, never a retry;
- a finished game whose result cannot be written (the database is away) waits for the
  database, keeping a copy of the result in the spool meanwhile, and writes it when it is back;
- a result is written only by the attempt that is still the match's current one, under row
  locks: a late attempt (given up, or called off by a judge) is recorded and discarded.
"""

from __future__ import annotations

import functools
import gzip
import json
import logging
import os
import socket
import threading
import time
import traceback
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.db import InterfaceError, OperationalError, connection, connections
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext

from contests.locks import lock, lock_one, writing
from contests.models import Submission
from games import registry
from games.base import FAULTS as PROGRAM_FAULTS
from games.base import GameResult
from games.clocks import Clock
from judging import disks, dispatch, logs, queues
from judging.models import Match, MatchAttempt, UntoldFault
from judging.news import events, notifications
from judging.play import latencies
from judging.play.builds import install_script
from judging.play.referee import Cancelled, MatchRecord, Player, RefereeFault, SeatTotals, play
from judging.record import counts, lifecycle, tallies
from judging.record.lifecycle import Ended
from sandbox import require_isolation
from sandbox.errors import Interrupted, PlatformStall, SandboxError
from sandbox.interrupt import check_stop
from sandbox.programs import build_program
from sandbox.text import printable

log = logging.getLogger(__name__)

DB_ERRORS = (OperationalError, InterfaceError)  # the database is away: wait or retry, never a result
Outcome = MatchAttempt.Outcome


def beat_seconds() -> float:
    return float(settings.WORKER_HEARTBEAT_SECONDS)


def stale_after() -> timedelta:
    """An attempt whose player has not been heard of for this long is given up."""
    return timedelta(seconds=4 * beat_seconds())


# --- Claiming -------------------------------------------------------------------------------


def claim(
    worker: str,
    match_id: int | None = None,
    races: bool | None = None,
    *,
    budget: int | None = None,
    first: int | None = None,
) -> MatchAttempt | None:
    """Take the most urgent queued match (or ``match_id``, if it is queued) for this process:
    a new running attempt, or None when there is nothing to play. ``races`` takes only the
    matches of that queue (True: races, False: the rest; None: any). With ``budget`` (the time
    limit of the token being played), only a match whose own budget fits it
    (``dispatch.time_budget``), ``first`` (the match the token was sent for) before any other."""
    queued = Match.objects.filter(status=Match.Status.QUEUED)
    if match_id is not None:
        queued = queued.filter(pk=match_id)
    if races is not None:
        queued = queues.of_queue(queued, races)
    candidates = list(queued.order_by("priority", "pk").select_related("stage", "contest")[:50])
    own = next((m for m in candidates if m.pk == first), None)
    if own is not None:
        # The token's own match first, but for a more urgent one (a replay after a fault) whose
        # own token can play this one in its turn: its time limit is as long.
        floor = dispatch.time_budget(own)
        ahead = [m for m in candidates if m.priority < own.priority and dispatch.time_budget(m) >= floor]
        candidates = [*ahead, own, *(m for m in candidates if m is not own and m not in ahead)]
    for match in candidates:
        if budget is not None and dispatch.time_budget(match) > budget:
            continue  # a longer game than this token may play: its own token plays it
        pk = match.pk
        now = timezone.now()
        with writing():
            # A match another process holds (claiming it, or a judge's action) is skipped, not
            # waited for: waiting, every claimer of a crowd queued behind the one ahead on the
            # same head of the queue (docs/benchmarks.md, "At scale"). Of two processes after
            # the same match, the conditional update lets one win.
            if not lock("match", Match.objects.filter(pk=pk), skip_held=True):
                continue
            # queued -> running: open both, the kept count (judging.record.counts) is unchanged
            if not Match.objects.filter(pk=pk, status=Match.Status.QUEUED).update(
                status=Match.Status.RUNNING, started_at=now, finished_at=None
            ):
                continue
            number = (MatchAttempt.objects.filter(match_id=pk).aggregate(n=Max("number"))["n"] or 0) + 1
            return MatchAttempt.objects.create(
                match_id=pk,
                number=number,
                worker=worker,
                host=socket.gethostname(),
                pid=os.getpid(),
                started_at=now,
                last_seen=now,
            )
    return None


def play_next(worker: str, races: bool = False, budget: int | None = None, sent_for: int | None = None) -> int | None:
    """Play the most urgent queued match of the matches queue, or of the races queue, that fits
    the token's time ``budget`` (the match it was ``sent_for`` first); its id, or None when none
    was queued. A host whose jail cannot be made takes no match (SandboxUnavailable, before
    anything is claimed)."""

    require_isolation()
    disks.check()  # DiskFull: nothing claimed; the task waits for room with its token (judging.tasks)
    check_stop()  # a process asked to stop claims nothing: the match stays queued for a live worker
    attempt = claim(worker, races=races, budget=budget, first=sent_for)
    if attempt is None:
        return None
    play_attempt(attempt)
    return attempt.match_id


def play_now(match_id: int, worker: str = "") -> Match.Status | None:
    """Play this match here and now if it is queued (the demo, tests); its status after."""
    check_stop()
    attempt = claim(worker or f"{socket.gethostname()}:{os.getpid()}", match_id=match_id)
    if attempt is None:
        return None
    play_attempt(attempt)
    return Match.objects.get(pk=match_id).status


# --- Playing --------------------------------------------------------------------------------


class Heartbeat:
    """While a game is played, a thread tells the database every few seconds that its attempt
    is alive, and sets ``lost`` when the attempt was given up or called off meanwhile (the
    referee then stops the game). A database that is away is waited for, silently."""

    def __init__(self, attempt_id: int, interval: float) -> None:
        self.attempt_id = attempt_id
        self.interval = interval
        self.lost = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"attempt-{attempt_id}", daemon=True)

    def __enter__(self) -> Heartbeat:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        try:
            while not self._stop.wait(self.interval):
                try:
                    alive = MatchAttempt.objects.filter(pk=self.attempt_id, outcome=Outcome.RUNNING).update(
                        last_seen=timezone.now()
                    )
                    if not alive and MatchAttempt.objects.filter(pk=self.attempt_id).exists():
                        self.lost.set()  # given up as lost, or a judge called it off
                except DB_ERRORS:
                    connection.close()  # and try again at the next beat
        finally:
            connection.close()


def _player(seat) -> Player:

    submission = seat.submission
    with submission.source.open("rb") as f:
        build = build_program(
            f.read(),
            submission.filename,
            language=submission.language,
            table_name=seat.entry.contest.language_table,
            from_sources=submission.rebuilt_from_sources,
            install=install_script(seat.entry.contest),
        )
    if not build.ok:
        raise SandboxError(f"submission {submission.pk} no longer builds here: {build.log[-500:]}")
    return Player(
        name=seat.entry.name,
        program=build.program,
        submission={
            "entry": seat.entry_id,
            "submission": submission.pk,
            "sha256": submission.sha256,
            "language": submission.language,
        },
    )


def _stage_clock(match: Match) -> dict:
    """A stage's own time limit of an output-only run (a system test's short practice run)."""
    seconds = (match.stage.params or {}).get("seconds") if match.stage_id else None
    return {"seconds": seconds} if seconds else {}


def _data(match: Match) -> bytes | None:
    """The contest's own data file for its game (Crossed Words: the organisers' word list)."""
    if not match.contest.game_data:
        return None
    with match.contest.game_data.open("rb") as f:
        return f.read()


def _progress(attempt_id: int, frame: dict) -> None:
    """A race's latest moment, for its live page (the referee tells it every second)."""
    MatchAttempt.objects.filter(pk=attempt_id, outcome=MatchAttempt.Outcome.RUNNING).update(progress=frame)


def play_attempt(attempt: MatchAttempt) -> None:
    """Play a claimed attempt to its end and record how it ended; every log line meanwhile
    names the contest, stage, match and attempt."""
    match = Match.objects.select_related("contest", "stage").get(pk=attempt.match_id)
    with logs.about(contest=match.contest_id, stage=match.stage_id, match=match.pk, attempt=attempt.number):
        _play(attempt, match)


def _play(attempt: MatchAttempt, match: Match) -> None:
    seats = list(match.seats.select_related("entry__contest", "submission").order_by("index"))
    with Heartbeat(attempt.pk, beat_seconds()) as heartbeat:
        try:
            game = registry.get(match.contest.game)
            players = [_player(seat) for seat in seats]
            clock = Clock.from_json({**game.default_clock, **match.contest.clock, **_stage_clock(match)})
            record = play(
                game,
                match.params,
                match.seed,
                players,
                clock,
                should_stop=heartbeat.lost.is_set,
                data=_data(match),
                on_progress=functools.partial(_progress, attempt.pk),
            )
        except Cancelled:
            log.info("match %s, attempt %s: stopped, as it was called off", match.pk, attempt.number)
            return
        except Interrupted:  # its process was asked to stop; the jails are closed: back to the queue now
            end_attempt(attempt.pk, Outcome.LOST, "its worker was stopped (SIGTERM) during the game", counted=False)
            raise
        except PlatformStall as e:
            end_attempt(attempt.pk, Outcome.STALLED, str(e))
            return
        except SandboxError as e:
            end_attempt(attempt.pk, Outcome.INFRA, f"{type(e).__name__}: {e}")
            return
        except RefereeFault as e:  # the organiser's program, not a player's: retried, then a judge's
            if end_attempt(attempt.pk, Outcome.REFEREE, f"the game's referee: {e}"):
                notifications.referee_failed(match, str(e))
            return
        except Exception:  # a platform bug: recorded for the judges, retried elsewhere, never lost
            log.exception("match %s, attempt %s: platform error", match.pk, attempt.number)
            end_attempt(attempt.pk, Outcome.ERROR, traceback.format_exc(limit=8))
            return
        try:
            record_result(attempt.pk, record)
        except DB_ERRORS:
            raise  # the database stayed away: the spooled copy, or the watchdog, takes it from here
        except Exception:  # recording failed otherwise: a platform fault at once, never 20 s of silence
            log.exception("match %s, attempt %s: its result could not be recorded", match.pk, attempt.number)
            end_attempt(attempt.pk, Outcome.ERROR, traceback.format_exc(limit=8))
            return
        latencies.observe_safely(attempt.host or socket.gethostname(), record.timings)


# --- Recording ------------------------------------------------------------------------------


def record_result(attempt_id: int, record: MatchRecord) -> bool:
    """Write a finished game's result; while the database is away, keep a copy in the spool and
    wait for it (up to DATABASE_WAIT_SECONDS). True if it was counted."""
    deadline = time.monotonic() + settings.DATABASE_WAIT_SECONDS
    spooled: Path | None = None
    delay = 0.5
    while True:
        try:
            counted = write_result(attempt_id, record)
        except DB_ERRORS as e:
            if spooled is None:
                try:
                    spooled = spool(attempt_id, record)
                    where = str(spooled)
                except OSError as full:  # the media disk too: this process holds the result alone
                    spooled, where = Path(os.devnull), f"this process only (the spool failed: {full.strerror})"
                log.warning(
                    "attempt %s: the database is away (%s); result kept in %s until it is back", attempt_id, e, where
                )
            if time.monotonic() > deadline:
                raise
            connections.close_all()
            time.sleep(delay)
            delay = min(delay * 2, 10.0)
            continue
        if spooled is not None and spooled != Path(os.devnull):
            spooled.unlink(missing_ok=True)
        return counted


def _result_json(record: MatchRecord, seats) -> dict:
    outcome = record.outcome
    reason = printable(outcome.reason)  # a game's words may quote a program's: saved as text that prints
    return {
        "reason": reason,
        "seats": [
            {
                "index": seat.index,
                "entry": seat.entry_id,
                "submission": seat.submission_id,
                "points": outcome.points[seat.index],
                "score": outcome.scores[seat.index],
                "status": outcome.statuses[seat.index],
                "detail": outcome.details[seat.index],
                "reason": reason if outcome.statuses[seat.index] not in ("win", "draw") else "",
                "moves": totals.moves,
                "cpu_s": totals.cpu_s,
                "wall_s": totals.wall_s,
                "warnings": [printable(warning) for warning in totals.warnings],
            }
            for seat, totals in zip(seats, record.seats, strict=True)
        ],
    }


def write_result(attempt_id: int, record: MatchRecord) -> bool:
    """Record a finished attempt's result if it is still the match's current attempt."""
    match_id = MatchAttempt.objects.values_list("match_id", flat=True).get(pk=attempt_id)
    with writing():
        match = lifecycle.lock_match(match_id)
        attempt = lock_one("attempt", MatchAttempt.objects.filter(pk=attempt_id))
        if attempt.outcome != Outcome.RUNNING or match.status != Match.Status.RUNNING:
            log.warning(
                "match %s: result of attempt %s not counted: the attempt was %s",
                match.pk,
                attempt.number,
                attempt.get_outcome_display().lower(),
            )
            return False
        with tallies.recounting(match.pk):  # the standings' totals: this result in, the earlier one out
            _hold_result(match, attempt, record)
        events.match_finished(match)
        lifecycle.match_ended(match, Ended.FINISHED)
    return True


def _hold_result(match: Match, attempt: MatchAttempt, record: MatchRecord) -> None:
    """The seats and the match hold the attempt's result: the one counted."""
    seats = list(match.seats.order_by("index"))
    result = _result_json(record, seats)
    for seat, values in zip(seats, result["seats"], strict=True):
        seat.points, seat.score = values["points"], values["score"]
        seat.status, seat.detail, seat.reason = values["status"], values["detail"], values["reason"]
        seat.moves, seat.cpu_seconds, seat.wall_seconds = values["moves"], values["cpu_s"], values["wall_s"]
        seat.save()
    for seat, replayed in zip(seats, record.replay.get("seats", []), strict=False):
        if replayed.get("program_bytes"):  # measured on the run (an output-only contest's tie-break)
            Submission.objects.filter(pk=seat.submission_id).update(program_bytes=replayed["program_bytes"])
    now = timezone.now()
    attempt.outcome, attempt.finished_at, attempt.last_seen, attempt.result = Outcome.FINISHED, now, now, result
    try:
        match.save_replay(record.replay, attempt)
    except OSError as e:  # the game was played fairly: its result counts; its replay is lost
        if not disks.is_full(e):
            raise
        attempt.error = f"its replay was not kept: the media disk is full ({e.strerror})"
        log.error("match %s, attempt %s: %s", match.pk, attempt.number, attempt.error)
    attempt.save(update_fields=["outcome", "finished_at", "last_seen", "result", "error"])
    was = match.status
    match.status, match.reason, match.error, match.finished_at = Match.Status.FINISHED, result["reason"], "", now
    match.result_attempt, match.faults = attempt, 0
    match.save(update_fields=["status", "reason", "error", "finished_at", "result_attempt", "faults"])
    counts.changed(match, was)  # after the replay is saved: the count's row is held till the commit
    # Its programs' faults wait for the watchdog's digest (notifications.send_fault_digests).
    UntoldFault.objects.bulk_create(
        UntoldFault(seat=seat, attempt=attempt) for seat in seats if seat.status in PROGRAM_FAULTS
    )


def end_attempt(attempt_id: int, outcome: str, error: str, counted: bool = True) -> bool:
    """End a running attempt that gave no result (lost, a platform fault, a stall): the match
    goes back to the head of the queue, or fails for a judge after MAX_FAULTS in a row (not
    ``counted``: a stop asked for, no fault). False if the attempt had already ended (a judge
    called it off)."""
    match_id = MatchAttempt.objects.values_list("match_id", flat=True).get(pk=attempt_id)
    with writing():
        match = lifecycle.lock_match(match_id)
        attempt = lock_one("attempt", MatchAttempt.objects.filter(pk=attempt_id))
        if attempt.outcome != Outcome.RUNNING:
            return False
        attempt.outcome, attempt.finished_at, attempt.error = outcome, timezone.now(), error[-4000:]
        attempt.save(update_fields=["outcome", "finished_at", "error"])
        if match.status != Match.Status.RUNNING:
            return True
        with logs.about(contest=match.contest_id, stage=match.stage_id, match=match.pk, attempt=attempt.number):
            log.warning("match %s, attempt %s: %s: %s", match.pk, attempt.number, outcome, error.splitlines()[-1:])
        lifecycle.requeue_after_fault(
            match, error, by=gettext("the game's referee") if outcome == Outcome.REFEREE else "", counted=counted
        )
    return True


# --- The spool: results that are waiting for the database -----------------------------------


def spool_folder() -> Path:
    return Path(settings.MEDIA_ROOT) / "spool"


def spool(attempt_id: int, record: MatchRecord) -> Path:
    """Keep a finished game's result on disk (in the media folder every host shares) until the
    database takes it: if this process dies meanwhile, the watchdog writes it."""
    folder = spool_folder()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"attempt-{attempt_id}.json.gz"
    data = {
        "attempt": attempt_id,
        "outcome": record.outcome.to_json(),
        "seats": [vars(t) for t in record.seats],
        "replay": record.replay,
    }
    partial = path.with_suffix(".tmp")
    try:
        partial.write_bytes(gzip.compress(json.dumps(data).encode(), mtime=0))
        partial.replace(path)
    except OSError:  # a full disk: nothing half-written left; the process keeps the result meanwhile
        partial.unlink(missing_ok=True)
        raise
    return path


def flush_spool() -> int:
    """Write the results left in the spool by processes that died waiting for the database;
    returns how many were counted. A result whose attempt was given up meanwhile is still
    counted if nothing else played the match since: the game was played to its end."""

    counted = 0
    for path in sorted(spool_folder().glob("attempt-*.json.gz")):
        try:
            data = json.loads(gzip.decompress(path.read_bytes()))
        except (OSError, ValueError, EOFError):
            log.exception("spool: %s is unreadable; left for a judge", path)
            continue
        if time.time() - path.stat().st_mtime < 2 * stale_after().total_seconds():
            continue  # its process may still be waiting to write it itself
        outcome = data["outcome"]
        record = MatchRecord(
            GameResult(
                tuple(outcome["points"]),
                tuple(outcome["scores"]),
                tuple(outcome["statuses"]),
                outcome["reason"],
                tuple(outcome.get("details", ())),
            ),
            [SeatTotals(**s) for s in data["seats"]],
            data["replay"],
        )
        if _revive(data["attempt"]) and write_result(data["attempt"], record):
            counted += 1
        path.unlink(missing_ok=True)
    return counted


def _revive(attempt_id: int) -> bool:
    """Make a spooled attempt current again if nothing else has been played since it was given up."""
    match_id = MatchAttempt.objects.filter(pk=attempt_id).values_list("match_id", flat=True).first()
    if match_id is None:
        return False
    with writing():
        match = lifecycle.lock_match(match_id)
        attempt = lock_one("attempt", MatchAttempt.objects.filter(pk=attempt_id))
        return _revived(match, attempt)


def _revived(match: Match, attempt: MatchAttempt) -> bool:
    if attempt.outcome == Outcome.RUNNING:
        return True
    if attempt.outcome != Outcome.LOST:
        return False
    newer = MatchAttempt.objects.filter(match_id=attempt.match_id, number__gt=attempt.number).exists()
    if newer or match.status != Match.Status.QUEUED:
        return False
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING)  # open both: no count moves
    MatchAttempt.objects.filter(pk=attempt.pk).update(outcome=Outcome.RUNNING)
    return True
