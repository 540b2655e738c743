"""The judging layer's data: matches, their seats and attempts, the judges' verifications of
outputs, and what the workers keep (heartbeats, pings, events, leases, latencies).

A match is a list of seats (``MatchSeat``), never a pair of columns: the game's returns
decide how many seats there are and what each one scored.
"""

from __future__ import annotations

import gzip
import json
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

from games.base import BYE, SEAT_STATUSES

# What a seat's status may be: games.base's vocabulary, and a Swiss round sat out.
SEAT_STATUS_CHOICES = [(status, status) for status in (*SEAT_STATUSES, BYE)]


def replay_upload_to(match: Match, filename: str) -> str:
    return f"replays/{match.contest.slug}/{filename}"


class Match(models.Model):
    """A game between seats. ``status`` is where its latest request to be played stands; the
    seats hold its newest result (``result_attempt``), which a re-run replaces only when the new
    play has finished: every earlier result stays on its attempt."""

    class Status(models.TextChoices):
        QUEUED = "queued", gettext_lazy("Queued")
        RUNNING = "running", gettext_lazy("Running")
        FINISHED = "finished", gettext_lazy("Finished")
        FAILED = "failed", gettext_lazy("Failed (platform fault)")
        CANCELLED = "cancelled", gettext_lazy("Cancelled")

    class Priority(models.IntegerChoices):
        """Which queued match a free worker plays first (then the oldest)."""

        RESCUE = 0, gettext_lazy("Put back after a platform fault")
        WAITING = 1, gettext_lazy("Someone is waiting: a system test, a test game, a judge's re-run")
        TOURNAMENT = 2, gettext_lazy("A tournament's match")

    contest = models.ForeignKey("contests.Contest", on_delete=models.CASCADE, related_name="matches")
    stage = models.ForeignKey("contests.Stage", on_delete=models.CASCADE, related_name="matches", null=True, blank=True)
    versus = models.ForeignKey(
        "judging.VersusBatch", on_delete=models.SET_NULL, related_name="matches", null=True, blank=True,
        help_text="The versus batch this unrated game is one of.",
    )  # fmt: skip
    round = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    seed = models.BigIntegerField(validators=[MinValueValidator(0), MaxValueValidator(2**63 - 1)])
    params = models.JSONField(default=dict, blank=True, help_text="Game parameters of this match.")
    priority = models.PositiveSmallIntegerField(choices=Priority.choices, default=Priority.TOURNAMENT)
    reason = models.TextField(blank=True, help_text="How the game ended, in words.")
    error = models.TextField(blank=True, help_text="Platform fault, when the match failed.")
    faults = models.PositiveSmallIntegerField(
        default=0, help_text="Attempts the platform failed (not the programs) since it was last queued."
    )
    result_attempt = models.ForeignKey(
        "MatchAttempt",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The attempt whose result the seats hold (the newest finished one).",
    )
    replay = models.FileField(upload_to=replay_upload_to, max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    queued_at = models.DateTimeField(
        default=timezone.now, help_text="When it was last queued (made, re-run, or put back after a fault)."
    )
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "contests_match"  # made as a contests model; moved here, its table kept
        ordering = ["-created_at"]
        verbose_name_plural = "matches"
        indexes = [
            models.Index(fields=["contest", "status"]),
            models.Index(fields=["stage", "round"]),
            models.Index(fields=["status", "priority", "id"], name="match_queue"),
            # the match lists, newest first, and the standings' count of games: within one
            # contest or stage, however many games other contests hold
            models.Index(fields=["contest", "-id"], name="match_contest_newest"),
            models.Index(fields=["stage", "-id"], name="match_stage_newest"),
            models.Index(fields=["stage", "status"], name="match_stage_status"),
            # a contest's test games (of no stage), which the kept counts of matches leave out:
            # listed and counted without reading its stages' games
            models.Index(fields=["contest", "-id"], condition=models.Q(stage__isnull=True), name="match_test_games"),
        ]

    def __str__(self) -> str:
        return f"match {self.pk} ({self.contest.slug})"

    def save_replay(self, replay: dict[str, Any], attempt: MatchAttempt | None = None) -> None:
        """Store the replay as gzipped JSON and point this match (and ``attempt``) at it. An
        earlier attempt's replay is kept: it is that attempt's."""
        data = gzip.compress(json.dumps(replay, separators=(",", ":")).encode(), mtime=0)
        name = f"{self.pk}-{attempt.number}.json.gz" if attempt else f"{self.pk}.json.gz"
        target = self.replay.field.generate_filename(self, name)
        try:
            self.replay.save(name, ContentFile(data), save=False)
        except OSError:  # a full disk: leave no half-written replay behind
            storage = self.replay.storage
            if storage.exists(target) and storage.size(target) != len(data):
                storage.delete(target)
            self.replay.name = ""
            raise
        self.save(update_fields=["replay"])
        if attempt is not None:
            attempt.replay.name = self.replay.name
            attempt.save(update_fields=["replay"])

    def load_replay(self) -> dict[str, Any] | None:
        return read_replay(self.replay)


def read_replay(field) -> dict[str, Any] | None:
    """A stored replay (a match's or an attempt's file field), or None if there is none."""
    if not field:
        return None
    with field.open("rb") as f:
        return json.loads(gzip.decompress(f.read()))


def _attempt_replay_to(attempt: MatchAttempt, filename: str) -> str:
    return replay_upload_to(attempt.match, filename)


class MatchAttempt(models.Model):
    """One try at playing a match: which worker played it, when, and how it ended. The judges
    see every one; a finished one keeps its result and replay after a re-run replaces it."""

    class Outcome(models.TextChoices):
        RUNNING = "running", gettext_lazy("Being played")
        FINISHED = "finished", gettext_lazy("Finished")
        LOST = "lost", gettext_lazy("Lost: its worker stopped (killed, paused, cut off)")
        INFRA = "infra", gettext_lazy("Infrastructure fault (sandbox, host)")
        REFEREE = "referee", gettext_lazy("The game's referee failed (not a player's fault)")
        STALLED = "stalled", gettext_lazy("The platform stalled during the game")
        ERROR = "error", gettext_lazy("Platform error")
        SUPERSEDED = "superseded", gettext_lazy("Called off: a judge re-ran or cancelled the match")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="attempts")
    number = models.PositiveSmallIntegerField(help_text="1 for the first try, then 2, 3...")
    worker = models.CharField(max_length=255, blank=True, help_text="The Celery worker (or command) that played it.")
    host = models.CharField(max_length=255, blank=True)
    pid = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField()
    last_seen = models.DateTimeField(help_text="Its player's latest sign of life.")
    finished_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=12, choices=Outcome.choices, default=Outcome.RUNNING)
    error = models.TextField(blank=True)
    result = models.JSONField(null=True, blank=True, help_text="The result it recorded: reason and seats.")
    progress = models.JSONField(
        null=True, blank=True, help_text="A race's latest moment while it runs: each entrant's deck, round, moves."
    )
    replay = models.FileField(upload_to=_attempt_replay_to, max_length=300, blank=True)

    class Meta:
        db_table = "contests_matchattempt"  # made as a contests model; moved here, its table kept
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="attempt_number_unique")]
        indexes = [models.Index(fields=["outcome", "last_seen"], name="attempt_watch")]

    def __str__(self) -> str:
        return f"attempt {self.number} of match {self.match_id}"


