"""Issue 34, item 5: everything an organiser sets has a site-wide bound (contests/bounds.py, the
BOUND_* settings), refused with a sentence naming it on the organisers' page, in the admin and
in the API alike. The attacks of the issue replayed as written: a clock of 1e9 s, 1e7 MB, 0.01 s."""

import dataclasses
import html
import json

import pytest
from django.test import override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from contests import bounds
from contests.models import Contest, JudgeAction, Stage
from contests.services import ensure_organisers_group
from contests.tests.factories import make_contest, make_entry, make_submission, make_user, name_to
from games import registry
from games.clocks import Clock
from judging.record import formats
from judging.record.formats import StageError
from judging.schedule import versus
from web.serializers import VersusRequestSerializer
from web.tests.test_organise import api, api_fields, page_fields

pytestmark = pytest.mark.django_db

MOVE = "this site's bound for a move's time limit is 0.1 to 600 s (BOUND_MOVE_SECONDS)"
MEMORY = "this site's bound for a program's memory is 16 to 16,384 MB (BOUND_MEMORY_MB)"
# The clocks, each with the sentence that refuses it.
ATTACKS = [
    ({"wall_per_move_s": 1e9}, "clock", f"wall_per_move_s is 1,000,000,000: {MOVE}"),
    ({"memory_mb": 1e7}, "clock", f"memory_mb is 10,000,000: {MEMORY}"),
    ({"wall_per_move_s": 0.01}, "clock", f"wall_per_move_s is 0.01: {MOVE}"),
    ({"time_limit": 1e9}, "clock", "time_limit is 1,000,000,000: this site's bound for a game's time limit is 0.1"),
    ({"seconds": 0.01}, "clock", "seconds is 0.01: this site's bound for a run's time limit is 1 to 86,400 s"),
    ({"cpu_per_move_s": float("inf")}, "clock", "cpu_per_move_s must be a positive number"),
    ({"cpu_total_s": 10**400}, "clock", "cpu_total_s is a number of 401 digits: this site's bound for a game's"),
]


@pytest.fixture
def organiser():
    user = make_user(username="olga")
    user.groups.add(ensure_organisers_group())
    return user


@pytest.fixture
def contest(organiser):
    made = api(organiser).post("/api/contests/", api_fields(), format="json")
    assert made.status_code == 201, made.json()
    JudgeAction.objects.all().delete()
    return Contest.objects.get(slug="chomp-open")


def _unchanged(contest: Contest) -> None:
    before = (contest.clock, contest.max_submissions_per_day, contest.max_entries_per_user)
    contest.refresh_from_db()
    assert (contest.clock, contest.max_submissions_per_day, contest.max_entries_per_user) == before
    assert not JudgeAction.objects.exists()


@pytest.mark.parametrize(("clock", "field", "message"), ATTACKS)
def test_the_api_refuses_an_absurd_clock_naming_the_bound(organiser, contest, clock, field, message):
    if clock == {"cpu_per_move_s": float("inf")}:
        body, kind = '{"clock": {"cpu_per_move_s": 1e999}}', "application/json"  # JSON's way to say infinity
        refused = api(organiser).generic("PATCH", "/api/contests/chomp-open/", body, content_type=kind)
    else:
        refused = api(organiser).patch("/api/contests/chomp-open/", {"clock": clock}, format="json")
    assert refused.status_code == 400, refused.json()
    error = refused.json()["error"]
    assert message in " ".join(error["fields"][field]) and message in error["message"]
    _unchanged(contest)


@pytest.mark.parametrize(("clock", "field", "message"), ATTACKS)
def test_the_page_refuses_an_absurd_clock_under_the_setting(client, organiser, contest, clock, field, message):
    client.force_login(organiser)
    text = json.dumps(clock).replace("Infinity", "1e999")
    refused = client.post("/organise/contests/chomp-open/", page_fields(clock=text))
    page = html.unescape(refused.content.decode())
    assert refused.status_code == 200
    errors = page.split(f'id="field-{field}"')[1].split('<div class="field"')[0]
    assert message in errors
    _unchanged(contest)


