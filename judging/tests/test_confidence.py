"""The stored ratings and rank intervals of a stage (judging.record.confidence), read by the standings."""

import random
import time

import pytest
from django.db import connection
from django.test import Client

from contests.models import Entry, Stage, Submission
from contests.tests.factories import finish_on_paper, make_contest, make_entry, make_match, make_stage, make_submission
from judging.models import Match, Rating, RatingFit, RatingPoint
from judging.record import confidence, fits, publication, standings
from judging.schedule import steering

pytestmark = pytest.mark.django_db


def _ready(entry, **kwargs) -> Submission:
    return make_submission(entry, status=Submission.Status.READY, is_active=True, **kwargs)


def _play(contest, stage, first, second, first_wins: bool | None) -> Match:
    """One finished Chomp game (None: both seats lost, as two faults)."""
    match = make_match(contest, [first, second], stage=stage, status=Match.Status.QUEUED)
    if first_wins is None:
        return finish_on_paper(match, [(0, 0, "timeout"), (0, 0, "crash")])
    won, lost = (1, 5, "win"), (0, 0, "loss")
    return finish_on_paper(match, [won, lost] if first_wins else [lost, won])


def _field(contest, stage, strengths: dict[str, float], games: int, seed: int = 1):
    """Every pair plays ``games`` games, each won by Bradley–Terry odds of the strengths."""
    rng = random.Random(seed)
    subs = {name: _ready(make_entry(contest, name=name)) for name in strengths}
    names = list(strengths)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            p = 1 / (1 + 10 ** ((strengths[b] - strengths[a]) / 400))
            for g in range(games):
                first, second = (a, b) if g % 2 == 0 else (b, a)
                a_wins = rng.random() < p
                _play(contest, stage, subs[first], subs[second], a_wins == (first == a))
    return subs


def _demo(kind="ladder", games=60):
    contest = make_contest()
    stage = make_stage(contest, kind=kind, status=Stage.Status.RUNNING, name="Ladder")
    subs = _field(contest, stage, {"Strong": 600, "Medium": 250, "Weak A": 0, "Weak B": 0}, games)
    return contest, stage, subs


def test_the_demo_field_strong_first_and_narrow_the_weak_ones_tied():
    contest, stage, _ = _demo()
    fit = confidence.rate(stage.pk)
    assert fit.games == 6 * 60
    table = standings.compute(contest, stage)
    assert table.rated and table.fit == fit
    names = [r.entry.name for r in table.rows]
    assert names[:2] == ["Strong", "Medium"] and set(names[2:]) == {"Weak A", "Weak B"}
    strong, medium, weak, other = (r.sure for r in table.rows)
    assert (strong.rank_low, strong.rank_high) == (1, 1)
    assert strong.group != medium.group != weak.group
    assert weak.group == other.group and weak.group_size == 2  # statistically tied
    assert (weak.rank_low, weak.rank_high) == (3, 4) == (other.rank_low, other.rank_high)
    assert strong.rating == pytest.approx(strong.mu - fit.k * strong.sigma, abs=0.2)
    assert strong.mu > medium.mu > max(weak.mu, other.mu)
    assert [r.rank for r in table.rows] == [1, 2, 3, 4]


def test_a_new_version_is_provisional_at_the_bottom_until_it_plays():
    contest, stage, subs = _demo(games=20)
    strong = subs["Strong"]
    Submission.objects.filter(pk=strong.pk).update(is_active=False)
    newer = _ready(strong.entry)
    confidence.rate(stage.pk)
    table = standings.compute(contest, stage)
    last = table.rows[-1]
    assert last.entry.name == "Strong" and last.sure.provisional
    # by the table's rule (μ − 2σ) a version with no game is last whatever its strength
    assert last.sure.rank_low <= 4 == last.sure.rank_high
    rating = Rating.objects.get(fit__stage=stage, entry=strong.entry)
    assert rating.submission_id == newer.pk and rating.games == 0


