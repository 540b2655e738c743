"""Run the Solitaire 500 game server alone (see games/wheels/cli.py, which the contest's
download runs without Django as ``python -m games.wheels``):

    python manage.py wheels_server [--port 5200] [--decks FILE | --count N --seed S] [--passwd FILE] [--no-delays]
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.wheels import cli


class Command(BaseCommand):
    help = "Run the Wheels (Solitaire 500) game server on a TCP port."

    def add_arguments(self, parser) -> None:
        cli.add_arguments(parser)

    def handle(self, *args, **options) -> None:
        try:
            cli.run(options, lambda text: self.stdout.write(text), lambda text: self.stderr.write(text))
        except ValueError as e:
            raise CommandError(str(e)) from None
