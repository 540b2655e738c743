"""The reference players of Crossed Words Solitaire, run on a practice folder.

The folder holds the 198 tiles shuffled with random.Random(2001) into three piles of 66, a
dictionary made of the lower-case words of 2 to 12 letters of american-english-large, and a
limit of 5 seconds, each file with the line ends the page describes. Each player must finish
in time, write nothing but output.txt, and write a game that the replay below accepts: every
draw from the left end of a pile, every discard priced, every word in the dictionary, every
figure right, and the total the sum of the figures. The replay is written from the page,
independently of the players (and of the platform's verifier).
"""

import random
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

PLAYERS = Path(__file__).resolve().parent.parent / "players"
WORDLIST = Path("/usr/share/dict/american-english-large")
N = 17
LIMIT = 5
VALUES = dict(
    zip(
        "QJXZVWKFYBHMPGUCDLTONRAISE",
        [9, 9, 8, 8, 8, 7, 7, 7, 6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1],
        strict=True,
    )
)
QUANTITIES = dict(
    zip(
        "QJXZVWKFYBHMPGUCDLTONRAISE",
        [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 11, 12, 13, 14, 15, 16, 17],
        strict=True,
    )
)


def bonus_board():
    """The page's pattern, built from its description rather than copied from the players."""
    board = [["."] * N for _ in range(N)]
    for r in range(N):
        for c in range(N):
            odd = r % 2 and c % 2
            if odd and (r == c or r + c in (8, 16, 24) or abs(r - c) == 8):
                board[r][c] = "3"
    for a in (0, 8, 16):
        for b in (4, 12):
            board[a][b] = board[b][a] = "2"
    for a in (2, 6, 10, 14):
        for b in (2, 6, 10, 14):
            board[a][b] = "D"
    for a in (0, 8, 16):
        for b in (0, 8, 16):
            board[a][b] = "T"
    for a in (4, 12):
        for b in (4, 12):
            board[a][b] = "T"
    return board


BONUS = bonus_board()


def make_folder(path, only_cr=False, seed=2001, limit=LIMIT):
    tiles = [ch for ch, q in QUANTITIES.items() for _ in range(q)]
    assert len(tiles) == 198
    random.Random(seed).shuffle(tiles)
    piles = ["".join(tiles[i * 66 : (i + 1) * 66]) for i in range(3)]
    words = sorted(
        {
            w
            for w in WORDLIST.read_text(encoding="utf-8").split()
            if 2 <= len(w) <= 12 and w.isascii() and w.isalpha() and w.islower()
        }
    )
    variants = {"13": "\r"} if only_cr else {"10": "\n", "13": "\r", "1310": "\r\n"}
    for suffix, eol in variants.items():
        (path / f"input{suffix}.txt").write_bytes("".join(p + eol for p in piles).encode())
        folder = path / f"dict{suffix}"
        folder.mkdir()
        for letter in "abcdefghijklmnopqrstuvwxyz":
            (folder / f"{letter}.txt").write_bytes("".join(w + eol for w in words if w[0] == letter).encode())
    (path / "seconds.txt").write_bytes(f"{limit}\r\n".encode())
    if not only_cr:
        (path / "seconds10.txt").write_bytes(f"{limit}\n".encode())
    return piles, {w.upper() for w in words}


def runs(board):
    """Every run of two or more letters, across and down: (word, cells)."""
    out = []
    for d in (0, 1):
        for line in range(N):
            cells = []
            for i in range(N + 1):
                rc = (line, i) if d == 0 else (i, line)
                if i < N and board[rc[0]][rc[1]] != ".":
                    cells.append(rc)
                    continue
                if len(cells) >= 2:
                    out.append(("".join(board[r][c] for r, c in cells), cells))
                cells = []
    return out


def score(board, cells):
    total, mult = 0, 1
    for r, c in cells:
        b = BONUS[r][c]
        total += VALUES[board[r][c]] * (2 if b == "2" else 3 if b == "3" else 1)
        mult *= 2 if b == "D" else 3 if b == "T" else 1
    return total * mult


