"""A Solitaire 500 client that plans: it lays the whole of a fresh deck in one instruction
(thirteen lays, whose answers show every card), then plays the deck out in its own copy of
the game, choosing each round's pick-up order by looking two rounds ahead, and sends the
whole solution and the ``win`` in one more instruction, as the page suggests ("issues its
solution in a single newline-terminated write"). Two move-containing instructions a deck.

Networking as the page asks: SWP_SERVERNAME, SWP_SERVERPORT, SWP_PASSWORD, and the login
name from whoami (or SWP_USERNAME). Python 3 standard library only.
"""

from __future__ import annotations

import itertools
import os
import pwd
import random
import re
import socket
import sys

STATUS = re.compile(
    r"OK (\S\S) (\S\S) (\S\S) (\S\S) time \d+ round (\d+) move \d+ (\d+) sets left in deck (\d+) of (\d+) decks"
)
ORDERS = ["".join(map(str, p)) for p in itertools.permutations(range(4))]
MOVES = [(1, 0), (2, 0), (3, 0), (2, 1), (3, 1), (3, 2)]


class Server:
    def __init__(self) -> None:
        host = os.environ.get("SWP_SERVERNAME") or "localhost"
        port = int(os.environ.get("SWP_SERVERPORT") or 5200)
        user = os.environ.get("SWP_USERNAME") or pwd.getpwuid(os.getuid()).pw_name
        self.sock = socket.create_connection((host, port))
        self.file = self.sock.makefile("rwb", buffering=0)
        self.reader = self.sock.makefile("rb")
        self.reader.readline()  # the login request
        self.send(f"{user}:{os.environ.get('SWP_PASSWORD', '')}")
        self.first = self.line()
        if not self.first.startswith("OK"):
            sys.exit(f"planner: login refused: {self.first}")
        self.syncs = 0

    def send(self, text: str) -> None:
        self.sock.sendall(text.encode() + b"\n")

    def line(self) -> str:
        raw = self.reader.readline()
        if not raw:
            sys.exit("planner: the server closed the connection")
        return raw.decode().rstrip("\r\n")

    def instruction(self, commands: list[str]) -> list[str]:
        """Send commands in one line; every answer, up to the sync's."""
        self.syncs += 1
        tag = f"sync{self.syncs}"
        self.send(" ".join([*commands, tag]))
        answers = []
        while (line := self.line()) != f"OK, synching {tag}":
            answers.append(line)
        return answers


def play_round(hand, piles, rng, skip=0.0):
    """Deal the hand out with greedy moves (discard first, then the first legal move);
    (commands, discards). ``piles`` is changed in place; ``skip``: the chance of passing a move."""
    commands, discards = [], 0
    hand = list(hand)
    while hand:
        for pile in piles:
            pile.append(hand.pop(0))
        commands.append("lay")
        while True:
            if all(piles) and len({p[-1][0] for p in piles}) == 1:
                for pile in piles:
                    pile.pop()
                commands.append("discard")
                discards += 1
                continue
            for a, b in MOVES:
                if piles[a] and piles[b] and piles[a][-1][0] == piles[b][-1][0] and not (skip and rng.random() < skip):
                    piles[b].append(piles[a].pop())
                    commands.append(f"{a}{b}")
                    break
            else:
                break
    return commands, discards


def picked_up(piles, order):
    return [card for n in order for card in piles[int(n)]]


def grouping(piles) -> int:
    return sum(1 for p in piles for x, y in zip(p, p[1:], strict=False) if x[0] == y[0])


def choose_order(piles, rng) -> str:
    """The pick-up order whose next two rounds discard most (then group best)."""
    best, best_score = None, None
    for order in ORDERS:
        piles1 = [list(p) for p in [[], [], [], []]]
        _, d1 = play_round(picked_up(piles, order), piles1, rng)
        if not any(piles1):
            return order
        score2 = max((lambda p2, d2: (d2, grouping(p2)))(*_after(piles1, o2, rng)) for o2 in rng.sample(ORDERS, 6))
        score = (d1 + score2[0], score2[1] + grouping(piles1), rng.random())
        if best_score is None or score > best_score:
            best, best_score = order, score
    return best


def _after(piles, order, rng):
    nxt = [[], [], [], []]
    _, d = play_round(picked_up(piles, order), nxt, rng)
    return nxt, d


def solve(deck_laid, rng):
    """Commands that win a deck whose first round was thirteen lays: piles[i] = every fourth card."""
    piles = [[cards[i] for cards in deck_laid] for i in range(4)]
    commands, dry = [], 0
    while True:
        # the first round's moves, made after its lays
        more, discards = play_round([], piles, rng)
        commands += more
        if not any(piles):
            return commands
        skip = 0.0 if dry < 3 else min(0.5, 0.05 * dry)
        order = choose_order(piles, rng)
        commands.append(order)
        hand = picked_up(piles, order)
        piles = [[], [], [], []]
        more, discards = play_round(hand, piles, rng, skip)
        commands += more
        dry = 0 if discards else dry + 1
        if not any(piles):
            return commands


def main() -> None:
    rng = random.Random(int(os.environ.get("PLANNER_SEED", "1")))
    server = Server()
    status = STATUS.match(server.first)
    while status and status.group(1) != "FI":
        sets, empty = int(status.group(6)), status.groups()[:4] == ("__",) * 4
        if empty and not sets:
            answers = server.instruction(["win"])
        elif empty:
            # every card of the deck is in hand: lay them all, and the answers show each one
            answers = server.instruction(["lay"] * sets)
            laid = [STATUS.match(a).groups()[:4] for a in answers if a.startswith("OK")]
            if len(laid) == sets:
                answers += server.instruction([*solve(laid, rng), "win"])
        else:
            # cards it never saw (it joined mid-deck): deal them out and pick everything up
            answers = server.instruction([*["lay"] * sets, "0123"])
        errors = [a for a in answers if not a.startswith("OK")]
        if errors:
            print(f"planner: the server refused: {errors[0]}", file=sys.stderr)
        status = STATUS.match(server.instruction(["status"])[0])
    print(f"planner: finished in round {status.group(5) if status else '?'}", file=sys.stderr)


if __name__ == "__main__":
    main()
