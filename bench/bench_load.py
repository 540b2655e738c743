"""Visitors on the site while two workers play a tournament, as a markdown table (no pass/fail;
the machine is shared).

    python bench/bench_load.py [--visitors 40] [--seconds 30] [--entries 12]

A whole installation on loopback (its own PostgreSQL and Redis, the web server as in production, two
Celery workers) plays a double round robin of fast Chomp programs; meanwhile ``--visitors``
concurrent clients (bounded: at most ``--seconds`` of load and ``--requests`` requests) read
the standings page and its API, match pages and their replays, the match list API and the
newest-event poll that live pages make. Each row: requests, median and 95th percentile of the
answer time, errors (each status other than 200, or no answer). The API's rate limit per
client is lifted for the run (every visitor comes from one address). The plain baseline,
measured in the same run under the same load: a static file the same server sends.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
import uuid
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from bench import common  # noqa: E402
from judging.tests.installation import BIN, running_site  # noqa: E402

SETUP = """
from pathlib import Path
from django.contrib.auth.models import User
from contests.models import Contest, Entry, Stage
from contests.services import submit
from judging.play import builds
from judging.record import formats
from judging.record import lifecycle

user, _ = User.objects.get_or_create(username="organiser")
contest = Contest.objects.create(slug={slug!r}, title="Load", game="chomp", game_params={{"rows": 12, "cols": 12}},
                                 max_entries_per_user=1000)
stage = Stage.objects.create(contest=contest, order=1, name="Round robin", kind="round_robin", params={{"games_per_pairing": 2}})
source = Path("judging/tests/programs/chomp_last.c").read_bytes()
for n in range({entries}):
    entry = Entry.objects.create(contest=contest, user=user, name=f"Visitor bait {{n}}")
    builds.build_submission(submit(entry, filename="last.c", data=source).pk)
warm = lifecycle.run_stage(stage)
print(json.dumps({{"stage": stage.pk, "matches": [m.pk for m in warm]}}))
"""


def start_web(site, port: int) -> subprocess.Popen:
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=site.env, check=True
    )
    web = subprocess.Popen(
        [
            str(BIN / "gunicorn"), "arbiter.asgi:application", "--worker-class", "arbiter.web_server.Worker",
            "--bind", f"127.0.0.1:{port}", "--workers", "2", "--no-control-socket", "--log-level", "warning",
        ],
        cwd=ROOT, env={**site.env, "ALLOWED_HOSTS": "127.0.0.1", "API_RATE_LIMIT": "1000000/min"}, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    return listening(web, port)


def listening(web: subprocess.Popen, port: int, seconds: float = 60) -> subprocess.Popen:
    """``web`` once it answers on ``port`` (a server starting: ``seconds`` at most)."""
    deadline = time.monotonic() + seconds
    while True:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return web
        assert web.poll() is None and time.monotonic() < deadline, "gunicorn did not start"
        time.sleep(0.2)


async def visit(base: str, paths: dict[str, list[str]], seconds: float, requests: int, visitors: int):
    timings: dict[str, list[float]] = defaultdict(list)
    errors: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    deadline = time.monotonic() + seconds
    budget = [requests]
    kinds = list(paths)

    async def visitor(client: httpx.AsyncClient) -> None:
        while time.monotonic() < deadline and budget[0] > 0:
            budget[0] -= 1
            kind = random.choice(kinds)
            start = time.perf_counter()
            try:
                response = await client.get(random.choice(paths[kind]))
                status = str(response.status_code)
            except httpx.HTTPError as e:
                status = type(e).__name__
            timings[kind].append(time.perf_counter() - start)
            if status != "200":
                errors[kind][status] += 1

    limits = httpx.Limits(max_connections=visitors, max_keepalive_connections=visitors)
    async with httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as client:
        await asyncio.gather(*(visitor(client) for _ in range(visitors)))
    return timings, errors


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--visitors", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--requests", type=int, default=20000)
    parser.add_argument("--entries", type=int, default=12)
    common.add_port_option(parser)
    args = parser.parse_args()
    with running_site(base=common.base()) as site:
        site.env["WORKER_HEARTBEAT_SECONDS"] = "5"
        for name in ("alpha", "beta"):
            site.start_worker(f"{name}-{uuid.uuid4().hex[:4]}")
        slug = f"load-{uuid.uuid4().hex[:6]}"
        made = site.django(SETUP.format(slug=slug, entries=args.entries))
        port = common.port(args.port)
        web = start_web(site, port)
        try:
            # Wait for a few games, so that there are replays to read.
            while (
                site.sql(
                    "SELECT count(*) FROM contests_match WHERE stage_id = %s AND status = 'finished'", made["stage"]
                )[0][0]
                < 4
            ):
                time.sleep(0.2)
            ids = [m for m in made["matches"][:40]]
            paths = {
                "static file (baseline)": ["/static/favicon.svg"],
                "standings page": [f"/contests/{slug}/standings/"],
                "standings API": [f"/api/contests/{slug}/standings/"],
                "match page": [f"/matches/{pk}/" for pk in ids],
                "replay JSON": [f"/matches/{pk}/replay.json" for pk in ids[:4]],
                "match list API": [f"/api/matches/?contest={slug}"],
                "live poll (newest event)": [f"/api/events/head/?contest={slug}"],
            }
            finished0 = site.sql(
                "SELECT count(*) FROM contests_match WHERE stage_id = %s AND status = 'finished'", made["stage"]
            )[0][0]
            started = time.monotonic()
            timings, errors = asyncio.run(
                visit(f"http://127.0.0.1:{port}", paths, args.seconds, args.requests, args.visitors)
            )
            took = time.monotonic() - started
            finished1 = site.sql(
                "SELECT count(*) FROM contests_match WHERE stage_id = %s AND status = 'finished'", made["stage"]
            )[0][0]
        finally:
            os.killpg(web.pid, signal.SIGTERM)
            web.wait(timeout=30)
        site.stop_workers()
    total = sum(len(t) for t in timings.values())
    print(
        f"{args.visitors} visitors for {took:.0f} s ({total} requests, {total / took:.0f} a second) while two workers "
        f"played {finished1 - finished0} games of a {args.entries}-entry round robin\n"
    )
    base = statistics.median(timings["static file (baseline)"])
    print("| what | requests | median | p95 | median / baseline | errors |")
    print("|---|---:|---:|---:|---:|---:|")
    for kind in paths:
        found = sorted(timings[kind])
        if not found:
            continue
        p95 = found[min(len(found) - 1, int(0.95 * len(found)))]
        med = statistics.median(found)
        failed = ", ".join(f"{n} × {status}" for status, n in sorted(errors[kind].items())) or "0"
        print(f"| {kind} | {len(found)} | {med * 1000:.1f} ms | {p95 * 1000:.1f} ms | {med / base:.1f}× | {failed} |")


if __name__ == "__main__":
    common.exit_on_signals()
    main()