def test_the_memory_field_is_bounded_on_the_page_too(client, organiser, contest):
    client.force_login(organiser)
    page = html.unescape(
        client.post("/organise/contests/chomp-open/", page_fields(memory_mb="10000000")).content.decode()
    )
    errors = page.split('id="field-memory_mb"')[1].split('<div class="field"')[0]
    assert f"memory_mb is 10,000,000: {MEMORY}" in errors
    assert "This site allows 16 to 16,384 MB." in page  # the bound beside the field, before any refusal
    _unchanged(contest)


ADMIN_FIELDS = {
    "title": "Chomp Open", "slug": "chomp-open", "game": "chomp", "game_params": "{}", "clock": "{}",
    "entry_form": "[]", "max_entries_per_user": 1, "max_source_bytes": 65536, "language_table": "arbiter",
    "source_counts": "bytes", "opens_at_0": "2031-01-01", "opens_at_1": "10:00:00",
    "stages-TOTAL_FORMS": 0, "stages-INITIAL_FORMS": 0, "stages-MIN_NUM_FORMS": 0, "stages-MAX_NUM_FORMS": 1000,
}  # fmt: skip


@pytest.mark.parametrize(("clock", "field", "message"), ATTACKS[:3])
def test_the_admin_refuses_an_absurd_clock_with_the_same_sentence(admin_client, contest, clock, field, message):
    refused = admin_client.post(
        f"/admin/contests/contest/{contest.pk}/change/", {**ADMIN_FIELDS, "clock": json.dumps(clock)}
    )
    assert refused.status_code == 200 and message in html.unescape(refused.content.decode())
    _unchanged(contest)


@pytest.mark.parametrize("field", ["clock", "game_params", "entry_form"])
def test_json_nested_too_deeply_is_refused_on_the_page_and_in_the_admin(
    client, admin_client, organiser, contest, field
):
    deep = "[" * 100_000 + "]" * 100_000
    client.force_login(organiser)
    refused = client.post("/organise/contests/chomp-open/", page_fields(**{field: deep}))
    assert refused.status_code == 200
    errors = refused.content.decode().split(f'id="field-{field}"')[1].split('<div class="field"')[0]
    assert "The JSON is nested too deeply." in errors
    admin = admin_client.post(f"/admin/contests/contest/{contest.pk}/change/", {**ADMIN_FIELDS, field: deep})
    assert admin.status_code == 200 and "The JSON is nested too deeply." in admin.content.decode()
    _unchanged(contest)


LIMITS = [
    ({"max_submissions_per_day": 10**6}, "max_submissions_per_day", "(BOUND_SUBMISSIONS_PER_DAY)"),
    ({"max_submissions_per_week": 10**7}, "max_submissions_per_week", "(BOUND_SUBMISSIONS_PER_WEEK)"),
    ({"max_entries_per_user": 0}, "max_entries_per_user", "max_entries_per_user is 0: this site's bound for entries"),
    ({"max_executable_bytes": 10**9}, "max_executable_bytes", "is 1,024 to 134,217,728 bytes"),
    ({"max_source_bytes": 10}, "max_source_bytes", "max_source_bytes is 10: this site's bound for a source limit"),
    ({"max_source_bytes": 10**9}, "max_source_bytes", "the site refuses any larger request (UPLOAD_MAX_BYTES)"),
]


@pytest.mark.parametrize(("limits", "field", "message"), LIMITS)
def test_a_contests_limits_are_bounded_in_the_api(organiser, contest, limits, field, message):
    refused = api(organiser).patch("/api/contests/chomp-open/", limits, format="json")
    assert refused.status_code == 400, refused.json()
    assert message in " ".join(refused.json()["error"]["fields"][field])
    _unchanged(contest)


def test_the_demo_contests_settings_are_within_the_default_bounds():
    from web.contest_form import ContestForm, settings_of
    from web.demo import DEMO_CONTESTS

    for spec in DEMO_CONTESTS:
        contest = Contest(
            title=spec.title, slug=spec.slug, game=spec.game, game_params=spec.game_params, clock=spec.clock,
            rules=spec.rules, max_source_bytes=spec.max_source_bytes, max_executable_bytes=spec.max_executable_bytes,
            max_submissions_per_week=spec.max_submissions_per_week, max_entries_per_user=spec.max_entries_per_user,
            language_table=spec.language_table, source_counts=spec.source_counts, entry_form=spec.entry_form,
        )  # fmt: skip
        form = ContestForm(settings_of(contest), instance=Contest())
        assert form.is_valid(), (spec.slug, form.errors)
        for _, kind, params in spec.stages:
            formats.clean_params(kind, registry.get(spec.game), params)  # ParamsError if one is out of bounds


