"""Each contest has its own people (contests.roles): its owner names co-organisers and judges;
an organiser changes only the contests they own or co-organise, a judge judges only the
contests they were named to, and everyone else is refused by the pages, the API and the
console alike (404 where the contest is hidden from them)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from contests import roles
from contests.models import Contest, ContestRole, JudgeAction, Stage
from contests.services import ensure_organisers_group
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
from judging.models import Notification

pytestmark = pytest.mark.django_db


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)  # a session: the user is read afresh for each request, as in use
    return client


def organiser(username: str):
    user = make_user(username=username)
    user.groups.add(ensure_organisers_group())
    return user


@pytest.fixture
def two_organisers(queued):
    """Olga opened "chomp-open" through the API; Oscar, another of the site's organisers, opened
    "his-own"."""
    olga, oscar = organiser("olga"), organiser("oscar")
    fields = {"game": "chomp", "game_params": {"rows": 4}, "opens_at": "2030-01-01T00:00:00Z"}
    assert (
        api(olga)
        .post("/api/contests/", {"title": "Chomp Open", "slug": "chomp-open", **fields}, format="json")
        .status_code
        == 201
    )
    assert (
        api(oscar).post("/api/contests/", {"title": "His own", "slug": "his-own", **fields}, format="json").status_code
        == 201
    )
    return olga, oscar


def test_a_second_organiser_changes_nothing_of_anyone_elses_contest(two_organisers):
    olga, oscar = two_organisers
    contest = Contest.objects.get(slug="chomp-open")
    assert roles.owner_of(contest) == olga and roles.owner_of(Contest.objects.get(slug="his-own")) == oscar
    before = {name: getattr(contest, name) for name in ("title", "is_public", "closes_at", "rules", "clock")}
    for change in (
        {"title": "Mine now"},
        {"is_public": False},
        {"closes_at": "2030-01-02T00:00:00Z"},
        {"rules": "No rules."},
        {"max_submissions_per_day": 0},
        {"clock": {"wall_per_move_s": 0.01}},
    ):
        refused = api(oscar).patch("/api/contests/chomp-open/", change, format="json")
        assert refused.status_code == 403, change
        assert refused.json()["error"]["message"] == "Only the owner and co-organisers of Chomp Open may do this."
    stage = api(oscar).post("/api/contests/chomp-open/stages/", {"kind": "round_robin", "name": "Mine"}, format="json")
    assert stage.status_code == 403 and not Stage.objects.filter(contest=contest).exists()
    page = Client()
    page.force_login(oscar)
    assert page.get("/organise/contests/chomp-open/").status_code == 403
    assert page.post("/organise/contests/chomp-open/", {"title": "Mine now"}).status_code == 403
    assert page.get("/contests/chomp-open/console/").status_code == 403
    assert page.get("/contests/chomp-open/judges-log/").status_code == 403
    listed = page.get("/organise/").content.decode()
    assert "His own" in listed and "Chomp Open" not in listed  # his contests, not everyone's
    contest.refresh_from_db()
    assert before == {name: getattr(contest, name) for name in before}
    assert not JudgeAction.objects.filter(contest=contest).exclude(action="contest.create").exists()
    # Hidden, it is a 404 to him: he cannot tell it from a contest that does not exist.
    assert api(olga).patch("/api/contests/chomp-open/", {"is_public": False}, format="json").status_code == 200
    assert api(oscar).patch("/api/contests/chomp-open/", {"title": "x"}, format="json").status_code == 404
    assert api(oscar).get("/api/contests/chomp-open/").status_code == 404
    assert page.get("/organise/contests/chomp-open/").status_code == 404


def test_the_owner_names_a_judge_who_freezes_that_contest_and_no_other(two_organisers):
    olga, oscar = two_organisers
    jules = make_user(username="jules")
    assert api(jules).post("/api/contests/chomp-open/freeze/").status_code == 403
    named = api(olga).post("/api/contests/chomp-open/roles/", {"user": "jules", "role": "judge", "reason": "help"})
    assert named.status_code == 201, named.json()
    assert [(p["user"], p["role"]) for p in named.json()] == [("olga", "owner"), ("jules", "judge")]
    assert api(jules).post("/api/contests/chomp-open/freeze/").status_code == 200
    assert api(jules).post("/api/contests/his-own/freeze/").status_code == 403
    assert api(jules).patch("/api/contests/chomp-open/", {"title": "x"}, format="json").status_code == 403
    assert api(jules).get("/api/me/").json()["roles"] == [{"contest": "chomp-open", "role": "judge"}]
    grant = JudgeAction.objects.get(action="role.grant")
    assert (grant.judge, grant.target, grant.reason, grant.data) == (
        olga,
        "judge jules",
        "help",
        {"user": "jules", "role": "judge"},
    )
    told = Notification.objects.get(user=jules)
    assert told.kind == "organising" and "olga named you a judge of Chomp Open" in told.body
    # Taken away: refused again, logged, told.
    assert api(olga).delete("/api/contests/chomp-open/roles/jules/?reason=done").status_code == 200
    assert api(jules).post("/api/contests/chomp-open/publish/").status_code == 403
    revoke = JudgeAction.objects.get(action="role.revoke")
    assert (revoke.judge, revoke.target, revoke.reason) == (olga, "judge jules", "done")
    assert Notification.objects.filter(user=jules).count() == 2


def test_only_the_owner_names_and_what_cannot_be_named_is_refused_in_words(two_organisers):
    olga, oscar = two_organisers
    contest = Contest.objects.get(slug="chomp-open")
    co, judge, contestant = make_user(username="cora"), make_user(username="jo"), make_user(username="carl")
    make_entry(contest, contestant)
    roles.grant(olga, contest, "cora", "organiser")
    roles.grant(olga, contest, "jo", "judge")
    url = "/api/contests/chomp-open/roles/"
    for who, code in ((co, 403), (judge, 403), (contestant, 403), (oscar, 403)):
        assert api(who).post(url, {"user": "carl", "role": "judge"}).status_code == code
        assert api(who).delete(f"{url}jo/").status_code == code
    assert api().get(url).status_code == 401
    for who, code in ((co, 200), (judge, 200), (contestant, 403), (oscar, 403)):
        assert api(who).get(url).status_code == code  # its own people read who they are
    cases = [
        ({"user": "nobody", "role": "judge"}, 404, "There is no user called 'nobody'."),
        ({"user": "carl", "role": "owner"}, 400, None),
        ({"user": "carl", "role": "emperor"}, 400, None),
        ({"user": "olga", "role": "judge"}, 400, "olga owns Chomp Open; the owner keeps every right."),
        ({"role": "judge"}, 400, None),
    ]
    for body, code, message in cases:
        answer = api(olga).post(url, body, format="json")
        assert answer.status_code == code, (body, answer.json())
        if message:
            assert answer.json()["error"]["message"] == message
    assert api(olga).delete(f"{url}olga/").status_code == 400  # the owner's rights stay
    assert api(olga).delete(f"{url}carl/").status_code == 404  # no role to take
    # Named again, a judge becomes a co-organiser (one role a person), logged from and to.
    assert api(olga).post(url, {"user": "jo", "role": "organiser"}).status_code == 201
    assert ContestRole.objects.get(contest=contest, user=judge).role == "organiser"
    assert JudgeAction.objects.filter(action="role.grant").first().data == {
        "user": "jo",
        "role": "organiser",
        "was": "judge",
    }
    # An administrator names people on any contest.
    admin = make_user(username="root", is_superuser=True)
    assert api(admin).post(url, {"user": "carl", "role": "judge"}).status_code == 201
    assert api(admin).delete(f"{url}carl/").status_code == 200


def test_a_co_organisers_change_is_told_to_the_owner_and_the_owners_own_is_not(two_organisers):
    olga, oscar = two_organisers
    contest = Contest.objects.get(slug="chomp-open")
    roles.grant(olga, contest, "oscar", "organiser")
    Notification.objects.all().delete()
    assert (
        api(oscar).patch("/api/contests/chomp-open/", {"title": "Chomp Open 2031", "reason": "a year on"}).status_code
        == 200
    )
    told = Notification.objects.get(user=olga)
    assert told.kind == "organising" and told.subject == "Chomp Open 2031: oscar changed title"
    assert told.body == "oscar changed title of Chomp Open 2031. Their reason: a year on"
    assert api(olga).patch("/api/contests/chomp-open/", {"title": "Chomp Open"}).status_code == 200
    assert Notification.objects.filter(user=olga).count() == 1
    # a co-organiser sees it among theirs and judges it
    page = Client()
    page.force_login(oscar)
    assert "Chomp Open" in page.get("/organise/").content.decode()
    assert page.get("/contests/chomp-open/console/").status_code == 200
    assert "Name them" not in page.get("/organise/contests/chomp-open/").content.decode()  # the owner's to do


def test_the_owner_names_people_on_the_organise_page(client, two_organisers):
    olga, _ = two_organisers
    make_user(username="jules")
    client.force_login(olga)
    page = client.get("/organise/contests/chomp-open/").content.decode()
    assert 'id="people"' in page and "Name them" in page and "olga" in page
    done = client.post("/organise/contests/chomp-open/roles/", {"user": "jules", "role": "judge"}, follow=True)
    assert "jules is a judge of Chomp Open; they have been told." in done.content.decode()
    refused = client.post("/organise/contests/chomp-open/roles/", {"user": "nobody", "role": "judge"}, follow=True)
    assert "There is no user called &#x27;nobody&#x27;." in refused.content.decode()
    removed = client.post("/organise/contests/chomp-open/roles/", {"remove": "jules"}, follow=True)
    assert "jules is no longer a judge of Chomp Open." in removed.content.decode()
    assert list(ContestRole.objects.values_list("user__username", "role")) == [("olga", "owner"), ("oscar", "owner")]


# --- The matrix: every person × every console, page and API action ---------------------------------


@dataclass
class World:
    contest: Contest
    stage: Stage
    match_id: int
    entry_id: int
    submission_id: int
    people: dict


PEOPLE = [
    "owner",
    "co-organiser",
    "judge",
    "judge elsewhere",
    "organiser elsewhere",
    "contestant",
    "anonymous",
    "admin",
]
POWERS = {
    "owner": set(roles.Power),
    "co-organiser": {roles.Power.VIEW, roles.Power.JUDGE, roles.Power.ORGANISE},
    "judge": {roles.Power.VIEW, roles.Power.JUDGE},
    "admin": set(roles.Power),
}


@pytest.fixture
def world(queued) -> World:
    """Made once for all of a test's examples (hypothesis runs them in the test's transaction)."""
    contest = make_contest(slug="matrix", title="Matrix", game="chomp", game_params={"rows": 3, "cols": 3})
    elsewhere = make_contest(slug="elsewhere")
    stage = make_stage(contest, kind="round_robin", status=Stage.Status.RUNNING)
    alice = make_user(username="alice")
    mine = make_submission(make_entry(contest, alice, name="Alice"), is_active=True, status="ready")
    theirs = make_submission(make_entry(contest, name="Bea"), is_active=True, status="ready")
    match = finish_on_paper(make_match(contest, [mine, theirs], stage=stage), [(1, 1, "win"), (0, 0, "loss")])
    people = {
        "owner": name_to(contest, make_user(username="owner"), role="owner"),
        "co-organiser": name_to(contest, make_user(username="co"), role="organiser"),
        "judge": name_to(contest, make_user(username="judge"), role="judge"),
        "judge elsewhere": name_to(elsewhere, make_user(username="judge2"), role="judge"),
        "organiser elsewhere": name_to(elsewhere, organiser("org2"), role="owner"),
        "contestant": make_entry(contest, make_user(username="carl"), name="Carl").user,
        "anonymous": None,
        "admin": make_user(username="root", is_superuser=True),
    }
    people["zed"] = make_user(username="zed")  # whom the owners name and remove
    return World(contest, stage, match.pk, mine.entry_id, mine.pk, people)


# (name, power needed, how it is asked): every judge's and organiser's action of the console,
# the pages and the API, on the contest, its stage, its match, its entry and its submission.
ACTIONS = [
    ("console", roles.Power.JUDGE, lambda c, w: c.get(f"/contests/{w.contest.slug}/console/")),
    ("console: freeze", roles.Power.JUDGE, lambda c, w: c.post(f"/contests/{w.contest.slug}/console/act/", {"action": "freeze"})),
    ("console: rerun a match", roles.Power.JUDGE,
     lambda c, w: c.post(f"/contests/{w.contest.slug}/console/act/", {"action": "rerun_match", "match": w.match_id})),
    ("console: disqualify", roles.Power.JUDGE,
     lambda c, w: c.post(f"/contests/{w.contest.slug}/console/act/", {"action": "disqualify", "entry": w.entry_id, "reason": "x"})),
    ("add-stage page", roles.Power.JUDGE, lambda c, w: c.get(f"/contests/{w.contest.slug}/console/stages/new/")),
    ("judges' log", roles.Power.JUDGE, lambda c, w: c.get(f"/contests/{w.contest.slug}/judges-log/")),
    ("verification", roles.Power.JUDGE, lambda c, w: c.get(f"/contests/{w.contest.slug}/verification/")),
    ("match page: rerun", roles.Power.JUDGE, lambda c, w: c.post(f"/matches/{w.match_id}/rerun/")),
    ("source", roles.Power.JUDGE, lambda c, w: c.get(f"/submissions/{w.submission_id}/source/")),
    ("api: freeze", roles.Power.JUDGE, lambda c, w: c.post(f"/api/contests/{w.contest.slug}/freeze/")),
    ("api: publish", roles.Power.JUDGE, lambda c, w: c.post(f"/api/contests/{w.contest.slug}/publish/")),
    ("api: add a stage", roles.Power.JUDGE,
     lambda c, w: c.post(f"/api/contests/{w.contest.slug}/stages/", {"kind": "round_robin", "name": "S"}, format="json")),
    ("api: run the stage", roles.Power.JUDGE, lambda c, w: c.post(f"/api/stages/{w.stage.pk}/run/")),
    ("api: rerun the stage", roles.Power.JUDGE, lambda c, w: c.post(f"/api/stages/{w.stage.pk}/rerun/")),
    ("api: rerun a match", roles.Power.JUDGE, lambda c, w: c.post(f"/api/matches/{w.match_id}/rerun/")),
    ("api: cancel a match", roles.Power.JUDGE, lambda c, w: c.post(f"/api/matches/{w.match_id}/cancel/")),
    ("api: attempts", roles.Power.JUDGE, lambda c, w: c.get(f"/api/matches/{w.match_id}/attempts/")),
    ("api: verify", roles.Power.JUDGE,
     lambda c, w: c.post(f"/api/matches/{w.match_id}/verify/", {"decision": "accepted"}, format="json")),
    ("api: disqualify", roles.Power.JUDGE,
     lambda c, w: c.post(f"/api/entries/{w.entry_id}/disqualify/", {"reason": "x"}, format="json")),
    ("api: reinstate", roles.Power.JUDGE, lambda c, w: c.post(f"/api/entries/{w.entry_id}/reinstate/")),
    ("api: rebuild", roles.Power.JUDGE, lambda c, w: c.post(f"/api/submissions/{w.submission_id}/rebuild/")),
    ("api: source", roles.Power.JUDGE, lambda c, w: c.get(f"/api/submissions/{w.submission_id}/")),
    ("api: people", roles.Power.JUDGE, lambda c, w: c.get(f"/api/contests/{w.contest.slug}/roles/")),
    ("api: edit", roles.Power.ORGANISE,
     lambda c, w: c.patch(f"/api/contests/{w.contest.slug}/", {"summary": "changed"}, format="json")),
    ("organise page", roles.Power.ORGANISE, lambda c, w: c.get(f"/organise/contests/{w.contest.slug}/")),
    ("api: name", roles.Power.NAME,
     lambda c, w: c.post(f"/api/contests/{w.contest.slug}/roles/", {"user": "zed", "role": "judge"}, format="json")),
    ("api: remove", roles.Power.NAME, lambda c, w: _named_zed(w) and c.delete(f"/api/contests/{w.contest.slug}/roles/zed/")),
    ("page: name", roles.Power.NAME,
     lambda c, w: c.post(f"/organise/contests/{w.contest.slug}/roles/", {"user": "zed", "role": "judge"})),
    ("api: read", roles.Power.VIEW, lambda c, w: c.get(f"/api/contests/{w.contest.slug}/")),
    ("page: read", roles.Power.VIEW, lambda c, w: c.get(f"/contests/{w.contest.slug}/")),
]  # fmt: skip


def _named_zed(world: World) -> bool:
    """Zed has a role to take away, whatever the examples before did."""
    ContestRole.objects.get_or_create(contest=world.contest, user=world.people["zed"], defaults={"role": "judge"})
    return True


def _refused(response) -> bool:
    to_login = response.status_code == 302 and "/accounts/login/" in response.get("Location", "")
    return to_login or response.status_code in (401, 403, 404)


@pytest.mark.slow
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_every_person_may_do_what_their_role_gives_and_nothing_else(world, data):
    """Each example: a person, an action, the contest public or hidden; whatever happened
    before (the actions change the state: a freeze, a rerun, a naming), the action is done
    exactly when the person's role on this contest has its power, never answers 500, and a
    refusal writes nothing in the judges' log. The contestant's own source is not among
    them (it is another contestant's: Alice's)."""
    person = data.draw(st.sampled_from(PEOPLE), label="person")
    name, power, ask = data.draw(st.sampled_from(ACTIONS), label="action")
    hidden = data.draw(st.booleans(), label="hidden")
    Contest.objects.filter(pk=world.contest.pk).update(is_public=not hidden)
    user = world.people[person]
    client = api(user)
    logged = JudgeAction.objects.count()
    response = ask(client, world)
    assert response.status_code < 500, (person, name, response.status_code)
    allowed = power in POWERS.get(person, set()) or (power == roles.Power.VIEW and not hidden)
    if allowed:
        assert not _refused(response), (person, name, hidden, response.status_code)
    else:
        assert _refused(response), (person, name, hidden, response.status_code)
        assert JudgeAction.objects.count() == logged, (person, name)
        if user is not None and hidden and roles.Power.VIEW not in POWERS.get(person, set()):
            assert response.status_code == 404, (person, name)  # a hidden contest is no one else's business
        elif user is not None:
            assert response.status_code == 403, (person, name)


# --- Sequences: naming, removing, editing, hiding and acting, in any order ---------------------------

from itertools import count  # noqa: E402

from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test  # noqa: E402

_n = count(1)
# The actions on the contest itself (its stages, matches and entries are the matrix's to ask).
ON_THE_CONTEST = {
    "console", "console: freeze", "add-stage page", "judges' log", "verification", "api: freeze", "api: publish",
    "api: add a stage", "api: people", "organise page", "api: read", "page: read",
}  # fmt: skip
PEOPLE_NAMED = ["p1", "p2", "p3"]
ACTORS = ["owner", "admin", "p1", "p2", "p3", "stranger"]


class PeopleOfAContest(RuleBasedStateMachine):
    """The owner (or an administrator) names and removes people while they, a stranger and the
    owner act on the contest, its settings change and it is hidden or shown: after every step
    each person's rights are their current role's, the contest's people are the ones named, and
    the judges' log and the notifications hold one line for each change, no more."""

    @initialize()
    def contest(self):
        n = next(_n)
        self.slug = f"people-{n}"
        self.users = {name: make_user(username=f"{name}-{n}") for name in [*PEOPLE_NAMED, "stranger"]}
        self.users["owner"] = organiser(f"owner-{n}")
        self.users["admin"] = make_user(username=f"admin-{n}", is_superuser=True)
        fields = {"title": f"People {n}", "slug": self.slug, "game": "chomp", "game_params": {"rows": 4}}
        assert api(self.users["owner"]).post("/api/contests/", fields, format="json").status_code == 201
        self.contest = Contest.objects.get(slug=self.slug)
        self.model: dict[str, str] = {}  # person -> role
        self.changes: dict[str, int] = {name: 0 for name in PEOPLE_NAMED}
        self.logged = 0
        self.hidden = False

    def _powers(self, actor: str) -> set:
        if actor in ("owner", "admin"):
            return set(roles.Power)
        return POWERS.get({"organiser": "co-organiser"}.get(self.model.get(actor), self.model.get(actor, "")), set())

    def _check_refusal(self, actor: str, response) -> None:
        assert _refused(response), (actor, response.status_code)
        sees = roles.Power.VIEW in self._powers(actor) or not self.hidden
        assert response.status_code == (403 if sees else 404), (actor, self.hidden, response.status_code)

    @rule(
        actor=st.sampled_from(ACTORS),
        person=st.sampled_from(PEOPLE_NAMED),
        role=st.sampled_from(["judge", "organiser"]),
    )
    def name(self, actor, person, role):
        username = self.users[person].username
        response = api(self.users[actor]).post(
            f"/api/contests/{self.slug}/roles/", {"user": username, "role": role}, format="json"
        )
        if roles.Power.NAME not in self._powers(actor):
            self._check_refusal(actor, response)
            return
        assert response.status_code == 201, response.json()
        if self.model.get(person) != role:
            self.model[person] = role
            self.changes[person] += 1
            self.logged += 1

    @rule(actor=st.sampled_from(ACTORS), person=st.sampled_from(PEOPLE_NAMED))
    def remove(self, actor, person):
        response = api(self.users[actor]).delete(f"/api/contests/{self.slug}/roles/{self.users[person].username}/")
        if roles.Power.NAME not in self._powers(actor):
            self._check_refusal(actor, response)
        elif person not in self.model:
            assert response.status_code == 404
        else:
            assert response.status_code == 200
            del self.model[person]
            self.changes[person] += 1
            self.logged += 1

    @rule(actor=st.sampled_from(ACTORS), hide=st.booleans())
    def edit(self, actor, hide):
        response = api(self.users[actor]).patch(f"/api/contests/{self.slug}/", {"is_public": not hide}, format="json")
        if roles.Power.ORGANISE not in self._powers(actor):
            self._check_refusal(actor, response)
            return
        assert response.status_code == 200, response.json()
        if hide != self.hidden:
            self.logged += 1  # contest.edit
        self.hidden = hide

    @rule(actor=st.sampled_from(ACTORS), action=st.sampled_from([a for a in ACTIONS if a[0] in ON_THE_CONTEST]))
    def act(self, actor, action):
        name, power, ask = action
        world = World(self.contest, None, 0, 0, 0, {})
        logged = JudgeAction.objects.filter(contest=self.contest).count()
        response = ask(api(self.users[actor]), world)
        assert response.status_code < 500
        if power in self._powers(actor) or (power == roles.Power.VIEW and not self.hidden):
            assert not _refused(response), (actor, name, response.status_code)
            self.logged = JudgeAction.objects.filter(contest=self.contest).count() - logged + self.logged
        else:
            self._check_refusal(actor, response)

    @invariant()
    def every_right_is_the_current_roles(self):
        if not hasattr(self, "model"):
            return
        from django.contrib.auth.models import User

        for person in PEOPLE_NAMED:
            fresh = User.objects.get(pk=self.users[person].pk)
            assert roles.role_of(fresh, self.contest) == self.model.get(person), person
        people = api(self.users["owner"]).get(f"/api/contests/{self.slug}/roles/").json()
        named = {p["user"]: p["role"] for p in people}
        assert named == {
            self.users["owner"].username: "owner",
            **{self.users[p].username: role for p, role in self.model.items()},
        }

    @invariant()
    def the_log_and_the_notifications_hold_each_change_once(self):
        if not hasattr(self, "model"):
            return
        log = JudgeAction.objects.filter(contest=self.contest).exclude(action="contest.create")
        assert log.count() == self.logged
        for person in PEOPLE_NAMED:
            told = Notification.objects.filter(user=self.users[person], kind="organising").count()
            assert told == self.changes[person], person


@pytest.mark.slow
def test_the_people_of_a_contest_hold_whatever_is_done_in_any_order(queued):
    run_state_machine_as_test(
        PeopleOfAContest,
        settings=settings(
            max_examples=10,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
        ),
    )
