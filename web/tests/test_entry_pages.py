"""Entering, submitting and reading results through the pages."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from contests.models import Entry, Submission
from contests.tests.factories import (
    make_contest,
    make_entry,
    make_match,
    make_stage,
    make_submission,
    make_user,
    name_to,
)
from judging.record import lifecycle
from judging.record.publication import replay_for

pytestmark = pytest.mark.django_db


def test_a_contestant_enters_with_a_file_and_lands_on_the_build_page(client, queued):
    make_contest(slug="chomp", entry_form=[{"name": "country", "label": "Country", "required": True}])
    client.force_login(make_user("ann"))
    page = client.get("/contests/chomp/").content.decode()
    assert 'id="entry-form"' in page and "Country" in page
    response = client.post(
        "/contests/chomp/submit/",
        {
            "name": "Muncher",
            "form_country": "NL",
            "language": "",
            "source": SimpleUploadedFile("m.c", b"int main(){return 0;}"),
        },
    )
    submission = Submission.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/submissions/{submission.pk}/"
    assert submission.entry.form_data == {"country": "NL"} and submission.language == "c"
    assert queued == [("build_submission", submission.pk)]
    page = client.get(response["Location"]).content.decode()
    assert "Muncher, version 1" in page and "Queued" in page


def test_a_refusal_comes_back_as_a_message_and_saves_nothing(client, queued):
    make_contest(slug="chomp", max_source_bytes=10)
    client.force_login(make_user())
    response = client.post(
        "/contests/chomp/submit/",
        {"name": "Big", "source": SimpleUploadedFile("m.c", b"int main(){return 0;}")},
        follow=True,
    )
    assert "accepts at most 10" in response.content.decode()
    assert not Submission.objects.exists() and not Entry.objects.exists()


def test_a_new_version_goes_to_the_same_entry(client, queued):
    contest = make_contest(slug="chomp")
    user = make_user()
    entry = make_entry(contest, user)
    client.force_login(user)
    client.post(f"/contests/chomp/entries/{entry.pk}/submit/", {"source": SimpleUploadedFile("a.py", b"print(1)\n")})
    second = client.post(
        f"/contests/chomp/entries/{entry.pk}/submit/",
        {"source": SimpleUploadedFile("b.py", b"print(2)\n")},
        follow=True,
    )
    assert list(entry.submissions.order_by("number").values_list("filename", flat=True)) == ["a.py", "b.py"]
    # The banner says what happened, not a state that goes stale ("it is being built" above a failed build).
    page = second.content.decode()
    assert "Received b.py as version 2 of " in page and "being built" not in page
    again = client.post(
        f"/contests/chomp/entries/{entry.pk}/submit/",
        {"source": SimpleUploadedFile("c.py", b"print(2)\n")},
        follow=True,
    )
    assert "c.py is version 2 of " in again.content.decode() and entry.submissions.count() == 2  # a double click


def test_nobody_submits_to_someone_elses_entry(client, queued):
    contest = make_contest(slug="chomp")
    entry = make_entry(contest)
    client.force_login(make_user())
    response = client.post(f"/contests/chomp/entries/{entry.pk}/submit/", {"source": SimpleUploadedFile("a.py", b"1")})
    assert response.status_code == 404
    assert not Submission.objects.exists()


def test_submitting_needs_a_login(client):
    make_contest(slug="chomp")
    response = client.post("/contests/chomp/submit/", {})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_submission_page_is_for_its_owner_and_the_judges(client):
    submission = make_submission(make_entry(make_contest()), build_log="main.c:1: error: expected ';'")
    client.force_login(make_user())
    assert client.get(f"/submissions/{submission.pk}/").status_code == 403
    client.force_login(submission.entry.user)
    assert "expected &#x27;;&#x27;" in client.get(f"/submissions/{submission.pk}/").content.decode()
    judge = name_to(make_contest(), make_user())
    client.force_login(judge)
    assert client.get(f"/submissions/{submission.pk}/").status_code == 403  # a judge of another contest
    name_to(submission.entry.contest, judge)
    assert client.get(f"/submissions/{submission.pk}/").status_code == 200


def _replayed_match():
    contest = make_contest()
    mine, theirs = make_submission(make_entry(contest)), make_submission(make_entry(contest))
    match = make_match(contest, [mine, theirs], stage=make_stage(contest), status="finished")
    match.save_replay(
        {
            "game": "chomp",
            "seats": [{"name": "a"}, {"name": "b"}],
            "moves": [
                {"n": 1, "seat": 0, "move": "2,2", "stderr": "my secret plan", "cpu_s": 0.1, "wall_s": 0.1},
                {"n": 2, "seat": 1, "move": "1,2", "stderr": "their secret plan", "cpu_s": 0.1, "wall_s": 0.1},
            ],
            "frames": [{}, {}, {}],
        }
    )
    return match, mine.entry.user


def test_the_replay_shows_only_my_programs_stderr(client):
    match, me = _replayed_match()
    client.force_login(me)
    replay = client.get(f"/matches/{match.pk}/replay.json").json()
    assert [m.get("stderr") for m in replay["moves"]] == ["my secret plan", None]
    assert replay["visible_seats"] == [0]
    client.logout()
    replay = client.get(f"/matches/{match.pk}/replay.json").json()
    assert [m.get("stderr") for m in replay["moves"]] == [None, None]
    judge = make_user()
    assert [m.get("stderr") for m in replay_for(judge, match)["moves"]] == [None, None]
    judge = name_to(match.contest, judge)
    assert [m.get("stderr") for m in replay_for(judge, match)["moves"]] == ["my secret plan", "their secret plan"]


def test_match_and_standings_pages_render(client):
    match, _ = _replayed_match()
    seat = match.seats.get(index=0)
    seat.points, seat.score, seat.status, seat.moves = 1, 5, "win", 1
    seat.save()
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="viewer"' in page and "games/chomp.js" in page
    page = client.get(f"/contests/{match.contest.slug}/standings/").content.decode()
    assert "Cookies eaten in won games" in page and "1 of 1 matches played" in page
    assert client.get(f"/contests/{match.contest.slug}/matches/").status_code == 200


def test_a_match_without_a_replay_has_no_viewer_and_its_json_is_404(client):
    contest = make_contest()
    match = make_match(contest, [make_submission(make_entry(contest))])
    assert 'id="viewer"' not in client.get(f"/matches/{match.pk}/").content.decode()
    assert client.get(f"/matches/{match.pk}/replay.json").status_code == 404


def test_a_test_game_from_the_submission_page(client, queued):
    contest = make_contest()
    make_submission(make_entry(contest, name="Random", is_reference=True), is_active=True, status="ready")
    mine = make_submission(make_entry(contest), is_active=True, status="ready")
    client.force_login(mine.entry.user)
    assert "Play a test game" in client.get(f"/submissions/{mine.pk}/").content.decode()
    response = client.post(f"/submissions/{mine.pk}/test-game/", {"first": "0"})
    match_id = queued[0][1]
    assert response.status_code == 302 and response["Location"] == f"/matches/{match_id}/"
    assert "Waiting for a worker" in client.get(response["Location"]).content.decode()
    client.force_login(make_user())
    assert client.post(f"/submissions/{mine.pk}/test-game/").status_code == 403


@pytest.mark.parametrize(
    ("upload", "language", "message"),
    [
        (SimpleUploadedFile("notes.txt", b"hello"), "", "Cannot tell the language of notes.txt"),
        (SimpleUploadedFile("m.c", b""), "", "The submitted file is empty"),
    ],
)
def test_a_refused_upload_creates_no_entry(client, queued, upload, language, message):
    make_contest(slug="chomp")
    client.force_login(make_user())
    response = client.post(
        "/contests/chomp/submit/", {"name": "Muncher", "source": upload, "language": language}, follow=True
    )
    assert message in response.content.decode()
    assert not Entry.objects.exists() and not Submission.objects.exists() and queued == []


def test_my_entries_can_be_renamed_and_withdrawn_from_the_contest_page(client, queued):
    contest = make_contest(slug="chomp", max_entries_per_user=1)
    user = make_user()
    entry = make_entry(contest, user, name="Muncher")
    client.force_login(user)
    page = client.get("/contests/chomp/").content.decode()
    assert f'action="/contests/chomp/entries/{entry.pk}/rename/"' in page
    assert f'action="/contests/chomp/entries/{entry.pk}/withdraw/"' in page
    assert 'id="entry-form"' not in page  # the one entry allowed is taken
    renamed = client.post(f"/contests/chomp/entries/{entry.pk}/rename/", {"name": "Cruncher"}, follow=True)
    assert "Muncher is now called Cruncher." in renamed.content.decode()
    withdrawn = client.post(f"/contests/chomp/entries/{entry.pk}/withdraw/", follow=True).content.decode()
    assert "Cruncher is withdrawn" in withdrawn and 'id="entry-form"' in withdrawn  # room for another
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.WITHDRAWN
    assert f'/entries/{entry.pk}/withdraw/"' not in withdrawn and f"/entries/{entry.pk}/submit/" not in withdrawn
    again = client.post(f"/contests/chomp/entries/{entry.pk}/rename/", {"name": "Back"}, follow=True)
    assert "withdrawn" in again.content.decode() and Entry.objects.get(pk=entry.pk).name == "Cruncher"


def test_only_the_owner_renames_or_withdraws_an_entry_on_the_pages(client):
    contest = make_contest(slug="chomp")
    entry = make_entry(contest, name="Muncher")
    client.force_login(make_user())
    assert client.post(f"/contests/chomp/entries/{entry.pk}/rename/", {"name": "Mine"}).status_code == 404
    assert client.post(f"/contests/chomp/entries/{entry.pk}/withdraw/").status_code == 404
    assert client.get(f"/contests/chomp/entries/{entry.pk}/withdraw/").status_code == 405
    client.logout()
    assert client.post(f"/contests/chomp/entries/{entry.pk}/withdraw/").status_code == 302  # to the login
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.ACTIVE and entry.name == "Muncher"


def test_a_withdrawn_entry_leaves_the_standings(client):
    from contests.services import withdraw

    match, me = _replayed_match()
    withdraw(match.seats.get(index=0).entry)
    rows = client.get(f"/api/contests/{match.contest.slug}/standings/").json()["rows"]
    assert [row["entry"] for row in rows] == [match.seats.get(index=1).entry_id]


def test_a_judge_sees_every_attempt_and_reruns_or_cancels_from_the_match_page(client, queued):

    from judging.models import MatchAttempt

    match, me = _replayed_match()
    lifecycle.rerun_match(match)
    contestant_page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Attempts" not in contestant_page  # only judges see them
    judge = name_to(match.contest, make_user())
    client.force_login(judge)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Attempts" in page and "(counted)" in page and "the result above counts until then" in page
    response = client.post(f"/matches/{match.pk}/cancel/", follow=True)
    assert "The match is cancelled." in response.content.decode()
    match.refresh_from_db()
    assert match.status == "finished"  # the re-run was called off: the earlier result stands
    response = client.post(f"/matches/{match.pk}/rerun/", follow=True)
    assert "queued to be played again" in response.content.decode()
    assert MatchAttempt.objects.filter(match=match).count() == 1
    client.force_login(me)
    assert client.post(f"/matches/{match.pk}/rerun/").status_code == 403


def test_a_judge_sees_how_a_rerun_moved_the_standings(client, queued):
    from contests.tests.factories import finish_on_paper

    contest = make_contest(slug="chomp")
    stage = make_stage(contest, kind="round_robin")
    ann, bob, cat = (make_submission(make_entry(contest, name=n), is_active=True, status="ready") for n in "ABC")
    decided = finish_on_paper(make_match(contest, [ann, bob], stage=stage), [(1, 5, "win"), (0, 0, "loss")])
    finish_on_paper(make_match(contest, [cat, bob], stage=stage), [(1, 1, "win"), (0, 0, "loss")])
    judge = name_to(contest, make_user())
    client.force_login(judge)
    assert "changed in the standings" not in client.get(f"/matches/{decided.pk}/").content.decode()

    finish_on_paper(decided, [(0, 0, "loss"), (1, 7, "win")])  # the re-run: B beats A this time
    page = client.get(f"/matches/{decided.pk}/").content.decode()
    assert "What attempt 2 changed in the standings" in page and "against attempt 1" in page
    table = page.split('class="list change"')[1].split("</table>")[0]
    assert "<td>A</td>" in table and "<td>B</td>" in table and "<td>C</td>" not in table  # C stays second
    assert "1 → 3 <small>▼2</small>" in table and "3 → 1 <small>▲2</small>" in table
    assert "5 → <strong>0</strong>" in table and "0 → <strong>7</strong>" in table  # cookies in won games
    assert "1 other entry unchanged." in page