class MatchSeat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField(help_text="0 for the seat that moves first.")
    entry = models.ForeignKey("contests.Entry", on_delete=models.CASCADE, related_name="seats")
    submission = models.ForeignKey("contests.Submission", on_delete=models.PROTECT, related_name="seats")
    points = models.FloatField(null=True, blank=True, help_text="What the standings count: e.g. 2/1/0 or a win.")
    score = models.FloatField(null=True, blank=True, help_text="The game's own measure: cookies eaten, rounds.")
    status = models.CharField(
        max_length=32,
        blank=True,
        choices=SEAT_STATUS_CHOICES,
        help_text="The seat's result, in one vocabulary for every game (games.base); blank until it is played.",
    )
    detail = models.CharField(max_length=64, blank=True, help_text="The result as the game names it, if otherwise.")
    reason = models.TextField(blank=True)
    moves = models.PositiveIntegerField(default=0)
    cpu_seconds = models.FloatField(default=0)
    wall_seconds = models.FloatField(default=0)

    class Meta:
        db_table = "contests_matchseat"  # made as a contests model; moved here, its table kept
        ordering = ["match", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="seat_index_unique")]
        # an entry's newest games (its page, the match list's entry filter), however many
        # games other entries played since
        indexes = [models.Index(fields=["entry", "-match"], name="seat_entry_newest")]

    def __str__(self) -> str:
        return f"seat {self.index} of match {self.match_id}"


