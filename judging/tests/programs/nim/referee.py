"""Nim for the platform's tests: take 1 to 3 stones; who takes the last wins (2 points to 0).
Each player is sent the stones left when asked, and answers with its take.

The parameter `fault` makes the referee misbehave, each way a referee can fail the protocol:
1 crash at once, 2 hang, 3 ask a seat that does not exist, 4 write a line of no protocol,
5 a result of one number, 6 flood frames, 7 blame the wrong seat for a crash, 8 exit without a
result, 9 burn CPU, 10 a result word not in the protocol, 11 points past what the standings add,
12 a result no game of two can have (both seats win).
"""

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
stones, fault = header["stones"], header["fault"]
if fault == 1:
    sys.exit(1)
if fault == 2:
    sys.stdin.read()
if fault == 3:
    say("ask 5")
if fault == 4:
    say("hello platform")
if fault == 6:
    for _ in range(10_001):
        say('frame {"text": ["again"]}')
if fault == 8:
    sys.exit(0)
if fault == 9:
    while True:
        pass

say("frame " + json.dumps({"text": [f"{stones} stones"], "scores": [0, 0]}))
seat = 0
while True:
    say(f"send {seat} {stones}")
    say(f"ask {seat}")
    word, _, rest = sys.stdin.readline().strip().partition(" ")
    points = [2, 2]
    points[seat] = 0
    if word != "reply":
        words = ["win", "win"]
        words[seat] = word
        if fault == 7:
            words[1 - seat], points = "crash", [points[1], points[0]]
        say(f"result {points[0]} {points[1]} | {' '.join(words)}")
        break
    take = rest.partition(" ")[2].strip()
    if take not in ("1", "2", "3") or int(take) > stones:
        words = ["win", "win"]
        words[seat] = "illegal:BAD_TAKE"
        say(f"reason seat {seat} took {take[:20]!r}")
        say(f"result {points[0]} {points[1]} | {' '.join(words)}")
        break
    stones -= int(take)
    say("frame " + json.dumps({"text": [f"seat {seat} took {take}: {stones} left"], "marks": [[0, stones]]}))
    if stones == 0:
        points = [0, 0]
        points[seat] = 2
        say(f"reason seat {seat} took the last stone")
        if fault == 5:
            say("result 2")
        elif fault == 11:
            say("result 1e300 0")
        elif fault == 12:
            say("result 2 2 | win win")
        elif fault == 10:
            say(f"result {points[0]} {points[1]} | champion loser")
        else:
            say(f"result {points[0]} {points[1]}")
        break
    seat = 1 - seat
