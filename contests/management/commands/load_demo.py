from django.core.management.base import BaseCommand

from contests.demo.load import load_demo


class Command(BaseCommand):
    help = "Create the demo accounts and contests. Safe to run again: what exists is left as it is."

    def handle(self, *args, **options) -> None:
        created = load_demo()
        if created:
            for line in created:
                self.stdout.write(f"created {line}")
        else:
            self.stdout.write("demo data already present; nothing changed")
