from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext

from accounts.models import ApiToken


class Command(BaseCommand):
    help = "Create a personal API token for a user and print it (it is stored hashed: shown this once)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", default="command line", help="what the token is for")

    def handle(self, *args, **options) -> None:
        user = get_user_model().objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(gettext("no user named %(name)r") % {"name": options["username"]})
        _, key = ApiToken.issue(user, options["name"])
        self.stdout.write(key)
