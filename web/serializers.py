"""What the API says about contests, entries, submissions, matches and standings."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from contests import bounds
from contests.models import Contest, ContestRole, Entry, Stage, Submission
from games import registry
from judging.models import Match, MatchAttempt, MatchSeat, Notification
from judging.news import notifications, results
from judging.record import formats
from judging.schedule import plans


class StageSerializer(serializers.ModelSerializer):
    """A stage and its matches by state: pending, running, finished or cancelled (for good)."""

    contest = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    kind_label = serializers.SerializerMethodField()
    status = serializers.SerializerMethodField(
        help_text="pending, running, finished or cancelled; a stage no judge runs (the system test) is running while "
        "its contest is open or a game of it is left to play, then finished."
    )
    matches_played = serializers.IntegerField(read_only=True, help_text="Finished, with a result.")
    matches_total = serializers.IntegerField(read_only=True, help_text="Every match but the cancelled ones.")
    matches_queued = serializers.IntegerField(read_only=True)
    matches_running = serializers.IntegerField(read_only=True)
    matches_failed = serializers.IntegerField(read_only=True, help_text="Failed by the platform: a judge decides.")
    matches_cancelled = serializers.IntegerField(read_only=True)

    class Meta:
        model = Stage
        fields = [
            "id",
            "contest",
            "order",
            "name",
            "kind",
            "kind_label",
            "params",
            "status",
            "started_at",
            "finished_at",
            "matches_played",
            "matches_total",
            "matches_queued",
            "matches_running",
            "matches_failed",
            "matches_cancelled",
        ]

    def get_status(self, stage: Stage) -> str:
        return formats.shown_status(stage)

    def get_kind_label(self, stage: Stage) -> str:
        return formats.label(stage.kind)


class StageCreateSerializer(serializers.Serializer):
    kind = serializers.CharField(max_length=40, help_text="round_robin, swiss, ladder, batch, qualification, race...")
    name = serializers.CharField(max_length=100, help_text="As contestants read it: Final, Trial laps.")
    params = serializers.DictField(required=False, default=dict, help_text="The kind's and the game's parameters.")
    entries = serializers.JSONField(
        required=False, default="ready", help_text='"ready" (every entry with a playable version), or entry ids.'
    )
    order = serializers.IntegerField(
        required=False, min_value=1, max_value=1000, help_text="After the last if left out."
    )
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class ContestStateSerializer(serializers.Serializer):
    contest = serializers.CharField()
    frozen_at = serializers.DateTimeField(allow_null=True, help_text="Since when the public sees the snapshot.")
    results_published_at = serializers.DateTimeField(allow_null=True)
    frozen_results = serializers.IntegerField(required=False, help_text="Results the freeze's snapshot holds.")


class VerifySerializer(serializers.Serializer):
    decision = serializers.ChoiceField(choices=["accepted", "rejected"])
    note = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=5000,
        help_text="Why: needed for a rejection; its contestant reads it.",
    )


class ContestSerializer(serializers.ModelSerializer):
    is_open = serializers.SerializerMethodField()

    class Meta:
        model = Contest
        fields = ["slug", "title", "summary", "game", "is_open", "opens_at", "closes_at"]

    def get_is_open(self, contest: Contest) -> bool:
        return contest.is_open()


class PolicySerializer(serializers.Serializer):
    languages = serializers.DictField(child=serializers.CharField(), help_text="Language key to name.")
    max_source_bytes = serializers.IntegerField()
    max_executable_bytes = serializers.IntegerField(allow_null=True)
    max_submissions_per_day = serializers.IntegerField(allow_null=True)
    max_submissions_per_week = serializers.IntegerField(allow_null=True)
    max_entries_per_user = serializers.IntegerField()
    entry_form = serializers.ListField(child=serializers.DictField())


class ContestDetailSerializer(ContestSerializer):
    stages = StageSerializer(many=True, read_only=True)
    policy = PolicySerializer(read_only=True)
    clock = serializers.DictField(help_text="Time limits: the game's defaults with the contest's own on top.")

    class Meta(ContestSerializer.Meta):
        fields = [
            *ContestSerializer.Meta.fields, "rules", "game_params", "clock", "language_table", "stages", "policy",
        ]  # fmt: skip


class EntrySerializer(serializers.ModelSerializer):
    class Meta:
        model = Entry
        fields = [
            "id", "contest", "name", "form_data", "is_reference", "status", "status_reason", "created_at", "next_games",
            "versus_allowed",
        ]  # fmt: skip
        read_only_fields = fields

    contest = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    next_games = serializers.SerializerMethodField(
        help_text="When it plays next: text, the stage (id) that will play it, its games queued now, and "
        "judge_needed (true: no stage will play it unless a judge adds or re-runs one)."
    )

    @extend_schema_field(serializers.DictField())
    def get_next_games(self, entry: Entry) -> dict:
        return plans.next_games(entry).to_json()


class EntryCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    form = serializers.DictField(
        required=False,
        default=dict,
        help_text="Answers to the contest's entry form (in a multipart form: fields form.NAME).",
    )


class EntryRenameSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)


class SubmissionSerializer(serializers.ModelSerializer):
    contest = serializers.CharField(source="entry.contest.slug", read_only=True)

    class Meta:
        model = Submission
        fields = [
            "id", "entry", "contest", "number", "language", "filename", "sha256", "size", "status", "is_active",
            "toolchain", "created_at", "built_at",
        ]  # fmt: skip
        read_only_fields = fields


class EntryCreatedSerializer(EntrySerializer):
    submission = SubmissionSerializer(
        read_only=True, allow_null=True, help_text="The first submission, when the program came along."
    )

    class Meta(EntrySerializer.Meta):
        fields = [*EntrySerializer.Meta.fields, "submission"]
        read_only_fields = fields


class SubmissionDetailSerializer(SubmissionSerializer):
    matches = serializers.SerializerMethodField(help_text="Ids of the games it has played, newest first.")

    class Meta(SubmissionSerializer.Meta):
        fields = [*SubmissionSerializer.Meta.fields, "build_log", "test_log", "matches"]
        read_only_fields = fields

    def get_matches(self, submission: Submission) -> list[int]:
        return list(
            Match.objects.filter(seats__submission=submission).order_by("-pk").values_list("pk", flat=True)[:100]
        )


class SubmissionCreateSerializer(serializers.Serializer):
    """Multipart with a ``source`` file, or JSON with ``filename`` and the ``source`` text."""

    source = serializers.JSONField(help_text="The program: a file (multipart) or its text (JSON).")
    filename = serializers.CharField(
        required=False, max_length=200, help_text="Needed with JSON; the file's name otherwise."
    )
    language = serializers.CharField(
        required=False, allow_blank=True, max_length=20, help_text="By the file's extension when left out."
    )


class EntryEnterSerializer(EntryCreateSerializer):
    """The schema of entering: the entry, and optionally its first program as for a submission
    (the view reads the program; only the entry goes through ``EntryCreateSerializer``)."""

    source = serializers.JSONField(
        required=False, help_text="The first program: a file (multipart) or its text (JSON)."
    )
    filename = serializers.CharField(required=False, max_length=200, help_text="Needed with the source as JSON text.")
    language = serializers.CharField(
        required=False, allow_blank=True, max_length=20, help_text="By the file's extension when left out."
    )


class SeatSerializer(serializers.ModelSerializer):
    entry_name = serializers.CharField(source="entry.name", read_only=True)
    result = serializers.SerializerMethodField(
        help_text='Its result in words: "lost: left no solution (move 23)", "2nd of 3: finished"; "" until played.'
    )

    def get_result(self, seat) -> str:
        return results.seat_words(self.context["game"], seat, self.context["seats"])

    class Meta:
        model = MatchSeat
        fields = [
            "index",
            "entry",
            "entry_name",
            "submission",
            "points",
            "score",
            "status",
            "detail",
            "result",
            "reason",
            "moves",
            "cpu_seconds",
            "wall_seconds",
        ]


class MatchSerializer(serializers.ModelSerializer):
    """A match as the visitor may see it: while its contest's standings are frozen, a game
    played since shows no result (``result_hidden``), one played again since shows the
    result it had at the freeze (``result_as_frozen``); judges and its own contestants see
    the live one. The view passes what each visitor sees as ``context["shown"]``."""

    contest = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    seats = serializers.SerializerMethodField()
    reason = serializers.SerializerMethodField()
    summary = serializers.SerializerMethodField(
        help_text='The result in one line, from your own entry\'s side if you played ("won against Bob", "lost to '
        'Bob: crashed (move 1)"), else a bystander\'s ("Bob won against Alice"); "" while unplayed or hidden.'
    )
    result_hidden = serializers.SerializerMethodField(
        help_text="Played after the standings were frozen: its result waits for the judges to publish."
    )
    result_as_frozen = serializers.SerializerMethodField(
        help_text="Played again after the freeze: the seats hold the result it had at the freeze."
    )
    decision = serializers.SerializerMethodField(
        help_text="The judges' decision on its output (status accepted, rejected or credited; claimed, counted and "
        "verifier scores; the note, for its contestant and the judges), or null."
    )

    class Meta:
        model = Match
        fields = [
            "id",
            "contest",
            "stage",
            "round",
            "status",
            "seed",
            "params",
            "reason",
            "summary",
            "created_at",
            "started_at",
            "finished_at",
            "seats",
            "result_hidden",
            "result_as_frozen",
            "decision",
        ]

    def _shown(self, match: Match):
        return (self.context.get("shown") or {}).get(match.pk)

    @extend_schema_field(SeatSerializer(many=True))
    def get_seats(self, match: Match) -> list[dict]:
        seats = self._seats(match)
        context = {"game": registry.get(match.contest.game), "seats": seats}
        return SeatSerializer(seats, many=True, context=context).data

    def _seats(self, match: Match) -> list:
        shown = self._shown(match)
        return shown.seats if shown is not None else sorted(match.seats.all(), key=lambda seat: seat.index)

    def get_summary(self, match: Match) -> str:
        shown = self._shown(match)
        if shown is not None and shown.hidden:
            return ""
        seats = self._seats(match)
        user = self.context.get("user")
        mine = None
        if user is not None and user.is_authenticated:
            mine = next((seat.entry_id for seat in seats if seat.entry.user_id == user.pk), None)
        return results.summary(registry.get(match.contest.game), seats, mine)

    def get_reason(self, match: Match) -> str:
        shown = self._shown(match)
        return shown.reason if shown is not None else match.reason

    def get_result_hidden(self, match: Match) -> bool:
        shown = self._shown(match)
        return bool(shown and shown.hidden)

    def get_result_as_frozen(self, match: Match) -> bool:
        shown = self._shown(match)
        return bool(shown and shown.frozen)

    @extend_schema_field(serializers.DictField(allow_null=True))
    def get_decision(self, match: Match) -> dict | None:
        shown = self._shown(match)
        return shown.decision.to_json() if shown is not None and shown.decision is not None else None


class AttemptSerializer(serializers.ModelSerializer):
    """One try at a match, for the judges: who played it, when, how it ended, what it found."""

    is_current = serializers.SerializerMethodField(help_text="Its result is the one the standings count.")

    class Meta:
        model = MatchAttempt
        fields = [
            "number",
            "worker",
            "host",
            "pid",
            "started_at",
            "last_seen",
            "finished_at",
            "outcome",
            "error",
            "result",
            "is_current",
        ]

    def get_is_current(self, attempt: MatchAttempt) -> bool:
        return attempt.match.result_attempt_id == attempt.pk


class StandingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField(source="entry.pk")
    name = serializers.CharField(source="entry.name")
    games = serializers.IntegerField()
    values = serializers.DictField(child=serializers.FloatField(), help_text="Every ranking column, by key.")
    rank_low = serializers.IntegerField(
        source="sure.rank_low", default=None, help_text="The best rank in its interval (at the stated confidence)."
    )
    rank_high = serializers.IntegerField(source="sure.rank_high", default=None, help_text="The worst rank in it.")
    tied_group = serializers.IntegerField(
        source="sure.group",
        default=None,
        help_text="Rows of one group are statistically tied: the games do not order them.",
    )
    tied = serializers.BooleanField(source="sure.tied", default=False)
    rating = serializers.FloatField(
        source="sure.rating",
        default=None,
        help_text="A rated stage's conservative rating, 1500 + 173.7 (mu - k sigma).",
    )
    mu = serializers.FloatField(source="sure.mu", default=None, help_text="The strength, on the same scale.")
    sigma = serializers.FloatField(source="sure.sigma", default=None)
    provisional = serializers.BooleanField(source="sure.provisional", default=False, help_text="No game yet.")


class RatingsSerializer(serializers.Serializer):
    rated = serializers.BooleanField(help_text="The rows are ranked by rating, not by points.")
    games = serializers.IntegerField(help_text="The games the ratings and intervals were computed from.")
    computed_at = serializers.DateTimeField()
    level = serializers.FloatField(help_text="The confidence of each row's rank interval.")
    k = serializers.FloatField(help_text="The rating is mu - k sigma.")
    method = serializers.CharField()


class StandingColumnSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    higher_is_better = serializers.BooleanField()


class StandingsSerializer(serializers.Serializer):
    contest = serializers.CharField()
    stage = serializers.IntegerField(allow_null=True)
    frozen = serializers.BooleanField(help_text="The table is the snapshot the judges' freeze took.")
    frozen_at = serializers.DateTimeField(allow_null=True)
    results_hidden = serializers.IntegerField(help_text="Games played since the freeze, their results not shown yet.")
    matches_played = serializers.IntegerField()
    matches_total = serializers.IntegerField()
    columns = StandingColumnSerializer(many=True)
    ratings = RatingsSerializer(allow_null=True, help_text="How the rank intervals were computed; null before any.")
    count = serializers.IntegerField(help_text="The rows of the whole table.")
    page = serializers.IntegerField(help_text="Which page ``rows`` are, from 1 (the top).")
    pages = serializers.IntegerField()
    limit = serializers.IntegerField(help_text="Rows a page.")
    next = serializers.URLField(allow_null=True, help_text="The page below this one; null on the last.")
    previous = serializers.URLField(allow_null=True)
    rows = StandingRowSerializer(many=True, help_text="This page's rows, each ranked in the whole table.")
    yours = StandingRowSerializer(
        many=True,
        help_text="The rows of your own entries, on this page or not (none if you have none or are anonymous).",
    )


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class JudgeActionSerializer(serializers.Serializer):
    """A line of the judges' log: who did what, when, to what and why."""

    at = serializers.DateTimeField()
    judge = serializers.CharField(source="judge.username", default="", help_text="Empty: the user was deleted.")
    action = serializers.CharField(help_text="e.g. match.rerun, stage.cancel, entry.disqualify, role.grant")
    target = serializers.CharField(help_text="What it was done to, in words.")
    reason = serializers.CharField()
    data = serializers.JSONField()


