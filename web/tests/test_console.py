"""The judges' console of a contest: stages with their queues, what is being played (and what
has gone silent), the workers alive, the entries; running a stage and disqualifying an entry
from it, each logged."""

from datetime import timedelta

import pytest
from django.utils import timezone

from contests.models import Entry, JudgeAction, Stage, Submission
from contests.tests.factories import (
    make_contest,
    make_entry,
    make_match,
    make_stage,
    make_submission,
    make_user,
    name_to,
)
from judging.models import Match, MatchAttempt, WorkerHeartbeat

pytestmark = pytest.mark.django_db

READY = {"status": Submission.Status.READY, "is_active": True}


@pytest.fixture
def contest(queued):
    contest = make_contest(slug="chomp", title="Chomp")
    for name in ("Ann's", "Bob's", "Cid's"):
        make_submission(make_entry(contest, make_user(), name=name), **READY)
    return contest


@pytest.fixture
def judge(contest):
    """A judge of the chomp contest (contests.roles)."""
    return name_to(contest, make_user(username="judge"))


def test_only_judges_see_the_console(contest, client, judge):
    client.force_login(make_user())
    assert client.get("/contests/chomp/console/").status_code == 403
    assert client.post("/contests/chomp/console/act/", {"action": "run_stage"}).status_code == 403
    client.force_login(judge)
    page = client.get("/contests/chomp/console/").content.decode()
    assert "<h1>Judges' console</h1>" in page and "No worker is alive" in page
    assert "/contests/chomp/console/" in client.get("/contests/chomp/").content.decode()


def test_it_shows_progress_queue_workers_and_a_silent_match(contest, client, judge):
    stage = make_stage(contest, name="Round robin", status=Stage.Status.RUNNING)
    subs = list(Submission.objects.filter(entry__contest=contest))
    make_match(contest, subs[:2], stage=stage, status=Match.Status.FINISHED)
    make_match(contest, subs[1:], stage=stage)  # queued
    silent = make_match(contest, [subs[0], subs[2]], stage=stage, status=Match.Status.RUNNING)
    long_ago = timezone.now() - timedelta(minutes=5)
    MatchAttempt.objects.create(match=silent, number=1, worker="w1@host", started_at=long_ago, last_seen=long_ago)
    now = timezone.now()
    WorkerHeartbeat.objects.create(hostname="w2@host", queues=["matches"], concurrency=2, started_at=now, last_seen=now,
                                   sandbox_level="full")  # fmt: skip
    client.force_login(judge)
    page = client.get("/contests/chomp/console/").content.decode()
    assert "<td>1 of 3</td><td>1</td><td>1</td><td>0</td>" in page  # played, queued, running, failed
    assert 'class="stuck"' in page and "silent: the watchdog gives it up" in page
    assert "w2@host: 2 at once, queues matches, sandbox full" in page


def test_a_judge_runs_a_stage_and_it_is_logged(contest, client, judge):
    stage = make_stage(contest, name="Round robin")
    client.force_login(judge)
    page = client.post("/contests/chomp/console/act/", {"action": "run_stage", "stage": stage.pk}, follow=True)
    assert "Round robin: 6 matches scheduled." in page.content.decode()
    assert stage.matches.count() == 6
    assert JudgeAction.objects.get(action="stage.run").judge == judge
    again = client.post("/contests/chomp/console/act/", {"action": "run_stage", "stage": stage.pk}, follow=True)
    assert "was already scheduled" in again.content.decode() and JudgeAction.objects.count() == 1


def test_disqualifying_needs_a_reason_and_reinstating_undoes_it(contest, client, judge):
    entry = Entry.objects.get(name="Bob's")
    client.force_login(judge)
    refused = client.post("/contests/chomp/console/act/", {"action": "disqualify", "entry": entry.pk}, follow=True)
    assert "Say why the entry is disqualified" in refused.content.decode()
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE
    done = client.post("/contests/chomp/console/act/",
                       {"action": "disqualify", "entry": entry.pk, "reason": "copied Ann's program"}, follow=True)  # fmt: skip
    assert "Bob&#x27;s is disqualified." in done.content.decode()
    entry.refresh_from_db()
    assert entry.status == Entry.Status.DISQUALIFIED and entry.status_reason == "copied Ann's program"
    client.post("/contests/chomp/console/act/", {"action": "reinstate", "entry": entry.pk, "reason": "appeal upheld"})
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE
    actions = list(JudgeAction.objects.order_by("pk").values_list("action", "reason"))
    assert actions == [("entry.disqualify", "copied Ann's program"), ("entry.reinstate", "appeal upheld")]


