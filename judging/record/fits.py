"""A stage's stored fit as its table reads it (``judging.record.confidence`` makes it): how the
stage ranks (by rating or by points), how sure its ranks are (each row's rating, rank interval
and tied group) and what its contest's page says of both. Read by the standings in two queries,
the rows as values."""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.utils.translation import gettext

from contests.models import Contest, Stage
from games import registry
from judging.models import RatingFit
from judging.record import formats

ELO = 400 / math.log(10)  # a logit on the Elo scale: 173.7 points
ELO_MEAN = 1500.0
METHOD = (
    "Bradley-Terry strengths fitted to the stage's games (a draw half a win), each row's rank interval "
    "from 1,000 draws of the fit's Laplace approximation"
)


def rated(stage: Stage | None) -> bool:
    """Whether the stage ranks by rating: continuous stages of games of two seats or more do
    (more: each game read as its pairs), and any other that asks (``rated``)."""
    if stage is None or not stage.contest.is_hosted or formats.seats(stage) < 2:
        return False
    return formats.of(stage.kind).continuous or bool(stage.params.get("rated"))


def two_seats(contest: Contest) -> bool:
    return seats_of(contest) == 2


def paired(stage: Stage) -> bool:
    """Whether the stage's games are of two seats, read as pairs (rated, crosstables); a game
    of more is read as its pairs, as a race is (``confidence._race_pairs``)."""
    return stage.contest.is_hosted and formats.seats(stage) == 2


def seats_of(contest: Contest) -> int | None:
    return registry.get(contest.game).info.seats if contest.is_hosted else None


def exact(contest: Contest, stage: Stage | None) -> bool:
    """A one-seat game's stage, or a stage whose programs each run alone (a practice): each
    entry's own runs, no game between two rows."""
    return seats_of(contest) == 1 or (stage is not None and formats.of(stage.kind).alone)


def k(stage: Stage) -> float:
    return float(stage.params.get("rating_k", 2))


LEVEL = 0.95


def level(stage: Stage) -> float:
    return float(stage.params.get("confidence", round(100 * LEVEL))) / 100


def described(stage: Stage) -> str:
    """How the stage ranks and how sure its ranks are, as its contest's page states it before
    the stage starts, in the reader's language."""
    if not formats.of(stage.kind).counts_in_standings or not stage.contest.is_hosted:
        return ""
    if exact(stage.contest, stage):
        return gettext("Ranked by each entry's own runs; each rank exact (no game between two rows).")
    percent = f"{level(stage):.0%}"
    sure = gettext("each row's %(level)s rank interval, and the rows its games do not order marked as tied") % {
        "level": percent
    }
    if not rated(stage):
        return gettext("Ranked by points; %(sure)s.") % {"sure": sure}
    if formats.of(stage.kind).continuous:
        said = gettext(
            "Ranked by rating 1500 + 173.7 × (μ − %(k)sσ), a Bradley–Terry strength of each version less %(k)s "
            "times its uncertainty; a new one starts from the field's mean; no decay; %(sure)s."
        )
    else:
        said = gettext(
            "Ranked by rating 1500 + 173.7 × (μ − %(k)sσ), a Bradley–Terry strength of each entry less %(k)s "
            "times its uncertainty; a new one starts from the field's mean; no decay; %(sure)s."
        )
    said %= {"k": f"{k(stage):g}", "sure": sure}
    cuts = ", ".join(map(str, formats.places(stage)))
    if cuts:
        said += " " + gettext(
            "After each version's first games, its games go where they separate places %(cuts)s from the next."
        ) % {"cuts": cuts}
    rules = []
    if cuts and stage.params.get("stop_when_settled"):
        rules.append(gettext("once places %(cuts)s are separated at %(level)s") % {"cuts": cuts, "level": percent})
    if stage.params.get("stop_after_games"):
        rules.append(gettext("after %(games)s games") % {"games": f"{int(stage.params['stop_after_games']):,}"})
    if rules:
        said += " " + gettext("It ends %(rules)s, whichever comes first.") % {"rules": gettext(" or ").join(rules)}
    return said


@dataclass(frozen=True)
class Shown:
    """What a standings row shows of its rating and interval."""

    rank_low: int
    rank_high: int
    group: int | None = None  # rows of one group are statistically tied
    group_size: int = 1
    rating: float | None = None  # the conservative score μ − kσ on the Elo scale (rated stages)
    mu: float | None = None  # the strength on the Elo scale, the field's mean at 1500
    sigma: float | None = None
    provisional: bool = False  # no game yet: the prior alone
    exact: bool = False  # one run each, no game between rows: nothing to be unsure of

    @property
    def tied(self) -> bool:
        return self.group_size > 1


@dataclass
class Stored:
    """A stage's stored fit as a table reads it: each row's rating, to order a rated table by,
    and what the row shows (``get``), made only for the rows shown."""

    fit: RatingFit
    rated: bool
    rows: dict[int, tuple[float, float, int, int, int, int]]  # entry: mu, sigma, games, rank interval, group
    sizes: dict[int, int]  # each group's rows

    def rating(self, entry: int) -> float | None:
        """The entry's conservative rating μ − kσ, on the Elo scale as shown."""
        found = self.rows.get(entry)
        return None if found is None else round(ELO_MEAN + ELO * (found[0] - self.fit.k * found[1]), 1)

    def get(self, entry: int) -> Shown | None:
        if entry not in self.rows:
            return None
        mu, sigma, games, low, high, group = self.rows[entry]
        return Shown(
            rank_low=low, rank_high=high, group=group, group_size=self.sizes[group],
            rating=self.rating(entry) if self.rated else None, mu=round(ELO_MEAN + ELO * mu, 1),
            sigma=round(ELO * sigma, 1), provisional=games == 0,
        )  # fmt: skip


def shown(stage: Stage | None, frozen: bool, present: set[int]) -> Stored | None:
    """The stored fit of the table and its rows of the entries ``present`` in the table (one
    that left it since, disqualified or withdrawn, no longer makes a group); None before any.
    Two queries, the rows read as values: as objects, each with its fit and the fit's
    ``settled`` (a float a row) decoded again, a table of 1,000 rows took 150 ms."""
    if stage is None:
        return None
    fit = RatingFit.objects.filter(stage=stage, frozen=frozen).defer("settled").first()
    if fit is None:
        return None
    rows = fit.ratings.order_by().values_list("entry_id", "mu", "sigma", "games", "rank_low", "rank_high", "group")
    found = {entry: rest for entry, *rest in rows}
    if not found:  # a fit under way for the first time
        return None
    found = {entry: tuple(rest) for entry, rest in found.items() if entry in present}
    sizes: dict[int, int] = {}
    for *_, group in found.values():
        sizes[group] = sizes.get(group, 0) + 1
    return Stored(fit, rated(stage), found, sizes)
