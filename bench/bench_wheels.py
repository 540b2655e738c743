"""The Wheels game server under 24 clients, delays off: the instructions a second it answers
and its CPU per client, as a markdown table (no pass/fail; the machine is shared).

    python bench/bench_wheels.py [--clients 24] [--seconds 8] [--runs 3]

The server runs as contestants run it (``python -m games.wheels --no-delays``), in a process of
its own whose CPU is read from /proc. The clients are one asyncio process of ``--clients``
connections, each playing its game as fast as the answers come: one command a line, the
legal moves it sees on the tops, then ``lay``, a pick-up or ``win``. The baseline is a plain
asyncio line server in the same kind of process, answering every line with a status-sized
line, under the same clients sending the same lines: what a line's round trip costs before
any game is played.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import common  # noqa: E402

ECHO = """
import asyncio, sys
ANSWER = b"OK 3h Js Kd Ks time 883 round 77 move 1271 3 sets left in deck 4 of 8 decks\\n"
async def serve(reader, writer):
    writer.write(b"login\\n")
    await reader.readline()
    writer.write(ANSWER)
    while line := await reader.readline():
        writer.write(ANSWER)
        await writer.drain()
async def main():
    server = await asyncio.start_server(serve, "127.0.0.1", int(sys.argv[1]))
    await server.serve_forever()
asyncio.run(main())
"""


def _cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _start(command: list[str], port: int) -> subprocess.Popen:
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit(f"{command} did not start")


async def _client(port: int, name: str, until: float, counts: list[int], rng: random.Random) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    await reader.readline()
    writer.write(f"{name}:x\n".encode())
    status = (await reader.readline()).decode()
    pending: list[str] = []
    while time.monotonic() < until:
        if not pending:
            pending = _next_commands(status, rng)
        writer.write(pending.pop(0).encode() + b"\n")
        answer = (await reader.readline()).decode()
        if not answer:
            return
        counts[0] += 1
        if answer.startswith("OK ") and " time " in answer:
            status = answer
    writer.close()


def _next_commands(status: str, rng: random.Random) -> list[str]:
    """What a plain player does next on these tops: a legal move, else lay, pick up or win."""
    words = status.split()
    if len(words) < 5 or words[1] == "FI":
        return ["status"]
    tops = words[1:5]
    ranks = [t[0] for t in tops]
    if "_" not in ranks and len(set(ranks)) == 1:
        return ["discard"]
    moves = [f"{a}{b}" for a in range(4) for b in range(a) if ranks[a] != "_" and ranks[a] == ranks[b]]
    if moves:
        return [rng.choice(moves)]
    sets = int(words[words.index("sets") - 1])
    if sets:
        return ["lay"]
    if tops == ["__"] * 4:
        return ["win"]
    order = ["0", "1", "2", "3"]
    rng.shuffle(order)
    return ["".join(order)]


def _measure(command: list[str], clients: int, seconds: float, chosen: int = 0) -> tuple[float, float]:
    """(instructions a second, server CPU seconds a second) over ``seconds``; ``command``
    ends with its port's option, the port is added."""
    port = common.port(chosen)
    process = _start([*command, str(port)], port)
    try:

        async def main() -> int:
            counts = [0]
            until = time.monotonic() + 1.0 + seconds
            rng = random.Random(1)
            tasks = [asyncio.create_task(_client(port, f"c{i}", until, counts, rng)) for i in range(clients)]
            await asyncio.sleep(1.0)  # every client logged in and going
            start_count, start_cpu, start = counts[0], _cpu_s(process.pid), time.monotonic()
            await asyncio.gather(*tasks)
            elapsed = time.monotonic() - start
            measured.append(((counts[0] - start_count) / elapsed, (_cpu_s(process.pid) - start_cpu) / elapsed))
            return 0

        measured: list[tuple[float, float]] = []
        asyncio.run(main())
        return measured[0]
    finally:
        process.terminate()
        process.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--runs", type=int, default=3)
    common.add_port_option(parser)  # the servers take it in turn
    args = parser.parse_args()
    wheels = [sys.executable, "-m", "games.wheels", "--no-delays", "--count", "1000", "--port"]
    echo = [sys.executable, "-c", ECHO]  # its port is its first argument
    rows = {"baseline: a plain asyncio line server": [], "the Wheels server (`python -m games.wheels`)": []}
    for _ in range(args.runs):  # interleaved, so that both see the machine's same moods
        rows["baseline: a plain asyncio line server"].append(_measure(echo, args.clients, args.seconds, args.port))
        rows["the Wheels server (`python -m games.wheels`)"].append(
            _measure(wheels, args.clients, args.seconds, args.port)
        )
    base = statistics.median(r[0] for r in rows["baseline: a plain asyncio line server"])
    print(f"{args.clients} clients, one command a line, {args.seconds:g} s a run, median of {args.runs}\n")
    print("| server | instructions/s | ratio | server CPU % | CPU per client % | CPU µs an instruction |")
    print("|---|---|---|---|---|---|")
    for name, runs in rows.items():
        rate = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        print(
            f"| {name} | {rate:,.0f} | {rate / base:.2f} | {100 * cpu:.0f} | {100 * cpu / args.clients:.1f} "
            f"| {1e6 * cpu / rate:.0f} |"
        )


if __name__ == "__main__":
    common.exit_on_signals()
    main()