def test_a_judge_adds_a_stage_from_a_form_not_raw_json(contest, client, judge):
    client.force_login(judge)
    choose = client.get("/contests/chomp/console/stages/new/").content.decode()
    assert 'value="round_robin"' in choose and 'value="batch"' not in choose and 'value="race"' not in choose
    form = client.get("/contests/chomp/console/stages/new/?kind=swiss").content.decode()
    assert "Rounds" in form and "Swiss rounds to play." in form and "rows (game)" in form
    bad = client.post("/contests/chomp/console/stages/new/",
                      {"kind": "swiss", "name": "Swiss", "order": 1, "stage_rounds": 0, "game_rows": 99})  # fmt: skip
    page = bad.content.decode()
    assert bad.status_code == 200 and "greater than or equal to 1" in page and "less than or equal to" in page
    assert not Stage.objects.exists()
    made = client.post("/contests/chomp/console/stages/new/",
                       {"kind": "swiss", "name": "Swiss", "order": 1, "stage_rounds": 5, "stage_games_per_pairing": 2,
                        "game_rows": 6})  # fmt: skip
    assert made.status_code == 302
    stage = Stage.objects.get()
    assert (stage.kind, stage.name, stage.params) == (
        "swiss",
        "Swiss",
        {"rounds": 5, "games_per_pairing": 2, "rows": 6},
    )
    action = JudgeAction.objects.get(action="stage.add")
    assert action.judge == judge and action.data["params"] == stage.params
    ann, bob = (Entry.objects.get(name=n) for n in ("Ann's", "Bob's"))
    form = client.get("/contests/chomp/console/stages/new/?kind=round_robin").content.decode()
    assert f'value="{ann.pk}"' in form and "Ann&#x27;s</label>" in form  # by name
    named = client.post("/contests/chomp/console/stages/new/",
                        {"kind": "round_robin", "name": "Duel", "order": 2, "entries": [ann.pk, bob.pk]})  # fmt: skip
    assert named.status_code == 302 and Stage.objects.get(name="Duel").params["entries"] == sorted([ann.pk, bob.pk])
    # A ladder's places that matter, as a judge types them (the form once took only one number,
    # which the stage's check then refused: no judge could set them from the page).
    ladder = client.post("/contests/chomp/console/stages/new/",
                         {"kind": "ladder", "name": "Ladder", "order": 3, "stage_places": "1, 3"})  # fmt: skip
    assert ladder.status_code == 302 and Stage.objects.get(name="Ladder").params["places"] == "1, 3"
    one = client.post("/contests/chomp/console/stages/new/",
                      {"kind": "ladder", "name": "Ladder one", "order": 4, "stage_places": "1"})  # fmt: skip
    assert one.status_code == 302 and Stage.objects.get(name="Ladder one").params["places"] == "1"
    odd = client.post("/contests/chomp/console/stages/new/",
                      {"kind": "ladder", "name": "Odd", "order": 5, "stage_places": "first"})  # fmt: skip
    assert "places as whole numbers from 1" in odd.content.decode() and not Stage.objects.filter(name="Odd").exists()
    taken = client.post("/contests/chomp/console/stages/new/", {"kind": "round_robin", "name": "Again", "order": 2})
    assert "has a stage at place 2 already" in taken.content.decode()
    client.force_login(make_user())
    assert client.get("/contests/chomp/console/stages/new/").status_code == 403


def test_a_race_contest_offers_trial_laps_and_the_race_with_the_decks_named():
    from web.stage_form import StageForm, kinds_for

    contest = make_contest(slug="wheels", game="wheels", game_params={})
    assert [k for k, _ in kinds_for(contest)] == ["system_test", "practice", "qualification", "race"]
    form = StageForm(contest, "race", {"name": "Race", "order": 3, "game_decks": 500, "game_delays": 1,
                                       "game_first_wins": 1, "stage_seconds": 3600})  # fmt: skip
    assert form.is_valid(), form.errors
    assert form.params() == {"seconds": 3600, "decks": 500, "delays": 1, "first_wins": 1}