class Verification(models.Model):
    """A judge's verification of one output of an output-only contest (one batch run), as the
    MSO judges did theirs by hand: pending until a judge accepts or rejects it with a note, or
    credits it with its unverified (claimed) score once the winner is certain. A new result of
    the run (a re-run) makes it pending again: a judge verified the output, not the entry."""

    class Status(models.TextChoices):
        PENDING = "pending", gettext_lazy("Waiting for a judge")
        ACCEPTED = "accepted", gettext_lazy("Verified by a judge")
        REJECTED = "rejected", gettext_lazy("Rejected by a judge")
        CREDITED = "credited", gettext_lazy("Credited with its claimed score, unverified")

    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="verification")
    attempt = models.ForeignKey(
        MatchAttempt,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="The result the judge decided on.",
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    note = models.TextField(blank=True)
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "contests_verification"  # made as a contests model; moved here, its table kept

    def __str__(self) -> str:
        return f"verification of match {self.match_id}: {self.status}"


class FrozenSeat(models.Model):
    """One seat's counted result at the moment its contest's standings were frozen: what the
    public sees of that match, and what its public standings add up, until the judges publish
    the results (``judging.record.publication``). Its fields are a seat's, so the standings read a
    snapshot and the live record the same way."""

    contest = models.ForeignKey("contests.Contest", on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="+")
    attempt = models.ForeignKey(
        MatchAttempt, on_delete=models.CASCADE, related_name="+", help_text="The attempt whose result it was."
    )
    finished_at = models.DateTimeField(help_text="When that result was recorded.")
    index = models.PositiveSmallIntegerField()
    entry = models.ForeignKey("contests.Entry", on_delete=models.CASCADE, related_name="+")
    submission = models.ForeignKey("contests.Submission", on_delete=models.CASCADE, related_name="+")
    current_version = models.BooleanField(help_text="Its submission was its entry's active version at the freeze.")
    points = models.FloatField(null=True, blank=True)
    score = models.FloatField(null=True, blank=True)
    status = models.CharField(max_length=32, blank=True, choices=SEAT_STATUS_CHOICES)
    detail = models.CharField(max_length=64, blank=True)
    reason = models.TextField(blank=True)
    moves = models.PositiveIntegerField(default=0)
    cpu_seconds = models.FloatField(default=0)
    wall_seconds = models.FloatField(default=0)

    class Meta:
        ordering = ["match", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="frozen_seat_unique")]
        indexes = [models.Index(fields=["contest", "entry"], name="frozen_seat_entry")]

    def __str__(self) -> str:
        return f"frozen seat {self.index} of match {self.match_id}"


class Tally(models.Model):
    """Kept standings: one entry's totals in one stage, for one of its versions and one result
    (status, the game's word for it and its place in its game), as the counted seats add up (``judging.record.tallies``
    keeps them in the transaction that changes a seat's counted result). Every column of a
    game is a sum of a seat's field or a count of seats over some results, so any column is a
    sum of these rows: a table reads O(entries) rows whatever the number of games. Which rows
    count (a cancelled stage, a disqualified entry, an old version) is decided when reading.
    ``frozen`` rows are the snapshot of the contest's freeze (``judging.record.publication``)."""

    contest = models.ForeignKey("contests.Contest", on_delete=models.CASCADE, related_name="+")
    stage = models.ForeignKey("contests.Stage", on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey("contests.Entry", on_delete=models.CASCADE, related_name="+")
    submission = models.ForeignKey("contests.Submission", on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=32, blank=True)
    detail = models.CharField(max_length=64, blank=True)
    place = models.PositiveSmallIntegerField(
        default=0, help_text="The seats' place in their games by points (games.base.places); 0 for byes."
    )
    frozen = models.BooleanField(default=False)
    current_version = models.BooleanField(
        default=True, help_text="Frozen rows: its submission was its entry's active version at the freeze."
    )
    seats = models.IntegerField(default=0)
    points = models.FloatField(default=0)
    score = models.FloatField(default=0)
    moves = models.BigIntegerField(default=0)
    wall_seconds = models.FloatField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "frozen", "entry", "submission", "status", "detail", "place"], name="tally_unique"
            )
        ]
        indexes = [models.Index(fields=["contest", "frozen"], name="tally_contest")]

    def __str__(self) -> str:
        return f"{self.entry_id} in stage {self.stage_id}: {self.seats} {self.status or 'seats'}"