def test_a_rated_row_is_inside_its_own_interval():
    """A row ranked first by μ − 2σ (many games, middling results) showed the interval [3, 4]:
    the rows were ordered by one figure and the intervals drawn from the strengths alone. The
    fit's own intervals are now of the order shown: every row's place inside its interval
    without the table widening any."""
    rng = random.Random(0)
    contest = make_contest()
    stage = make_stage(contest, kind="ladder", status=Stage.Status.RUNNING, name="Ladder")
    subs = {n: _ready(make_entry(contest, name=n)) for n in ("Proved", "Lucky A", "Lucky B", "Lucky C", "Base")}
    for _ in range(200):
        _play(contest, stage, subs["Proved"], subs["Base"], rng.random() < 0.7)
    for name in ("Lucky A", "Lucky B", "Lucky C"):
        for _ in range(4):
            _play(contest, stage, subs[name], subs["Base"], rng.random() < 0.9)
        _play(contest, stage, subs[name], subs["Proved"], rng.random() < 0.6)
    confidence.rate(stage.pk)
    rows = Rating.objects.filter(fit__stage=stage).order_by("place")
    assert rows[0].entry.name == "Proved"
    assert [r.place for r in rows if not r.rank_low <= r.place <= r.rank_high] == []
    table = standings.compute(contest, stage)
    assert all(r.sure.rank_low <= r.rank <= r.sure.rank_high for r in table.rows)


def test_a_points_row_is_inside_its_interval_widened_to_its_place():
    """A points table (a Swiss stage's, ordered by points not strengths) can place a row where
    the fit's draws do not: its interval is widened to hold its place."""
    contest, stage, subs = _demo(kind="round_robin", games=10)
    confidence.rate(stage.pk)
    strong = Rating.objects.get(fit__stage=stage, entry=subs["Strong"].entry)
    Rating.objects.filter(pk=strong.pk).update(rank_low=3, rank_high=4)  # as a Swiss table's can be
    row = next(r for r in standings.compute(contest, stage).rows if r.entry.name == "Strong")
    assert row.rank == 1 and (row.sure.rank_low, row.sure.rank_high) == (1, 4)


def test_a_frozen_table_has_its_intervals_from_the_freeze():
    """Public rows had no interval for the seconds after each freeze that the snapshot's own
    fit took: the live fit is held as the frozen one in the freeze's transaction."""
    contest, stage, _ = _demo(games=4)
    confidence.rate(stage.pk)
    publication.freeze(contest)
    frozen = standings.compute(contest, stage, publication.FROZEN)
    assert frozen.fit is not None and all(r.sure is not None for r in frozen.rows)
    live = standings.compute(contest, stage)
    assert [(r.entry.name, r.sure) for r in frozen.rows] == [(r.entry.name, r.sure) for r in live.rows]


def test_a_points_stage_keeps_its_points_order_and_shows_intervals():
    contest, stage, _ = _demo(kind="round_robin", games=10)
    before = [r.entry.name for r in standings.compute(contest, stage).rows]
    confidence.rate(stage.pk)
    table = standings.compute(contest, stage)
    assert not table.rated and [r.entry.name for r in table.rows] == before
    assert all(r.sure is not None and r.sure.rating is None for r in table.rows)
    assert all(r.sure.rank_low <= r.sure.rank_high for r in table.rows)


def test_a_stage_without_a_game_yet_has_every_row_provisional_anywhere():
    contest = make_contest()
    stage = make_stage(contest, kind="ladder", status=Stage.Status.RUNNING)
    for name in ("Ann", "Bea", "Cid"):
        _ready(make_entry(contest, name=name))
    fit = confidence.rate(stage.pk)
    assert fit.games == 0
    rows = standings.compute(contest, stage).rows
    assert all(r.sure.provisional and (r.sure.rank_low, r.sure.rank_high) == (1, 3) for r in rows)