def test_frozen_standings_hide_later_games_from_contestants_until_published(contest, client, judge):
    from contests.tests.factories import finish_on_paper

    stage = make_stage(contest, name="Final", status=Stage.Status.RUNNING)
    ann, bob, cid = (Submission.objects.get(entry__name=n) for n in ("Ann's", "Bob's", "Cid's"))
    early = make_match(contest, [ann, bob], stage=stage)
    Match.objects.filter(pk=early.pk).update(status=Match.Status.FINISHED)
    finish_on_paper(early, [(1, 5, "win"), (0, 2, "loss")])
    Match.objects.filter(pk=early.pk).update(finished_at=timezone.now() - timedelta(minutes=1))
    client.force_login(judge)
    client.post("/contests/chomp/console/act/", {"action": "freeze"})
    late = make_match(contest, [cid, ann], stage=stage)
    Match.objects.filter(pk=late.pk).update(status=Match.Status.FINISHED)
    finish_on_paper(late, [(1, 7, "win"), (0, 1, "loss")])
    Match.objects.filter(pk=late.pk).update(finished_at=timezone.now() + timedelta(seconds=1))

    def table(user):
        client.logout()
        if user is not None:
            client.force_login(user)
        return client.get("/api/contests/chomp/standings/").json(), client.get(
            "/contests/chomp/standings/"
        ).content.decode()

    public, page = table(make_user())
    assert "frozen since" in page and "1 game played since has its result hidden" in page
    assert {r["name"] for r in public["rows"]} == {"Ann's", "Bob's"}  # Cid's game came later
    assert public["frozen"] and public["results_hidden"] == 1
    judged, page = table(judge)
    assert "you see every game" in page and len(judged["rows"]) == 3
    client.post("/contests/chomp/console/act/", {"action": "publish"})
    public, page = table(None)
    assert "frozen" not in page and len(public["rows"]) == 3
    assert "The results are published" in client.get("/contests/chomp/").content.decode()
    assert [a for (a,) in JudgeAction.objects.order_by("pk").values_list("action")] == [
        "standings.freeze",
        "standings.publish",
    ]


def test_a_judge_cancels_what_a_stage_has_not_played_yet(contest, client, judge):
    stage = make_stage(contest, name="Round robin", status=Stage.Status.RUNNING)
    subs = list(Submission.objects.filter(entry__contest=contest))
    make_match(contest, subs[:2], stage=stage, status=Match.Status.FINISHED)
    make_match(contest, subs[1:], stage=stage)
    make_match(contest, [subs[0], subs[2]], stage=stage)
    _running_attempt(make_match(contest, [subs[1], subs[2]], stage=stage))
    client.force_login(judge)
    console = client.get("/contests/chomp/console/").content.decode()
    assert "Cancel Round robin for good? Its 2 queued and 1 running matches stop" in console
    page = client.post("/contests/chomp/console/act/", {"action": "cancel_stage", "stage": stage.pk}, follow=True)
    assert "Round robin is cancelled: 3 matches stopped (2 queued, 1 being played)." in page.content.decode()
    statuses = sorted(stage.matches.values_list("status", flat=True))
    assert statuses == ["cancelled", "cancelled", "cancelled", "finished"]
    stage.refresh_from_db()
    assert stage.status == Stage.Status.CANCELLED  # for good: never shown as the contest's standings by default
    assert JudgeAction.objects.get(action="stage.cancel").data["matches"] == 3
    standings = client.get("/contests/chomp/standings/").content.decode()
    assert "Round robin" not in standings.split("<h1")[1].split("</h1>")[0]
    shown = client.get(f"/contests/chomp/standings/?stage={stage.pk}").content.decode()
    assert "The judges cancelled Round robin" in shown  # still there when asked for, and said so
    rerun = client.post("/contests/chomp/console/act/", {"action": "rerun_stage", "stage": stage.pk}, follow=True)
    assert "Round robin was cancelled, for good" in rerun.content.decode()


def _running_attempt(match):
    from django.utils import timezone

    from judging.models import MatchAttempt

    now = timezone.now()
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING, started_at=now)
    return MatchAttempt.objects.create(match=match, number=1, worker="w", started_at=now, last_seen=now)


def test_what_needs_a_judge_is_on_the_console_and_mended_from_it(contest, client, judge, queued):
    stage = make_stage(contest, name="Round robin", status=Stage.Status.RUNNING)
    subs = list(Submission.objects.filter(entry__contest=contest))
    broken = make_match(
        contest, subs[:2], stage=stage, status=Match.Status.FAILED, error="the sandbox failed: no cgroup"
    )
    unbuilt = make_submission(
        Entry.objects.get(name="Cid's"), status=Submission.Status.PLATFORM_FAULT, build_log="worker lost"
    )
    client.force_login(judge)
    page = client.get("/contests/chomp/console/").content.decode()
    failed = page.split('class="list console-failed"')[1].split("</table>")[0]
    assert f">{broken.pk}</a>" in failed and "Ann&#x27;s · Bob&#x27;s" in failed and "no cgroup" in failed
    assert f"/submissions/{unbuilt.pk}/source/" in page.split('class="list console-unbuilt"')[1]
    # a long fault whole, one click away: a referee's last stderr, its cause, ends it ("hearts is
    # a game of 4 players, not 2", walked on a fresh clone), and 160 characters cut it off
    said = "not played: the game's referee failed 3 times in a row; last: " + "x" * 150 + " hearts is a game of 4"
    Match.objects.filter(pk=broken.pk).update(error=said)
    page = client.get("/contests/chomp/console/").content.decode()
    assert "<details><summary>" in page and "hearts is a game of 4</details>" in page

    done = client.post("/contests/chomp/console/act/", {"action": "rerun_match", "match": broken.pk}, follow=True)
    assert f"Match {broken.pk} is queued to be played again." in done.content.decode()
    broken.refresh_from_db()
    assert broken.status == Match.Status.QUEUED and ("play_match", broken.pk) in queued
    client.post("/contests/chomp/console/act/", {"action": "rebuild", "submission": unbuilt.pk})
    unbuilt.refresh_from_db()
    assert unbuilt.status == Submission.Status.QUEUED
    again = client.post("/contests/chomp/console/act/", {"action": "rebuild", "submission": unbuilt.pk}, follow=True)
    assert "Only a build the platform failed" in again.content.decode()  # queued already: nothing to retry
    page = client.get("/contests/chomp/console/").content.decode()
    assert "Nothing: no failed match" in page
    actions = page.split('class="list judges-actions"')[1].split("</table>")[0]
    assert "match.rerun" in actions and "submission.rebuild" in actions and "judge" in actions
    assert JudgeAction.objects.count() == 2

    other = make_contest(slug="other")
    foreign = make_match(other, [], status=Match.Status.FAILED)
    assert (
        client.post("/contests/chomp/console/act/", {"action": "rerun_match", "match": foreign.pk}).status_code == 404
    )


