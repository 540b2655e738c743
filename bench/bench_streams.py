"""Pages while many event streams are open, as a markdown table (no pass/fail; the machine is
shared).

    python bench/bench_streams.py [--streams 1000] [--visitors 40] [--seconds 20]

A whole installation on loopback (its own PostgreSQL and Redis, the web server as the Procfile
runs it: gunicorn with two uvicorn workers), the demo contests loaded. ``--visitors`` concurrent
clients load pages (a contest, its standings, the match list API, the newest-event poll) for
``--seconds``: on the threaded server it replaced (gthread, 2 processes of 8 threads: a plain
baseline), then on the ASGI server with no stream open, then again with ``--streams`` idle
event streams open (each holds its connection for the whole run). The bound: the page p95 with
the streams within 1.5 times the p95 without them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import signal
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import common  # noqa: E402
from bench.bench_load import listening, visit  # noqa: E402
from judging.tests.installation import BIN, running_site  # noqa: E402


def more_files() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(max(soft, 8192), hard), hard))


THREADED = ["arbiter.wsgi", "--worker-class", "gthread", "--threads", "8"]  # the server before ASGI
ASGI = ["arbiter.asgi:application", "--worker-class", "arbiter.web_server.Worker"]


def start_web(site, port: int, server: list[str] = ASGI) -> subprocess.Popen:
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"], cwd=ROOT, env=site.env, check=True
    )
    env = {
        **site.env, "ALLOWED_HOSTS": "127.0.0.1", "API_RATE_LIMIT": "1000000/min",
        "EVENTS_STREAMS_PER_CLIENT": "100000", "EVENTS_STREAM_SECONDS": "3600",
    }  # fmt: skip
    web = subprocess.Popen(
        [
            str(BIN / "gunicorn"), *server, "--bind", f"127.0.0.1:{port}", "--workers", "2", "--no-control-socket",
            "--log-level", "warning",
        ],
        cwd=ROOT, env=env, start_new_session=True, preexec_fn=more_files,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    return listening(web, port)


async def open_streams(port: int, count: int) -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    """``count`` idle event streams, each read up to its first comment, then left open."""
    opened = []
    request = f"GET /api/events/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n".encode()

    async def one():
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(request)
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"stream of"), 60)
        assert b" 200 " in head.split(b"\r\n", 1)[0], head[:200]
        opened.append((reader, writer))

    for start in range(0, count, 100):  # a hundred at a time, as visitors arrive
        await asyncio.gather(*(one() for _ in range(min(100, count - start))))
    return opened


def p95(found: list[float]) -> float:
    found = sorted(found)
    return found[min(len(found) - 1, int(0.95 * len(found)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--visitors", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=20)
    common.add_port_option(parser)
    args = parser.parse_args()
    more_files()
    with running_site(base=common.base()) as site:
        site.django("from web.demo.load import load_demo; load_demo(); print(1)")
        paths = {
            "contest page": ["/contests/chomp/"],
            "standings page": ["/contests/chomp/standings/"],
            "match list API": ["/api/matches/?contest=chomp"],
            "live poll (newest event)": ["/api/events/head/?contest=chomp"],
        }
        threaded_port = common.port(args.port)
        web = start_web(site, threaded_port, THREADED)
        try:  # the same pages on the threaded server it replaces, for a plain comparison
            base = f"http://127.0.0.1:{threaded_port}"
            asyncio.run(visit(base, paths, 3, 10**6, args.visitors))
            threaded, _ = asyncio.run(visit(base, paths, args.seconds, 10**6, args.visitors))
        finally:
            os.killpg(web.pid, signal.SIGTERM)
            web.wait(timeout=30)
        port = common.port(args.port)  # the threaded server has let it go
        web = start_web(site, port)
        base = f"http://127.0.0.1:{port}"
        try:
            asyncio.run(visit(base, paths, 3, 10**6, args.visitors))  # warm up both processes
            quiet, quiet_errors = asyncio.run(visit(base, paths, args.seconds, 10**6, args.visitors))

            async def with_streams():
                streams = await open_streams(port, args.streams)
                timings = await visit(base, paths, args.seconds, 10**6, args.visitors)
                alive = sum(not reader.at_eof() for reader, _ in streams)
                for _, writer in streams:
                    writer.close()
                return timings, alive

            (busy, busy_errors), alive = asyncio.run(with_streams())
        finally:
            os.killpg(web.pid, signal.SIGTERM)
            web.wait(timeout=30)
    print(f"{args.visitors} visitors for {args.seconds:.0f} s, without and with {args.streams} idle event streams "
          f"open ({alive} still open at the end)\n")  # fmt: skip
    print("| page | requests (no streams) | p50 | p95 | requests (streams) | p50 | p95 | p95 ratio | errors |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    every_quiet, every_busy = [], []
    for kind in paths:
        a, b = quiet[kind], busy[kind]
        every_quiet += a
        every_busy += b
        failed = sum(quiet_errors[kind].values()) + sum(busy_errors[kind].values())
        print(
            f"| {kind} | {len(a)} | {statistics.median(a) * 1000:.0f} ms | {p95(a) * 1000:.0f} ms | {len(b)} | "
            f"{statistics.median(b) * 1000:.0f} ms | {p95(b) * 1000:.0f} ms | {p95(b) / p95(a):.2f}× | {failed} |"
        )
    every_threaded = [t for kind in paths for t in threaded[kind]]
    print(
        f"| every page, threaded server (gthread, 2 × 8) | {len(every_threaded)} | "
        f"{statistics.median(every_threaded) * 1000:.0f} ms | {p95(every_threaded) * 1000:.0f} ms | | | | | |"
    )
    print(
        f"| every page | {len(every_quiet)} | {statistics.median(every_quiet) * 1000:.0f} ms | "
        f"{p95(every_quiet) * 1000:.0f} ms | {len(every_busy)} | {statistics.median(every_busy) * 1000:.0f} ms | "
        f"{p95(every_busy) * 1000:.0f} ms | {p95(every_busy) / p95(every_quiet):.2f}× | |"
    )


if __name__ == "__main__":
    common.exit_on_signals()
    main()
