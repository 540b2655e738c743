"""Upload a game the platform has no code for: its manifest and referee (docs/referee-protocol.md).

python manage.py add_game examples/games/connect-four      # a folder, or a .zip / .tar.gz

The files become the game's next version; the conformance kit is run here and now, and the
version is accepted (playable, and offered to contests as name@version) only if it passes.
"""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext, gettext_lazy

from games.hosted import ManifestError
from judging.management.language import SpeaksTheShellsLanguage
from judging.uploaded import hosting
from sandbox.errors import SandboxError, UnsafeArchive


class Command(SpeaksTheShellsLanguage, BaseCommand):
    help = gettext_lazy(
        "Upload a game (a folder or archive with its game.json), run its conformance kit, accept it if it passes."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("archive", help=gettext("the game's folder, .zip or .tar.gz, game.json at its top"))
        parser.add_argument("--user", help=gettext("the organiser it is uploaded as (a username)"))

    def handle(self, *args, **options) -> None:
        path = Path(options["archive"])
        user = None
        if options["user"]:
            user = get_user_model().objects.filter(username=options["user"]).first()
            if user is None:
                raise CommandError(gettext("no user %(name)s") % {"name": repr(options["user"])})
        try:
            files = hosting.read_folder(path) if path.is_dir() else hosting.read_archive(path.read_bytes())
            version = hosting.upload(files, user)
        except (ManifestError, UnsafeArchive) as e:
            raise CommandError(gettext("%(path)s: refused: %(why)s") % {"path": path, "why": e}) from None
        except OSError as e:
            raise CommandError(f"{path}: {e.strerror or e}") from None
        self.stdout.write(
            gettext("%(key)s: %(title)s, uploaded; running its conformance kit…")
            % {"key": version.key, "title": version.title}
        )
        try:
            version = hosting.check(version)
        except SandboxError as e:
            raise CommandError(
                gettext("the sandbox cannot run the kit here: %(why)s; %(key)s stays unchecked")
                % {"why": e, "key": version.key}
            ) from None
        report = version.report
        for game in report["games"]:
            mark = "ok  " if not game["problems"] else "FAIL"
            result = game.get("result") or {}
            said = " ".join(f"{p:g}" for p in result.get("points", [])) or "-"
            self.stdout.write(
                f"{mark} {game['what']}: {' v '.join(game['players'])}, "
                + gettext("seed %(seed)s: %(said)s (%(seconds)s s)")
                % {"seed": game["seed"], "said": said, "seconds": f"{game.get('seconds', 0):g}"}
            )
        for problem in report["problems"]:
            self.stdout.write(f"  {problem}")
        if version.status != version.Status.ACCEPTED:
            n = len(report["problems"])
            said = gettext("%(key)s refused by the conformance kit (%(n)s problems)")
            raise CommandError(said % {"key": version.key, "n": n})
        accepted = gettext("%(key)s accepted (%(seconds)s s): contests may play it") % {
            "key": version.key,
            "seconds": f"{report['seconds']:g}",
        }
        self.stdout.write(self.style.SUCCESS(accepted))
