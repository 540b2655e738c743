from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction

from contests import roles
from contests.models import Contest, ContestRole, Entry, Stage, Submission
from contests.services import ensure_organisers_group
from judging.models import Match
from judging.record import formats, lifecycle
from web.demo import DEMO_CONTESTS, DEMO_USERS, DemoContest

log = logging.getLogger(__name__)
ORGANISER = "arbiter"  # owns the reference programs; cannot log in
PLAYED_HERE = 6  # matches of each continuous stage played before the site starts


@transaction.atomic
def load_demo(queue_builds: bool = True) -> list[str]:
    """Create what is missing of the demo data and return a line per object created.

    Existing rows are never modified, so a second run changes nothing and a judge's edits
    to a demo contest survive a restart. The reference programs it enters are queued for the
    workers to build (once the transaction commits), unless ``queue_builds`` is off because
    ``play_demo`` builds them in this process.
    """
    created: list[str] = []
    organisers = ensure_organisers_group()
    for spec in DEMO_USERS:
        if User.objects.filter(username=spec.username).exists():
            continue
        user = User(username=spec.username, is_superuser=spec.is_superuser, is_staff=spec.is_superuser)
        user.set_password(spec.password)
        user.save()
        if spec.is_organiser:
            user.groups.add(organisers)
        created.append(f"user {spec.username}")
    organiser, made = User.objects.get_or_create(username=ORGANISER, defaults={"first_name": "Arbiter organisers"})
    if made:
        organiser.set_unusable_password()
        organiser.save()
    for spec in DEMO_CONTESTS:
        contest, made = Contest.objects.get_or_create(
            slug=spec.slug,
            defaults={
                "title": spec.title,
                "summary": spec.summary,
                "game": spec.game,
                "game_params": spec.game_params,
                "clock": spec.clock,
                "rules": spec.rules,
                "entry_form": spec.entry_form,
                "language_table": spec.language_table,
                "max_source_bytes": spec.max_source_bytes,
                "source_counts": spec.source_counts,
                "max_executable_bytes": spec.max_executable_bytes,
                "max_submissions_per_week": spec.max_submissions_per_week,
                "max_entries_per_user": spec.max_entries_per_user,
            },
        )
        if not made:
            continue
        created.append(f"contest {spec.slug}")
        _name_people(contest)
        for order, (name, kind, params) in enumerate(spec.stages, start=1):
            stage = Stage.objects.create(contest=contest, order=order, name=name, kind=kind, params=params)
            if formats.of(kind).continuous and contest.is_hosted:  # open contests play as versions arrive
                lifecycle.run_stage(stage)
        for submission in _enter_references(contest, spec, organiser):
            if queue_builds:
                from judging import dispatch

                dispatch.queue_build(submission.pk)
                created.append(f"queued the build of {submission.entry.name} for {spec.slug}")
    return created


def _name_people(contest: Contest) -> None:
    """The demo's organiser owns the demo contests; the demo's judge is named judge of each."""
    for spec in DEMO_USERS:
        user = User.objects.filter(username=spec.username).first()
        if user is None:
            continue
        if spec.is_organiser and roles.owner_of(contest) is None:
            roles.make_owner(contest, user)
        elif spec.is_judge:
            ContestRole.objects.get_or_create(contest=contest, user=user, defaults={"role": ContestRole.Role.JUDGE})


def _enter_references(contest: Contest, spec: DemoContest, organiser: User) -> list[Submission]:
    import hashlib

    from django.core.files.base import ContentFile

    from sandbox.languages import TABLES, language_for

    entered = []
    for name, path, *changed in spec.references:
        data = (Path(settings.BASE_DIR) / path).read_bytes()
        for was, now in (changed[0] if changed else {}).items():
            if was.encode() not in data:
                raise ValueError(f"demo reference {name}: {was!r} is not in {path}")
            data = data.replace(was.encode(), now.encode())
        entry = Entry.objects.create(contest=contest, user=organiser, name=name, is_reference=True)
        submission = Submission(
            entry=entry,
            number=1,
            language=language_for(path, data, TABLES[contest.language_table].commands).name,
            filename=Path(path).name,
            sha256=hashlib.sha256(data).hexdigest(),
            size=len(data),
        )
        submission.source.save(submission.filename, ContentFile(data), save=False)
        submission.save()
        entered.append(submission)
    return entered


