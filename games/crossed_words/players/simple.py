#!/usr/bin/env python3
"""Crossed Words Solitaire (MSO, December 2000): a simple player.

Runs once in the folder holding the piles (input10/13/1310.txt), the dictionary (dict10,
dict13 or dict1310, a.txt ... z.txt) and the time limit (seconds.txt or seconds10.txt), and
writes output.txt. Each move it tries four hands: the hand as it is, and the hand filled up
to eight letters from each of the three piles. For each hand it looks only at words that
contain one run of letters already on the board (a single letter crossed, or a word
extended at either end) plus letters from the hand, found through an index of the
dictionary by sorted letters; the first word goes anywhere. It plays the highest-scoring
of all of them, and stops when nothing is found (it never discards) or at 60% of the limit.
"""

import os
import time
from itertools import combinations

START = time.monotonic()
N = 17
VALUES = dict(
    zip(
        "QJXZVWKFYBHMPGUCDLTONRAISE",
        [9, 9, 8, 8, 8, 7, 7, 7, 6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1],
        strict=True,
    )
)
# The page's drawing: T triple word, D double word, 2 double letter, 3 triple letter.
BONUS = [
    "T...2...T...2...T",
    ".3.....3.3.....3.",
    "..D...D...D...D..",
    "...3.3.....3.3...",
    "2...T...2...T...2",
    "...3.3.....3.3...",
    "..D...D...D...D..",
    ".3.....3.3.....3.",
    "T...2...T...2...T",
    ".3.....3.3.....3.",
    "..D...D...D...D..",
    "...3.3.....3.3...",
    "2...T...2...T...2",
    "...3.3.....3.3...",
    "..D...D...D...D..",
    ".3.....3.3.....3.",
    "T...2...T...2...T",
]
LM = [[{"2": 2, "3": 3}.get(ch, 1) for ch in row] for row in BONUS]
WM = [[{"D": 2, "T": 3}.get(ch, 1) for ch in row] for row in BONUS]


def read_text(name):
    try:
        with open(name, "rb") as f:
            return f.read().decode("latin-1")
    except OSError:
        return None


def text_lines(text):
    return [line.strip() for line in text.replace("\r", "\n").split("\n") if line.strip()]


def load():
    limit = 300.0
    for name in ("seconds.txt", "seconds10.txt"):
        text = read_text(name)
        if text and text.split():
            try:
                limit = float(text.split()[0])
                break
            except ValueError:
                pass
    piles = []
    for name in ("input10.txt", "input1310.txt", "input13.txt"):
        text = read_text(name)
        if text:
            piles = [line.upper() for line in text_lines(text) if line.isalpha()][:3]
            break
    words = set()
    for folder in ("dict10", "dict13", "dict1310"):
        for letter in "abcdefghijklmnopqrstuvwxyz":
            text = read_text(os.path.join(folder, letter + ".txt"))
            if text:
                words.update(w.upper() for w in text_lines(text) if w.isalpha() and 2 <= len(w) <= N)
        if words:
            break
    return limit, piles, words


def word_score(board, cells):
    total, mult = 0, 1
    for r, c in cells:
        total += VALUES[board[r][c]] * LM[r][c]
        mult *= WM[r][c]
    return total * mult


