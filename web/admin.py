from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.db import models

from contests.models import Contest, Entry, JudgeAction, Stage, Submission
from judging import formats
from judging import services as judges
from judging.models import Match, MatchAttempt, MatchSeat, Verification


class StageForm(forms.ModelForm):
    """A stage's kind is one of the registered formats (judging.formats), chosen from a list."""

    kind = forms.ChoiceField(choices=formats.choices)

    class Meta:
        model = Stage
        fields = ["contest", "order", "name", "kind", "params", "status", "started_at", "finished_at"]


class StageInline(admin.TabularInline):
    model = Stage
    form = StageForm
    extra = 0
    fields = ("order", "name", "kind", "params", "status")


class ContestForm(forms.ModelForm):
    """A contest is for a game the platform hosts: a new one chooses among them; one made for a
    game to come keeps it (it is listed, never open) until it is hosted."""

    rules_source = forms.URLField(
        required=False, assume_scheme="https", help_text=Contest._meta.get_field("rules_source").help_text
    )

    class Meta:
        model = Contest
        fields = [
            "title", "slug", "summary", "is_public", "game", "game_params", "clock", "game_data", "rules", "rules_source",
            "opens_at", "closes_at", "language_table", "allowed_languages", "max_source_bytes", "source_counts",
            "max_executable_bytes",
            "max_entries_per_user", "max_submissions_per_day", "max_submissions_per_week", "entry_form",
        ]  # fmt: skip

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        from games import registry

        choices = [(name, game.info.title) for name, game in sorted(registry.GAMES.items())]
        current = self.instance.game if self.instance.pk else ""
        if current and current not in registry.GAMES:
            choices.append((current, f"{current} (not hosted yet: the contest cannot open)"))
        self.fields["game"] = forms.ChoiceField(choices=choices, help_text=self.fields["game"].help_text)
        from sandbox.languages import TABLES

        self.fields["language_table"] = forms.ChoiceField(
            choices=[(t.name, t.title) for t in TABLES.values()],
            help_text=self.fields["language_table"].help_text,
            required=False,
        )
        self.fields["source_counts"].required = False

    def clean_language_table(self) -> str:
        return self.cleaned_data["language_table"] or "arbiter"

    def clean_source_counts(self) -> str:
        return self.cleaned_data["source_counts"] or "bytes"

    def clean_entry_form(self) -> list:
        from contests.entry_form import check_specs

        specs = self.cleaned_data["entry_form"]
        problems = check_specs(specs)
        if problems:
            raise forms.ValidationError(problems)
        return specs

    def clean(self):
        cleaned = super().clean()
        data, game = cleaned.get("game_data"), cleaned.get("game")
        if data and hasattr(data, "read") and game:
            from games import registry

            check = getattr(registry.GAMES.get(game), "check_data", None)
            if check is None:
                self.add_error("game_data", f"{game} takes no data file.")
            else:
                data.seek(0)
                content = data.read()
                data.seek(0)
                try:
                    check(content)
                except ValueError as e:
                    self.add_error("game_data", str(e))
        return cleaned

    def clean_max_source_bytes(self) -> int:
        value = self.cleaned_data["max_source_bytes"]
        cap = settings.UPLOAD_MAX_BYTES
        if value is not None and value > cap:
            raise forms.ValidationError(
                f"At most {cap:,} bytes: the site refuses any larger request (UPLOAD_MAX_BYTES); raise that first."
            )
        return value


@admin.register(Contest)
class ContestAdmin(admin.ModelAdmin):
    form = ContestForm
    list_display = ("title", "slug", "game", "is_public", "opens_at", "closes_at")
    list_filter = ("game", "is_public")
    search_fields = ("title", "slug")
    prepopulated_fields = {"slug": ("title",)}
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}
    inlines = [StageInline]
    fieldsets = (
        (None, {"fields": ("title", "slug", "summary", "is_public")}),
        ("Game", {"fields": ("game", "game_params", "clock", "game_data")}),
        ("Rules", {"fields": ("rules", "rules_source")}),
        ("Schedule", {"fields": ("opens_at", "closes_at")}),
        (
            "Submission policy",
            {
                "fields": (
                    "language_table",
                    "allowed_languages",
                    "max_source_bytes",
                    "source_counts",
                    "max_executable_bytes",
                    "max_entries_per_user",
                    "max_submissions_per_day",
                    "max_submissions_per_week",
                    "entry_form",
                )
            },
        ),
    )