PROGRESS_EVERY = 2  # games: a line of progress while a stage's are played


def play_demo(say: Callable[[str], None] | None = None) -> list[str]:
    """Build the demo's reference programs and play the games of its continuous stages here
    and now, with the real sandbox, so that a newcomer sees standings and replays at once.
    Only games not yet played are played, so a second run changes nothing (a build or a game a
    stop cut short is taken up again). The round robins and finals wait for a judge to run them.
    ``say`` is told each line as it is done (each build and stage, counted), for a console or
    a worker's log; the lines are also returned."""
    from judging.play import builds, matches

    done = []

    def tell(line: str) -> None:
        done.append(line)
        if say is not None:
            say(line)

    waiting = list(
        Submission.objects.filter(
            entry__is_reference=True, status__in=[Submission.Status.QUEUED, Submission.Status.BUILDING]
        ).select_related("entry__contest")
    )
    for number, submission in enumerate(waiting, start=1):
        try:
            builds.build_submission(submission.pk)
        except Exception as e:  # the site still starts; the worker retries the build
            log.warning("demo: could not build %s: %s", submission.entry.name, e)
            continue
        tell(f"built {submission.entry.name} for {submission.entry.contest.slug} ({number} of {len(waiting)})")
    for spec in DEMO_CONTESTS:
        continuous = Stage.objects.filter(
            contest__slug=spec.slug, kind__in=formats.continuous_kinds(), status=Stage.Status.RUNNING
        )
        for stage in continuous:
            formats.of(stage.kind).start(stage)  # what the versions active now still owe
            queued = list(stage.matches.filter(status=Match.Status.QUEUED).values_list("pk", flat=True))
            if not queued:
                continue
            here = queued[:PLAYED_HERE]  # the rest are the worker's, once the site is up
            if say is not None:
                say(f"playing {stage}: {len(here)} games")
            for n, pk in enumerate(here, start=1):
                try:
                    matches.play_now(pk)
                except Exception as e:  # e.g. no C compiler for Sudoku's counter: the worker tries again
                    log.warning("demo: match %s of %s not played here: %s", pk, stage, e)
                if say is not None and n % PROGRESS_EVERY == 0 and n < len(here):
                    say(f"  {n} of {len(here)}")
            finished = stage.matches.filter(status=Match.Status.FINISHED).count()
            tell(f"played {stage}: {finished} games")
        run_now = ["batch", "qualification", "race"]
        pending = Stage.objects.filter(contest__slug=spec.slug, kind__in=run_now, status=Stage.Status.PENDING)
        for stage in pending.order_by("order"):
            # an output-only contest's final run, for the judges to verify; a race's trial laps, then its race
            for line in _run_batch(stage):
                tell(line)
    return done


def demo_left_to_play() -> bool:
    """Whether ``play_demo`` has anything left to do: a reference program not built, or a
    stage it runs not yet run (the demo's play stopped halfway, or never started)."""
    if Submission.objects.filter(
        entry__is_reference=True,
        entry__contest__slug__in=[spec.slug for spec in DEMO_CONTESTS],
        status__in=[Submission.Status.QUEUED, Submission.Status.BUILDING],
    ).exists():
        return True
    return Stage.objects.filter(
        contest__slug__in=[spec.slug for spec in DEMO_CONTESTS],
        kind__in=["batch", "qualification", "race"],
        status=Stage.Status.PENDING,
    ).exists()


def _run_batch(stage: Stage) -> list[str]:
    from judging.play import matches
    from judging.record import formats

    try:
        made = lifecycle.run_stage(stage)
    except formats.StageError as e:
        log.warning("demo: %s not run: %s", stage, e)
        return []
    for match in made:
        try:
            matches.play_now(match.pk)
        except Exception as e:  # the worker tries again
            log.warning("demo: match %s of %s not played here: %s", match.pk, stage, e)
    finished = stage.matches.filter(status=Match.Status.FINISHED).count()
    return [f"played {stage}: {finished} games"]  # verified by the verifier; the judges' own verification waits
