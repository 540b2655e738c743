import json

import pytest
from django.urls import reverse

from contests.tests.factories import (
    finish_on_paper,
    make_contest,
    make_entry,
    make_match,
    make_stage,
    make_submission,
    make_user,
    name_to,
)
from judging.models import WorkerHeartbeat

pytestmark = pytest.mark.django_db

MODELS = ["contests.contest", "contests.stage", "contests.entry", "contests.submission", "judging.match"]


@pytest.fixture
def rows():
    contest = make_contest()
    stage = make_stage(contest)
    sub = make_submission(make_entry(contest))
    match = make_match(contest, [sub], stage=stage)
    return {"contest": contest, "stage": stage, "entry": sub.entry, "submission": sub, "match": match}


@pytest.mark.parametrize("model", MODELS)
def test_admin_screens_open_for_a_superuser(admin_client, rows, model):
    app, name = model.split(".")
    assert admin_client.get(reverse(f"admin:{app}_{name}_changelist")).status_code == 200
    assert admin_client.get(reverse(f"admin:{app}_{name}_change", args=[rows[name].pk])).status_code == 200
    # versions are uploaded and matches made by their formats, never added by hand
    added = 403 if name in ("submission", "match") else 200
    assert admin_client.get(reverse(f"admin:{app}_{name}_add")).status_code == added


def test_no_admin_form_writes_a_results_state(rf, rows):
    """The admin set a finished match's seats and moved a match to another stage around the
    lifecycle (issue 36): the public table kept the old result, the stage's list lost a match.
    No form or inline of the admin may edit a field arbiter/owners.py guards, add a seat or
    delete one."""
    from django.contrib import admin

    from arbiter.owners import OWNERS
    from judging.models import MatchSeat

    request = rf.get("/")
    request.user = make_user(is_staff=True, is_superuser=True)
    rows["stage"].status = "running"  # started: its kind is declared (a pending stage's may change)
    row_of = {type(row): row for row in rows.values()}
    editable: dict[str, set[str]] = {}
    for model, model_admin in admin.site._registry.items():
        obj = row_of.get(model)
        readonly = set(model_admin.get_readonly_fields(request, obj))
        form = model_admin.get_form(request, obj)
        editable.setdefault(model.__name__, set()).update(set(form.base_fields) - readonly)
        for inline in model_admin.get_inline_instances(request, obj):
            readonly = set(inline.get_readonly_fields(request, obj))
            fields = set(inline.get_formset(request, obj).form.base_fields) - readonly
            editable.setdefault(inline.model.__name__, set()).update(fields)
            if inline.model is MatchSeat:
                assert not inline.has_add_permission(request, obj) and not inline.can_delete
    written = {model: sorted(editable.get(model, set()) & fields) for model, (fields, _, _) in OWNERS.items()}
    assert written == {model: [] for model in OWNERS}
    assert editable["Match"] == {"priority"} and {"name", "params", "order"} <= editable["Stage"]


