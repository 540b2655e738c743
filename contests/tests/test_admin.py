import pytest
from django.urls import reverse

from contests.tests.factories import make_contest, make_entry, make_match, make_stage, make_submission, make_user
from judging.models import WorkerHeartbeat

pytestmark = pytest.mark.django_db

MODELS = ["contest", "stage", "entry", "submission", "match"]


@pytest.fixture
def rows():
    contest = make_contest()
    stage = make_stage(contest)
    sub = make_submission(make_entry(contest))
    match = make_match(contest, [sub], stage=stage)
    return {"contest": contest, "stage": stage, "entry": sub.entry, "submission": sub, "match": match}


@pytest.mark.parametrize("model", MODELS)
def test_admin_screens_open_for_a_superuser(admin_client, rows, model):
    assert admin_client.get(reverse(f"admin:contests_{model}_changelist")).status_code == 200
    assert admin_client.get(reverse(f"admin:contests_{model}_change", args=[rows[model].pk])).status_code == 200
    assert admin_client.get(reverse(f"admin:contests_{model}_add")).status_code == 200


def test_worker_heartbeats_are_listed(admin_client):
    from django.utils import timezone

    WorkerHeartbeat.objects.create(hostname="w@h", started_at=timezone.now(), last_seen=timezone.now())
    assert b"w@h" in admin_client.get(reverse("admin:judging_workerheartbeat_changelist")).content


def test_a_contestant_cannot_open_the_admin(client):
    client.force_login(make_user())
    response = client.get(reverse("admin:contests_contest_changelist"))
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]
