from django.apps import AppConfig
from django.db.models.signals import post_migrate


class ContestsConfig(AppConfig):
    name = "contests"

    def ready(self) -> None:
        post_migrate.connect(_ensure_groups, sender=self)


def _ensure_groups(sender, **kwargs) -> None:
    from contests.services import ensure_judges_group

    ensure_judges_group(using=kwargs.get("using", "default"))
