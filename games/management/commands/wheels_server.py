"""Run the Solitaire 500 game server alone, so that contestants can test their clients at home:

    python manage.py wheels_server [--port 5200] [--decks FILE | --count N --seed S] [--passwd FILE] [--no-delays]

Without --passwd it reads ./passwd when there is one (the page's "whoami:password data in its
invocation directory"), else it lets anyone in under any name.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.wheels.cards import DeckError, decks_from_seed, read_decks
from games.wheels.server import WheelsServer, read_passwd, serve_forever


class Command(BaseCommand):
    help = "Run the Wheels (Solitaire 500) game server on a TCP port."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
        parser.add_argument("--port", type=int, default=5200, help="TCP port (default 5200, the pace car's)")
        parser.add_argument("--decks", type=Path, help="a deck file: one deck of 52 cards per line, top card first")
        parser.add_argument("--count", type=int, default=8, help="shuffled decks when no --decks (default 8)")
        parser.add_argument("--seed", type=int, default=1, help="the shuffle's seed (default 1)")
        parser.add_argument("--passwd", type=Path, help="name:password lines (default ./passwd if present)")
        parser.add_argument("--no-delays", action="store_true", help="no move rate limit, no pit stops")

    def handle(self, *args, **options) -> None:
        try:
            if options["decks"]:
                decks = read_decks(options["decks"].read_text())
            elif 1 <= options["count"] <= 10_000:
                decks = decks_from_seed(options["count"], options["seed"])
            else:
                raise CommandError("--count must be between 1 and 10000")
            passwd_file = options["passwd"] or (Path("passwd") if Path("passwd").is_file() else None)
            passwd = read_passwd(passwd_file) if passwd_file else None
        except (OSError, DeckError, ValueError) as e:
            raise CommandError(str(e)) from None
        if passwd is None:
            self.stderr.write("no passwd file: anyone may log in under any name")
        server = WheelsServer(decks, passwd, delays=not options["no_delays"])
        try:
            serve_forever(server, options["host"], options["port"], lambda text: self.stdout.write(text))
        except OSError as e:
            raise CommandError(f"cannot listen on {options['host']}:{options['port']}: {e}") from None
