"""The game server on its own, for contestants testing their clients at home (no Django, no
database): ``python -m games.wheels [--port 5200] [--decks FILE | --count N --seed S]
[--passwd FILE] [--no-delays]``, the same as ``manage.py wheels_server``. Its standard output
is the server log: each login and disconnection, each finish, and what each ``dump`` prints. Without --passwd it
reads ./passwd when there is one (the page's "whoami:password data in its invocation
directory"), else it lets anyone in under any name."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from games.wheels.cards import DeckError, decks_from_seed, read_decks
from games.wheels.server import WheelsServer, read_passwd, serve_forever


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=5200, help="TCP port (default 5200, the pace car's)")
    parser.add_argument("--decks", type=Path, help="a deck file: one deck of 52 cards per line, top card first")
    parser.add_argument("--count", type=int, default=8, help="shuffled decks when no --decks (default 8)")
    parser.add_argument("--seed", type=int, default=1, help="the shuffle's seed (default 1)")
    parser.add_argument("--passwd", type=Path, help="name:password lines (default ./passwd if present)")
    parser.add_argument("--no-delays", action="store_true", help="no rate limits, no pit stops")


def make_server(options: dict, warn, say=None) -> WheelsServer:
    """The server the options ask for; ValueError (in words) for a bad deck or passwd file."""
    try:
        if options["decks"]:
            decks = read_decks(options["decks"].read_text())
        elif 1 <= options["count"] <= 10_000:
            decks = decks_from_seed(options["count"], options["seed"])
        else:
            raise ValueError("--count must be between 1 and 10000")
        passwd_file = options["passwd"] or (Path("passwd") if Path("passwd").is_file() else None)
        passwd = read_passwd(passwd_file) if passwd_file else None
    except (OSError, DeckError) as e:
        raise ValueError(str(e)) from None
    if passwd is None:
        warn("no passwd file: anyone may log in under any name")
    return WheelsServer(decks, passwd, delays=not options["no_delays"], echo=say)


def run(options: dict, say, warn) -> None:
    server = make_server(options, warn, say)
    try:
        serve_forever(server, options["host"], options["port"], say)
    except OSError as e:
        raise ValueError(f"cannot listen on {options['host']}:{options['port']}: {e}") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.wheels", description="The Wheels (Solitaire 500) server.")
    add_arguments(parser)
    options = vars(parser.parse_args(argv))
    try:
        run(options, lambda text: print(text, flush=True), lambda text: print(text, file=sys.stderr, flush=True))
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0
