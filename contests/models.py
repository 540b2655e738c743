"""Contests, their stages, entries, submissions and matches.

A match is a list of seats (``MatchSeat``), never a pair of columns: the game's returns
decide how many seats there are and what each one scored.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy


class Contest(models.Model):
    slug = models.SlugField(max_length=60, unique=True)
    title = models.CharField(max_length=200)
    summary = models.CharField(max_length=300, blank=True, help_text=gettext_lazy("One line for the contest list."))
    game = models.CharField(
        max_length=40, help_text=gettext_lazy("Short name of the game in the registry, e.g. chomp.")
    )
    game_params = models.JSONField(
        default=dict, blank=True, help_text=gettext_lazy("Parameters of the game, as its rules name them.")
    )
    clock = models.JSONField(
        default=dict,
        blank=True,
        help_text=gettext_lazy("Time limits: per move, per game, as the contest's rules set them."),
    )
    game_data = models.FileField(
        upload_to="contest-data/",
        blank=True,
        help_text=gettext_lazy(
            "The contest's own data for its game, instead of the game's default: Crossed Words Solitaire's word "
            "list (one word a line, 2 to 12 letters a-z)."
        ),
    )
    rules = models.TextField(blank=True, help_text=gettext_lazy("The rules as contestants read them."))
    rules_source = models.URLField(blank=True, help_text=gettext_lazy("Where the original rules were published."))
    is_public = models.BooleanField(default=True)
    opens_at = models.DateTimeField(null=True, blank=True, help_text=gettext_lazy("Submissions accepted from."))
    closes_at = models.DateTimeField(null=True, blank=True, help_text=gettext_lazy("Submission deadline."))
    standings_frozen_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=gettext_lazy("The public standings show only the matches finished by then (judges see all)."),
    )
    results_published_at = models.DateTimeField(
        null=True, blank=True, help_text=gettext_lazy("When the judges published the results.")
    )
    # Submission policy
    allowed_languages = models.JSONField(
        default=list, blank=True, help_text=gettext_lazy("Language keys; empty means every language the workers offer.")
    )
    language_table = models.CharField(
        max_length=40,
        default="arbiter",
        help_text=gettext_lazy(
            "The languages offered and the build and run command of each, as the original page stated them "
            "(sandbox.languages.TABLES: arbiter, codecup, potm)."
        ),
    )
    max_source_bytes = models.PositiveIntegerField(default=1024 * 1024)
    source_counts = models.CharField(
        max_length=8,
        choices=[("bytes", gettext_lazy("every byte")), ("code", gettext_lazy("code only: comments do not count"))],
        default="bytes",
        help_text=gettext_lazy('What max_source_bytes counts (the POTM: "comments don\'t count against you").'),
    )
    max_executable_bytes = models.PositiveIntegerField(
        null=True, blank=True, help_text=gettext_lazy("Largest built program accepted.")
    )
    max_entries_per_user = models.PositiveIntegerField(
        default=1, help_text=gettext_lazy("Programs one contestant may enter.")
    )
    max_submissions_per_day = models.PositiveIntegerField(null=True, blank=True)
    max_submissions_per_week = models.PositiveIntegerField(null=True, blank=True)
    entry_form = models.JSONField(
        default=list,
        blank=True,
        help_text=gettext_lazy('Extra entry-form fields: [{"name", "label", "type", "required"}].'),
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
        from games.clocks import Clock

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
    class Status(models.TextChoices):
        PENDING = "pending", gettext_lazy("Pending")
        RUNNING = "running", gettext_lazy("Running")
        FINISHED = "finished", gettext_lazy("Finished")
        CANCELLED = "cancelled", gettext_lazy("Cancelled")

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="stages")
    order = models.PositiveSmallIntegerField(default=1)
    name = models.CharField(max_length=100)
    kind = models.CharField(
        max_length=40,
        help_text=gettext_lazy(
            "Its format, by name (judging.record.formats: round_robin, swiss, ladder, batch, race...)."
        ),
    )
    params = models.JSONField(
        default=dict, blank=True, help_text=gettext_lazy("Parameters of this phase, e.g. rounds, games per pairing.")
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    ended_by = models.CharField(
        max_length=300,
        blank=True,
        default="",
        db_default="",
        help_text=gettext_lazy("Which of its declared stopping rules ended it, if one did."),
    )

    class Meta:
        ordering = ["contest", "order"]
        constraints = [models.UniqueConstraint(fields=["contest", "order"], name="stage_order_unique")]

    def __str__(self) -> str:
        return f"{self.contest.slug}: {self.name}"


class Entry(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", gettext_lazy("Active")
        WITHDRAWN = "withdrawn", gettext_lazy("Withdrawn")
        DISQUALIFIED = "disqualified", gettext_lazy("Disqualified")

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="entries")
    name = models.CharField(max_length=100, help_text=gettext_lazy("Shown in the standings."))
    form_data = models.JSONField(
        default=dict, blank=True, help_text=gettext_lazy("Answers to the contest's entry form.")
    )
    is_reference = models.BooleanField(
        default=False, help_text=gettext_lazy("A reference program of the organisers, not a contestant.")
    )
    status = models.CharField(max_length=14, choices=Status.choices, default=Status.ACTIVE)
    status_reason = models.TextField(blank=True)
    versus_allowed = models.BooleanField(
        default=False,
        db_default=False,
        help_text=gettext_lazy("Other contestants may name it as a rival in their versus batches (unrated games)."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["contest", "name"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["contest", "user", "name"], name="entry_user_name_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.contest.slug})"

    @property
    def active_submission(self) -> Submission | None:
        return self.submissions.filter(is_active=True).first()


def submission_upload_to(submission: Submission, filename: str) -> str:
    return f"submissions/{submission.entry.contest.slug}/{submission.entry_id}/{submission.number}/{filename}"


class Submission(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", gettext_lazy("Queued")
        BUILDING = "building", gettext_lazy("Building")
        BUILD_FAILED = "build_failed", gettext_lazy("Build failed")
        TESTING = "testing", gettext_lazy("System test")
        TEST_FAILED = "test_failed", gettext_lazy("System test failed")
        READY = "ready", gettext_lazy("Ready")
        PLATFORM_FAULT = "platform_fault", gettext_lazy("Not built: platform fault")  # a judge can build it again

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="submissions")
    number = models.PositiveIntegerField(help_text=gettext_lazy("1 for the entry's first version, then 2, 3..."))
    language = models.CharField(max_length=20)
    source = models.FileField(upload_to=submission_upload_to, max_length=300)
    filename = models.CharField(max_length=200)
    sha256 = models.CharField(max_length=64, db_index=True)
    size = models.PositiveIntegerField()
    status = models.CharField(max_length=14, choices=Status.choices, default=Status.QUEUED)
    is_active = models.BooleanField(default=False, help_text=gettext_lazy("The version that plays for the entry."))
    toolchain = models.CharField(
        max_length=200, blank=True, help_text=gettext_lazy("Compiler or interpreter version used for the build.")
    )
    build_log = models.TextField(blank=True)
    test_log = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    queued_at = models.DateTimeField(
        default=timezone.now, help_text=gettext_lazy("When it was last queued to be built.")
    )
    build_started_at = models.DateTimeField(null=True, blank=True)
    build_faults = models.PositiveSmallIntegerField(
        default=0, help_text=gettext_lazy("Builds that the platform (not the program) failed since it was last queued.")
    )
    built_at = models.DateTimeField(null=True, blank=True)
    program_bytes = models.PositiveBigIntegerField(
        null=True,
        blank=True,
        help_text=gettext_lazy(
            "Size of the built program (every file of the build, and the interpreter or virtual machine that runs "
            "it, as the MSO page counted JAVA.EXE); a tie-break of output-only contests."
        ),
    )
    rebuilt_from_sources = models.BooleanField(
        default=False,
        help_text=gettext_lazy(
            "The supplied runme did not run, so the program was made again from the archive's src/Makefile."
        ),
    )

    class Meta:
        ordering = ["entry", "-number"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "number"], name="submission_number_unique"),
            models.UniqueConstraint(
                fields=["entry"], condition=models.Q(is_active=True), name="one_active_submission_per_entry"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry.name} v{self.number}"


class JudgeAction(models.Model):
    """One thing a judge did on the site or through the API: who, when, what, to what and
    why. Written by the service that does it, in the same transaction; never edited."""

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="judge_actions")
    judge = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now, db_index=True)
    action = models.CharField(
        max_length=40, help_text=gettext_lazy("e.g. verification.accept, match.rerun, entry.disqualify")
    )
    target = models.CharField(
        max_length=200, help_text=gettext_lazy("What it was done to, in words: 'match 12', 'entry Muncher'.")
    )
    reason = models.TextField(blank=True)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.judge} {self.action} {self.target}"


class ContestRole(models.Model):
    """Who runs a contest beside the site's administrators: its owner (who opened it: one a
    contest), co-organisers and judges, each named by the owner or an administrator
    (contests.roles). A role is a right on this contest only."""

    class Role(models.TextChoices):
        OWNER = "owner", gettext_lazy("Owner")
        ORGANISER = "organiser", gettext_lazy("Co-organiser")
        JUDGE = "judge", gettext_lazy("Judge")

    contest = models.ForeignKey(Contest, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="contest_roles")
    role = models.CharField(max_length=10, choices=Role.choices)
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    granted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["contest", "role", "user"]
        constraints = [
            models.UniqueConstraint(fields=["contest", "user"], name="contest_role_one_per_user"),
            models.UniqueConstraint(
                fields=["contest"], condition=models.Q(role="owner"), name="contest_role_one_owner"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.role} of {self.contest.slug})"


class GameVersion(models.Model):
    """One upload of a game the platform has no code for (games/hosted.py): its manifest and
    its files, and what the conformance kit found. A new upload of a name is its next version;
    only an accepted version can be played, and a contest names the version it plays
    (``Contest.game``: ``connect-four@2``) until its organiser moves it."""

    class Status(models.TextChoices):
        CHECKING = "checking", gettext_lazy("Being checked")
        ACCEPTED = "accepted", gettext_lazy("Accepted")
        REFUSED = "refused", gettext_lazy("Refused")

    name = models.CharField(max_length=30)
    version = models.PositiveIntegerField()
    title = models.CharField(max_length=100)
    manifest = models.JSONField(help_text=gettext_lazy("game.json as uploaded."))
    archive = models.FileField(
        upload_to="games/", help_text=gettext_lazy("Every file of the upload, as a zip the platform made.")
    )
    sha256 = models.CharField(max_length=64)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.CHECKING)
    report = models.JSONField(default=dict, blank=True, help_text=gettext_lazy("The conformance kit's report."))
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    uploaded_at = models.DateTimeField(default=timezone.now)
    checked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name", "-version"]
        constraints = [models.UniqueConstraint(fields=["name", "version"], name="game_version_unique")]
        permissions = [("upload_game", "Can upload a game (a referee program and its manifest)")]

    def __str__(self) -> str:
        return self.key

    @property
    def key(self) -> str:
        return f"{self.name}@{self.version}"


class GameOwner(models.Model):
    """Who may upload the next version of an uploaded game beside its first uploader (who
    names them: judging.uploaded.hosting)."""

    name = models.CharField(max_length=30)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    granted_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name", "user"]
        constraints = [models.UniqueConstraint(fields=["name", "user"], name="game_owner_unique")]

    def __str__(self) -> str:
        return f"{self.user} (co-owner of {self.name})"
