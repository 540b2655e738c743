from django.apps import AppConfig
from django.db.models.signals import post_migrate


class ContestsConfig(AppConfig):
    name = "contests"

    def ready(self) -> None:
        # After every app's migration, not only this one's: the permissions are made when
        # each app's migrations have run.
        post_migrate.connect(_ensure_groups, dispatch_uid="contests.ensure_groups")
        from contests.hosted_games import SOURCE
        from games import registry

        registry.GAMES.install(SOURCE)  # the uploaded games, beside the built-in ones


def _ensure_groups(sender, **kwargs) -> None:
    from contests.services import ensure_organisers_group

    ensure_organisers_group(using=kwargs.get("using", "default"))