def test_every_number_of_a_clock_has_a_bound():
    numbers = {f.name for f in dataclasses.fields(Clock) if f.name != "measure"}
    assert numbers == set(bounds.CLOCK)


def test_a_bound_is_a_setting_an_installation_changes(organiser, contest):
    with override_settings(BOUND_MOVE_SECONDS=(1.0, 30.0)):
        refused = api(organiser).patch("/api/contests/chomp-open/", {"clock": {"wall_per_move_s": 60}}, format="json")
    assert refused.status_code == 400
    assert "is 1 to 30 s (BOUND_MOVE_SECONDS)" in refused.json()["error"]["message"]
    saved = api(organiser).patch("/api/contests/chomp-open/", {"clock": {"wall_per_move_s": 60}}, format="json")
    assert saved.status_code == 200 and saved.json()["clock"]["wall_per_move_s"] == 60


def test_a_games_parameters_are_within_the_sites_bound_as_well_as_the_games(organiser, contest):
    with override_settings(BOUND_GAME_PARAM=(0, 10)):
        refused = api(organiser).patch("/api/contests/chomp-open/", {"game_params": {"rows": 20}}, format="json")
    assert refused.status_code == 400
    assert "rows is 20: this site's bound for a game's parameters is 0 to 10 (BOUND_GAME_PARAM)" in " ".join(
        refused.json()["error"]["fields"]["game_params"]
    )


# --- A stage's numbers -------------------------------------------------------------------------


@pytest.fixture
def judge():
    """A judge of the chomp contest the stage tests make (contests.roles)."""
    return name_to(make_contest(slug="chomp"), make_user(username="jules"))


@pytest.mark.parametrize(
    ("params", "field", "message"),
    [
        ({"rounds": 500}, "rounds", "rounds is 500: this site's bound for a stage's rounds is 1 to 100 (BOUND_ROUNDS)"),
        ({"games_per_pairing": 50}, "games_per_pairing", "is 1 to 10 (BOUND_GAMES_PER_PAIRING)"),
        (
            {"bye_points": 1000},
            "bye_points",
            "bye_points is 1,000: this site's bound for a stage's numbers is 0 to 100",
        ),
        ({"rows": 40}, "rows", "rows is 40: this site's bound for a game's parameters is 0 to 30 (BOUND_GAME_PARAM)"),
    ],
)
def test_a_stages_numbers_are_bounded_naming_the_bound(judge, params, field, message):
    narrow = {"BOUND_ROUNDS": (1, 100), "BOUND_GAMES_PER_PAIRING": (1, 10), "BOUND_STAGE_NUMBER": (0, 100)}
    with override_settings(**narrow, BOUND_GAME_PARAM=(0, 30)):
        body = {"kind": "swiss", "name": "Swiss", "params": params}
        refused = api(judge).post("/api/contests/chomp/stages/", body, format="json")
    assert refused.status_code == 400, refused.json()
    assert message in str(refused.json()["error"]["fields"][field])
    assert not Stage.objects.exists()


def test_the_admin_checks_a_stages_numbers_as_the_api_does(admin_client, contest):
    stage = {"contest": contest.pk, "order": 1, "name": "Swiss", "kind": "swiss", "status": "pending"}
    with override_settings(BOUND_ROUNDS=(1, 100)):
        refused = admin_client.post("/admin/contests/stage/add/", {**stage, "params": '{"rounds": 500}'})
        inline = admin_client.post(
            f"/admin/contests/contest/{contest.pk}/change/",
            {**ADMIN_FIELDS, "stages-TOTAL_FORMS": 1, "stages-0-order": 1, "stages-0-name": "Swiss",
             "stages-0-kind": "swiss", "stages-0-params": '{"rounds": 500}', "stages-0-status": "pending"},
        )  # fmt: skip
    assert refused.status_code == 200
    assert "rounds is 500: this site&#x27;s bound for a stage&#x27;s rounds is 1 to 100" in refused.content.decode()
    assert inline.status_code == 302  # the contest's stages are read there: added on their own page, checked
    assert not Stage.objects.exists()
    deep = admin_client.post("/admin/contests/stage/add/", {**stage, "params": "[" * 100_000 + "]" * 100_000})
    assert deep.status_code == 200 and "The JSON is nested too deeply." in deep.content.decode()
    saved = admin_client.post("/admin/contests/stage/add/", {**stage, "params": '{"rounds": 30}'})
    assert saved.status_code == 302 and Stage.objects.get().params == {"rounds": 30}


