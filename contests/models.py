"""Contests, their stages, entries, submissions and matches.

A match is a list of seats (``MatchSeat``), never a pair of columns: the game's returns
decide how many seats there are and what each one scored.
"""

from __future__ import annotations

import gzip
import json
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone

REPLAY_SCHEMA_VERSION = 1


class Contest(models.Model):
    slug = models.SlugField(max_length=60, unique=True)
    title = models.CharField(max_length=200)
    summary = models.CharField(max_length=300, blank=True, help_text="One line for the contest list.")
    game = models.CharField(max_length=40, help_text="Short name of the game in the registry, e.g. chomp.")
    game_params = models.JSONField(
        default=dict, blank=True, help_text="Parameters of the game, as its rules name them."
    )
    clock = models.JSONField(
        default=dict, blank=True, help_text="Time limits: per move, per game, as the contest's rules set them."
    )
    game_data = models.FileField(
        upload_to="contest-data/",
        blank=True,
        help_text="The contest's own data for its game, instead of the game's default: Crossed Words Solitaire's "
        "word list (one word a line, 2 to 12 letters a-z).",
    )
    rules = models.TextField(blank=True, help_text="The rules as contestants read them.")
    rules_source = models.URLField(blank=True, help_text="Where the original rules were published.")
    is_public = models.BooleanField(default=True)
    opens_at = models.DateTimeField(null=True, blank=True, help_text="Submissions accepted from.")
    closes_at = models.DateTimeField(null=True, blank=True, help_text="Submission deadline.")
    standings_frozen_at = models.DateTimeField(
        null=True, blank=True, help_text="The public standings show only the matches finished by then (judges see all)."
    )
    results_published_at = models.DateTimeField(
        null=True, blank=True, help_text="When the judges published the results."
    )
    # Submission policy
    allowed_languages = models.JSONField(
        default=list, blank=True, help_text="Language keys; empty means every language the workers offer."
    )
    language_table = models.CharField(
        max_length=40,
        default="arbiter",
        help_text="The languages offered and the build and run command of each, as the original page "
        "stated them (sandbox.languages.TABLES: arbiter, codecup, potm).",
    )
    max_source_bytes = models.PositiveIntegerField(default=1024 * 1024)
    source_counts = models.CharField(
        max_length=8,
        choices=[("bytes", "every byte"), ("code", "code only: comments do not count")],
        default="bytes",
        help_text='What max_source_bytes counts (the POTM: "comments don\'t count against you").',
    )
    max_executable_bytes = models.PositiveIntegerField(
        null=True, blank=True, help_text="Largest built program accepted."
    )
    max_entries_per_user = models.PositiveIntegerField(default=1, help_text="Programs one contestant may enter.")
    max_submissions_per_day = models.PositiveIntegerField(null=True, blank=True)
    max_submissions_per_week = models.PositiveIntegerField(null=True, blank=True)
    entry_form = models.JSONField(
        default=list, blank=True, help_text='Extra entry-form fields: [{"name", "label", "type", "required"}].'
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-opens_at", "title"]

    def __str__(self) -> str:
        return self.title

    def get_absolute_url(self) -> str:
        return reverse("contests:detail", args=[self.slug])

    @property
    def is_hosted(self) -> bool:
        """Whether its game is one the platform has (the registry's); a contest for a game that
        is not is listed, but never open."""
        from games import registry

        return self.game in registry.GAMES

    @property
    def memory_mb(self) -> int:
        """The memory each program has in a game: the contest's clock, else the game's, else
        the platform's default (what the referee applies to the jail's cgroup)."""
        from games import registry
        from judging.clocks import Clock

        game = registry.GAMES.get(self.game)
        defaults = game.default_clock if game is not None else {}
        return Clock.from_json({**defaults, **self.clock}).memory_mb

    def is_open(self, now: Any = None) -> bool:
        now = now or timezone.now()
        if not self.is_hosted:
            return False
        if self.opens_at and now < self.opens_at:
            return False
        return not (self.closes_at and now >= self.closes_at)


class Stage(models.Model):
    class Kind(models.TextChoices):
        SYSTEM_TEST = "system_test", "System test"
        ROUND_ROBIN = "round_robin", "Round robin"
        SWISS = "swiss", "Swiss system"
        QUALIFICATION = "qualification", "Qualification"
        RACE = "race", "Race"
        BATCH = "batch", "Batch run"
        LADDER = "ladder", "Continuous (an open contest's games, as versions arrive)"

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="stages")
    order = models.PositiveSmallIntegerField(default=1)
    name = models.CharField(max_length=100)
    kind = models.CharField(max_length=20, choices=Kind.choices)
    params = models.JSONField(
        default=dict, blank=True, help_text="Parameters of this phase, e.g. rounds, games per pairing."
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["contest", "order"]
        constraints = [models.UniqueConstraint(fields=["contest", "order"], name="stage_order_unique")]

    def __str__(self) -> str:
        return f"{self.contest.slug}: {self.name}"


class Entry(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", "Active"
        WITHDRAWN = "withdrawn", "Withdrawn"
        DISQUALIFIED = "disqualified", "Disqualified"

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="entries")
    name = models.CharField(max_length=100, help_text="Shown in the standings.")
    form_data = models.JSONField(default=dict, blank=True, help_text="Answers to the contest's entry form.")
    is_reference = models.BooleanField(
        default=False, help_text="A reference program of the organisers, not a contestant."
    )
    status = models.CharField(max_length=14, choices=Status.choices, default=Status.ACTIVE)
    status_reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["contest", "name"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["contest", "user", "name"], name="entry_user_name_unique"),
        ]
        permissions = [("disqualify_entry", "Can disqualify or reinstate an entry")]

    def __str__(self) -> str:
        return f"{self.name} ({self.contest.slug})"

    @property
    def active_submission(self) -> Submission | None:
        return self.submissions.filter(is_active=True).first()


