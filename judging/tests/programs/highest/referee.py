"""Highest unique, a game of three for the platform's tests: each round every seat names a
number from 1 to 5 (sent the round's number when asked); the highest number named by one seat
alone scores that seat a point. After the last round each seat has its points; a seat that
leaves the game or names anything else scores -1, below every seat that played on (a seat that
broke the rules is never as well off as one that did not: the kit checks it)."""

import json
import sys


def say(line):
    print(line, flush=True)


header = {}
for line in sys.stdin:
    word, _, rest = line.strip().partition(" ")
    if word == "begin":
        break
    if word == "param":
        name, value = rest.split()
        header[name] = int(value)
rounds = header["rounds"]
points = [0, 0, 0]
say("frame " + json.dumps({"text": ["round 1"]}))
for number in range(1, rounds + 1):
    picks = []
    for seat in range(3):
        say(f"send {seat} {number}")
        say(f"ask {seat}")
        word, _, rest = sys.stdin.readline().strip().partition(" ")
        if word != "reply":  # gone: a timeout, a crash or an exit
            points[seat] = -1
            say(f"reason seat {seat} left the game")
            say(f"result {' '.join(map(str, points))}")
            sys.exit(0)
        pick = rest.partition(" ")[2].strip()
        if pick not in ("1", "2", "3", "4", "5"):
            words = ["loss", "loss", "loss"]
            words[seat] = "illegal:NOT_1_TO_5"
            points[seat] = -1
            say(f"reason seat {seat} named {pick[:20]!r}")
            say(f"result {' '.join(map(str, points))} | {' '.join(words)}")
            sys.exit(0)
        picks.append(int(pick))
    alone = [p for p in picks if picks.count(p) == 1]
    if alone:
        points[picks.index(max(alone))] += 1
    say("frame " + json.dumps({"text": [f"round {number}: {picks}, points {points}"]}))
say("reason " + ", ".join(f"seat {seat} {p} points" for seat, p in enumerate(points)))
say(f"result {' '.join(map(str, points))}")