def test_the_admin_changes_no_result_and_logs_what_it_edits(admin_client):
    """A post that sets a finished match's seats and its stage changes neither; a stage edited
    or added here is a line of the judges' log; a stage or an entry that has played is never
    deleted here."""
    from contests.models import JudgeAction, Stage
    from judging.models import Match
    from judging.record import standings

    contest = make_contest()
    first, second = make_stage(contest, name="First"), make_stage(contest, name="Second", order=2)
    subs = [make_submission(make_entry(contest, name=n)) for n in ("Strong A", "Weak B")]
    match = make_match(contest, subs, stage=first)
    finish_on_paper(match, [(1, 1, "win"), (0, 0, "loss")])
    before = [(row.entry.name, row.values, row.games) for row in standings.compute(contest, first).rows]
    seats = list(match.seats.order_by("index"))
    post = {
        "contest": contest.pk, "stage": second.pk, "round": 3, "status": "queued", "priority": 1,
        "seats-TOTAL_FORMS": 2, "seats-INITIAL_FORMS": 2, "seats-MIN_NUM_FORMS": 0, "seats-MAX_NUM_FORMS": 1000,
        "attempts-TOTAL_FORMS": 1, "attempts-INITIAL_FORMS": 1, "attempts-MIN_NUM_FORMS": 0,
        "attempts-MAX_NUM_FORMS": 1000,
    }  # fmt: skip
    for i, seat in enumerate(seats):
        post |= {f"seats-{i}-id": seat.pk, f"seats-{i}-match": match.pk, f"seats-{i}-points": 1 - seat.points}
        post |= {f"seats-{i}-status": "loss" if seat.status == "win" else "win"}
    post |= {"attempts-0-id": match.result_attempt_id, "attempts-0-match": match.pk}
    response = admin_client.post(reverse("admin:judging_match_change", args=[match.pk]), post)
    assert response.status_code == 302, response.content.decode()[:3000]
    match.refresh_from_db()
    assert (match.stage_id, match.round, match.status, match.priority) == (first.pk, 0, "finished", 1)
    assert [(s.points, s.status) for s in match.seats.order_by("index")] == [(1, "win"), (0, "loss")]
    assert [(row.entry.name, row.values, row.games) for row in standings.compute(contest, first).rows] == before

    url = reverse("admin:contests_stage_change", args=[first.pk])
    other = make_contest()  # a stage never moves to another contest
    fields = {
        "contest": other.pk,
        "order": 1,
        "name": "Opening",
        "kind": first.kind,
        "params": json.dumps(first.params),
    }
    response = admin_client.post(url, fields)
    assert response.status_code == 302, response.content.decode()[:3000]
    edit = JudgeAction.objects.get(action="stage.edit")
    assert (edit.target, edit.data["fields"], edit.contest_id) == ("stage Opening", ["name"], contest.pk)
    assert Stage.objects.get(pk=first.pk).contest_id == contest.pk
    response = admin_client.post(
        reverse("admin:contests_stage_add"),
        {"contest": contest.pk, "order": 5, "name": "Final", "kind": "round_robin", "params": "{}"},
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert JudgeAction.objects.filter(action="stage.add", target="stage Final").exists()
    assert Stage.objects.get(name="Final").status == "pending"
    assert admin_client.get(reverse("admin:contests_stage_delete", args=[first.pk])).status_code == 403
    final = Stage.objects.get(name="Final")  # never ran: deleted as a judge deletes it, logged
    response = admin_client.post(reverse("admin:contests_stage_delete", args=[final.pk]), {"post": "yes"})
    assert response.status_code == 302 and not Stage.objects.filter(pk=final.pk).exists()
    assert JudgeAction.objects.filter(action="stage.delete", target="stage Final").exists()
    assert admin_client.get(reverse("admin:contests_entry_delete", args=[subs[0].entry_id])).status_code == 403
    assert Match.objects.filter(stage=first).count() == 1


def test_worker_heartbeats_are_listed(admin_client):
    from django.utils import timezone

    WorkerHeartbeat.objects.create(hostname="w@h", started_at=timezone.now(), last_seen=timezone.now())
    assert b"w@h" in admin_client.get(reverse("admin:judging_workerheartbeat_changelist")).content


def test_a_contestant_cannot_open_the_admin(client):
    client.force_login(make_user())
    response = client.get(reverse("admin:contests_contest_changelist"))
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


@pytest.mark.parametrize("role", ["judge", "organiser", "owner"])
def test_the_admin_is_the_administrators_alone_not_a_contests_people(client, rows, role):
    """The admin reaches every contest's rows: a contest's judge or organiser, even one made
    staff with every model permission, is sent to log in as an administrator."""
    from django.contrib.auth.models import Permission

    person = name_to(rows["contest"], make_user(is_staff=True), role=role)
    person.user_permissions.set(Permission.objects.all())
    client.force_login(person)
    for model in MODELS:
        app, name = model.split(".")
        response = client.get(reverse(f"admin:{app}_{name}_changelist"))
        assert response.status_code == 302 and "/admin/login/" in response["Location"]
    response = client.post(reverse("admin:judging_match_changelist"), {"action": "rerun", "_selected_action": [1]})
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_an_administrator_runs_a_round_robin_and_reruns_a_match_from_the_admin(client, monkeypatch):
    from judging.models import Match

    queued = []
    monkeypatch.setattr("judging.dispatch.send_on_commit", lambda task, pk, budget: queued.append(pk))
    contest = make_contest()
    stage = make_stage(contest, kind="round_robin", params={"games_per_pairing": 2})
    for _ in range(3):
        make_submission(make_entry(contest), is_active=True, status="ready")
    administrator = make_user(is_staff=True, is_superuser=True)
    client.force_login(administrator)
    url = reverse("admin:contests_stage_changelist")
    response = client.post(url, {"action": "run_stage", "_selected_action": [stage.pk]}, follow=True)
    assert "6 matches scheduled" in response.content.decode()
    assert len(queued) == 6 and Match.objects.filter(stage=stage).count() == 6
    response = client.post(url, {"action": "run_stage", "_selected_action": [stage.pk]}, follow=True)
    assert "already scheduled" in response.content.decode()

    match = Match.objects.filter(stage=stage).first()
    finish_on_paper(match, [(1, 1, "win"), (0, 0, "loss")])
    queued.clear()
    url = reverse("admin:judging_match_changelist")
    response = client.post(url, {"action": "rerun", "_selected_action": [match.pk]}, follow=True)
    assert "1 matches queued again" in response.content.decode()
    match.refresh_from_db()
    assert (match.status, match.result_attempt.number, queued) == ("queued", 1, [match.pk])
    other = Match.objects.filter(stage=stage, status="queued").exclude(pk=match.pk).first()
    response = client.post(url, {"action": "cancel", "_selected_action": [other.pk]}, follow=True)
    assert "1 matches cancelled" in response.content.decode()
    assert Match.objects.get(pk=other.pk).status == "cancelled"
    response = client.get(reverse("admin:judging_match_change", args=[match.pk]))
    assert "on paper" in response.content.decode()  # the attempts are shown, with their worker


def test_a_contestant_sees_no_run_or_rerun_actions(client):
    user = make_user()
    user.is_staff = True  # staff is not enough: the admin is the administrators'
    user.save()
    client.force_login(user)
    response = client.get(reverse("admin:judging_match_changelist"))
    assert response.status_code == 302 and "/admin/login/" in response["Location"]


def test_a_contest_cannot_accept_sources_larger_than_the_sites_upload_cap(settings):
    from web.admin import ContestForm

    settings.UPLOAD_MAX_BYTES = 1 << 20
    contest = make_contest()
    fields = {
        "title": contest.title, "slug": contest.slug, "game": contest.game, "game_params": "{}", "clock": "{}",
        "allowed_languages": [], "entry_form": "[]", "max_entries_per_user": 1,
    }  # fmt: skip
    form = ContestForm({**fields, "max_source_bytes": (1 << 20) + 1}, instance=contest)
    assert not form.is_valid()
    assert (
        "UPLOAD_MAX_BYTES" in form.errors["max_source_bytes"][0] and "1,048,576" in form.errors["max_source_bytes"][0]
    )
    assert ContestForm({**fields, "max_source_bytes": 1 << 19}, instance=contest).is_valid()


def test_organisers_upload_their_own_word_list_and_a_bad_one_is_refused_naming_its_line():
    from django.core.files.uploadedfile import SimpleUploadedFile

    from web.admin import ContestForm

    contest = make_contest(game="crossed_words", game_params={})
    fields = {
        "title": contest.title, "slug": contest.slug, "game": "crossed_words", "game_params": "{}", "clock": "{}",
        "allowed_languages": [], "entry_form": "[]", "max_entries_per_user": 1, "max_source_bytes": 1000,
    }  # fmt: skip
    bad = ContestForm(fields, {"game_data": SimpleUploadedFile("words.txt", b"cat\ndog\nh3llo\n")}, instance=contest)
    assert not bad.is_valid() and "line 3" in bad.errors["game_data"][0]
    good = ContestForm(fields, {"game_data": SimpleUploadedFile("words.txt", b"cat\r\ndog\r\n")}, instance=contest)
    assert good.is_valid(), good.errors
    chomp = make_contest()
    other = ContestForm(
        {**fields, "slug": chomp.slug, "game": "chomp", "game_params": "{}"},
        {"game_data": SimpleUploadedFile("words.txt", b"cat\n")},
        instance=chomp,
    )
    assert not other.is_valid() and other.errors["game_data"] == ["chomp takes no data file."]


def test_entry_forms_are_checked_in_the_admin():
    from web.admin import ContestForm

    contest = make_contest()
    fields = {
        "title": contest.title, "slug": contest.slug, "game": contest.game, "game_params": "{}", "clock": "{}",
        "allowed_languages": [], "max_entries_per_user": 1, "max_source_bytes": 1000,
    }  # fmt: skip
    form = ContestForm({**fields, "entry_form": '[{"name": "os", "type": "choice"}]'}, instance=contest)
    assert not form.is_valid() and form.errors["entry_form"] == ["Field os is a choice with no choices."]
