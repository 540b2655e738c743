from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from contests.demo import DEMO_CONTESTS, DEMO_USERS
from contests.models import Contest, Stage
from contests.services import ensure_judges_group


@transaction.atomic
def load_demo() -> list[str]:
    """Create what is missing of the demo data and return a line per object created.

    Existing rows are never modified, so a second run changes nothing and a judge's edits
    to a demo contest survive a restart.
    """
    created: list[str] = []
    judges = ensure_judges_group()
    for spec in DEMO_USERS:
        if User.objects.filter(username=spec.username).exists():
            continue
        user = User(username=spec.username, is_superuser=spec.is_superuser, is_staff=spec.is_superuser or spec.is_judge)
        user.set_password(spec.password)
        user.save()
        if spec.is_judge:
            user.groups.add(judges)
        created.append(f"user {spec.username}")
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
                "max_source_bytes": spec.max_source_bytes,
            },
        )
        if not made:
            continue
        created.append(f"contest {spec.slug}")
        for order, (name, kind, params) in enumerate(spec.stages, start=1):
            Stage.objects.create(contest=contest, order=order, name=name, kind=kind, params=params)
    return created