class Game:
    def __init__(self, piles, words):
        self.piles, self.words = piles, words
        self.anagrams = {}
        for w in sorted(words):
            self.anagrams.setdefault("".join(sorted(w)), []).append(w)
        self.board = [[None] * N for _ in range(N)]
        self.pos = [0, 0, 0]
        self.hand = []
        self.score = 0
        self.log = []
        self.empty = True

    def cell(self, d, line, i):
        """(row, col) of square i of line `line` in direction d (0 across, 1 down)."""
        return (line, i) if d == 0 else (i, line)

    def get(self, d, line, i):
        r, c = self.cell(d, line, i)
        return self.board[r][c]

    def cross_word(self, d, line, i, letter):
        """The perpendicular run through a new letter: (cells, word), or None if only the letter."""
        r, c = self.cell(d, line, i)
        dr, dc = (1, 0) if d == 0 else (0, 1)
        r0, c0 = r, c
        while r0 - dr >= 0 and c0 - dc >= 0 and self.board[r0 - dr][c0 - dc]:
            r0, c0 = r0 - dr, c0 - dc
        cells, word = [], ""
        rr, cc = r0, c0
        while rr < N and cc < N and (self.board[rr][cc] or (rr, cc) == (r, c)):
            cells.append((rr, cc))
            word += letter if (rr, cc) == (r, c) else self.board[rr][cc]
            rr, cc = rr + dr, cc + dc
        return (cells, word) if len(word) > 1 else None

    def evaluate(self, d, line, start, word):
        """Score of `word` put in line `line` from `start` (its run of board letters checked by the
        caller), or None if illegal. Returns (points, new squares, other words)."""
        end = start + len(word)
        if start < 0 or end > N:
            return None
        if start > 0 and self.get(d, line, start - 1):
            return None
        if end < N and self.get(d, line, end):
            return None
        new, others = [], []
        for k, letter in enumerate(word):
            have = self.get(d, line, start + k)
            if have:
                if have != letter:
                    return None
                continue
            new.append((start + k, letter))
            cw = self.cross_word(d, line, start + k, letter)
            if cw:
                if cw[1] not in self.words:
                    return None
                others.append(cw)
        if not new:
            return None
        for i, letter in new:
            r, c = self.cell(d, line, i)
            self.board[r][c] = letter
        cells = [self.cell(d, line, start + k) for k in range(len(word))]
        main = word_score(self.board, cells)
        scored = [(w, word_score(self.board, cs)) for cs, w in others]
        for i, _ in new:
            r, c = self.cell(d, line, i)
            self.board[r][c] = None
        bonus = 50 if len(new) == 7 and len(word) >= 7 else 100 if len(new) == 8 and len(word) >= 8 else 0
        return main + sum(s for _, s in scored) + bonus, main, scored, bonus, len(new)

    def runs(self):
        """Maximal runs of board letters: (direction, line, start, letters)."""
        out = []
        for d in (0, 1):
            for line in range(N):
                i = 0
                while i < N:
                    if self.get(d, line, i):
                        j = i
                        while j < N and self.get(d, line, j):
                            j += 1
                        out.append((d, line, i, "".join(self.get(d, line, k) for k in range(i, j))))
                        i = j
                    else:
                        i += 1
        return out

    def best_move(self, hand):
        subsets = sorted({"".join(c) for r in range(1, len(hand) + 1) for c in combinations(sorted(hand), r)})
        best = None
        if self.empty:  # rows 0-4 have every pattern of bonus squares, and across is enough
            for sub in subsets:
                for w in self.anagrams.get(sub, ()):
                    for line in range(5):
                        for start in range(N - len(w) + 1):
                            total, mult = 0, 1
                            for k, letter in enumerate(w):
                                total += VALUES[letter] * LM[line][start + k]
                                mult *= WM[line][start + k]
                            if best is None or total * mult > best[0][0]:
                                best = (self.evaluate(0, line, start, w), 0, line, start, w)
            return best
        for d, line, rstart, run in self.runs():
            for sub in subsets:
                for w in self.anagrams.get("".join(sorted(sub + run)), ()):
                    i = w.find(run)
                    while i >= 0:
                        ev = self.evaluate(d, line, rstart - i, w)
                        if ev and (best is None or ev[0] > best[0][0]):
                            best = (ev, d, line, rstart - i, w)
                        i = w.find(run, i + 1)
        return best

    def play(self, best):
        (total, main, scored, bonus, _), d, line, start, w = best
        for k, letter in enumerate(w):
            r, c = self.cell(d, line, start + k)
            if not self.board[r][c]:
                self.board[r][c] = letter
                self.hand.remove(letter)
        r, c = self.cell(d, line, start)
        self.log.append(f"PLAY {r + 1} {c + 1} {'AD'[d]} {w} {main}")
        self.log.extend(f"ALSO {ow} {s}" for ow, s in scored)
        if bonus:
            self.log.append(f"BONUS {bonus}")
        self.score += total
        self.empty = False

    def step(self, deadline):
        """One move; False when no move was found."""
        options = [(None, 0)] if self.hand else []
        for p in range(3):
            k = min(8 - len(self.hand), len(self.piles[p]) - self.pos[p])
            if k > 0:
                options.append((p, k))
        chosen = None
        for p, k in options:
            if time.monotonic() > deadline:
                break
            drawn = self.piles[p][self.pos[p] : self.pos[p] + k] if p is not None else ""
            found = self.best_move(self.hand + list(drawn))
            if found and (chosen is None or found[0][0] > chosen[2][0][0]):
                chosen = (p, k, found)
        if chosen is None:
            return False
        p, k, found = chosen
        if p is not None:
            drawn = self.piles[p][self.pos[p] : self.pos[p] + k]
            self.pos[p] += k
            self.hand += list(drawn)
            self.log.append(f"DRAW {p + 1} {drawn}")
        self.play(found)
        return True

    def write(self):
        with open("output.txt", "w", newline="\n") as f:
            f.write(f"{self.score}\n")
            for row in self.board:
                f.write("".join(ch or "." for ch in row) + "\n")
            f.write(
                "# Crossed Words Solitaire, simple player. Line 1: total score; then the final board,\n"
                "# row 1 first, '.' empty. Then the moves: DRAW p LETTERS (from the left end of pile p);\n"
                "# PLAY row col A|D WORD n (first letter at row, col, 1-based, across or down, n points);\n"
                "# ALSO WORD n (another word formed by that move); BONUS n (7 or 8 letters played).\n"
            )
            for line in self.log:
                f.write(line + "\n")


def main():
    limit, piles, words = load()
    while len(piles) < 3:
        piles.append("")
    deadline = START + 0.6 * limit - 0.5
    game = Game(piles, words)
    while time.monotonic() < deadline and game.step(deadline):
        pass
    game.write()
    print(f"score {game.score}, {len(game.log)} lines, {time.monotonic() - START:.1f}s")


if __name__ == "__main__":
    main()