def test_a_game_both_seats_lost_counts_as_a_draw():
    contest = make_contest()
    stage = make_stage(contest, kind="round_robin", status=Stage.Status.RUNNING)
    a, b = (_ready(make_entry(contest, name=n)) for n in ("Ann", "Bea"))
    for _ in range(4):
        _play(contest, stage, a, b, None)
    confidence.rate(stage.pk)
    ann, bea = (Rating.objects.get(entry=s.entry) for s in (a, b))
    assert ann.mu == pytest.approx(bea.mu, abs=1e-9) and ann.games == bea.games == 4


def test_the_pairs_are_summed_as_the_database_summed_them():
    """The kept pairs are read as rows and summed by numpy (issue 35): the same table as the
    first version's GROUP BY, by entry and by version, with a game both seats lost and an
    entry's second version among them."""

    contest, stage, subs = _demo(games=3)
    _play(contest, stage, subs["Weak A"], subs["Strong"], None)
    Submission.objects.filter(pk=subs["Strong"].pk).update(is_active=False)
    newer = _ready(subs["Strong"].entry)
    _play(contest, stage, newer, subs["Medium"], True)
    _play(contest, stage, subs["Medium"], newer, None)
    for x, y, by_version in (("entry_id", "opponent_id", False), ("submission_id", "opponent_submission_id", True)):
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT CASE WHEN {x} < {y} THEN {x} ELSE {y} END, CASE WHEN {x} < {y} THEN {y} ELSE {x} END,"
                f" CAST(SUM(games) AS DOUBLE PRECISION) / 2, CAST(SUM(CASE WHEN {x} < {y} THEN 2 * wins + draws"
                f" ELSE 2 * (games - wins) - draws END) AS DOUBLE PRECISION) / 4"
                f" FROM judging_pairtally WHERE stage_id = %s AND frozen = %s GROUP BY 1, 2 ORDER BY 1, 2",
                [stage.pk, False],
            )
            first_version = cursor.fetchall()
        nodes, (a, b, games, points) = confidence._pairs(stage, False, by_version)
        ids = sorted(nodes, key=nodes.get)
        assert ids == sorted(ids) and len(first_version) == (7 if by_version else 6)
        assert [(ids[i], ids[j], g, p) for i, j, g, p in zip(a, b, games, points, strict=True)] == first_version


def test_the_fit_is_the_same_whatever_the_order_the_games_finished_in():
    def fitted(seed):
        contest = make_contest()
        stage = make_stage(contest, kind="ladder", status=Stage.Status.RUNNING)
        subs = [_ready(make_entry(contest, name=f"P{i}")) for i in range(3)]
        games = [(subs[0], subs[1], True), (subs[1], subs[2], False), (subs[0], subs[2], True)] * 3
        games += [(subs[1], subs[0], True), (subs[2], subs[1], None)]
        random.Random(seed).shuffle(games)
        for first, second, wins in games:
            _play(contest, stage, first, second, wins)
        confidence.rate(stage.pk)
        return [(r.entry.name, round(r.mu, 9), round(r.sigma, 9), r.rank_low, r.rank_high) for r in
                Rating.objects.filter(fit__stage=stage).select_related("entry")]  # fmt: skip

    assert fitted(1) == fitted(2) == fitted(3)


def test_a_frozen_table_has_its_own_fit_and_publishing_drops_it():
    contest, stage, subs = _demo(games=10)
    publication.freeze(contest)
    confidence.rate(stage.pk, frozen=True)
    confidence.rate(stage.pk)
    for _ in range(8):  # after the freeze: the weak A beats the strong one, seen by the judges only
        _play(contest, stage, subs["Weak A"], subs["Strong"], True)
    confidence.rate(stage.pk)
    frozen = standings.compute(contest, stage, standings.FROZEN)
    live = standings.compute(contest, stage)
    assert frozen.fit.games == 60 and live.fit.games == 68
    assert frozen.fit.frozen and not live.fit.frozen
    publication.publish(contest)
    assert not RatingFit.objects.filter(stage=stage, frozen=True).exists()