class PairTally(models.Model):
    """Kept head-to-head of a two-seat game: the points ``entry`` (playing ``submission``)
    scored against ``opponent`` (playing ``opponent_submission``) in one stage, the games,
    byes aside, and how many of them it won and drew; read by the crosstable, an entry's page
    and the ratings (``judging.rating``), kept with ``Tally``."""

    contest = models.ForeignKey("contests.Contest", on_delete=models.CASCADE, related_name="+")
    stage = models.ForeignKey("contests.Stage", on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey("contests.Entry", on_delete=models.CASCADE, related_name="+")
    submission = models.ForeignKey("contests.Submission", on_delete=models.CASCADE, related_name="+")
    opponent = models.ForeignKey("contests.Entry", on_delete=models.CASCADE, related_name="+")
    opponent_submission = models.ForeignKey("contests.Submission", on_delete=models.CASCADE, related_name="+")
    frozen = models.BooleanField(default=False)
    current_version = models.BooleanField(default=True)
    games = models.IntegerField(default=0)
    points = models.FloatField(default=0)
    wins = models.IntegerField(default=0)
    draws = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "frozen", "entry", "submission", "opponent", "opponent_submission"],
                name="pair_tally_unique",
            )
        ]
        indexes = [
            models.Index(fields=["contest", "frozen"], name="pair_tally_contest"),
            models.Index(fields=["stage", "frozen", "opponent"], name="pair_tally_opponent"),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id} against {self.opponent_id} in stage {self.stage_id}"


class VersusBatch(models.Model):
    """A contestant's version against a pool of opponents, in unrated games outside every stage,
    until the win rate's interval excludes 50% or its games are spent (``judging.schedule.versus``)."""

    class Status(models.TextChoices):
        RUNNING = "running", gettext_lazy("Playing")
        DECIDED = "decided", gettext_lazy("Decided early")
        SPENT = "spent", gettext_lazy("Games spent")

    contest = models.ForeignKey("contests.Contest", on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey("contests.Entry", on_delete=models.CASCADE, related_name="versus_batches")
    submission = models.ForeignKey("contests.Submission", on_delete=models.CASCADE, related_name="versus_batches")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    opponents = models.JSONField(help_text="The pool, played in turn: [{submission, entry, label}].")
    games = models.PositiveIntegerField(help_text="At most this many games.")
    level = models.FloatField(default=0.95)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING)
    ended_by = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-pk"]

    def __str__(self) -> str:
        return f"versus batch {self.pk} of submission {self.submission_id}"


