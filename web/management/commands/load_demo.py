from django.core.management.base import BaseCommand

from web.demo.load import load_demo, play_demo


class Command(BaseCommand):
    help = (
        "Create the demo accounts and contests, and queue the builds of their reference programs for the "
        "workers. Safe to run again: what exists is left as it is."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--play",
            action="store_true",
            help="build the reference programs here and now (not in a worker) and play the demo round robins",
        )

    def handle(self, *args, **options) -> None:
        lines = load_demo(queue_builds=not options["play"])
        for line in lines:
            self.stdout.write(line)
        if options["play"]:
            lines += play_demo(say=self._say)  # each step as it happens: it takes minutes the first time
        if not lines:
            self.stdout.write("demo data already present; nothing changed")

    def _say(self, line: str) -> None:
        self.stdout.write(line)
        self.stdout.flush()
