import pytest
from django.contrib.auth.models import User
from django.core import serializers
from django.core.management import call_command

from contests import roles
from contests.models import Contest, Stage

pytestmark = pytest.mark.django_db


def _snapshot() -> str:
    rows = [*User.objects.order_by("pk"), *Contest.objects.order_by("pk"), *Stage.objects.order_by("pk")]
    return serializers.serialize("json", rows)


def test_load_demo_creates_the_five_contests_and_the_logins(client):
    call_command("load_demo", verbosity=0)
    assert set(Contest.objects.values_list("game", flat=True)) == {
        "chomp",
        "hearts_flowers",
        "sudoku",
        "wheels",
        "crossed_words",
    }
    assert Contest.objects.get(slug="chomp").game_params == {"rows": 7, "cols": 9}  # not square
    assert Contest.objects.get(slug="hearts-and-flowers").game_params == {"n": 5}
    assert Contest.objects.get(slug="codecup-sudoku").clock["time_limit"] == 30
    for username, password in [
        ("admin", "arbiter-admin"),
        ("judge", "arbiter-judge"),
        ("organiser", "arbiter-organiser"),
        ("alice", "arbiter-alice"),
    ]:
        logged_in = client.post("/accounts/login/", {"username": username, "password": password})
        assert logged_in.status_code == 302, username  # through the page: log-ins are throttled
    judge, organiser = User.objects.get(username="judge"), User.objects.get(username="organiser")
    for contest in Contest.objects.all():  # the demo's organiser owns each demo contest; its judge judges each
        assert roles.role_of(organiser, contest) == "owner" and roles.role_of(judge, contest) == "judge"
    assert not judge.groups.exists() and not judge.is_staff  # a judge of these contests, of no other
    assert [g.name for g in organiser.groups.all()] == ["Organisers"] and not organiser.is_staff
    assert client.get("/organise/").status_code == 403  # alice, the last to log in
    client.force_login(organiser)
    assert client.get("/organise/").status_code == 200
    assert User.objects.get(username="admin").is_superuser


def test_load_demo_a_second_time_changes_nothing(capsys):
    call_command("load_demo")
    before = _snapshot()
    capsys.readouterr()
    call_command("load_demo")
    assert _snapshot() == before
    assert "nothing changed" in capsys.readouterr().out


def test_load_demo_leaves_a_judges_edit_alone():
    call_command("load_demo", verbosity=0)
    Contest.objects.filter(slug="chomp").update(title="Chomp, edited")
    call_command("load_demo", verbosity=0)
    assert Contest.objects.get(slug="chomp").title == "Chomp, edited"


def test_play_demo_goes_on_when_a_build_or_a_game_fails(monkeypatch, queued):
    """Without a compiler the demo's builds fail: make run must still start the site."""
    from contests.models import Submission
    from judging.models import Match
    from web.demo.load import PLAYED_HERE, load_demo, play_demo

    load_demo()

    def no_compiler(pk):
        raise RuntimeError("no C compiler")

    monkeypatch.setattr("judging.play.builds.build_submission", no_compiler)
    assert play_demo() == []  # nothing built, nothing played, no exception
    Submission.objects.filter(entry__is_reference=True).update(status="ready", is_active=True)
    monkeypatch.setattr("judging.play.matches.play_now", no_compiler)
    said = []
    lines = play_demo(say=said.append)
    assert lines and all(line.endswith(": 0 games") for line in lines)
    assert Match.objects.filter(status="queued").exists()  # left for the worker
    # Each step told as it happens (make run was silent for three minutes), what was done among them.
    assert set(lines) <= set(said) and any(line.startswith("playing ") for line in said)
    assert any(line.strip().endswith(f"2 of {PLAYED_HERE}") for line in said), said


def test_load_demo_queues_the_builds_of_the_reference_programs_for_the_workers(queued, capsys):
    """What docker/compose.yml runs: without --play the workers build them, or no system test
    would have an opponent."""
    from contests.models import Submission

    call_command("load_demo")
    references = Submission.objects.filter(entry__is_reference=True)
    assert references.count() >= 5
    assert sorted(queued) == sorted(("build_submission", pk) for pk in references.values_list("pk", flat=True))
    assert "queued the build of" in capsys.readouterr().out
    queued.clear()
    call_command("load_demo", verbosity=0)
    assert queued == []  # a second run queues nothing more


def test_load_demo_play_builds_the_reference_programs_here(monkeypatch, queued):
    from contests.models import Submission

    built = []
    monkeypatch.setattr("judging.play.builds.build_submission", built.append)
    call_command("load_demo", "--play", verbosity=0)
    assert queued == []  # not for a worker: built in this process
    assert sorted(built) == sorted(Submission.objects.filter(entry__is_reference=True).values_list("pk", flat=True))


def test_load_demo_background_leaves_the_builds_and_first_games_to_one_task_of_a_worker(monkeypatch, queued, capsys):
    """What `make run` runs: the site starts at once, and a worker builds and plays the demo
    while it is up. A play cut short (Ctrl-C) is queued again at the next start; a done one is not."""
    from contests.models import Submission

    sent = []
    monkeypatch.setattr("web.tasks.play_demo_task.apply_async", lambda *a, **k: sent.append("play_demo"))
    call_command("load_demo", "--background")
    assert queued == []  # no build for the workers: the task builds them, then plays
    assert sent == ["play_demo"]
    assert "queued the demo's builds and first games for the worker" in capsys.readouterr().out
    call_command("load_demo", "--background")
    assert sent == ["play_demo"] * 2  # nothing built yet
    Submission.objects.filter(entry__is_reference=True).update(status="ready", is_active=True)
    Stage.objects.filter(kind__in=["batch", "qualification", "race"]).update(status="finished")
    call_command("load_demo", "--background")
    assert sent == ["play_demo"] * 2
    assert "nothing changed" in capsys.readouterr().out


def test_play_demo_says_each_build_as_it_is_done_counted(monkeypatch, queued):
    from web.demo.load import load_demo, play_demo

    load_demo(queue_builds=False)
    said = []
    monkeypatch.setattr("judging.play.builds.build_submission", lambda pk: None)
    monkeypatch.setattr("judging.play.matches.play_now", lambda pk: None)
    lines = play_demo(say=said.append)
    assert said == lines
    builds = [line for line in said if line.startswith("built ")]
    assert builds and all(line.endswith(f" of {len(builds)})") for line in builds)
    assert builds[0].endswith(f"(1 of {len(builds)})")


def test_the_demo_task_stops_quietly_when_its_worker_is_stopped(monkeypatch, caplog):
    from sandbox.errors import Interrupted
    from web import tasks

    def stopped(say):
        say("built Random (C) for chomp (1 of 13)")
        raise Interrupted("asked to stop")

    monkeypatch.setattr(tasks, "play_demo", stopped)
    with caplog.at_level("INFO", logger="web.tasks"):
        tasks.play_demo_task()
    assert [r.getMessage() for r in caplog.records] == [
        "demo: built Random (C) for chomp (1 of 13)",
        "demo: stopped halfway; the next make run goes on from here",
    ]