@admin.register(Stage)
class StageAdmin(admin.ModelAdmin):
    form = StageForm
    list_display = ("__str__", "kind", "status", "started_at", "finished_at")
    list_filter = ("kind", "status", "contest")
    actions = ["run_stage"]

    @admin.action(description="Run the selected stages (schedule their matches)", permissions=["rerun"])
    def run_stage(self, request, queryset):
        for stage in queryset:
            try:
                scheduled = judges.run_stage(request.user, stage)
            except formats.StageError as e:
                self.message_user(request, str(e), messages.ERROR)
                continue
            if scheduled:
                self.log_change(request, stage, f"ran the stage: {len(scheduled)} matches scheduled")
                self.message_user(request, f"{stage}: {len(scheduled)} matches scheduled.", messages.SUCCESS)
            else:
                self.message_user(request, f"{stage}: already scheduled; nothing to do.", messages.WARNING)

    def has_rerun_permission(self, request) -> bool:
        return request.user.has_perm("judging.rerun_match")


class SubmissionInline(admin.TabularInline):
    model = Submission
    extra = 0
    fields = ("number", "language", "filename", "size", "status", "is_active", "created_at")
    readonly_fields = fields
    show_change_link = True
    can_delete = False


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("name", "contest", "user", "status", "is_reference", "created_at")
    list_filter = ("contest", "status", "is_reference")
    search_fields = ("name", "user__username")
    raw_id_fields = ("user",)
    inlines = [SubmissionInline]


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("__str__", "language", "size", "status", "is_active", "created_at")
    list_filter = ("status", "language", "entry__contest")
    search_fields = ("entry__name", "sha256")
    readonly_fields = ("sha256", "size", "created_at", "build_started_at", "built_at", "build_faults", "toolchain")
    raw_id_fields = ("entry",)
    actions = ["rebuild"]

    @admin.action(description="Build again (builds the platform failed or lost)", permissions=["rerun"])
    def rebuild(self, request, queryset):
        queued = [s for s in queryset if judges.rebuild(request.user, s)]
        for submission in queued:
            self.log_change(request, submission, "queued to be built again")
        self.message_user(request, f"{len(queued)} builds queued again; others were not platform faults.")

    def has_rerun_permission(self, request) -> bool:
        return request.user.has_perm("judging.rerun_match")


class MatchSeatInline(admin.TabularInline):
    model = MatchSeat
    extra = 0
    fields = ("index", "entry", "submission", "points", "score", "status", "detail", "reason", "moves", "cpu_seconds")
    raw_id_fields = ("entry", "submission")


class MatchAttemptInline(admin.TabularInline):
    """Every try at the match, with the worker that made it and how it ended."""

    model = MatchAttempt
    extra = 0
    fields = ("number", "worker", "pid", "started_at", "last_seen", "finished_at", "outcome", "error", "result")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("__str__", "stage", "round", "status", "priority", "faults", "finished_at")
    list_filter = ("status", "contest", "stage")
    readonly_fields = ("created_at", "started_at", "finished_at", "faults", "result_attempt")
    inlines = [MatchSeatInline, MatchAttemptInline]
    actions = ["rerun", "cancel"]

    @admin.action(description="Re-run the selected matches (any being played is called off)", permissions=["rerun"])
    def rerun(self, request, queryset):
        for match in queryset:
            judges.rerun_match(request.user, match)
            self.log_change(request, match, "queued for a re-run")
        self.message_user(request, f"{queryset.count()} matches queued again; their earlier results count until then.")

    @admin.action(description="Cancel the selected matches that are queued or being played", permissions=["rerun"])
    def cancel(self, request, queryset):
        cancelled = 0
        for match in queryset:
            if judges.cancel_match(request.user, match) is not None:
                cancelled += 1
                self.log_change(request, match, "cancelled")
        skipped = queryset.count() - cancelled
        self.message_user(
            request, f"{cancelled} matches cancelled" + (f"; {skipped} had already ended." if skipped else ".")
        )

    def has_rerun_permission(self, request) -> bool:
        return request.user.has_perm("judging.rerun_match")


@admin.register(JudgeAction)
class JudgeActionAdmin(admin.ModelAdmin):
    """The judges' log: read only, as it is a record."""

    list_display = ("at", "judge", "contest", "action", "target")
    list_filter = ("contest", "action")
    search_fields = ("target", "reason")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Verification)
class VerificationAdmin(admin.ModelAdmin):
    """The judges decide on the verification pages (logged); here only to read."""

    list_display = ("match", "status", "judge", "decided_at")
    list_filter = ("status", "match__contest")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