def test_the_console_says_when_no_worker_serves_the_queue_its_games_need(client, judge):
    race = make_contest(slug="wheels", game="wheels")
    name_to(race, judge)
    now = timezone.now()
    WorkerHeartbeat.objects.create(hostname="w@a", queues=["builds", "matches", "default"], concurrency=2,
                                   started_at=now, last_seen=now, sandbox_level="full")  # fmt: skip
    client.force_login(judge)
    page = client.get(f"/contests/{race.slug}/console/").content.decode()
    assert "No worker alive serves the <code>races</code> queue" in page and "<code>builds</code> queue" not in page
    name_to(make_contest(slug="chomp2", game="chomp"), judge)
    assert "No worker alive serves" not in client.get("/contests/chomp2/console/").content.decode()
    WorkerHeartbeat.objects.filter(hostname="w@a").update(sandbox_level="none")  # it takes no match
    assert "<code>matches</code> queue" in client.get("/contests/chomp2/console/").content.decode()


def test_the_console_says_a_full_disk_not_that_no_worker_serves_the_queue(client, judge, contest):
    """Issue 36: during a full disk the console said "no worker serves builds", sending a judge
    to start one. It says the workers' disks are full, and which."""
    now = timezone.now()
    WorkerHeartbeat.objects.create(hostname="w@a", queues=["builds", "matches", "default"], concurrency=2,
                                   started_at=now, last_seen=now, sandbox_level="full",
                                   low_disk="the media disk (/srv/media) has 3 MB free, below 200 MB")  # fmt: skip
    client.force_login(judge)
    page = client.get(f"/contests/{contest.slug}/console/").content.decode()
    assert "No worker alive serves" not in page
    assert "Every worker that serves the <code>builds</code> queue has a full disk" in page
    assert "<code>matches</code> queue has a full disk" in page and "w@a: the media disk (/srv/media)" in page


def test_the_console_says_what_is_down_while_the_database_is_away(client, judge, contest, settings):
    """Issue 36: with the database down the console was a bare 500. It answers 503, says the
    database is away and how the broker and this host's disks are, and looks again by itself."""
    from django.db import OperationalError, connection

    def away(execute, sql, params, many, context):
        raise OperationalError('connection to server at "db" (10.0.0.5), port 5432 failed: Connection refused')

    settings.DISK_MIN_FREE_MB = 0  # this host's disks, whatever the machine running the test has
    client.force_login(judge)
    with connection.execute_wrapper(away):
        answer = client.get(f"/contests/{contest.slug}/console/")
    page = answer.content.decode()
    assert answer.status_code == 503 and answer["Retry-After"] == "10"
    assert "The database is away" in page and "Connection refused" in page
    assert "The broker: answering" in page and "room enough" in page


def test_the_judges_log_csv_holds_json_data_and_no_formula(client, judge, contest):
    """Its data column was a Python repr ({'entry': 3, 'ok': True}); a contestant's words
    starting with '=' became a spreadsheet formula on a judge's machine."""
    import csv
    import io
    import json

    from contests.services import log_action

    log_action(
        judge, contest.pk, "entry.disqualify", '=HYPERLINK("http://evil")', "-copied", entry=3, ok=True, why=None
    )
    client.force_login(judge)
    text = client.get(f"/contests/{contest.slug}/judges-log/?format=csv").content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["when (UTC)", "judge", "action", "target", "reason", "data"]
    row = next(r for r in rows if r[2] == "entry.disqualify")
    assert row[3] == '\'=HYPERLINK("http://evil")' and row[4] == "'-copied"
    assert json.loads(row[5]) == {"entry": 3, "ok": True, "why": None}