class RatingFit(models.Model):
    """A stage's ratings and rank intervals as last computed from its kept pairs
    (``judging.record.confidence``), live or of its contest's frozen snapshot: one row each."""

    contest = models.ForeignKey("contests.Contest", on_delete=models.CASCADE, related_name="+")
    stage = models.ForeignKey("contests.Stage", on_delete=models.CASCADE, related_name="+")
    frozen = models.BooleanField(default=False)
    games = models.IntegerField(default=0, help_text="The games the fit counted.")
    level = models.FloatField(help_text="The intervals' confidence, e.g. 0.95.")
    k = models.FloatField(help_text="The rating shown is mu - k sigma.")
    settled = models.JSONField(
        default=list, help_text="At each boundary below place r, the share of draws whose top r are the first r shown."
    )
    computed_at = models.DateTimeField()
    seconds = models.FloatField(default=0, help_text="How long the fit took.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["stage", "frozen"], name="rating_fit_unique")]

    def __str__(self) -> str:
        return f"ratings of stage {self.stage_id}{' (frozen)' if self.frozen else ''}"


class Rating(models.Model):
    """One row of a ``RatingFit``: an entry's strength (of its current version in a continuous
    stage), in logits about the field's mean, and its rank interval and tied group."""

    fit = models.ForeignKey(RatingFit, on_delete=models.CASCADE, related_name="ratings")
    place = models.PositiveIntegerField(help_text="Its place in the order the intervals were read against.")
    entry = models.ForeignKey("contests.Entry", on_delete=models.CASCADE, related_name="+")
    submission = models.ForeignKey(
        "contests.Submission", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.IntegerField(default=0)
    rank_low = models.PositiveIntegerField()
    rank_high = models.PositiveIntegerField()
    group = models.PositiveIntegerField(help_text="Rows of one group are statistically tied.")

    class Meta:
        ordering = ["fit", "place"]
        constraints = [models.UniqueConstraint(fields=["fit", "entry"], name="rating_entry_unique")]

    def __str__(self) -> str:
        return f"{self.entry_id} in {self.fit}"


class RatingPoint(models.Model):
    """A live fit's rating of one row, kept for the charts (the standings' rating over the
    stage's games, an entry's across its versions): a point a fit, thinned as the stage's
    games grow (``judging.record.confidence.HISTORY_GROWTH``)."""

    stage = models.ForeignKey("contests.Stage", on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey("contests.Entry", on_delete=models.CASCADE, related_name="+")
    submission = models.ForeignKey(
        "contests.Submission", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    games = models.IntegerField(help_text="The stage's games the fit counted.")
    at = models.DateTimeField()
    mu = models.FloatField()
    sigma = models.FloatField()

    class Meta:
        indexes = [
            models.Index(fields=["stage", "games"], name="rating_point_stage"),
            models.Index(fields=["entry", "stage", "games"], name="rating_point_entry"),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id} at {self.games} games of stage {self.stage_id}"


class MatchCount(models.Model):
    """Kept progress: how many of a stage's matches are in each state, added to by every
    writer that makes a match, moves it to another state or deletes it (``judging.record.counts``),
    in its own transaction. A stage has up to ``counts.SHARDS`` rows and each writer adds to
    the one of its process (or thread): writers of one stage do not queue on one row, and the
    stage's count is the sum of its rows. One row alone means nothing (a match may be counted
    in by one process and out by another: a row may go below zero). A queued and a running
    match are both ``open``: a claim moves none of these counts."""

    contest = models.ForeignKey("contests.Contest", on_delete=models.CASCADE, related_name="+")
    stage = models.ForeignKey("contests.Stage", on_delete=models.CASCADE, related_name="+")
    shard = models.PositiveSmallIntegerField()
    open = models.IntegerField(default=0, help_text="Queued or being played.")
    finished = models.IntegerField(default=0)
    failed = models.IntegerField(default=0)
    cancelled = models.IntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["stage", "shard"], name="match_count_unique")]

    def __str__(self) -> str:
        return f"stage {self.stage_id}, row {self.shard}: {self.finished} finished, {self.open} open"


class WorkerHeartbeat(models.Model):
    """One row per Celery worker, refreshed while it runs; /health/ reads them."""

    hostname = models.CharField(max_length=255, unique=True)
    queues = models.JSONField(default=list)
    concurrency = models.PositiveSmallIntegerField(default=1)
    pid = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField()
    last_seen = models.DateTimeField()
    stopped_at = models.DateTimeField(null=True, blank=True)
    sandbox_level = models.CharField(
        max_length=40, blank=True, help_text="Isolation the sandbox self-check found on this host."
    )
    low_disk = models.TextField(
        blank=True, help_text="The disks it writes on that are below DISK_MIN_FREE_MB: it claims nothing meanwhile."
    )

    class Meta:
        ordering = ["hostname"]

    def __str__(self) -> str:
        return self.hostname

    def is_alive(self, stale_after: timedelta, now=None) -> bool:
        now = now or timezone.now()
        return self.stopped_at is None and now - self.last_seen <= stale_after


class Ping(models.Model):
    """A round trip through the broker: created by the web side, answered by a worker."""

    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)
    answered_by = models.CharField(max_length=255, blank=True)

    def __str__(self) -> str:
        return f"ping {self.pk}"


class Event(models.Model):
    """Something a script may wait for, streamed by /api/events/ (server-sent events)."""

    class Kind(models.TextChoices):
        SUBMISSION = "submission", gettext_lazy("submission status changed")
        MATCH = "match", gettext_lazy("match finished")
        STANDINGS = "standings", gettext_lazy("standings changed")

    kind = models.CharField(max_length=12, choices=Kind.choices)
    contest = models.ForeignKey("contests.Contest", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(
        "auth.User",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        help_text="Only this user sees it.",
    )
    data = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.kind} {self.data}"


class Lease(models.Model):
    """A job that one process at a time should do across every worker (the watchdog): its
    holder has it until ``expires_at`` and renews it while it works."""

    name = models.CharField(max_length=40, primary_key=True)
    holder = models.CharField(max_length=255, blank=True)
    expires_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name}: {self.holder} until {self.expires_at:%H:%M:%S}"


