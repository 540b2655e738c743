"""The site under ASGI (uvicorn workers under gunicorn: the Procfile, the README, docker/).

An event stream (/api/events/) is a coroutine of Django's ASGI handler: it holds no thread
while it waits. Every other request is Django's WSGI application run in a pool of
``WEB_THREADS`` threads (a2wsgi), as the threaded server ran it before: the same persistent
database connections per thread, the same speed (bench/bench_streams.py measures both).
"""

import os

from a2wsgi import WSGIMiddleware
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")

streams = get_asgi_application()
pages = WSGIMiddleware(get_wsgi_application(), workers=int(os.environ.get("WEB_THREADS", "8")))
STREAMED = ("/api/events/",)


async def application(scope, receive, send):
    if scope["type"] == "http" and scope["path"] in STREAMED:
        await streams(scope, receive, send)
    elif scope["type"] == "lifespan":  # nothing to set up or tear down
        message = await receive()
        while message["type"] != "lifespan.shutdown":
            await send({"type": message["type"] + ".complete"})
            message = await receive()
        await send({"type": "lifespan.shutdown.complete"})
    else:
        await pages(scope, receive, send)
