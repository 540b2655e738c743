"""Connect Four: a referee for Arbiter's referee protocol (docs/referee-protocol.md).

It never talks to the players: it writes lines for the platform on stdout (`send`, `ask`,
`frame`, `reason`, `result`) and reads the platform's on stdin. What the players read and
write is in rules.md. Plain Python, standard library only: copy it to start a game of your own.
"""

import json
import re
import sys

DISCS = "XO"  # seat 0 plays X and moves first; seat 1 plays O
POINTS = {"win": 2, "draw": 1}  # any other word (loss, illegal, timeout, crash, exit) scores 0
DIRECTIONS = [(0, 1), (1, 0), (1, 1), (1, -1)]  # across, down and the two diagonals
FAULTS = {"timeout": "ran out of time", "crash": "crashed", "exit": "exited before answering"}


def say(*words):
    """Write one line to the platform, at once: it waits for it."""
    print(*words, flush=True)


def hear():
    """Read one line from the platform. When its input ends, the game is over: leave quietly."""
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return line.removesuffix("\n").removesuffix("\r")


def read_size():
    """Read the platform's opening lines up to `begin`; return the board's rows and columns."""
    size = {"rows": 6, "columns": 7}
    while (line := hear()) != "begin":
        words = line.split(" ")
        if words[0] == "param" and words[1] in size:
            size[words[1]] = int(words[2])
    return size["rows"], size["columns"]


def frame(grid, marks, text, scores=None):
    """One picture of the replay: the board, the cells to highlight, a line of words."""
    picture = {"grid": ["".join(row) for row in grid], "marks": marks, "text": [text]}
    if scores:
        picture["scores"] = scores
    say("frame", json.dumps(picture, separators=(",", ":")))


def finish(grid, marks, text, reason, words):
    """End the game: the last frame with the scores, `Quit` to both players, the result."""
    points = [POINTS.get(word, 0) for word in words]
    frame(grid, marks, text, scores=points)
    for seat in (0, 1):
        say("send", seat, "Quit")
    say("reason", reason)
    say("result", *points, "|", *words)


def beaten(seat, word):
    """The result's words when `seat` lost (by `word`) and the other seat won."""
    words = ["win", "win"]
    words[seat] = word
    return words


def problem(reply, grid):
    """Why a player's reply is not a legal move, or None when it is one."""
    if not re.fullmatch(r"[0-9]{1,2}", reply):  # not int(): it takes " 4", "4_0" and "٤"
        shown = reply if len(reply) <= 20 else reply[:20] + "..."
        return f"{json.dumps(shown)} is not a column number"
    column = int(reply)
    if not 1 <= column <= len(grid[0]):
        return f"there is no column {column}"
    if grid[0][column - 1] != ".":
        return f"column {column} is full"
    return None


def drop(grid, column, disc):
    """Put a disc on top of a column (from 0, not full); return the row it lands in."""
    row = max(r for r in range(len(grid)) if grid[r][column] == ".")
    grid[row][column] = disc
    return row


def four_in_a_row(grid, row, column):
    """The cells of a line of four or more through (row, column), in its disc; else []."""
    for dr, dc in DIRECTIONS:
        line = [[row, column]]
        for step in (1, -1):
            r, c = row + step * dr, column + step * dc
            while 0 <= r < len(grid) and 0 <= c < len(grid[0]) and grid[r][c] == grid[row][column]:
                line.append([r, c])
                r, c = r + step * dr, c + step * dc
        if len(line) >= 4:
            return sorted(line)
    return []


def main():
    sys.stdin.reconfigure(encoding="utf-8", errors="replace")  # stray bytes must not stop the game
    rows, columns = read_size()
    grid = [["."] * columns for _ in range(rows)]
    for seat in (0, 1):
        say("send", seat, rows, columns)
    say("send", 0, "Start")
    frame(grid, [], "seat 0 (X) moves first")
    seat = 0
    while True:
        say("ask", seat)
        word, _, rest = hear().partition(" ")
        if word != "reply":  # timeout, crash or exit: the platform has seen a fault
            why = f"seat {seat} {FAULTS.get(word, word)}"
            return finish(grid, [], why, why, beaten(seat, word))
        reply = rest.partition(" ")[2]
        why = problem(reply, grid)
        if why:
            text = f"seat {seat} played an illegal move: {why}"
            return finish(grid, [], text, text, beaten(seat, "illegal"))
        column = int(reply) - 1
        row = drop(grid, column, DISCS[seat])
        text = f"seat {seat} ({DISCS[seat]}) drops in column {column + 1}"
        line = four_in_a_row(grid, row, column)
        if line:
            text += ": four in a row"
            return finish(grid, line, text, f"seat {seat} made four in a row", beaten(1 - seat, "loss"))
        if "." not in grid[0]:
            return finish(grid, [[row, column]], text, "the board is full", ["draw", "draw"])
        frame(grid, [[row, column]], text)
        say("send", 1 - seat, column + 1)
        seat = 1 - seat


if __name__ == "__main__":
    main()
