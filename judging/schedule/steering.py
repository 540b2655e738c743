"""Games where they matter, and when to stop: after each fit of a running continuous stage
(a ladder), its next games go between the rows whose order at the places that matter
(``places``) the fit does not settle (in games of more seats, with rows from around them), and the stage ends by its declared stopping rule
(``stop_when_settled``, ``stop_after_games``). Called by the fit's task (``judging.tasks``)."""

from __future__ import annotations

import random

import numpy as np
from django.utils.translation import gettext

from contests.models import Stage
from judging.record import confidence, counts, fits, formats, lifecycle
from judging.schedule.tournaments import schedule_groups

UNIFORM_SHARE = 0.1  # of a batch, games between any two entries: no pair is left out for good
NEAR = 20  # rows each side of a cut-off whose pairs are weighed


def unsettled(stage: Stage, found: confidence.Fitted) -> list[int]:
    """The places that matter (``places``) whose boundary the fit does not settle."""
    at = fits.level(stage)
    return [c for c in formats.places(stage) if c < len(found.entries) and found.shares[c - 1] < at]


def pairs_to_play(found: confidence.Fitted, cuts: list[int], count: int, rng: random.Random) -> list[tuple[int, int]]:
    """``count`` pairs of rows (entry ids) to play next: at each unsettled cut-off, a row shown
    above it against one below, drawn in proportion to how likely they are in the wrong order
    (the share of draws in which the lower is the stronger); a tenth of them any two rows."""
    weighed: dict[tuple[int, int], float] = {}
    for c in cuts:
        for a in range(max(0, c - NEAR), c):
            for b in range(c, min(len(found.entries), c + NEAR)):
                wrong = float(np.mean(found.samples[:, b] > found.samples[:, a]))
                weighed[(a, b)] = max(wrong, weighed.get((a, b), 0.0))
    ranked = sorted(ab for ab in weighed if weighed[ab] > 0)
    chosen = []
    for _ in range(count):
        if not ranked or rng.random() < UNIFORM_SHARE:
            chosen.append(tuple(rng.sample(range(len(found.entries)), 2)))
        else:
            chosen.append(rng.choices(ranked, weights=[weighed[ab] for ab in ranked])[0])
    return [(found.entries[a], found.entries[b]) for a, b in chosen]


def groups_to_play(
    found: confidence.Fitted, cuts: list[int], count: int, size: int, rng: random.Random
) -> list[tuple[int, ...]]:
    """``count`` groups of ``size`` rows (entry ids) for games of more seats: each a pair of
    ``pairs_to_play`` and ``size`` - 2 rows drawn from around it, whose games beside the pair
    inform the same boundary (a game of k seats is read as its pairs, ``fits.paired``)."""
    row = {entry: i for i, entry in enumerate(found.entries)}
    groups = []
    for a, b in pairs_to_play(found, cuts, count, rng):
        low, high = sorted((row[a], row[b]))
        near = [found.entries[i] for i in range(max(0, low - NEAR), min(len(found.entries), high + NEAR + 1))]
        others = [e for e in near if e not in (a, b)]
        if len(others) < size - 2:
            others = [e for e in found.entries if e not in (a, b)]
        if len(others) >= size - 2:
            groups.append((a, b, *rng.sample(others, size - 2)))
    return groups


def steer(found: confidence.Fitted, rng: random.Random | None = None) -> str:
    """After a fit of a running continuous stage: end it by its declared stopping rule, or
    schedule its next games where they separate the places that matter. What it did, in words."""
    stage = Stage.objects.select_related("contest").get(pk=found.fit.stage_id)
    if found.fit.frozen or stage.status != Stage.Status.RUNNING or not formats.of(stage.kind).continuous:
        return ""
    progress = counts.of_stages([stage.pk]).get(stage.pk, counts.Progress())
    limit = stage.params.get("stop_after_games")
    cuts = formats.places(stage)
    if limit and progress.finished >= int(limit):
        why = gettext("after %(games)s games: the declared limit of %(limit)s was reached") % {
            "games": progress.finished,
            "limit": int(limit),
        }
        if cuts:
            places = ", ".join(map(str, unsettled(stage, found) or cuts))
            why += " " + gettext("(places %(places)s not all settled)") % {"places": places}
        return why if lifecycle.end_stage(stage.pk, why) else ""
    if found.samples is None or not cuts:
        return ""
    open_cuts = unsettled(stage, found)
    if not open_cuts and stage.params.get("stop_when_settled"):
        why = gettext("places %(places)s settled at %(level)s after %(games)s games") % {
            "places": ", ".join(map(str, cuts)),
            "level": f"{fits.level(stage):.0%}",
            "games": progress.finished,
        }
        return why if lifecycle.end_stage(stage.pk, why) else ""
    return _more_games(stage, found, open_cuts, progress.open, rng or random.Random())


def _more_games(stage: Stage, found: confidence.Fitted, cuts: list[int], playing: int, rng: random.Random) -> str:
    """Keep two seats in play for each row of the stage (as many games as rows, in games of
    two), between the rows that matter."""
    size = formats.seats(stage)
    wanted = -(-2 * max(2, len(found.entries)) // size) - playing
    if not cuts or wanted <= 0 or len(found.entries) < size:
        return ""
    if size == 2:
        groups = pairs_to_play(found, cuts, wanted, rng)
    else:
        groups = groups_to_play(found, cuts, wanted, size, rng)
    made = schedule_groups(stage.pk, groups, rng)
    return f"{len(made)} games scheduled around places {', '.join(map(str, cuts))}" if made else ""