def test_the_standings_page_shows_intervals_ties_and_how_it_ranks(client):
    contest, stage, _ = _demo()
    page = client.get(f"/contests/{contest.slug}/standings/").content.decode()
    assert "rank intervals are computed a few seconds after" in page
    confidence.rate(stage.pk)
    page = client.get(f"/contests/{contest.slug}/standings/").content.decode()
    assert "95% rank" in page and "Ranked by rating, 1500 + 173.7 × (μ − 2σ)" in page  # in its details
    plain = page.split('<div class="progress confidence">', 1)[1].split("<details>", 1)[0]
    assert "Rows are ranked by rating: how strong a program has shown itself" in plain and "μ" not in plain
    assert page.count('class="tied') == 2 and page.count('3–4 <span class="tie"') == 2
    assert "from 360 games" in page
    detail = client.get(f"/contests/{contest.slug}/").content.decode()
    assert (
        "Ranked by rating 1500 + 173.7 × (μ − 2σ)" in detail and "no decay; each row&#x27;s 95% rank interval" in detail
    )


def test_a_one_seat_stage_ranks_exactly():
    contest = make_contest(game="crossed_words", game_params={})
    stage = make_stage(contest, kind="batch")
    assert "each rank exact" in fits.described(stage)
    assert confidence.rate(stage.pk) is None


def test_a_disqualified_entry_leaves_its_tied_group_at_once():
    contest, stage, subs = _demo(games=60)
    confidence.rate(stage.pk)
    Entry.objects.filter(pk=subs["Weak B"].entry_id).update(status=Entry.Status.DISQUALIFIED)
    rows = standings.compute(contest, stage).rows
    assert [r.entry.name for r in rows] == ["Strong", "Medium", "Weak A"]
    assert not rows[-1].sure.tied


