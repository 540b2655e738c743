from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext

from web.demo.load import demo_left_to_play, load_demo, play_demo


class Command(BaseCommand):
    help = (
        "Create the demo accounts and contests, and queue the builds of their reference programs for the "
        "workers. Safe to run again: what exists is left as it is."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--play",
            action="store_true",
            help="build the reference programs here and now (not in a worker) and play the demo's first games",
        )
        parser.add_argument(
            "--background",
            action="store_true",
            help="leave the builds and the first games to one task of a worker (make run: the site starts at once)",
        )

    def handle(self, *args, **options) -> None:
        if options["play"] and options["background"]:
            raise CommandError(gettext("--play or --background, not both"))
        here_or_worker = options["play"] or options["background"]
        lines = load_demo(queue_builds=not here_or_worker)
        for line in lines:
            self.stdout.write(line)
        if options["play"]:
            lines += play_demo(say=self._say)
        elif options["background"] and demo_left_to_play():
            from web.tasks import play_demo_task

            play_demo_task.apply_async()
            lines.append("queued the demo's builds and first games for the worker")
            self.stdout.write(lines[-1])
        if not lines:
            self.stdout.write("demo data already present; nothing changed")

    def _say(self, line: str) -> None:
        self.stdout.write(line)
        self.stdout.flush()