class TestGameSerializer(serializers.Serializer):
    opponent = serializers.IntegerField(
        required=False, help_text="Id of a reference entry; the first one ready if neither this nor the next is given."
    )
    opponent_submission = serializers.IntegerField(
        required=False, help_text="Id of a reference's ready version or of one of your own earlier built versions."
    )
    first = serializers.BooleanField(required=False, default=True, help_text="Whether your program moves first.")


class VersusAllowedSerializer(serializers.Serializer):
    allowed = serializers.BooleanField(help_text="Whether other contestants may name this entry as a versus rival.")


class VersusRequestSerializer(serializers.Serializer):
    games = serializers.IntegerField(
        default=100, help_text="At most this many games (within your day's quota and BOUND_VERSUS_GAMES)."
    )
    previous = serializers.BooleanField(default=True, help_text="Against your entry's version before this one.")
    references = serializers.BooleanField(default=True, help_text="Against the contest's reference programs.")
    top = serializers.IntegerField(
        min_value=0, max_value=50, default=0, help_text="Against the current top this many entries."
    )
    rivals = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=2**62), max_length=50, default=list,
        help_text="Entries (ids) whose contestants allow versus games.",
    )  # fmt: skip

    def validate_games(self, value: int) -> int:
        if problem := bounds.VERSUS_GAMES.refusal("games", value):
            raise serializers.ValidationError(problem)
        return value


class VersusBatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    submission = serializers.IntegerField(source="submission_id")
    status = serializers.CharField()
    ended_by = serializers.CharField(help_text="Why it stopped: decided early, or its games spent.")
    games = serializers.IntegerField(help_text="Its quota of games.")
    note = serializers.CharField(
        default="", help_text="When it starts: why it has fewer games than asked (the day's quota), else empty."
    )
    level = serializers.FloatField()
    opponents = serializers.ListField(child=serializers.DictField())
    played = serializers.IntegerField(source="found.games")
    score = serializers.FloatField(source="found.score", help_text="Wins, and a half for each draw.")
    wins = serializers.IntegerField(source="found.wins")
    draws = serializers.IntegerField(source="found.draws")
    win_rate = serializers.FloatField(source="found.rate", allow_null=True)
    low = serializers.FloatField(source="found.low", help_text="The win rate's interval, valid at every game.")
    high = serializers.FloatField(source="found.high")
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


class RoleSerializer(serializers.Serializer):
    contest = serializers.CharField(help_text="The contest's slug.")
    role = serializers.ChoiceField(choices=ContestRole.Role.choices)


class MeSerializer(serializers.Serializer):
    username = serializers.CharField()
    is_judge = serializers.BooleanField(help_text="Judges at least one contest (roles says which).")
    is_organiser = serializers.BooleanField(help_text="May open contests (each then theirs to organise).")
    is_admin = serializers.BooleanField(help_text="A site administrator: every right on every contest.")
    roles = RoleSerializer(many=True, help_text="The user's role in each contest where they have one.")