def submission_upload_to(submission: Submission, filename: str) -> str:
    return f"submissions/{submission.entry.contest.slug}/{submission.entry_id}/{submission.number}/{filename}"


class Submission(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        BUILDING = "building", "Building"
        BUILD_FAILED = "build_failed", "Build failed"
        TESTING = "testing", "System test"
        TEST_FAILED = "test_failed", "System test failed"
        READY = "ready", "Ready"
        PLATFORM_FAULT = "platform_fault", "Not built: platform fault"  # a judge can build it again

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="submissions")
    number = models.PositiveIntegerField(help_text="1 for the entry's first version, then 2, 3...")
    language = models.CharField(max_length=20)
    source = models.FileField(upload_to=submission_upload_to, max_length=300)
    filename = models.CharField(max_length=200)
    sha256 = models.CharField(max_length=64, db_index=True)
    size = models.PositiveIntegerField()
    status = models.CharField(max_length=14, choices=Status.choices, default=Status.QUEUED)
    is_active = models.BooleanField(default=False, help_text="The version that plays for the entry.")
    toolchain = models.CharField(
        max_length=200, blank=True, help_text="Compiler or interpreter version used for the build."
    )
    build_log = models.TextField(blank=True)
    test_log = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    queued_at = models.DateTimeField(default=timezone.now, help_text="When it was last queued to be built.")
    build_started_at = models.DateTimeField(null=True, blank=True)
    build_faults = models.PositiveSmallIntegerField(
        default=0, help_text="Builds that the platform (not the program) failed since it was last queued."
    )
    built_at = models.DateTimeField(null=True, blank=True)
    program_bytes = models.PositiveBigIntegerField(
        null=True,
        blank=True,
        help_text="Size of the built program (every file of the build, and the interpreter or virtual machine "
        "that runs it, as the MSO page counted JAVA.EXE); a tie-break of output-only contests.",
    )
    rebuilt_from_sources = models.BooleanField(
        default=False,
        help_text="The supplied runme did not run, so the program was made again from the archive's src/Makefile.",
    )

    class Meta:
        ordering = ["entry", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "number"], name="submission_number_unique"),
            models.UniqueConstraint(
                fields=["entry"], condition=models.Q(is_active=True), name="one_active_submission_per_entry"
            ),
        ]
        permissions = [("view_any_source", "Can read any contestant's source, logs and stderr")]

    def __str__(self) -> str:
        return f"{self.entry.name} v{self.number}"


def replay_upload_to(match: Match, filename: str) -> str:
    return f"replays/{match.contest.slug}/{filename}"


