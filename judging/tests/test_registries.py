"""The two registries that make a new kind of stage or of interaction an addition: stage
formats (judging.record.formats) and referees (judging.play.referee)."""

from dataclasses import dataclass

import pytest

from contests.tests.factories import make_contest, make_stage
from games.base import GameInfo, GameResult, TurnGame
from games.clocks import Clock
from judging.models import Match
from judging.play import referee
from judging.record import formats, lifecycle
from judging.record.lifecycle import Ended


def test_every_kind_the_platform_runs_has_a_format_and_says_how_it_counts():
    assert set(formats.FORMATS) == {
        "system_test", "practice", "round_robin", "free_for_all", "swiss", "ladder", "batch", "qualification", "race"
    }  # fmt: skip
    assert formats.uncounted_kinds() == ["system_test"]
    assert formats.continuous_kinds() == ["ladder", "practice"]
    assert not formats.of("system_test").run_by_judges


@pytest.mark.django_db
def test_a_kind_without_a_format_refuses_to_start_in_words(monkeypatch):
    monkeypatch.setattr(formats, "FORMATS", {k: v for k, v in formats.FORMATS.items() if k != "race"})
    stage = make_stage(make_contest(), kind="race", name="Race")
    with pytest.raises(formats.StageError, match="Race stages cannot be run: the platform has no format for them"):
        lifecycle.run_stage(stage)
    test = make_stage(stage.contest, kind="system_test", name="System test")
    with pytest.raises(formats.StageError, match="runs by itself for each new submission"):
        lifecycle.run_stage(test)


@pytest.mark.django_db
def test_a_new_format_is_a_class_and_a_register(monkeypatch):
    """A kind of stage the platform has never had needs no migration and no edit of a caller."""
    monkeypatch.setattr(formats, "FORMATS", dict(formats.FORMATS))
    ended = []

    @formats.register("knockout", "Knockout")
    class Knockout(formats.StageFormat):
        counts_in_standings = False

        def start(self, stage):
            return []

        def match_ended(self, match, why):
            ended.append((match.pk, why))

    stage = make_stage(make_contest(), kind="knockout", name="Knockout")
    assert lifecycle.run_stage(stage) == []
    assert ("knockout", "Knockout") in formats.choices()
    assert set(formats.uncounted_kinds()) == {"system_test", "knockout"}
    match = Match.objects.create(contest=stage.contest, stage=stage, seed=1)
    lifecycle.match_ended(match, Ended.CANCELLED)
    assert ended == [(match.pk, Ended.CANCELLED)]
    with pytest.raises(ValueError, match="already the kind"):
        formats.register("knockout", "Again")(type("Again", (formats.StageFormat,), {}))


@dataclass(frozen=True)
class Telepathy:
    """An interaction no referee knows."""


class Silent(TurnGame):
    info = GameInfo(name="silent", title="Silent", version=1, seats=1, params=())
    interaction = Telepathy()

    def initial_state(self, params, seed):
        return 0

    def to_move(self, state):
        return None

    def legal_moves(self, state):
        return []

    def parse_move(self, state, text):
        return text

    def move_text(self, state, move):
        return move

    def apply(self, state, move):
        return state

    def outcome(self, state):
        return GameResult((1.0,), (0.0,), ("win",), "nothing to do")

    def forfeit(self, state, seat, status, reason, detail=""):
        return GameResult((0.0,), (0.0,), (status,), reason)

    def frame(self, state):
        return {"state": state}

    def max_moves(self, params):
        return 0


def test_a_new_interaction_is_an_interaction_and_a_referee(monkeypatch):
    clock = Clock()
    with pytest.raises(ValueError, match="silent has no referee yet"):
        referee.play(Silent(), {}, 0, [referee.Player("p", None)], clock)
    monkeypatch.setattr(referee, "REFEREES", dict(referee.REFEREES))

    @referee.referee_for(Telepathy)
    class Mind(referee.Referee):
        def run(self, stack):
            self.check_stop("the first thought")
            return self.game.outcome(None)

    record = referee.play(Silent(), {}, 7, [referee.Player("p", None)], clock)
    assert record.outcome.statuses == ("win",)
    replay = record.replay
    assert list(replay) == [
        "schema",
        "game",
        "version",
        "params",
        "seed",
        "clock",
        "seats",
        "moves",
        "frames",
        "result",
    ]
    assert replay["seed"] == 7 and replay["seats"][0]["name"] == "p"
    with pytest.raises(referee.Cancelled, match="called off before the first thought"):
        referee.play(Silent(), {}, 7, [referee.Player("p", None)], clock, should_stop=lambda: True)
