"""python manage.py run_program PATH [--lang L] [--cpu S] [--wall S] [--mem MB] [--stdin FILE] [-- ARGS...]

Builds (if needed) and runs one program in the sandbox, and prints its result as one JSON
object. Exit status 0 whenever the program was judged, whatever the verdict."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext

from sandbox.cli import judge_file
from sandbox.errors import SandboxError
from sandbox.languages import LANGUAGES
from sandbox.limits import Limits


class Command(BaseCommand):
    help = "Build and run one program in the sandbox; print its result as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path)
        parser.add_argument("--lang", choices=sorted(LANGUAGES), help="default: from the file's extension")
        parser.add_argument("--cpu", type=float, default=1.0, help="CPU seconds (default 1)")
        parser.add_argument("--wall", type=float, default=None, help="wall seconds (default 2 × cpu + 1)")
        parser.add_argument("--mem", type=int, default=256, help="memory in MB (default 256)")
        parser.add_argument("--stdin", type=Path, help="file to give as standard input")

    def run_from_argv(self, argv: list[str]) -> None:
        # Everything after "--" belongs to the program, not to this command.
        self.program_args: list[str] = []
        if "--" in argv:
            cut = argv.index("--")
            argv, self.program_args = argv[:cut], argv[cut + 1 :]
        super().run_from_argv(argv)

    def handle(self, *args: Any, **options: Any) -> None:
        path: Path = options["path"]
        if not path.is_file():
            raise CommandError(gettext("no such file: %(path)s") % {"path": path})
        stdin = options["stdin"].read_bytes() if options["stdin"] else b""
        limits = Limits(cpu_s=options["cpu"], wall_s=options["wall"], memory_mb=options["mem"])
        try:
            report = judge_file(
                path, language=options["lang"], limits=limits, stdin=stdin, args=getattr(self, "program_args", [])
            )
        except (SandboxError, ValueError) as e:
            raise CommandError(str(e)) from e
        self.stdout.write(json.dumps(report))
