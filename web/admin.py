from django import forms
from django.contrib import admin, messages
from django.db import models
from django.utils.translation import gettext

from contests import services
from contests.models import Contest, Entry, JudgeAction, Stage, Submission
from contests.services import log_action
from games import registry
from judging import services as judges
from judging.models import Match, MatchAttempt, MatchSeat, Verification
from judging.record import formats, lifecycle
from web.contest_form import SECTIONS, ContestForm, JSONField


def _administrators_only(request) -> bool:
    """The admin is the site administrators' (``is_superuser``): it reaches every contest's rows,
    so a contest's own organisers and judges work on its pages, console and API instead, where
    each is held to the contests they were named to (contests.roles)."""
    return request.user.is_active and request.user.is_superuser


admin.site.has_permission = _administrators_only


class StageForm(forms.ModelForm):
    """A stage's kind is one of the registered formats (judging.record.formats), chosen from a list."""

    kind = forms.ChoiceField(choices=formats.choices)

    class Meta:
        model = Stage
        fields = ["contest", "order", "name", "kind", "params"]
        field_classes = {"params": JSONField}

    def clean(self):
        """The parameters checked as the judges' API and console check them (their kind's, their
        game's, within the site's bounds): a ParamsError's message per parameter."""
        cleaned = super().clean()
        contest = cleaned.get("contest") or getattr(self.instance, "contest", None)
        params, kind = cleaned.get("params"), cleaned.get("kind")
        if contest is not None and kind and isinstance(params, dict) and contest.game in registry.GAMES:
            try:
                formats.clean_params(kind, registry.get(contest.game), params)
            except formats.ParamsError as e:
                self.add_error("params", str(e))
        return cleaned

    def clean_params(self):
        """What a stage declared before it started (how it ranks, the places that matter, when
        it ends: the contest page states them) stays as declared once it has started."""
        params = self.cleaned_data.get("params") or {}
        was = self.instance
        if was.pk is not None and was.status != Stage.Status.PENDING:
            changed = sorted(n for n in formats.DECLARED if params.get(n) != (was.params or {}).get(n))
            if changed:
                raise forms.ValidationError(
                    gettext("%(names)s: declared before the stage started, it cannot change now.")
                    % {"names": ", ".join(changed)}
                )
        return params


class StageInline(admin.TabularInline):
    """A contest's stages, to read: each is added, edited and run on its own page, where its
    lifecycle and the judges' log see it (the inline saved around both)."""

    model = Stage
    extra = 0
    fields = ("order", "name", "kind", "params", "status")
    readonly_fields = fields
    show_change_link = True
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Contest)
class ContestAdmin(admin.ModelAdmin):
    form = ContestForm
    list_display = ("title", "slug", "game", "is_public", "opens_at", "closes_at")
    list_filter = ("game", "is_public")
    search_fields = ("title", "slug")
    prepopulated_fields = {"slug": ("title",)}
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}
    inlines = [StageInline]
    fieldsets = [(None if title == "Contest" else title, {"fields": names}) for title, names in SECTIONS]

    def save_model(self, request, obj, form, change) -> None:
        """Saved and logged as on the organisers' pages: ``contest.create`` or ``contest.edit`` in the judges' log."""
        services.save_contest(request.user, obj)