def run_through(board, r, c, dr, dc):
    while r - dr >= 0 and c - dc >= 0 and board[r - dr][c - dc] != ".":
        r, c = r - dr, c - dc
    cells = []
    while r < N and c < N and board[r][c] != ".":
        cells.append((r, c))
        r, c = r + dr, c + dc
    return cells


def replay(text, piles, words):
    """Checks an output file from start to end; returns the total. Fails on anything wrong."""
    lines = text.split("\n")
    assert lines[-1] == "", "the file ends with a line end"
    lines = lines[:-1]
    claimed = int(lines[0])
    final = lines[1:18]
    assert len(final) == 17 and all(
        len(row) == 17 and all(ch == "." or "A" <= ch <= "Z" for ch in row) for row in final
    )
    board = [["."] * N for _ in range(N)]
    hand, pos = Counter(), [0, 0, 0]
    total = figures = plays = 0
    drew = False  # drew since the last play or discard
    must_draw = False  # the whole hand was discarded
    expected = []  # ALSO and BONUS lines the last PLAY calls for
    for line in lines[18:]:
        if line.startswith("#"):
            continue
        parts = line.split()
        if expected:
            assert parts[0] in ("ALSO", "BONUS"), f"{expected} missing before {line!r}"
            assert tuple(parts) in expected, f"{line!r} not formed by the last move ({expected})"
            expected.remove(tuple(parts))
            figures += int(parts[-1])
            continue
        if parts[0] == "DRAW":
            assert len(parts) == 3 and not drew, line
            p, letters = int(parts[1]) - 1, parts[2]
            assert 1 <= len(letters) <= 8 and piles[p][pos[p] : pos[p] + len(letters)] == letters, line
            pos[p] += len(letters)
            hand.update(letters)
            assert hand.total() <= 8, line
            drew, must_draw = True, False
        elif parts[0] == "DISCARD":
            assert len(parts) == 3 and parts[1].isalpha() and not Counter(parts[1]) - hand, line
            cost = sum(VALUES[ch] for ch in parts[1])
            assert int(parts[2]) == -cost, line
            hand -= Counter(parts[1])
            total -= cost
            figures += int(parts[2])
            drew, must_draw = False, hand.total() == 0
        elif parts[0] == "PLAY":
            assert len(parts) == 6 and not must_draw, line
            r, c, d, word, points = int(parts[1]) - 1, int(parts[2]) - 1, parts[3], parts[4], int(parts[5])
            dr, dc = (0, 1) if d == "A" else (1, 0)
            assert d in "AD" and min(r, c) >= 0 and max(r + dr * (len(word) - 1), c + dc * (len(word) - 1)) < N, line
            new = []
            for k, ch in enumerate(word):
                rr, cc = r + dr * k, c + dc * k
                if board[rr][cc] == ".":
                    new.append((rr, cc))
                    board[rr][cc] = ch
                else:
                    assert board[rr][cc] == ch, line
            used = Counter(board[rr][cc] for rr, cc in new)
            assert new and not used - hand, f"{line}: letters not in hand {hand}"
            hand -= used
            assert run_through(board, r, c, dr, dc) == [(r + dr * k, c + dc * k) for k in range(len(word))], (
                f"{line}: not the whole run"
            )
            if plays:
                assert any(
                    0 <= rr + a < N and 0 <= cc + b < N and board[rr + a][cc + b] != "." and (rr + a, cc + b) not in new
                    for rr, cc in new
                    for a, b in ((0, 1), (1, 0), (0, -1), (-1, 0))
                ), f"{line}: touches nothing"
            main = score(board, [(r + dr * k, c + dc * k) for k in range(len(word))])
            assert word in words and points == main, f"{line}: {main} points"
            expected = []
            for rr, cc in new:
                cells = run_through(board, rr, cc, dc, dr)
                if len(cells) >= 2:
                    w = "".join(board[a][b] for a, b in cells)
                    expected.append(("ALSO", w, str(score(board, cells))))
            bonus = 50 if len(new) == 7 and len(word) >= 7 else 100 if len(new) == 8 and len(word) >= 8 else 0
            if bonus:
                expected.append(("BONUS", str(bonus)))
            total += main + sum(int(e[-1]) for e in expected)
            figures += points
            for w, _ in runs(board):
                assert w in words, f"{line}: {w} is not a word"
            plays += 1
            drew = must_draw = False
        else:
            pytest.fail(f"unexpected line {line!r}")
    assert not expected, f"missing {expected}"
    assert ["".join(row) for row in board] == final, "the board is not the game's"
    assert claimed == total == figures, (claimed, total, figures)
    return total