class Latency(models.Model):
    """One bucket of a latency histogram of one worker host (``judging/metrics.py``): how many
    observations fell in it (not cumulative), ever. ``le`` is the bucket's upper bound in
    seconds; the row with ``le`` None holds the sum of every observation, its ``count`` how
    many there were. Grown by increments each worker process writes every few seconds (what its
    attempts measured), read by /metrics."""

    host = models.CharField(max_length=255)
    name = models.CharField(max_length=40)
    le = models.FloatField(null=True, blank=True)
    count = models.BigIntegerField(default=0)
    total = models.FloatField(default=0.0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["host", "name", "le"], name="one_latency_bucket"),
            models.UniqueConstraint(
                fields=["host", "name"], condition=models.Q(le__isnull=True), name="one_latency_sum"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} on {self.host}: {self.count} ≤ {self.le}"


class Notification(models.Model):
    """Something a contestant is told (``judging/news/notifications.py``): on the site, newest first
    with the unread ones marked, and by e-mail unless they opted out of its kind. Written in
    the transaction of the change it announces; only its user ever sees it."""

    class Kind(models.TextChoices):
        BUILD_FAILED = "build_failed", gettext_lazy("A version of my program did not compile")
        TEST_FAILED = "test_failed", gettext_lazy("A version of my program failed its system test")
        JUDGED = "judged", gettext_lazy("A judge decided on my entry, its games or its outputs")
        FAULTS = "faults", gettext_lazy("A digest of my program's crashes, timeouts and illegal moves")
        GAME = "game", gettext_lazy("A game I uploaded: its conformance kit's verdict, its referee failing in a match")
        ORGANISING = (
            "organising",
            gettext_lazy("A contest I run: a role given to me or taken away, a co-organiser's change"),
        )

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    contest = models.ForeignKey("contests.Contest", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    subject = models.CharField(max_length=200, help_text="One line: the e-mail's subject, the list's heading.")
    body = models.TextField(help_text="What happened and what it means for the entry, in words.")
    lines = models.JSONField(
        default=list, blank=True, help_text='Items in a list, each {"text", "link"}: the games that failed, the faults.'
    )
    log = models.TextField(blank=True, help_text="Text shown as it is: the end of a build log.")
    link = models.CharField(max_length=300, blank=True, help_text="The page it is about, a path on the site.")
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["user", "-created_at"], name="notification_list"),
            models.Index(fields=["user"], condition=models.Q(read_at__isnull=True), name="notification_unread"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.subject}"


class EmailOptOut(models.Model):
    """A kind of notification its user does not want by e-mail (the site lists it all the same)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=12, choices=Notification.Kind.choices)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="one_email_opt_out")]

    def __str__(self) -> str:
        return f"{self.user_id}: no e-mail of {self.kind}"


class ReportedFault(models.Model):
    """A program's fault (a seat's crash, timeout, illegal move, early exit, as one attempt of its
    match recorded it) told in a digest: the unique pair is what keeps a fault from being told
    twice, whichever worker writes the next digest."""

    notification = models.ForeignKey(Notification, on_delete=models.CASCADE, related_name="faults")
    seat = models.ForeignKey(MatchSeat, on_delete=models.CASCADE, related_name="+")
    attempt = models.ForeignKey(MatchAttempt, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "attempt"], name="fault_reported_once")]

    def __str__(self) -> str:
        return f"{self.seat} in {self.attempt}"


class UntoldFault(models.Model):
    """A program's fault not told yet: written with the result that records it, deleted once a
    digest tells it or it can never be (a newer result replaced it, it is a day old, a newer
    version was sent). The watchdog's minutely look reads these rows, so its cost follows the
    faults waiting to be told, not the games of the day (docs/benchmarks.md, "At scale")."""

    seat = models.ForeignKey(MatchSeat, on_delete=models.CASCADE, related_name="+")
    attempt = models.ForeignKey(MatchAttempt, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "attempt"], name="fault_untold_once")]

    def __str__(self) -> str:
        return f"{self.seat} in {self.attempt}, not told"