@admin.register(Stage)
class StageAdmin(admin.ModelAdmin):
    """A stage's place, name and parameters; its state moves only by its lifecycle (the actions
    here, the judges' pages): a stage that has started keeps its contest and kind, and is never
    deleted here (its games are the record)."""

    form = StageForm
    list_display = ("__str__", "kind", "status", "started_at", "finished_at")
    list_filter = ("kind", "status", "contest")
    readonly_fields = ("status", "started_at", "finished_at", "ended_by")
    actions = ["run_stage"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return self.readonly_fields
        moved = ("contest",) if obj.status == Stage.Status.PENDING else ("contest", "kind")
        return (*moved, *self.readonly_fields)

    def save_model(self, request, obj, form, change) -> None:
        """A new stage is added as a judge adds one (``stage.add``); an edit is a ``stage.edit``
        line of the judges' log naming what changed."""
        if not change:
            added = judges.add_stage(
                request.user, obj.contest, kind=obj.kind, name=obj.name, params=obj.params, order=obj.order
            )
            obj.pk = added.pk
            return
        was = Stage.objects.get(pk=obj.pk)
        fields = [name for name in ("order", "name", "kind", "params") if getattr(was, name) != getattr(obj, name)]
        obj.save()
        if fields:
            log_action(request.user, obj.contest_id, "stage.edit", f"stage {obj.name}", "in the admin", fields=fields)

    def has_delete_permission(self, request, obj=None) -> bool:
        """A stage that never ran (a mistaken one) is deleted as a judge deletes it (logged);
        one that ran is the record."""
        if not request.user.is_superuser:
            return False
        return obj is None or not lifecycle.deletion_refusal(obj)

    def delete_model(self, request, obj) -> None:
        judges.delete_stage(request.user, obj, "in the admin")

    def delete_queryset(self, request, queryset) -> None:
        for stage in queryset:
            try:
                judges.delete_stage(request.user, stage, "in the admin")
            except lifecycle.Refused as e:
                self.message_user(request, f"{stage}: {e}", messages.ERROR)

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
        return request.user.is_superuser  # the admin is the administrators'


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
    readonly_fields = ("status", "status_reason", "created_at")
    inlines = [SubmissionInline]

    def has_delete_permission(self, request, obj=None) -> bool:
        """An entry is disqualified on the judges' pages (logged, its games called off); one
        that has played is never deleted: its games are the standings."""
        return request.user.is_superuser and (obj is None or not obj.seats.exists())


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    list_display = ("__str__", "language", "size", "status", "is_active", "created_at")
    list_filter = ("status", "language", "entry__contest")
    search_fields = ("entry__name", "sha256")
    readonly_fields = (
        "status",
        "is_active",
        "sha256",
        "size",
        "created_at",
        "build_started_at",
        "built_at",
        "build_faults",
        "toolchain",
    )
    raw_id_fields = ("entry",)
    actions = ["rebuild"]

    def has_add_permission(self, request) -> bool:
        return False  # a version is uploaded, built and tested: the contestant's pages and the API

    def has_delete_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser and (obj is None or not obj.seats.exists())

    @admin.action(description="Build again (builds the platform failed or lost)", permissions=["rerun"])
    def rebuild(self, request, queryset):
        queued = [s for s in queryset if judges.rebuild(request.user, s)]
        for submission in queued:
            self.log_change(request, submission, "queued to be built again")
        self.message_user(request, f"{len(queued)} builds queued again; others were not platform faults.")

    def has_rerun_permission(self, request) -> bool:
        return request.user.is_superuser  # the admin is the administrators'


class MatchSeatInline(admin.TabularInline):
    """A match's seats as its result left them: results move only by a re-run, a cancel or a
    judge's decision on an output (each through its lifecycle, logged), never by hand here."""

    model = MatchSeat
    extra = 0
    fields = ("index", "entry", "submission", "points", "score", "status", "detail", "reason", "moves", "cpu_seconds")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


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
    fields = (
        "contest",
        "stage",
        "versus",
        "round",
        "status",
        "priority",
        "seed",
        "params",
        "reason",
        "error",
        "faults",
        "result_attempt",
        "replay",
        "created_at",
        "queued_at",
        "started_at",
        "finished_at",
    )
    # Only its place in the queue is set by hand: the rest is its lifecycle's (the actions).
    readonly_fields = tuple(name for name in fields if name != "priority")
    inlines = [MatchSeatInline, MatchAttemptInline]

    def has_add_permission(self, request) -> bool:
        return False  # matches are made by their stage's format, a versus batch or a test

    actions = ["rerun", "cancel"]

    @admin.action(description="Re-run the selected matches (any being played is called off)", permissions=["rerun"])
    def rerun(self, request, queryset):
        queued, refused = 0, []
        for match in queryset:
            try:
                judges.rerun_match(request.user, match)
            except formats.StageError as e:  # a bye, a match of a cancelled stage
                refused.append(str(e))
                continue
            queued += 1
            self.log_change(request, match, "queued for a re-run")
        self.message_user(
            request, " ".join([f"{queued} matches queued again; their earlier results count until then.", *refused])
        )

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
        return request.user.is_superuser  # the admin is the administrators'

    def delete_model(self, request, obj) -> None:
        judges.delete_match(request.user, obj)  # the standings' totals and the counts of matches lose it

    def delete_queryset(self, request, queryset) -> None:
        for match in queryset:
            judges.delete_match(request.user, match)


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