def test_a_stages_huge_top_is_refused_by_default(judge):
    body = {"kind": "round_robin", "name": "Final", "params": {"top": 10**9}}
    refused = api(judge).post("/api/contests/chomp/stages/", body, format="json")
    assert refused.status_code == 400
    assert (
        "top is 1,000,000,000: this site's bound for a stage's numbers is 0 to 1,000,000 (BOUND_STAGE_NUMBER)"
        in str(refused.json()["error"]["fields"]["top"])
    )


# --- A versus batch ----------------------------------------------------------------------------


def test_a_versus_batch_asks_for_games_within_the_bound():
    refused = VersusRequestSerializer(data={"games": 5000})
    assert not refused.is_valid()
    assert "games is 5,000: this site's bound for a versus batch's games is 2 to 1,000 (BOUND_VERSUS_GAMES)" in str(
        refused.errors["games"]
    )
    assert VersusRequestSerializer(data={"games": 1000}).is_valid()
    contest = make_contest()
    entry = make_entry(contest, user=make_user(), name="Mine")
    submission = make_submission(entry, status="ready", is_active=True)
    with pytest.raises(StageError, match="games is 1: this site's bound for a versus batch's games is 2 to 1,000"):
        versus.start(submission, entry.user, 1, versus.Pool())


# --- Random clocks ------------------------------------------------------------------------------

NUMBERS = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.integers(min_value=-(10**500), max_value=10**500),
    st.booleans(),
    st.none(),
    st.text(max_size=5),
    st.lists(st.integers(), max_size=2),
)
CLOCKS = st.dictionaries(st.sampled_from([*bounds.CLOCK, "measure", "per_move"]), NUMBERS, max_size=4)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(clock=st.one_of(CLOCKS, NUMBERS))
def test_random_clocks_are_saved_or_refused_in_words_never_a_500(organiser, contest, clock):
    answer = api(organiser).patch("/api/contests/chomp-open/", {"clock": clock}, format="json")
    assert answer.status_code in (200, 400), answer.content
    if answer.status_code == 400:
        assert answer.json()["error"]["message"]
        return
    saved = Contest.objects.get(slug="chomp-open").clock
    for name, value in saved.items():
        if name in bounds.CLOCK and value is not None:  # None: no such limit
            assert bounds.CLOCK[name].admits(value), (name, value)


@settings(max_examples=60, deadline=None)
@given(clock=st.one_of(CLOCKS, NUMBERS).map(json.dumps), memory=st.one_of(st.just(""), st.text(max_size=12)))
def test_random_clocks_and_memory_on_the_form_are_saved_or_refused_in_words(clock, memory):
    from web.contest_form import ContestForm

    form = ContestForm(page_fields(clock=clock, memory_mb=memory), instance=Contest())
    if form.is_valid():
        clock = form.cleaned_data["clock"]
        assert all(bounds.CLOCK[name].admits(v) for name, v in clock.items() if name in bounds.CLOCK and v is not None)
    else:
        assert all(str(message) for errors in form.errors.values() for message in errors)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(limits=st.dictionaries(st.sampled_from(list(bounds.CONTEST_LIMITS)), NUMBERS, max_size=3))
def test_random_limits_are_saved_or_refused_in_words_never_a_500(organiser, contest, limits):
    answer = api(organiser).patch("/api/contests/chomp-open/", limits, format="json")
    assert answer.status_code in (200, 400), answer.content
    if answer.status_code == 400:
        assert answer.json()["error"]["message"]
        return
    saved = Contest.objects.get(slug="chomp-open")
    for name, bound in bounds.CONTEST_LIMITS.items():
        value = getattr(saved, name)
        assert value is None or bound.admits(value), (name, value)


def test_a_bound_s_numbers_are_written_with_the_reader_s_separators():
    from django.utils import translation

    assert (bounds.number(16384), bounds.number(0.1), bounds.number(1e9)) == ("16,384", "0.1", "1,000,000,000")
    with translation.override("nl"):
        assert (bounds.number(16384), bounds.number(0.1), bounds.number(1e9)) == ("16.384", "0,1", "1.000.000.000")
