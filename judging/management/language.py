"""The language a command speaks from a shell: the shell's own (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``, in the order gettext reads them) when the site has it, else the
site's ``LANGUAGE_CODE``. Only a command run from a shell asks (``run_from_argv``):
``call_command`` from code keeps the caller's language, and its JSON stays as it is in any."""

from __future__ import annotations

import contextlib
import os

from django.utils import translation


def shell_language(environ=os.environ) -> str | None:
    """The site's language the shell asks for, or None (unset, C, POSIX, or one the site lacks)."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = (environ.get(name) or "").split(":")[0]
        if not value:
            continue
        code = value.split(".")[0].split("@")[0]
        if code in ("C", "POSIX"):
            return None
        try:
            return translation.get_supported_language_variant(translation.to_language(code))
        except LookupError:
            return None
    return None


class SpeaksTheShellsLanguage:
    """A command mixin: run from a shell, it prints for people in the shell's language. Its
    ``help`` may be marked lazily: argparse takes a plain string, made when the parser is."""

    def create_parser(self, prog_name, subcommand, **kwargs):
        self.help = str(self.help)
        return super().create_parser(prog_name, subcommand, **kwargs)

    def run_from_argv(self, argv):
        code = shell_language()
        with translation.override(code) if code else contextlib.nullcontext():
            return super().run_from_argv(argv)
