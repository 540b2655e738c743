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
    assert admin_client.get(reverse(f"admin:{app}_{name}_add")).status_code == 200


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
