#!/usr/bin/env python
"""Django's command-line utility for Arbiter."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
    from django.conf import settings
    from django.core.management import execute_from_command_line

    from arbiter.env import ConfigError

    try:
        settings.INSTALLED_APPS  # noqa: B018 - load the settings now, to report a bad value in one line
    except ConfigError as e:
        sys.stderr.write(f"arbiter: configuration error: {e}\n")
        sys.exit(2)
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
