"""A whole round robin on the platform against the programs' own CPU, as a markdown table (no
pass/fail; the machine is shared).

    python bench/bench_tournament.py [--entries 10 20 40] [--rows 16 --cols 16]

For each number of entries: a Chomp contest whose entries are all fast C programs (each eats
the last cookie of the lowest row, so every game lasts the whole board), a double round robin
played by two real Celery workers (one match at a time each) on a PostgreSQL and a Redis of
their own, from the judge's "run" to the last result written. Its wall time is set against
the CPU the programs themselves used, as the platform recorded it.

The baseline, in the same run: the same games played by a plain loop, two at a time (two
threads, a plain spawn of the program per move, the game's own rules in between), its wall
time against the programs' CPU it measured itself.
"""

from __future__ import annotations

import argparse
import os
import queue
import resource
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import common  # noqa: E402
from judging.tests.installation import running_site  # noqa: E402

PLAYER = "judging/tests/programs/chomp_last.c"
SETUP = """
from pathlib import Path
from django.contrib.auth.models import User
from contests.models import Contest, Entry, Stage
from contests.services import submit
from judging.play import builds

user, _ = User.objects.get_or_create(username="organiser")
contest = Contest.objects.create(slug={slug!r}, title="bench", game="chomp", game_params={{"rows": {rows}, "cols": {cols}}},
                                 max_entries_per_user=1000)
stage = Stage.objects.create(contest=contest, order=1, name="Round robin", kind="round_robin", params={{"games_per_pairing": 2}})
source = Path({player!r}).read_bytes()
for n in range({entries}):
    entry = Entry.objects.create(contest=contest, user=user, name=f"Last {{n}}")
    builds.build_submission(submit(entry, filename="last.c", data=source).pk)
print(json.dumps({{"stage": stage.pk}}))
"""
RUN = """
from contests.models import Stage
from judging.record import lifecycle
print(json.dumps(len(lifecycle.run_stage(Stage.objects.get(pk={stage})))))
"""


def machine_cpu_s() -> tuple[float, float]:
    """(busy, idle) CPU seconds of the whole machine so far (/proc/stat: every core, the
    kernel's own work included; iowait counts as idle)."""
    with open("/proc/stat", encoding="ascii") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + fields[4]
    tick = os.sysconf("SC_CLK_TCK")
    return (sum(fields[:8]) - idle) / tick, idle / tick


def plain_loop(program: Path, rows: int, cols: int, games: int) -> tuple[float, float]:
    """(wall, the programs' CPU) of ``games`` games played two at a time by plain spawns."""
    sys.path.insert(0, str(ROOT))
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arbiter.settings")
    import django

    django.setup()
    from games import registry
    from games.chomp import codec

    chomp = registry.get("chomp")
    params = chomp.resolve_params({"rows": rows, "cols": cols})
    todo: queue.Queue[int] = queue.Queue()
    for n in range(games):
        todo.put(n)

    def play() -> None:
        while True:
            try:
                todo.get_nowait()
            except queue.Empty:
                return
            state = chomp.initial_state(params, 0)
            while chomp.to_move(state) is not None:
                done = subprocess.run(
                    [str(program), *codec.program_args(state)],
                    input=codec.program_input(state).encode(),
                    capture_output=True,
                    check=True,
                )
                state = chomp.apply(state, codec.read_reply(chomp, state, done.stdout.decode()))

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    threads = [threading.Thread(target=play) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, nargs="+", default=[10, 20, 40])
    parser.add_argument("--rows", type=int, default=16)
    parser.add_argument("--cols", type=int, default=16)
    args = parser.parse_args()
    program = common.scratch("chomp") / "last"
    built = subprocess.run(["gcc", "-O2", "-o", str(program), str(ROOT / PLAYER)], capture_output=True, check=True)
    assert built.returncode == 0
    rows = []
    with running_site(base=common.base()) as site:
        site.env["WORKER_HEARTBEAT_SECONDS"] = "5"
        for name in ("alpha", "beta"):
            site.start_worker(f"{name}-{uuid.uuid4().hex[:4]}")
        for entries in args.entries:
            slug = f"bench-{uuid.uuid4().hex[:6]}"
            stage = site.django(
                SETUP.format(slug=slug, rows=args.rows, cols=args.cols, player=PLAYER, entries=entries)
            )["stage"]
            start = time.perf_counter()
            busy0, idle0 = machine_cpu_s()
            games = site.django(RUN.format(stage=stage))
            query = "SELECT count(*) FROM contests_match WHERE stage_id = %s AND status = 'finished'"
            while site.sql(query, stage)[0][0] < games:
                time.sleep(0.1)
            wall = time.perf_counter() - start
            busy1, idle1 = machine_cpu_s()
            cpu, moves = site.sql(
                """SELECT sum(s.cpu_seconds), sum(s.moves) FROM contests_matchseat s
                   JOIN contests_match m ON m.id = s.match_id WHERE m.stage_id = %s""",
                stage,
            )[0]
            plain_wall, plain_cpu = plain_loop(program, args.rows, args.cols, games)
            rows.append((entries, games, moves, wall, cpu, plain_wall, plain_cpu, busy1 - busy0, idle1 - idle0))
        site.stop_workers()
    print(
        f"Chomp {args.rows} x {args.cols}, every game {args.rows * args.cols} moves; two workers, one match each at a time\n"
    )
    print("| entries | games | moves | stage wall | programs' CPU | ratio | plain loop: wall / CPU | ratio |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for entries, games, moves, wall, cpu, plain_wall, plain_cpu, *_ in rows:
        print(
            f"| {entries} | {games} | {moves} | {wall:.1f} s | {cpu:.1f} s | {wall / cpu:.2f}× "
            f"| {plain_wall:.1f} s / {plain_cpu:.1f} s | {plain_wall / plain_cpu:.2f}× |"
        )
    print("\nThe whole machine's CPU during each stage (/proc/stat: whatever else runs is in it too):\n")
    for entries, games, moves, _wall, cpu, *_, busy, idle in rows:
        print(
            f"- {entries} entries: {busy:.1f} s busy, {idle:.1f} s idle ({busy / (busy + idle):.0%} busy); "
            f"beyond the programs' own {busy - cpu:.1f} s, {(busy - cpu) / moves * 1e6:.0f} µs a move, "
            f"{(busy - cpu) / games * 1000:.0f} ms a game"
        )


if __name__ == "__main__":
    common.exit_on_signals()
    main()