@pytest.mark.worker
@pytest.mark.slow
def test_a_real_worker_fits_the_ratings_after_a_burst_of_results(worker):
    """Results counted one by one queue one fit (the rest find it queued); a result counted
    after the fit started queues the next, so the stored fit ends with every game."""
    contest, stage, subs = _demo(games=5)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not RatingFit.objects.filter(stage=stage, games=30).exists():
        time.sleep(0.2)
    assert RatingFit.objects.get(stage=stage).games == 30, worker.output()
    _play(contest, stage, subs["Weak A"], subs["Strong"], True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not RatingFit.objects.filter(stage=stage, games=31).exists():
        time.sleep(0.2)
    assert RatingFit.objects.get(stage=stage).games == 31, worker.output()
    assert Rating.objects.filter(fit__stage=stage).count() == 4


def _finish_queued(stage, strengths: dict[str, float], rng: random.Random) -> int:
    """Play every queued game of the stage on paper, won by the strengths' Bradley–Terry odds."""
    played = 0
    for match in Match.objects.filter(stage=stage, status=Match.Status.QUEUED).prefetch_related("seats__entry"):
        first, second = (s.entry.name for s in match.seats.order_by("index"))
        p = 1 / (1 + 10 ** ((strengths[second] - strengths[first]) / 400))
        won, lost = (1, 5, "win"), (0, 0, "loss")
        finish_on_paper(match, [won, lost] if rng.random() < p else [lost, won])
        played += 1
    return played


DEMO = {"Strong": 600, "Medium": 250, "Weak A": 0, "Weak B": 0}


def test_the_games_go_around_the_places_that_matter_until_they_are_settled():
    contest = make_contest()
    params = {"games_per_pairing": 2, "places": "1, 2", "stop_when_settled": True, "stop_after_games": 2000}
    stage = make_stage(contest, kind="ladder", status=Stage.Status.RUNNING, params=params)
    _field(contest, stage, DEMO, 2)
    rng = random.Random(6)
    pairs: dict[frozenset, int] = {}
    for _ in range(400):
        found = confidence.fitted(stage.pk)
        did = steering.steer(found, rng)
        stage.refresh_from_db()
        if stage.status == Stage.Status.FINISHED:
            break
        assert did.startswith("4 games scheduled around places"), did
        for match in Match.objects.filter(stage=stage, status=Match.Status.QUEUED):
            names = frozenset(match.seats.values_list("entry__name", flat=True))
            pairs[names] = pairs.get(names, 0) + 1
        assert _finish_queued(stage, DEMO, rng) == 4
    assert stage.status == Stage.Status.FINISHED, pairs
    assert fits.described(stage).endswith(
        "its games go where they separate places 1, 2 from the next. It ends once places 1, 2 are separated at 95% "
        "or after 2,000 games, whichever comes first."
    )
    assert stage.ended_by.startswith("places 1, 2 settled at 95% after ")
    weak = pairs.get(frozenset({"Weak A", "Weak B"}), 0)
    around = pairs.get(frozenset({"Strong", "Medium"}), 0) + pairs.get(frozenset({"Medium", "Weak A"}), 0)
    assert around > 4 * weak  # the two weak ones are tied below the cut-offs: not worth separating
    table = standings.compute(contest, stage)
    assert [r.entry.name for r in table.rows][:2] == ["Strong", "Medium"]
    page = Client().get(f"/contests/{contest.slug}/standings/?stage={stage.pk}").content.decode()
    assert f"{stage.name} ended by its declared rule: places 1, 2 settled at 95%" in page


def test_a_stage_ends_after_its_declared_number_of_games():
    contest = make_contest()
    params = {"games_per_pairing": 2, "places": "3", "stop_after_games": 20}
    stage = make_stage(contest, kind="ladder", status=Stage.Status.RUNNING, params=params)
    subs = _field(contest, stage, DEMO, 2)  # 12 games
    _play(contest, stage, subs["Weak A"], subs["Weak B"], True)
    rng = random.Random(6)
    for _ in range(50):
        steering.steer(confidence.fitted(stage.pk))
        stage.refresh_from_db()
        if stage.status != Stage.Status.RUNNING:
            break
        if not _finish_queued(stage, DEMO, rng):  # place 3 settled by chance: nothing scheduled, games go on
            _play(contest, stage, subs["Weak B"], subs["Weak A"], rng.random() < 0.5)
    assert stage.status == Stage.Status.FINISHED
    played = Match.objects.filter(stage=stage, status=Match.Status.FINISHED).count()
    assert 20 <= played <= 24 and stage.ended_by.startswith(
        f"after {played} games: the declared limit of 20 was reached"
    )
    assert not Match.objects.filter(stage=stage, status=Match.Status.QUEUED).exists()


def test_the_charts_read_kept_ratings_thinned_and_by_version():
    contest = make_contest()
    stage = make_stage(contest, kind="ladder", status=Stage.Status.RUNNING)
    subs = _field(contest, stage, DEMO, 1)  # 6 games
    rng = random.Random(3)
    for _ in range(30):  # a fit after each game
        a, b = rng.sample(list(subs.values()), 2)
        _play(contest, stage, a, b, rng.random() < 0.5)
        confidence.rate(stage.pk)
    kept = sorted(set(RatingPoint.objects.filter(stage=stage).values_list("games", flat=True)))
    assert kept[0] == 7 and len(kept) < 20 and all(b >= a * 1.15 for a, b in zip(kept, kept[1:], strict=False))
    strong = subs["Strong"]
    Submission.objects.filter(pk=strong.pk).update(is_active=False)
    newer = _ready(strong.entry)
    for _ in range(12):
        _play(contest, stage, newer, subs["Weak A"], True)
    confidence.rate(stage.pk)
    client = Client()
    chart = client.get(f"/contests/{contest.slug}/standings/history.json?stage={stage.pk}").json()
    assert chart["rated"] and len(chart["lines"]) == 4
    line = chart["lines"][0]
    assert len(line["x"]) == len(line["points"]) == len(line["low"]) == len(line["high"]) >= 2
    assert all(lo < mu < hi for lo, mu, hi in zip(line["low"], line["points"], line["high"], strict=True))
    own = client.get(f"/contests/{contest.slug}/entries/{strong.entry_id}/ratings.json?stage={stage.pk}").json()
    assert [line["name"] for line in own["lines"]] == ["version 1", "version 2"]
    assert own["lines"][1]["x"][-1] == RatingFit.objects.get(stage=stage, frozen=False).games
    page = client.get(f"/contests/{contest.slug}/entries/{strong.entry_id}/").content.decode()
    assert "Rating across versions" in page and "ratings.json?stage=" in page
    other = make_stage(contest, kind="round_robin", status=Stage.Status.RUNNING)
    assert (
        client.get(f"/contests/{contest.slug}/entries/{strong.entry_id}/ratings.json?stage={other.pk}").status_code
        == 404
    )


def test_a_round_robin_may_ask_to_rank_by_rating():
    contest = make_contest()
    stage = make_stage(contest, kind="round_robin", status=Stage.Status.RUNNING, params={"rated": True, "rating_k": 1})
    subs = _field(contest, stage, DEMO, 10)
    # one game the weak B won against the strong one: points order and rating order differ little,
    # but the table is the rating's
    _play(contest, stage, subs["Weak B"], subs["Strong"], True)
    confidence.rate(stage.pk)
    table = standings.compute(contest, stage)
    assert table.rated and all(r.sure.rating is not None for r in table.rows)
    ratings_shown = [r.sure.rating for r in table.rows]
    assert ratings_shown == sorted(ratings_shown, reverse=True) and table.rows[0].entry.name == "Strong"
    assert "(μ − 1σ), a Bradley–Terry strength of each entry" in fits.described(stage)
    assert steering.steer(confidence.fitted(stage.pk)) == ""  # nothing to schedule: not a continuous stage


def test_a_race_is_read_as_its_pairs_and_a_practice_ranks_exactly():
    contest = make_contest(game="wheels", game_params={})
    stage = make_stage(contest, kind="race", status=Stage.Status.RUNNING)
    subs = [_ready(make_entry(contest, name=n)) for n in ("Fast", "Mid A", "Mid B", "Slow")]
    rng = random.Random(2)
    for _ in range(12):  # the fast one first every time; the two middle ones in either order
        middle = rng.sample([1, 2], 2)
        order = [0, *middle, 3]
        match = make_match(contest, subs, stage=stage, status=Match.Status.QUEUED)
        points = {seat: 4 - place for place, seat in enumerate(order)}
        finish_on_paper(match, [(points[i], points[i], "valid") for i in range(4)])
    fit = confidence.rate(stage.pk)
    # The races themselves, not their pairs' weights (six pairs a race, each 2/4: "from 36 games")
    assert fit.games == 12 and set(Rating.objects.filter(fit=fit).values_list("games", flat=True)) == {12}
    rows = {r.entry.name: r.sure for r in standings.compute(contest, stage).rows}
    assert (rows["Fast"].rank_low, rows["Fast"].rank_high) == (1, 1)
    assert rows["Mid A"].tied and rows["Mid A"].group == rows["Mid B"].group != rows["Slow"].group
    assert "Ranked by points; each row's 95% rank interval" in fits.described(stage)
    practice = make_stage(contest, kind="practice", status=Stage.Status.RUNNING)
    assert "each rank exact" in fits.described(practice) and confidence.rate(practice.pk) is None


@pytest.mark.postgres
def test_two_fits_of_one_stage_at_once_take_turns(transactional_db):
    """A retried task beside a new one: both store, one after the other, and the stage has one
    fit of every row (an update_or_create raced, and the rows of both were written)."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    contest, stage, _ = _demo(games=10)

    def fit():
        try:
            return confidence.rate(stage.pk).games
        finally:
            connection.close()

    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(lambda _: fit(), range(8))) == [60] * 8
    assert RatingFit.objects.filter(stage=stage).count() == 1
    assert Rating.objects.filter(fit__stage=stage).count() == 4


@pytest.mark.postgres
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks are PostgreSQL's: SQLite has one writer")
def test_a_fit_queued_while_one_works_leaves_the_work_to_it_and_queues_the_next(transactional_db, monkeypatch):
    """Two tasks of one stage at once (issue 35): the second finds the first at work, fits
    nothing (the arithmetic is not done twice, nor waited for) and queues one more fit, for
    the results the first may have read too early; the first stores its fit."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from judging.record import ratings
    from judging.tasks import rate_stage

    sent = []
    monkeypatch.setattr(
        "judging.tasks.rate_stage.apply_async", lambda args, countdown, **kwargs: sent.append((args, countdown))
    )
    contest, stage, _ = _demo(games=10)
    sent.clear()  # what the demo's results queued
    working, release = threading.Event(), threading.Event()
    fitting = []
    fit = ratings.fit

    def slow_fit(*args, **kwargs):
        fitting.append(threading.get_ident())
        working.set()
        assert release.wait(60)
        return fit(*args, **kwargs)

    monkeypatch.setattr(ratings, "fit", slow_fit)

    def task():
        try:
            rate_stage.apply(args=(stage.pk, False)).get()  # run here, as a worker runs it
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        first = pool.submit(task)
        assert working.wait(60)
        started = time.monotonic()
        task()  # the second, while the first holds the stage's fit
        assert time.monotonic() - started < 10 and len(fitting) == 1
        assert sent == [((stage.pk, False), confidence.DEBOUNCE_S)]
        release.set()
        first.result(timeout=60)
    assert len(fitting) == 1
    assert RatingFit.objects.get(stage=stage).games == 60
    assert Rating.objects.filter(fit__stage=stage).count() == 4


def test_a_fit_not_sent_leaves_no_debounce_behind_and_the_next_result_sends_it(
    monkeypatch, django_capture_on_commit_callbacks
):
    """The broker away when a result's fit is sent (issue 36): the debounce key is not left
    set, so the next result sends one (it stayed "queued" ten minutes, a quiet stage for ever)."""
    from django.core.cache import cache

    sent, away = [], [True]

    def apply_async(args, countdown=None, **kwargs):
        if away[0]:
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        sent.append(args)

    monkeypatch.setattr("judging.tasks.rate_stage.apply_async", apply_async)
    contest, stage, subs = _demo(games=2)
    with django_capture_on_commit_callbacks(execute=True):
        _play(contest, stage, subs["Strong"], subs["Weak A"], True)  # robust: logged, not raised
    assert cache.get(confidence._queued_key(stage.pk, False)) is None and sent == []
    away[0] = False
    with django_capture_on_commit_callbacks(execute=True):
        _play(contest, stage, subs["Strong"], subs["Weak B"], True)
    assert sent == [(stage.pk, False)]


def test_the_watchdog_queues_a_fit_behind_its_results_and_only_those(monkeypatch):
    """A fit behind its stage's results by more than its wait and a minute is queued by the
    watchdog (a send lost, a broker that lost its messages); a current one, one still within
    its wait, and a stage the ratings do not fit are not."""
    from datetime import timedelta

    from django.utils import timezone

    from judging import watchdog

    sent = []
    monkeypatch.setattr("judging.tasks.rate_stage.apply_async", lambda args, **kwargs: sent.append(args))
    contest, stage, subs = _demo(games=2)
    one_seat = make_contest(slug="words", game="crossed_words", game_params={})
    make_stage(one_seat, kind="batch", name="Run")
    now = timezone.now()
    assert confidence.stale_fits(now, watchdog.STALE_FIT_GRACE) == []  # its first fit may be on its way
    later = now + timedelta(minutes=2)
    assert confidence.stale_fits(later, watchdog.STALE_FIT_GRACE) == [(stage.pk, False)]  # never fitted
    confidence.rate(stage.pk)
    assert confidence.stale_fits(later, watchdog.STALE_FIT_GRACE) == []
    _play(contest, stage, subs["Weak A"], subs["Strong"], True)  # its fit's send lost
    assert confidence.stale_fits(now, watchdog.STALE_FIT_GRACE) == []  # within its wait
    assert confidence.stale_fits(later, watchdog.STALE_FIT_GRACE) == [(stage.pk, False)]
    # a re-run that changes a result keeps the count: the result's time says it
    match = Match.objects.filter(stage=stage).order_by("-pk").first()
    confidence.rate(stage.pk)
    RatingFit.objects.filter(stage=stage).update(computed_at=match.finished_at - timedelta(seconds=1))
    assert confidence.stale_fits(later, watchdog.STALE_FIT_GRACE) == [(stage.pk, False)]
    monkeypatch.setattr(watchdog.timezone, "now", lambda: later)
    sent.clear()
    assert watchdog.refit_stale_stages() == 1 and sent == [(stage.pk, False)]
    confidence.rate(stage.pk)
    assert confidence.stale_fits(later, watchdog.STALE_FIT_GRACE) == []
    # a freeze whose snapshot's fit was lost (it holds the live fit's copy): queued once it is a minute old
    RatingFit.objects.filter(stage=stage).update(computed_at=later - timedelta(seconds=1))
    publication.freeze(contest)
    assert (stage.pk, True) in confidence.stale_fits(timezone.now() + timedelta(minutes=2), watchdog.STALE_FIT_GRACE)
    confidence.rate(stage.pk, frozen=True)
    assert confidence.stale_fits(timezone.now() + timedelta(minutes=2), watchdog.STALE_FIT_GRACE) == []


def test_a_started_stage_keeps_what_it_declared():
    from web.admin import StageForm

    contest = make_contest()
    stage = make_stage(contest, kind="ladder", params={"places": "1"})
    data = {"contest": contest.pk, "order": stage.order, "name": stage.name, "kind": "ladder", "status": "pending"}
    assert StageForm({**data, "params": '{"places": "1, 2"}'}, instance=stage).is_valid()  # pending: still free
    Stage.objects.filter(pk=stage.pk).update(status=Stage.Status.RUNNING)
    stage.refresh_from_db()
    form = StageForm(
        {**data, "status": "running", "params": '{"places": "1, 2", "stop_after_games": 5}'}, instance=stage
    )
    assert not form.is_valid() and "places, stop_after_games: declared before the stage started" in str(form.errors)
    renamed = StageForm({**data, "status": "running", "name": "Weekly", "params": '{"places": "1"}'}, instance=stage)
    assert renamed.is_valid(), renamed.errors


def test_integer_columns_are_read_whole_and_a_null_or_a_narrower_column_is_refused():
    """The pairs' reading (PostgreSQL's binary COPY, issue 35) gives every row's integers,
    negative and past 32 bits alike, and refuses what it cannot read as eight bytes."""

    query = "SELECT CAST(%s AS BIGINT) - 3, CAST(%s AS BIGINT) * 3000000000"
    if connection.vendor == "postgresql":
        query += " FROM generate_series(1, 3)"
    one, other = confidence._integers(query, [1, 2], 2)
    assert one.tolist() == [-2] * len(one) and other.tolist() == [6_000_000_000] * len(one) and len(one) >= 1
    if connection.vendor == "postgresql":
        assert len(one) == 3
        with pytest.raises(ValueError, match="NULL"):
            confidence._integers("SELECT CAST(1 AS BIGINT), CAST(NULL AS BIGINT)", [], 2)
        with pytest.raises(ValueError, match="NULL"):
            confidence._integers("SELECT 1, 2", [], 2)  # four bytes each


def test_ids_are_indexed_as_numpy_unique_indexes_them_near_or_far_apart():
    import numpy as np

    rng = np.random.default_rng(5)
    for spread in (1_000, 10**15):  # a table of the range, then a sort
        one, other = rng.integers(0, spread, 500), rng.integers(0, spread, 300)
        distinct, (i, j) = confidence._index(one, other)
        want, places = np.unique(np.concatenate([one, other]), return_inverse=True)
        assert distinct.tolist() == want.tolist() and [*i, *j] == places.tolist()
        assert (distinct[i] == one).all() and (distinct[j] == other).all()