def junk_deal(folder):
    """Every pile starts with QJZVQJZV: the player must discard to go on."""
    tiles = list("ABCDEFGHIKLMNOPRSTUWY" * 9)
    random.Random(3).shuffle(tiles)
    piles = ["QJZVQJZV" + "".join(tiles[i * 58 : (i + 1) * 58]) for i in range(3)]
    for suffix, eol in {"10": "\n", "13": "\r", "1310": "\r\n"}.items():
        (folder / f"input{suffix}.txt").write_bytes("".join(p + eol for p in piles).encode())
    return piles


def run_player(tmp_path, command, only_cr=False, junk=False):
    folder = tmp_path / "game"
    folder.mkdir()
    piles, words = make_folder(folder, only_cr)
    if junk:
        piles = junk_deal(folder)
    before = {p.relative_to(folder) for p in folder.rglob("*")}
    start = time.monotonic()
    subprocess.run(command, cwd=folder, check=True, timeout=LIMIT + 5, stdout=subprocess.DEVNULL)
    took = time.monotonic() - start
    assert took < LIMIT * 0.8, f"took {took:.1f}s of {LIMIT}"
    assert {p.relative_to(folder) for p in folder.rglob("*")} == before | {Path("output.txt")}
    text = (folder / "output.txt").read_bytes().decode("ascii")
    assert not junk or "\nDISCARD " in text
    return replay(text, piles, words)


@pytest.fixture(scope="module")
def greedy(tmp_path_factory):
    if shutil.which("g++") is None:
        pytest.skip("g++ is not installed")
    exe = tmp_path_factory.mktemp("build") / "greedy"
    subprocess.run(["g++", "-O2", "-std=c++17", str(PLAYERS / "greedy.cpp"), "-o", str(exe)], check=True)
    return exe


# The greedy player searches until a deadline of its own clock: what it finds depends on the
# CPU it gets by then, so these run alone.
pytestmark = [
    pytest.mark.skipif(not WORDLIST.exists(), reason="american-english-large is not installed"),
    pytest.mark.alone,
]


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
@pytest.mark.parametrize("only_cr", [False, True])
def test_greedy(tmp_path, greedy, only_cr):
    assert run_player(tmp_path, [str(greedy)], only_cr) > 500


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
def test_greedy_discards(tmp_path, greedy):
    assert run_player(tmp_path, [str(greedy)], junk=True) > 500


@pytest.mark.parametrize("only_cr", [False, True])
def test_simple(tmp_path, only_cr):
    assert run_player(tmp_path, [sys.executable, str(PLAYERS / "simple.py")], only_cr) > 100


def test_replay_catches_a_wrong_figure(tmp_path):
    piles, words = make_folder(tmp_path)
    # A hand-made game on the practice piles: draw, play across row 1 from column 1.
    first = piles[0][:8]
    word = next(w for w in sorted(words) if len(w) == 2 and not Counter(w) - Counter(first))
    board = [["."] * N for _ in range(N)]
    board[0][0], board[0][1] = word
    points = score(board, [(0, 0), (0, 1)])
    body = [f"DRAW 1 {first}", f"PLAY 1 1 A {word} {points}"]
    good = "\n".join([str(points), *("".join(row) for row in board), "# a comment", *body]) + "\n"
    assert replay(good, piles, words) == points
    with pytest.raises(AssertionError):
        replay(good.replace(f"{word} {points}", f"{word} {points + 1}"), piles, words)
    with pytest.raises(AssertionError):
        replay(good.replace("DRAW 1", "DRAW 2"), piles, words)
