"""Requests an attacker (or a careless script) sends: each answered in words, in the API's
error shape where it is the API, never a 500; a hidden contest's files stay hidden; a
download's name is quoted as RFC 6266 and 5987 say."""

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from contests.models import Submission
from contests.tests.factories import make_contest, make_entry, make_submission, make_user


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.django_db(transaction=True)
def test_ten_uploads_at_once_with_one_idempotency_key_make_one_entry_and_no_500(queued):
    make_contest(slug="chomp", game="chomp")
    user = make_user(username="eager")
    answers, start = [], threading.Barrier(10)

    def send():
        try:
            start.wait(timeout=10)
            body = {"name": "Muncher", "source": "int main(){return 0;}\n", "filename": "m.c"}
            answers.append(
                api(user).post("/api/contests/chomp/entries/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    codes = sorted(a.status_code for a in answers)
    assert len(codes) == 10 and set(codes) <= {201, 409}, codes
    assert Submission.objects.filter(entry__user=user).count() == 1
    for answer in answers:
        if answer.status_code == 409:
            assert answer.json()["error"]["code"] == "in_progress" and answer["Retry-After"]
    again = api(user).post(
        "/api/contests/chomp/entries/",
        {"name": "Muncher", "source": "int main(){return 0;}\n", "filename": "m.c"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k-1",
    )
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"


@pytest.mark.django_db
def test_json_nested_too_deeply_is_a_400():
    make_contest(slug="chomp", game="chomp")
    body = "[" * 100_000 + "]" * 100_000
    answer = api(make_user()).post("/api/contests/chomp/entries/", body, content_type="application/json")
    assert answer.status_code == 400 and "nested too deeply" in answer.json()["error"]["message"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "filename, message",
    [("x" * 10_000 + ".c", "longer than 200"), ("evil\r\nX-Header: 1.c", "control character"), ("a\x00.c", "control")],
)
def test_a_file_name_a_system_cannot_keep_is_refused_in_words(filename, message, queued):
    make_contest(slug="chomp", game="chomp")
    answer = api(make_user()).post(
        "/api/contests/chomp/entries/", {"name": "N", "source": "int main(){}", "filename": filename}, format="json"
    )
    assert answer.status_code == 400 and message in answer.json()["error"]["message"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "stored, header",
    [
        ("main.c", 'attachment; filename="main.c"'),
        ("x\";filename*=UTF-8''evil.html;.py", 'attachment; filename="x\\";filename*=UTF-8\'\'evil.html;.py"'),
        ("café.py", "attachment; filename*=utf-8''caf%C3%A9.py"),
        ("line\r\nbreak.c", 'attachment; filename="line__break.c"'),  # stored before names were checked
    ],
)
def test_a_downloaded_source_is_named_as_rfc_6266_says(client, stored, header):
    owner = make_user(username="owner")
    submission = make_submission(make_entry(make_contest(slug="chomp"), owner), filename="main.c")
    Submission.objects.filter(pk=submission.pk).update(filename=stored)
    client.force_login(owner)
    answer = client.get(f"/submissions/{submission.pk}/source/?download=1")
    assert answer.status_code == 200 and answer["Content-Disposition"] == header


@pytest.mark.django_db
def test_a_hidden_contests_submissions_are_404_to_all_but_judges(client):
    hidden = make_contest(slug="secret", is_public=False)
    reference = make_submission(make_entry(hidden, name="Reference", is_reference=True))
    alice = make_user(username="alice")
    hers = make_submission(make_entry(hidden, alice, name="Alice's"))
    assert client.get(f"/submissions/{reference.pk}/source/").status_code == 404  # anonymous
    client.force_login(make_user(username="bob"))
    for pk in (reference.pk, hers.pk):
        assert client.get(f"/submissions/{pk}/").status_code == 404
        assert client.get(f"/submissions/{pk}/source/").status_code == 404
    assert api(make_user()).get(f"/api/submissions/{hers.pk}/").status_code == 404