class ContestPersonSerializer(serializers.Serializer):
    user = serializers.CharField(source="user.username")
    role = serializers.ChoiceField(choices=ContestRole.Role.choices)
    granted_by = serializers.CharField(source="granted_by.username", allow_null=True, default=None)
    granted_at = serializers.DateTimeField()


class RoleGrantSerializer(serializers.Serializer):
    user = serializers.CharField(max_length=150, help_text="The user's name.")
    role = serializers.ChoiceField(choices=[("organiser", "Co-organiser"), ("judge", "Judge")])
    reason = serializers.CharField(max_length=5000, required=False, allow_blank=True)


class ContestWriteSerializer(serializers.Serializer):
    """A contest's settings as organisers send them. Only their JSON types are checked here;
    what they mean is checked by the admin's and the organisers' page's form
    (web/contest_form.py), which answers each refusal in words under the setting's name."""

    title = serializers.CharField(help_text="As contestants read it.")
    slug = serializers.CharField(help_text="Its address: /contests/SLUG/.")
    game = serializers.CharField(help_text="A game's key in the registry (GET /api/contests/ names those in use).")
    summary = serializers.CharField(required=False, allow_blank=True)
    is_public = serializers.BooleanField(required=False, help_text="Listed for everyone (else judges only).")
    game_params = serializers.DictField(required=False, help_text="The game's parameters; its defaults if left out.")
    clock = serializers.DictField(
        required=False, help_text="Time limits and memory_mb (games.clocks.Clock); the game's under any left out."
    )
    rules = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False, help_text="Markdown.")
    rules_source = serializers.CharField(required=False, allow_blank=True, help_text="The original rules' URL.")
    opens_at = serializers.DateTimeField(required=False, allow_null=True)
    closes_at = serializers.DateTimeField(required=False, allow_null=True, help_text="After opens_at.")
    language_table = serializers.CharField(required=False, help_text="arbiter, codecup or potm.")
    allowed_languages = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="Language keys of the table; every one if empty."
    )
    max_source_bytes = serializers.IntegerField(required=False)
    source_counts = serializers.CharField(required=False, help_text='"bytes", or "code" (comments do not count).')
    max_executable_bytes = serializers.IntegerField(required=False, allow_null=True)
    max_entries_per_user = serializers.IntegerField(required=False)
    max_submissions_per_day = serializers.IntegerField(required=False, allow_null=True)
    max_submissions_per_week = serializers.IntegerField(required=False, allow_null=True)
    entry_form = serializers.ListField(
        child=serializers.DictField(), required=False, help_text='[{"name", "label", "type", "required"}, ...]'
    )
    reason = serializers.CharField(required=False, allow_blank=True, max_length=2000, help_text="For the judges' log.")


