from arbiter.threads import pin

pin()  # before anything loads numpy: the numerical libraries' threads, one (arbiter/threads.py)

from arbiter.celery import app as celery_app  # noqa: E402

__all__ = ["celery_app"]