class Match(models.Model):
    """A game between seats. ``status`` is where its latest request to be played stands; the
    seats hold its newest result (``result_attempt``), which a re-run replaces only when the new
    play has finished: every earlier result stays on its attempt."""

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        FAILED = "failed", "Failed (platform fault)"
        CANCELLED = "cancelled", "Cancelled"

    class Priority(models.IntegerChoices):
        """Which queued match a free worker plays first (then the oldest)."""

        RESCUE = 0, "Put back after a platform fault"
        WAITING = 1, "Someone is waiting: a system test, a test game, a judge's re-run"
        TOURNAMENT = 2, "A tournament's match"

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="matches")
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="matches", null=True, blank=True)
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
        ordering = ["-created_at"]
        verbose_name_plural = "matches"
        indexes = [
            models.Index(fields=["contest", "status"]),
            models.Index(fields=["stage", "round"]),
            models.Index(fields=["status", "priority", "id"], name="match_queue"),
        ]
        permissions = [("rerun_match", "Can run or re-run matches and stages")]

    def __str__(self) -> str:
        return f"match {self.pk} ({self.contest.slug})"

    def save_replay(self, replay: dict[str, Any], attempt: MatchAttempt | None = None) -> None:
        """Store the replay as gzipped JSON and point this match (and ``attempt``) at it. An
        earlier attempt's replay is kept: it is that attempt's."""
        data = gzip.compress(json.dumps(replay, separators=(",", ":")).encode(), mtime=0)
        name = f"{self.pk}-{attempt.number}.json.gz" if attempt else f"{self.pk}.json.gz"
        self.replay.save(name, ContentFile(data), save=False)
        self.save(update_fields=["replay"])
        if attempt is not None:
            attempt.replay.name = self.replay.name
            attempt.save(update_fields=["replay"])

    def load_replay(self) -> dict[str, Any] | None:
        if not self.replay:
            return None
        with self.replay.open("rb") as f:
            return json.loads(gzip.decompress(f.read()))


def _attempt_replay_to(attempt: MatchAttempt, filename: str) -> str:
    return replay_upload_to(attempt.match, filename)


class MatchAttempt(models.Model):
    """One try at playing a match: which worker played it, when, and how it ended. The judges
    see every one; a finished one keeps its result and replay after a re-run replaces it."""

    class Outcome(models.TextChoices):
        RUNNING = "running", "Being played"
        FINISHED = "finished", "Finished"
        LOST = "lost", "Lost: its worker stopped (killed, paused, cut off)"
        INFRA = "infra", "Infrastructure fault (sandbox, host)"
        STALLED = "stalled", "The platform stalled during the game"
        ERROR = "error", "Platform error"
        SUPERSEDED = "superseded", "Called off: a judge re-ran or cancelled the match"

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
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="attempt_number_unique")]
        indexes = [models.Index(fields=["outcome", "last_seen"], name="attempt_watch")]

    def __str__(self) -> str:
        return f"attempt {self.number} of match {self.match_id}"


class MatchSeat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField(help_text="0 for the seat that moves first.")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seats")
    submission = models.ForeignKey(Submission, on_delete=models.PROTECT, related_name="seats")
    points = models.FloatField(null=True, blank=True, help_text="What the standings count: e.g. 2/1/0 or a win.")
    score = models.FloatField(null=True, blank=True, help_text="The game's own measure: cookies eaten, rounds.")
    status = models.CharField(
        max_length=32, blank=True, help_text="The seat's result: win, loss, draw, illegal, timeout, crash or exit."
    )
    detail = models.CharField(max_length=64, blank=True, help_text="The result as the game names it, if otherwise.")
    reason = models.TextField(blank=True)
    moves = models.PositiveIntegerField(default=0)
    cpu_seconds = models.FloatField(default=0)
    wall_seconds = models.FloatField(default=0)

    class Meta:
        ordering = ["match", "index"]
        constraints = [models.UniqueConstraint(fields=["match", "index"], name="seat_index_unique")]

    def __str__(self) -> str:
        return f"seat {self.index} of match {self.match_id}"


class JudgeAction(models.Model):
    """One thing a judge did on the site or through the API: who, when, what, to what and
    why. Written by the service that does it, in the same transaction; never edited."""

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="judge_actions")
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now, db_index=True)
    action = models.CharField(max_length=40, help_text="e.g. verification.accept, match.rerun, entry.disqualify")
    target = models.CharField(max_length=200, help_text="What it was done to, in words: 'match 12', 'entry Muncher'.")
    reason = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.judge} {self.action} {self.target}"


class Verification(models.Model):
    """A judge's verification of one output of an output-only contest (one batch run), as the
    MSO judges did theirs by hand: pending until a judge accepts or rejects it with a note, or
    credits it with its unverified (claimed) score once the winner is certain. A new result of
    the run (a re-run) makes it pending again: a judge verified the output, not the entry."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for a judge"
        ACCEPTED = "accepted", "Verified by a judge"
        REJECTED = "rejected", "Rejected by a judge"
        CREDITED = "credited", "Credited with its claimed score, unverified"

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
        permissions = [("verify_output", "Can verify, reject and credit the outputs of output-only contests")]

    def __str__(self) -> str:
        return f"verification of match {self.match_id}: {self.status}"
