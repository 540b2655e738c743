import os
import sys

from django.core.wsgi import get_wsgi_application

from arbiter.env import ConfigError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
try:
    application = get_wsgi_application()
except ConfigError as e:
    sys.stderr.write(f"arbiter: configuration error: {e}\n")
    sys.exit(2)
