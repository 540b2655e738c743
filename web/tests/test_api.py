"""The REST API: behaviour and permissions of each endpoint, errors in one shape."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from accounts.models import ApiToken
from contests.models import Entry, JudgeAction, Submission
from contests.tests.factories import (
    make_contest,
    make_entry,
    make_match,
    make_stage,
    make_submission,
    make_user,
    name_to,
)
from judging.models import Event, Match
from judging.record import confidence, tallies

pytestmark = pytest.mark.django_db
C_SOURCE = b"int main(void) { return 0; }\n"


def api(user=None):
    client = APIClient()
    if user is not None:
        _, key = ApiToken.issue(user, "test")
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return client


def judge(*contests):
    """A judge of these contests (contests.roles), of no other."""
    user = make_user()
    for contest in contests:
        name_to(contest, user)
    return user


def test_contests_list_and_detail_for_anyone():
    make_contest(slug="chomp", title="Chomp", clock={"wall_per_move_s": 60}, max_submissions_per_week=2)
    hidden = make_contest(slug="hidden", is_public=False)
    listing = api().get("/api/contests/").json()
    assert [c["slug"] for c in listing["results"]] == ["chomp"] and listing["count"] == 1
    detail = api().get("/api/contests/chomp/").json()
    assert detail["game"] == "chomp" and detail["game_params"] == {"rows": 4, "cols": 5}
    assert detail["clock"] == {"cpu_average_per_move_s": 30, "wall_per_move_s": 60}  # the game's, then the contest's
    assert detail["policy"]["max_submissions_per_week"] == 2 and "c" in detail["policy"]["languages"]
    assert api().get("/api/contests/hidden/").status_code == 404
    assert api(judge(make_contest())).get("/api/contests/hidden/").status_code == 404  # another contest's judge
    assert api(judge(hidden)).get("/api/contests/hidden/").status_code == 200


def test_errors_have_one_shape():
    body = api().get("/api/contests/nope/").json()
    assert body == {"error": {"status": 404, "code": "not_found", "message": "No Contest matches the given query."}}
    body = APIClient(HTTP_AUTHORIZATION="Bearer arb_0123456789abcdef").get("/api/me/").json()
    assert body["error"]["status"] == 401 and "unknown or revoked" in body["error"]["message"]
    body = api().get("/api/me/").json()
    assert body["error"]["status"] in (401, 403)
    body = api().get("/api/matches/?stage=x").json()
    assert body["error"]["code"] == "invalid" and body["error"]["fields"] == {"stage": ["A stage id is a number."]}
    body = api().get("/api/matches/?entry=²").json()  # a digit to str.isdigit, not to int()
    assert body["error"]["code"] == "invalid" and body["error"]["fields"] == {"entry": ["A entry id is a number."]}


def test_enter_and_submit_by_file_and_by_json(queued):
    make_contest(slug="chomp", max_entries_per_user=1)
    user = make_user("ann")
    client = api(user)
    entry = client.post("/api/contests/chomp/entries/", {"name": "Muncher"}, format="json")
    assert entry.status_code == 201 and entry.json()["name"] == "Muncher"
    again = client.post("/api/contests/chomp/entries/", {"name": "Other"}, format="json").json()
    assert again["error"]["code"] == "refused" and again["error"]["message"].endswith("allows 1 entry per contestant.")
    entry_id = entry.json()["id"]
    by_file = client.post(
        f"/api/entries/{entry_id}/submissions/", {"source": SimpleUploadedFile("m.c", C_SOURCE)}, format="multipart"
    )
    assert by_file.status_code == 201 and by_file.json()["language"] == "c" and by_file.json()["status"] == "queued"
    by_json = client.post(
        f"/api/entries/{entry_id}/submissions/", {"filename": "m.py", "source": "print(1)\n"}, format="json"
    )
    assert by_json.status_code == 201 and by_json.json()["number"] == 2 and by_json.json()["language"] == "python3"
    assert [k for k, _ in queued] == ["build_submission", "build_submission"]
    listing = client.get(f"/api/entries/{entry_id}/submissions/").json()
    assert [s["number"] for s in listing["results"]] == [2, 1]
    detail = client.get(f"/api/submissions/{by_file.json()['id']}/").json()
    assert detail["build_log"] == "" and detail["matches"] == []


@pytest.mark.parametrize(
    ("payload", "fmt", "message"),
    [
        ({"filename": "m.c", "source": ""}, "json", "The file is empty."),
        ({"filename": "notes.txt", "source": "hi"}, "json", "Cannot tell the language of notes.txt"),
        ({"filename": "m.c", "source": "x", "language": "cobol"}, "json", "cobol is not accepted here"),
        ({"source": "int main;"}, "json", "say the file's name"),
        ({"filename": "m.c"}, "json", "Send the program as a file"),
        ({"filename": "m.c", "source": "/*" + "x" * 200 + "*/"}, "json", "accepts at most 100"),
    ],
)
def test_a_refused_submission_says_why_like_the_page(queued, payload, fmt, message):
    entry = make_entry(make_contest(max_source_bytes=100))
    response = api(entry.user).post(f"/api/entries/{entry.pk}/submissions/", payload, format=fmt)
    assert response.status_code == 400
    assert message in response.json()["error"]["message"]
    assert not Submission.objects.exists() and queued == []


def test_an_idempotency_key_makes_a_retry_safe(queued):
    entry = make_entry(make_contest())
    client = api(entry.user)
    url = f"/api/entries/{entry.pk}/submissions/"
    first = client.post(
        url, {"source": SimpleUploadedFile("m.c", C_SOURCE)}, format="multipart", HTTP_IDEMPOTENCY_KEY="k1"
    )
    retry = client.post(
        url, {"source": SimpleUploadedFile("m.c", C_SOURCE)}, format="multipart", HTTP_IDEMPOTENCY_KEY="k1"
    )
    assert first.status_code == retry.status_code == 201
    assert retry.json() == first.json() and retry["Idempotent-Replayed"] == "true"
    assert Submission.objects.count() == 1 and len(queued) == 1
    other = client.post(
        url, {"source": SimpleUploadedFile("m.c", C_SOURCE + b"\n")}, format="multipart", HTTP_IDEMPOTENCY_KEY="k1"
    )
    assert other.status_code == 422 and other.json()["error"]["code"] == "idempotency_key_reused"
    fresh = client.post(
        url, {"source": SimpleUploadedFile("m.c", C_SOURCE + b"\n")}, format="multipart", HTTP_IDEMPOTENCY_KEY="k2"
    )
    assert fresh.status_code == 201 and Submission.objects.count() == 2


def test_the_claim_of_a_request_that_died_is_free_after_the_request_time_limit(queued, settings):
    """Issue 36: after the web server was killed mid-request, its claim of the key answered 409
    for 10 minutes. A request may take ``REQUEST_TIME_LIMIT``: a claim older than that is free,
    and the retry does the work and gets the first answer; a younger one is still in hand."""
    from datetime import timedelta

    from django.utils import timezone

    from accounts.models import IdempotentRequest

    settings.REQUEST_TIME_LIMIT = 30
    entry = make_entry(make_contest())
    client = api(entry.user)
    url = f"/api/entries/{entry.pk}/submissions/"

    def post():
        payload = {"source": SimpleUploadedFile("m.c", C_SOURCE)}
        return client.post(url, payload, format="multipart", HTTP_IDEMPOTENCY_KEY="k")

    assert post().status_code == 201
    # What a request killed mid-way leaves: its claim of the key, its work never committed.
    Submission.objects.all().delete()
    claims = IdempotentRequest.objects.filter(key="k")
    claims.update(status=0, body={}, created_at=timezone.now() - timedelta(seconds=29))
    assert post().status_code == 409  # it may still be at work
    claims.update(created_at=timezone.now() - timedelta(seconds=31))
    first = post()
    assert first.status_code == 201 and Submission.objects.count() == 1
    again = post()
    assert again.status_code == 201 and again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Submission.objects.count() == 1


def test_a_request_over_its_time_limit_keeps_nothing_so_its_claim_may_be_taken(queued, settings, monkeypatch):
    """A claim older than the limit is given to a retry: the request that held it, if it was
    only slow, must then keep none of its work, or the work would be done twice."""
    from datetime import timedelta

    from django.utils import timezone

    from accounts.models import IdempotentRequest
    from contests import services

    settings.REQUEST_TIME_LIMIT = 30
    entry = make_entry(make_contest())
    client = api(entry.user)
    submit = services.submit

    def slow_submit(*args, **kwargs):
        made = submit(*args, **kwargs)
        IdempotentRequest.objects.update(created_at=timezone.now() - timedelta(seconds=31))  # 31 s went by
        return made

    monkeypatch.setattr(services, "submit", slow_submit)
    url = f"/api/entries/{entry.pk}/submissions/"
    late = client.post(
        url, {"source": SimpleUploadedFile("m.c", C_SOURCE)}, format="multipart", HTTP_IDEMPOTENCY_KEY="k"
    )
    assert late.status_code == 503 and late["Retry-After"] and late.json()["error"]["code"] == "over_time_limit"
    assert not Submission.objects.exists() and not IdempotentRequest.objects.exists()  # its build is never sent
    monkeypatch.setattr(services, "submit", submit)
    retry = client.post(
        url, {"source": SimpleUploadedFile("m.c", C_SOURCE)}, format="multipart", HTTP_IDEMPOTENCY_KEY="k"
    )
    assert retry.status_code == 201 and Submission.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_an_upload_with_the_broker_away_is_stored_answered_and_built_when_it_is_back(monkeypatch, caplog):
    """Issue 36: with Redis away, the build's send after the commit raised: the client got a
    500 for a stored version, and its retry with the same Idempotency-Key was refused ("you
    already have an entry"). Now the upload is answered, the retry replays that answer, and the
    watchdog sends the build once the broker is back."""
    from datetime import timedelta

    from django.utils import timezone
    from kombu.exceptions import OperationalError as BrokerAway

    from judging import watchdog
    from judging.tasks import build_submission

    sent, away = [], [True]

    def apply_async(args, kwargs=None, **options):
        if away[0]:
            raise BrokerAway("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        sent.append(tuple(args))

    monkeypatch.setattr(build_submission, "apply_async", apply_async)
    make_contest(slug="chomp", max_entries_per_user=1)
    client = api(make_user())

    def upload():
        payload = {"name": "Muncher", "source": SimpleUploadedFile("m.c", C_SOURCE)}
        return client.post("/api/contests/chomp/entries/", payload, format="multipart", HTTP_IDEMPOTENCY_KEY="k")

    first, retry = upload(), upload()
    assert first.status_code == retry.status_code == 201 and retry.json() == first.json()
    assert retry["Idempotent-Replayed"] == "true"
    submission = Submission.objects.get()
    assert submission.status == "queued" and sent == [] and "the watchdog sends it" in caplog.text
    away[0] = False  # the broker is back: the watchdog's next round sends the build
    Submission.objects.update(queued_at=timezone.now() - watchdog.QUEUED_BUILD_GRACE - timedelta(seconds=1))
    monkeypatch.setattr(watchdog, "broker_backlog", lambda queue: 0)
    assert watchdog.rescue_builds() == 1 and sent == [(submission.pk,)]


def test_another_contestants_entry_source_and_stderr_stay_private(queued):
    contest = make_contest()
    mine = make_submission(make_entry(contest), build_log="secret build log")
    stranger = api(make_user())
    assert stranger.get(f"/api/submissions/{mine.pk}/").status_code == 403
    assert stranger.get(f"/api/entries/{mine.entry_id}/submissions/").status_code == 403
    assert (
        stranger.post(
            f"/api/entries/{mine.entry_id}/submissions/", {"filename": "a.c", "source": "x"}, format="json"
        ).status_code
        == 403
    )
    assert api(mine.entry.user).get(f"/api/submissions/{mine.pk}/").json()["build_log"] == "secret build log"
    assert api(judge(make_contest())).get(f"/api/submissions/{mine.pk}/").status_code == 403  # another contest's
    assert api(judge(contest)).get(f"/api/submissions/{mine.pk}/").status_code == 200
    theirs = make_submission(make_entry(contest))
    match = make_match(contest, [mine, theirs], status="finished")
    match.save_replay(
        {"game": "chomp", "moves": [{"n": 1, "seat": 0, "stderr": "mine"}, {"n": 2, "seat": 1, "stderr": "theirs"}]}
    )
    replay = api(mine.entry.user).get(f"/api/matches/{match.pk}/replay/").json()
    assert [m.get("stderr") for m in replay["moves"]] == ["mine", None]


def test_matches_filter_and_standings_with_every_column():
    contest = make_contest(slug="chomp")
    stage = make_stage(contest)
    a, b = make_submission(make_entry(contest, name="A")), make_submission(make_entry(contest, name="B"))
    match = make_match(contest, [a, b], stage=stage, status="finished")
    with tallies.recounting(match.pk):  # the result written by hand: kept as a worker keeps it
        for seat, (points, score, st, moves) in zip(
            match.seats.order_by("index"), [(1, 7, "win", 3), (0, 0, "loss", 3)], strict=True
        ):
            seat.points, seat.score, seat.status, seat.moves = points, score, st, moves
            seat.save()
    make_match(make_contest(), [make_submission(make_entry(make_contest()))])
    listing = api().get("/api/matches/", {"contest": "chomp"}).json()
    assert [m["id"] for m in listing["results"]] == [match.pk]
    assert listing["results"][0]["seats"][0]["entry_name"] == "A"
    assert api().get("/api/matches/", {"entry": b.entry_id}).json()["count"] == 1
    assert api(a.entry.user).get("/api/matches/", {"mine": "1"}).json()["count"] == 1
    assert api().get("/api/matches/", {"mine": "1"}).status_code in (401, 403)
    table = api().get("/api/contests/chomp/standings/", {"stage": stage.pk}).json()
    assert [c["key"] for c in table["columns"]] == ["wins", "score", "chomps"]
    unsure = {"rank_low": None, "rank_high": None, "tied_group": None, "tied": False, "rating": None, "mu": None}
    assert table["rows"][0] == {
        "rank": 1,
        "entry": a.entry_id,
        "name": "A",
        "games": 1,
        "values": {"wins": 1.0, "score": 7.0, "chomps": 3.0},
        **unsure,  # no ratings fitted yet
        "sigma": None,
        "provisional": False,
    }
    assert (table["matches_played"], table["matches_total"]) == (1, 1) and table["ratings"] is None
    confidence.rate(stage.pk)
    table = api().get("/api/contests/chomp/standings/", {"stage": stage.pk}).json()
    assert table["ratings"]["games"] == 1 and table["ratings"]["level"] == 0.95 and not table["ratings"]["rated"]
    first, second = table["rows"]
    assert first["rank_low"] == 1 and first["rank_high"] == 2 and first["tied"] and second["tied"]
    assert first["mu"] > 1500 > second["mu"] and first["rating"] is None


def test_judges_run_rerun_disqualify_and_reinstate(queued):
    contest = make_contest()
    stage = make_stage(contest, params={"games_per_pairing": 2})
    subs = [make_submission(make_entry(contest), is_active=True, status="ready") for _ in range(2)]
    contestant = api(subs[0].entry.user)
    assert contestant.post(f"/api/stages/{stage.pk}/run/").status_code == 403
    assert api(judge(make_contest())).post(f"/api/stages/{stage.pk}/run/").status_code == 403  # another's judge
    the_judge = judge(contest)
    boss = api(the_judge)
    ran = boss.post(f"/api/stages/{stage.pk}/run/")
    assert ran.status_code == 202 and ran.json()["scheduled"] == 2 and ran.json()["status"] == "running"
    again = boss.post(f"/api/stages/{stage.pk}/run/")
    assert again.status_code == 202 and again.json()["scheduled"] == 0  # scheduled once: nothing more
    match_id = stage.matches.order_by("pk").first().pk
    assert boss.post(f"/api/matches/{match_id}/rerun/").status_code == 202
    assert contestant.post(f"/api/stages/{stage.pk}/rerun/").status_code == 403
    rerun = boss.post(f"/api/stages/{stage.pk}/rerun/").json()
    assert rerun["queued"] == 2 and rerun["matches_queued"] == 2
    entry = subs[1].entry
    assert contestant.post(f"/api/entries/{entry.pk}/disqualify/", {"reason": "x"}, format="json").status_code == 403
    no_reason = boss.post(f"/api/entries/{entry.pk}/disqualify/", {}, format="json")
    assert no_reason.status_code == 400 and "Say why" in no_reason.json()["error"]["message"]
    out = boss.post(
        f"/api/entries/{entry.pk}/disqualify/", {"reason": "shared code with another entry"}, format="json"
    ).json()
    assert out["status"] == "disqualified" and out["status_reason"] == "shared code with another entry"
    assert Entry.objects.get(pk=entry.pk).status == "disqualified"
    back = boss.post(f"/api/entries/{entry.pk}/reinstate/", {"reason": "cleared"}, format="json").json()
    assert back["status"] == "active"
    assert boss.post(f"/api/entries/{entry.pk}/reinstate/", {}, format="json").status_code == 409
    # every action that did something is in the judges' log, with who and why; refusals are not
    log = list(JudgeAction.objects.filter(contest=contest).order_by("at", "pk"))
    out_of = f"{entry.name} is disqualified"
    assert [(a.action, a.reason) for a in log] == [
        ("stage.run", ""),
        ("match.rerun", ""),
        ("stage.rerun", ""),
        ("entry.disqualify", "shared code with another entry"),
        ("match.cancel", out_of),  # its two queued games called off, and played again when reinstated
        ("match.cancel", out_of),
        ("entry.reinstate", "cleared"),
        ("match.rerun", f"{entry.name} is reinstated"),
        ("match.rerun", f"{entry.name} is reinstated"),
    ]
    assert {a.judge for a in log} == {the_judge} and log[0].data == {"matches": 2}


def test_match_deeds_keep_their_reason_refusals_are_409_and_the_log_is_in_the_api(queued, client):
    """Issue 36: the API's re-run and cancel dropped the reason; re-running a bye or a match of
    a cancelled stage answered 500 (the page offered the button); the judges' log had no API."""
    from judging.record import lifecycle

    contest = make_contest(game="chomp", game_params={"rows": 3, "cols": 3})
    swiss = make_stage(contest, kind="swiss", params={"rounds": 1, "games_per_pairing": 1})
    entries = [make_submission(make_entry(contest, name=n), is_active=True, status="ready").entry for n in "ABC"]
    lifecycle.run_stage(swiss)
    game = Match.objects.filter(stage=swiss).exclude(seats__status="bye").first()
    bye = Match.objects.get(stage=swiss, seats__status="bye")
    the_judge = judge(contest)
    boss = api(the_judge)
    assert (
        boss.post(f"/api/matches/{game.pk}/rerun/", {"reason": "a worker's clock jumped"}, format="json").status_code
        == 202
    )
    assert (
        boss.post(f"/api/matches/{game.pk}/cancel/", {"reason": "not to be played"}, format="json").status_code == 200
    )
    refused = boss.post(f"/api/matches/{bye.pk}/rerun/", {"reason": "x"}, format="json")
    assert refused.status_code == 409 and "a bye" in refused.json()["error"]["message"]
    later = make_stage(contest, kind="round_robin", params={"games_per_pairing": 1})
    (other, *_) = lifecycle.run_stage(later)
    lifecycle.cancel_stage(later)
    refused = boss.post(f"/api/matches/{other.pk}/rerun/", format="json")
    assert refused.status_code == 409 and "cancelled for good" in refused.json()["error"]["message"]
    # the match page offers no button it would refuse, and a POST anyway is said, never a 500
    client.force_login(the_judge)
    page = client.get(f"/matches/{bye.pk}/").content.decode()
    assert "is a bye" in page and f"/matches/{bye.pk}/rerun/" not in page
    assert f"/matches/{game.pk}/rerun/" in client.get(f"/matches/{game.pk}/").content.decode()
    answer = client.post(f"/matches/{bye.pk}/rerun/", {"reason": "x"}, follow=True)
    assert answer.status_code == 200 and "is a bye" in answer.content.decode()
    client.post(f"/matches/{game.pk}/rerun/", {"reason": "from the page"})
    # the log, newest first, to the contest's judges only
    log = boss.get(f"/api/contests/{contest.slug}/log/")
    assert log.status_code == 200
    lines = [(line["action"], line["target"], line["reason"], line["judge"]) for line in log.json()["results"]]
    assert lines == [
        ("match.rerun", f"match {game.pk}", "from the page", the_judge.username),
        ("match.cancel", f"match {game.pk}", "not to be played", the_judge.username),
        ("match.rerun", f"match {game.pk}", "a worker's clock jumped", the_judge.username),
    ]
    assert log.json()["count"] == 3 and JudgeAction.objects.filter(contest=contest).count() == 3
    assert api(entries[0].user).get(f"/api/contests/{contest.slug}/log/").status_code == 403
    assert api(judge(make_contest())).get(f"/api/contests/{contest.slug}/log/").status_code == 403
    assert api().get(f"/api/contests/{contest.slug}/log/").status_code == 401


def test_a_test_game_against_a_reference_program(queued):
    contest = make_contest()
    make_submission(make_entry(contest, name="Random", is_reference=True), is_active=True, status="ready")
    mine = make_submission(make_entry(contest), is_active=True, status="ready")
    response = api(mine.entry.user).post(f"/api/submissions/{mine.pk}/test-games/", {"first": False}, format="json")
    assert response.status_code == 201
    seats = response.json()["seats"]
    assert [s["entry_name"] for s in seats] == ["Random", mine.entry.name]
    assert queued == [("play_match", response.json()["id"])]
    unbuilt = make_submission(mine.entry)
    assert api(mine.entry.user).post(f"/api/submissions/{unbuilt.pk}/test-games/", {}, format="json").status_code == 409


def test_the_events_head_is_the_newest_event_a_user_may_see():
    ann, bob = make_user(), make_user()
    contest, other = make_contest(slug="chomp"), make_contest(slug="other")
    hidden = make_contest(slug="hidden", is_public=False)
    first = Event.objects.create(kind="match", contest=contest, data={"match": 5})
    mine = Event.objects.create(kind="submission", contest=contest, user=ann, data={"submission": 1})
    Event.objects.create(kind="submission", contest=contest, user=bob, data={"submission": 2})
    elsewhere = Event.objects.create(kind="match", contest=other, data={"match": 6})
    Event.objects.create(kind="match", contest=hidden, data={"match": 7})
    assert api(ann).get("/api/events/head/", {"contest": "chomp"}).json() == {"id": mine.pk}
    assert api().get("/api/events/head/", {"contest": "chomp"}).json() == {"id": first.pk}
    assert api().get("/api/events/head/").json() == {"id": elsewhere.pk}
    assert api().get("/api/events/head/", {"contest": "nope"}).json() == {"id": 0}


def test_rate_limits_are_per_token(settings):
    settings.API_RATE_LIMIT = (3, 60)
    make_contest()
    client = api(make_user())
    codes = [client.get("/api/contests/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    assert client.get("/api/contests/").json()["error"]["code"] == "throttled"
    assert api(make_user()).get("/api/contests/").status_code == 200  # another token, its own budget


def test_the_schema_and_its_documentation_are_served(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200 and b"/api/entries/{entry_id}/submissions/" in schema.content
    assert client.get("/api/docs/").status_code == 200


def test_the_schema_is_valid_openapi_without_warnings(tmp_path):
    from django.core.management import call_command

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml"))
    assert "/api/stages/{id}/rerun/" in (tmp_path / "schema.yml").read_text()


def test_enter_with_a_program_in_one_request_and_a_refused_one_creates_nothing(queued):
    make_contest(slug="chomp", entry_form=[{"name": "country", "label": "Country", "required": True}])
    client = api(make_user())
    url = "/api/contests/chomp/entries/"
    refused = client.post(
        url, {"name": "Muncher", "form.country": "NL", "source": SimpleUploadedFile("notes.txt", b"hi")},
        format="multipart",
    )  # fmt: skip
    assert refused.status_code == 400 and "Cannot tell the language" in refused.json()["error"]["message"]
    as_text = client.post(url, {"name": "Muncher", "form": {"country": "NL"}, "source": "int main;"}, format="json")
    assert as_text.status_code == 400 and "say the file's name" in as_text.json()["error"]["message"]
    assert not Entry.objects.exists() and queued == []
    entered = client.post(
        url, {"name": "Muncher", "form.country": "NL", "source": SimpleUploadedFile("m.c", C_SOURCE)},
        format="multipart",
    )  # fmt: skip
    assert entered.status_code == 201, entered.json()
    body = entered.json()
    assert body["name"] == "Muncher" and body["form_data"] == {"country": "NL"}
    assert body["submission"]["number"] == 1 and body["submission"]["language"] == "c"
    assert queued == [("build_submission", body["submission"]["id"])]
    plain = api(make_user()).post(url, {"name": "Plain", "form": {"country": "BE"}}, format="json")
    assert plain.status_code == 201 and plain.json()["submission"] is None


def test_a_refusal_by_a_limit_is_a_429_that_says_when(queued):
    entry = make_entry(make_contest(max_submissions_per_week=1))
    client = api(entry.user)
    url = f"/api/entries/{entry.pk}/submissions/"
    assert client.post(url, {"filename": "m.c", "source": "int main;"}, format="json").status_code == 201
    again = client.post(url, {"filename": "m.c", "source": "int main;"}, format="json")  # a double click
    assert again.status_code == 409 and again.json()["error"]["code"] == "same_again"
    assert again.json()["error"]["message"].startswith("m.c is version 1 of ") and entry.submissions.count() == 1
    response = client.post(url, {"filename": "m.c", "source": "int main(void);"}, format="json")
    assert response.status_code == 429 and response.json()["error"]["code"] == "limit_reached"
    assert "your next submission is allowed at " in response.json()["error"]["message"]
    assert 7 * 86400 - 60 < int(response["Retry-After"]) <= 7 * 86400


def test_the_owner_withdraws_and_renames_an_entry(queued):
    contest = make_contest(slug="chomp", max_entries_per_user=1)
    entry = make_entry(contest, name="Muncher")
    owner = api(entry.user)
    for client in (api(make_user()), api(judge(contest))):  # nobody but the owner, not even a judge
        assert client.post(f"/api/entries/{entry.pk}/rename/", {"name": "X"}, format="json").status_code == 403
        assert client.post(f"/api/entries/{entry.pk}/withdraw/").status_code == 403
    assert api().post(f"/api/entries/{entry.pk}/withdraw/").status_code in (401, 403)
    assert api(entry.user).post("/api/entries/999999/withdraw/").status_code == 404
    renamed = owner.post(f"/api/entries/{entry.pk}/rename/", {"name": "Cruncher"}, format="json")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Cruncher"
    assert owner.post(f"/api/entries/{entry.pk}/rename/", {}, format="json").status_code == 400
    assert owner.post(f"/api/entries/{entry.pk}/rename/", [], format="json").status_code == 400
    withdrawn = owner.post(f"/api/entries/{entry.pk}/withdraw/")
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    again = owner.post(f"/api/entries/{entry.pk}/withdraw/")
    assert again.status_code == 409 and "already withdrawn" in again.json()["error"]["message"]
    assert owner.post(f"/api/entries/{entry.pk}/rename/", {"name": "Y"}, format="json").status_code == 409
    fresh = owner.post("/api/contests/chomp/entries/", {"name": "Second"}, format="json")
    assert fresh.status_code == 201  # a withdrawn entry does not count against the one allowed
    listing = owner.get("/api/contests/chomp/entries/").json()["results"]
    assert [(e["name"], e["status"]) for e in listing] == [("Cruncher", "withdrawn"), ("Second", "active")]


def test_the_match_lists_count_is_the_kept_one_and_the_same_as_counted():
    """The lists' length comes from the kept counts of matches (judging.record.counts) and the test
    games this visitor may see; it is what counting the listed matches gives, for anyone,
    with any filter; and the stages' games are not counted for it."""
    from django.contrib.auth.models import AnonymousUser
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from contests import services
    from judging.models import Match
    from judging.record import lifecycle, publication

    contest = make_contest(slug="listed")
    one, two = make_stage(contest, name="One"), make_stage(contest, name="Two", order=2)
    a, b = make_submission(make_entry(contest, name="A")), make_submission(make_entry(contest, name="B"))
    for stage, status in [(one, "finished"), (one, "finished"), (one, "queued"), (two, "queued"), (two, "failed")]:
        make_match(contest, [a, b], stage=stage, status=status)
    lifecycle.cancel_match(make_match(contest, [b, a], stage=two, status="queued"))
    make_match(contest, [a, b], status="finished")  # a test game: its players' and the judges'
    make_match(contest, [b, b], status="queued")  # and one of B's
    make_match(make_contest(slug="beside"), [make_submission(make_entry(make_contest()))] * 2, stage=None)
    people = {"anyone": None, "A's author": a.entry.user, "a judge": judge(contest)}
    filters = [
        {},
        {"contest": "listed"},
        {"contest": "nope"},
        {"stage": two.pk},
        {"contest": "listed", "stage": one.pk},
    ]
    for who, user in people.items():
        for query in filters:
            for status in (None, "finished", "failed", "cancelled", "queued"):
                asked = {**query, **({"status": status} if status else {})}
                with CaptureQueriesContext(connection) as queries:
                    body = api(user).get("/api/matches/", asked).json()
                matches = Match.objects.filter(contest__in=services.visible_contests(user or AnonymousUser()))
                if "contest" in query:
                    matches = matches.filter(contest__slug=query["contest"])
                if "stage" in query:
                    matches = matches.filter(stage_id=query["stage"])
                if status:
                    matches = matches.filter(status=status)
                counted = publication.visible_matches(user or AnonymousUser(), matches).count()
                assert body["count"] == len(body["results"]) == counted, (who, asked)
                sql = [q["sql"] for q in queries.captured_queries if "COUNT(" in q["sql"].upper()]
                if status != "queued":  # queued and running are counted: few, by their index
                    assert all('"stage_id" IS NULL' in q for q in sql if "contests_match" in q), sql
    assert Match.objects.filter(contest=contest).count() == 8
    for who, user in people.items():  # an entry's games, each once (B sits twice in its test game)
        body = api(user).get("/api/matches/", {"entry": b.entry_id}).json()
        mine = publication.visible_matches(user or AnonymousUser(), Match.objects.filter(seats__entry=b.entry))
        assert body["count"] == len(body["results"]) == mine.distinct().count(), who
        assert len({m["id"] for m in body["results"]}) == len(body["results"]), who
