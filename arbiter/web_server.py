"""The gunicorn worker class of the web hosts: uvicorn's, without its proxy headers.

uvicorn believes ``X-Forwarded-For`` and ``X-Forwarded-Proto`` from ``--forwarded-allow-ips``
(by default 127.0.0.1 and ::1) and writes the client it names over the connection's address.
Under ``make run`` that is every visitor on the machine, and behind a proxy on the same host
every visitor at all: 25 wrong passwords, each with another X-Forwarded-For, were never locked
out. Arbiter reads the header itself, from ``TRUSTED_PROXIES`` only (``accounts.addresses``),
and the scheme from ``BEHIND_HTTPS_PROXY``; so the server passes the connection's own address.

    gunicorn arbiter.asgi:application --worker-class arbiter.web_server.Worker ...
"""

from __future__ import annotations

from uvicorn_worker import UvicornWorker


class Worker(UvicornWorker):
    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "proxy_headers": False}
