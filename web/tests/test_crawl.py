"""Every page of the demo walked as an anonymous visitor, a contestant, another contestant, a
judge, an organiser and an administrator: no page answers 500, no link is broken, and what is
private stays so (another contestant's source, build log, stderr and test games)."""

import json
import re
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from contests.models import Contest, Submission
from contests.tests.factories import make_entry, make_match, make_submission
from judging.schedule.testgames import create_test_game

pytestmark = pytest.mark.django_db

SAMPLES = Path(__file__).resolve().parents[2] / "games" / "tests" / "samples"
HREF = re.compile(r'(?:href|action)="([^"#]*)(?:#[^"]*)?"')
SKIP = re.compile(r"^/(static|media)/|/logout/|\?download=1|\.zip$|/api/events/$")
LIMIT = 400


@pytest.fixture
def world(queued):
    return make_world()


def make_world() -> dict:
    """The demo, with a chomp match between alice's and bob's entries whose replay holds
    alice's stderr, and a test game of alice's: what the crawl (and the accessibility walk,
    test_accessibility_browser.py) walks."""
    call_command("load_demo", verbosity=0)
    chomp = Contest.objects.get(slug="chomp")
    alice, bob = User.objects.get(username="alice"), User.objects.get(username="bob")
    secret = b"int main(void){ /* alice's secret strategy */ return 0; }\n"
    mine = make_submission(make_entry(chomp, alice, name="Alice's"), source=secret, filename="main.c", language="c",
                           status=Submission.Status.READY, is_active=True, build_log="ALICE BUILD LOG")  # fmt: skip
    theirs = make_submission(make_entry(chomp, bob, name="Bob's"), status=Submission.Status.READY, is_active=True)
    replay = json.loads((SAMPLES / "chomp.json").read_text())
    replay["moves"][0]["stderr"] = "ALICE STDERR"
    played = make_match(chomp, [mine, theirs], stage=chomp.stages.get(kind="ladder"), status="finished",
                        params=replay["params"])  # fmt: skip
    played.save_replay(replay)
    reference = chomp.entries.filter(is_reference=True).first()
    Submission.objects.filter(entry=reference).update(status=Submission.Status.READY, is_active=True)
    test_game = create_test_game(mine)
    return {"mine": mine, "played": played, "test_game": test_game}


TITLE = re.compile(r"<title>([^<]*)</title>")


def crawl(client, titles: dict[str, str] | None = None, pages: dict[str, str] | None = None) -> dict[str, int]:
    """Every page reachable from the home page by its links and forms, with the status each
    answered; ``titles`` is given each HTML page's title, ``pages`` each HTML page."""
    seen: dict[str, int] = {}
    todo = ["/"]
    while todo and len(seen) < LIMIT:
        path = todo.pop(0)
        if path in seen:
            continue
        response = client.get(path)
        seen[path] = response.status_code
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        if pages is not None:
            pages[path] = response.content.decode()
        if titles is not None:
            found = TITLE.search(response.content.decode())
            titles[path] = found.group(1).strip() if found else ""
        for link in HREF.findall(response.content.decode()):
            url = urlsplit(urljoin(path, link))
            if (
                url.netloc
                or not url.path.startswith("/")
                or SKIP.search(url.path + ("?" + url.query if url.query else ""))
            ):
                continue
            target = url.path + ("?" + url.query if url.query else "")
            if target not in seen and target not in todo and not target.startswith("/admin/"):
                todo.append(target)
    return seen


@pytest.mark.parametrize("who", [None, "alice", "bob", "judge", "organiser", "admin"])
def test_every_page_answers_and_no_link_is_broken(world, client, who):
    if who:
        client.force_login(User.objects.get(username=who))
    titles: dict[str, str] = {}
    seen = crawl(client, titles)
    assert len(seen) > 30, sorted(seen)
    # every page's title ends with the site's name (the API's documentation is drf-spectacular's
    # page, titled after the API: "Arbiter API")
    untitled = {p: t for p, t in titles.items() if not t.endswith("Arbiter") and not p.startswith("/api/")}
    assert not untitled, untitled
    errors = {path: code for path, code in seen.items() if code >= 500}
    assert not errors, errors
    broken = {path: code for path, code in seen.items() if code == 404}
    assert not broken, broken
    # forms a visitor may not use are offered only to those who may: a link or form that
    # answers 403 to its own viewer is a bug in the page
    refused = {path: code for path, code in seen.items() if code == 403}
    assert not refused, refused


@pytest.mark.parametrize(
    ("who", "sees"),
    [(None, False), ("bob", False), ("alice", True), ("judge", True), ("admin", True)],
)
def test_what_is_alices_stays_hers_and_the_judges(world, client, who, sees):
    if who:
        client.force_login(User.objects.get(username=who))
    mine, played, test_game = world["mine"], world["played"], world["test_game"]
    source = client.get(f"/submissions/{mine.pk}/source/")
    page = client.get(f"/submissions/{mine.pk}/")
    replay = client.get(f"/matches/{played.pk}/replay.json").json()
    private_game = client.get(f"/matches/{test_game.pk}/")
    listed = f"/matches/{test_game.pk}/" in client.get("/contests/chomp/matches/").content.decode()
    assert (b"secret strategy" in source.content) is sees, source.status_code
    assert (b"ALICE BUILD LOG" in page.content) is sees
    assert ("ALICE STDERR" in json.dumps(replay)) is sees
    assert (private_game.status_code == 200) is sees and listed is sees
    if not sees:
        assert source.status_code in (302, 403) and page.status_code in (302, 403)