class NotificationSerializer(serializers.ModelSerializer):
    """One of the user's notifications: what happened, in words, and the page it is about."""

    contest = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    lines = serializers.SerializerMethodField(help_text="Items listed under the body, each with its page.")
    url = serializers.SerializerMethodField(help_text="The page it is about, as a full address.")
    read = serializers.SerializerMethodField()

    class Meta:
        model = Notification
        fields = [
            "id",
            "kind",
            "contest",
            "subject",
            "body",
            "lines",
            "log",
            "link",
            "url",
            "created_at",
            "read",
            "read_at",
        ]

    @extend_schema_field(
        serializers.ListField(child=serializers.DictField(child=serializers.CharField()))  # {"text", "link", "url"}
    )
    def get_lines(self, notification: Notification) -> list[dict[str, str]]:
        return [
            {**line, "url": notifications.absolute(line["link"])} if line.get("link") else line
            for line in notification.lines
        ]

    def get_url(self, notification: Notification) -> str:
        return notifications.absolute(notification.link) if notification.link else ""

    def get_read(self, notification: Notification) -> bool:
        return notification.read_at is not None


class MarkReadSerializer(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        max_length=1000,
        help_text="The notifications to mark read; all of yours if not given.",
    )


class MarkedReadSerializer(serializers.Serializer):
    marked = serializers.IntegerField(help_text="How many of those were unread.")
    unread = serializers.IntegerField(help_text="How many of yours are unread now.")
