"""The Celery application. Tasks live in each app's ``tasks.py``."""

import os

from celery import Celery

from arbiter import broker

broker.install()  # before any connection: filesystem:// messages written whole
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")

app = Celery("arbiter")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
