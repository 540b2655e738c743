"""The judge of ``output.txt``: replay every line from the piles and the dictionary, recompute
every figure, and say whether the claimed total stands.

The page let each entrant design an output format and verified the files by hand; Arbiter
publishes one format instead, so that a program can check them::

    <total score>                                    line 1
    <17 lines of 17 characters: A-Z or '.'>          the final board, row 1 first
    # a comment                                      any number, anywhere
    DRAW <pile 1-3> <LETTERS>                        letters taken from the left end of that pile
    DISCARD <LETTERS> <-points>                      e.g. DISCARD QX -17
    PLAY <row 1-17> <col 1-17> <A|D> <WORD> <points> first letter at (row, col), A across, D down
    ALSO <WORD> <points>                             each other word the move formed
    BONUS <50|100>                                   a bonus the move earned

Forgiven, as a judge reading by eye would: upper- or lower-case letters (keywords, A/D and
words too), any run of spaces or tabs between fields and around a line, LF, CR/LF or CR line
ends (the page asks for CR: "please use the <CR> instead"), a missing final line end, blank
lines and ``#`` comment lines anywhere (before the total too), spaces between the squares of
a board row. Not forgiven: anything else, such as a word on the total's line, a field too many
or too few, an unknown keyword, a file over ``MAX_OUTPUT_BYTES`` or that is not UTF-8 text.

Rules of a move, as the page's judges would read them:

- Step one, draw: 1 to 8 letters from the left end of one pile ("no more than eight letters,
  from the left end of one row of data only"), never more than the pile holds, and the hand
  holds at most 8 afterwards. A move need not draw when the hand is not empty. One draw a move,
  unless a discard came after it ("If you discard one or more letters from your hand, you may,
  if you wish, go back to STEP ONE").
- Step two, discards (optional, any number of DISCARD lines): letters in the hand, at their
  single values off the score. After the whole hand is discarded the move must draw again
  ("you must go back to STEP ONE"): a PLAY from an empty hand is refused.
- Step three, one PLAY: a word of 2 or more letters in one row or column, read left to right
  or top to bottom, with at least one letter from the hand. The word named must be the whole
  run of letters in its line (no letter just before or after it: "must form one complete
  word"); letters already on its squares must be the word's. After the first word it must
  touch the board: use a letter on it, or put a letter beside one ("At least one letter in
  your new word must touch at least one letter that is already on the board"). The first
  word may go anywhere. Every run of 2 or more letters, across and down, must be a word of
  the dictionary after the move: the word itself, and the run across each letter it placed.
- Every word the move formed is scored: the PLAY line's word, and each run through a new
  letter in the other direction on an ALSO line (exactly once each, in any order; one ALSO per
  run, so a word formed twice is listed twice). ALSO and BONUS lines belong to the PLAY
  before them and may come in any order until the next DRAW, DISCARD or PLAY; a run the move
  formed and no ALSO lists is an error of the PLAY's line.
- Score of a word: each letter's value, doubled on a '2' square and tripled on a '3' square,
  summed; then doubled for every 'D' square and tripled for every 'T' square the word covers
  (two D's quadruple, two T's multiply by 9). The squares count every time a word covers them,
  letters placed earlier too ("the bonus squares in our version of the game affect every word
  formed with letters on those squares").
- Bonus: 50 when the move placed exactly 7 letters from the hand, 100 when it placed 8 (the
  word then has 7 or 8 letters or more, as the page requires); on its own BONUS line, not
  multiplied.
- The game may stop at any point, with letters in the hand and in the piles.
- Line 1 must be the sum of every PLAY, ALSO and BONUS figure less the discards, and the
  board the one the moves leave. The moves are checked first, then line 1, then the board.

The verdict's ``verified`` is the replayed total when every line checks out, and ``None``
otherwise (decision: a file with one wrong line has no verified score; the page's judges
disqualified "any solution that results in an invalid word being created at any stage").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.crossed_words.board import BONUS, LETTER_FACTOR, SIZE, WORD_FACTOR
from games.crossed_words.letters import VALUES

SCHEMA_VERSION = 1
MAX_OUTPUT_BYTES = 1_000_000
MAX_HAND = 8
MAX_DRAW = 8
PILES = 3
BONUSES = {7: 50, 8: 100}  # letters placed from the hand in one move -> bonus points

_NUMBER = re.compile(r"[+-]?\d{1,9}")
_LETTERS = re.compile(r"[A-Za-z]+")
_LINE_ENDS = re.compile(r"\r\n|\r|\n")
_BOARD_ROW = re.compile(r"[A-Za-z.]{17}")


class Wrong(Exception):
    """A move the rules refuse; the message says why."""


@dataclass(frozen=True)
class Formed:
    """A word a move formed: its letters, score and squares (row, column, from 1)."""

    word: str
    score: int
    squares: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class PlayResult:
    placed: tuple[tuple[int, int, str], ...]  # (row, column, letter), from 1
    main: Formed
    also: tuple[Formed, ...]
    bonus: int

    @property
    def points(self) -> int:
        return self.main.score + sum(f.score for f in self.also) + self.bonus


def score_squares(grid: Sequence[Sequence[str]], squares: Iterable[tuple[int, int]]) -> int:
    """The score of the word on ``squares`` (0-based) of ``grid``, bonus squares included."""
    total, factor = 0, 1
    for r, c in squares:
        bonus = BONUS[r][c]
        total += VALUES[grid[r][c]] * LETTER_FACTOR.get(bonus, 1)
        factor *= WORD_FACTOR.get(bonus, 1)
    return total * factor


class Replay:
    """A game in progress: the piles, the hand, the board (letters or '' by [row][col], from 0)
    and the score. ``draw``, ``discard`` and ``play`` apply a step or raise ``Wrong``."""

    def __init__(self, piles: Sequence[str], words: frozenset[str]):
        self.piles = [p.upper() for p in piles]
        self.words = words
        self.hand = ""
        self.grid = [[""] * SIZE for _ in range(SIZE)]
        self.score = 0
        self.drew = False  # a draw in this move, with no discard after it
        self.empty = True

    def board_lines(self) -> list[str]:
        return ["".join(cell or "." for cell in row) for row in self.grid]

    def _take(self, letters: str) -> str:
        """The hand without ``letters``, or ``Wrong`` naming what it lacks."""
        hand = list(self.hand)
        missing = []
        for letter in letters:
            if letter in hand:
                hand.remove(letter)
            else:
                missing.append(letter)
        if missing:
            what = "".join(missing)
            verb = "is" if len(what) == 1 else "are"
            raise Wrong(f"{what} {verb} not in the hand ({self.hand or 'the hand is empty'})")
        return "".join(hand)

    def draw(self, pile: int, letters: str) -> None:
        letters = letters.upper()
        if not 1 <= pile <= PILES:
            raise Wrong(f"there is no pile {pile}; the piles are 1, 2 and 3")
        if not 1 <= len(letters) <= MAX_DRAW:
            raise Wrong(f"a draw takes 1 to {MAX_DRAW} letters, not {len(letters)}")
        if self.drew:
            raise Wrong("a second draw in one move; a move draws again only after a discard")
        have = self.piles[pile - 1]
        if not have:
            raise Wrong(f"pile {pile} is empty")
        if len(have) < len(letters):
            raise Wrong(f"pile {pile} holds only {len(have)} letters ({have})")
        if not have.startswith(letters):
            raise Wrong(f"pile {pile} starts with {have[: len(letters)]}")
        if len(self.hand) + len(letters) > MAX_HAND:
            raise Wrong(
                f"the hand would hold {len(self.hand) + len(letters)} letters "
                f"({self.hand} and {letters}); at most {MAX_HAND}"
            )
        self.piles[pile - 1] = have[len(letters) :]
        self.hand += letters
        self.drew = True

    def discard(self, letters: str) -> int:
        """Discard ``letters`` from the hand; returns the points lost (negative)."""
        letters = letters.upper()
        self.hand = self._take(letters)
        points = -sum(VALUES[letter] for letter in letters)
        self.score += points
        self.drew = False
        return points

    def check_play(self, row: int, col: int, across: bool, word: str) -> PlayResult:
        """What playing ``word`` with its first letter at (``row``, ``col``), from 1, would
        place and score; ``Wrong`` if the rules refuse it. Changes nothing."""
        word = word.upper()
        if len(word) < 2:
            raise Wrong("a word has at least two letters")
        if not (1 <= row <= SIZE and 1 <= col <= SIZE):
            raise Wrong(f"row {row}, column {col} is off the board (rows and columns 1 to {SIZE})")
        if not self.hand:
            raise Wrong("the hand is empty; a play needs a letter from the hand (DRAW first)")
        dr, dc = (0, 1) if across else (1, 0)
        r0, c0 = row - 1, col - 1
        squares = [(r0 + dr * i, c0 + dc * i) for i in range(len(word))]
        end_r, end_c = squares[-1]
        if end_r >= SIZE or end_c >= SIZE:
            raise Wrong(f"{word} runs off the board: it would end at row {end_r + 1}, column {end_c + 1}")
        placed = []
        for (r, c), letter in zip(squares, word, strict=True):
            have = self.grid[r][c]
            if have and have != letter:
                raise Wrong(f"row {r + 1}, column {c + 1} holds {have}, not {letter}")
            if not have:
                placed.append((r, c, letter))
        if not placed:
            raise Wrong(f"every square of {word} is filled already; a play places a letter from the hand")
        self._take("".join(letter for _, _, letter in placed))
        grid = [row_[:] for row_ in self.grid]
        for r, c, letter in placed:
            grid[r][c] = letter
        line = f"row {row}" if across else f"column {col}"
        run = _run(grid, r0, c0, dr, dc)
        if len(run) != len(word):
            reads = "".join(grid[r][c] for r, c in run)
            raise Wrong(f"{line} would read {reads} there, not {word}; the word named must be the whole run of letters")
        if not self.empty:
            touches = len(placed) < len(word) or any(
                self._filled(r + dc, c + dr) or self._filled(r - dc, c - dr) for r, c, _ in placed
            )
            if not touches:
                raise Wrong(f"{word} does not touch any letter on the board")
        if word.lower() not in self.words:
            raise Wrong(f"{word} is not in the dictionary")
        main = Formed(word, score_squares(grid, squares), _from_one(squares))
        also = []
        for r, c, _ in placed:
            cross = _run(grid, r, c, dc, dr)
            if len(cross) >= 2:
                text = "".join(grid[rr][cc] for rr, cc in cross)
                if text.lower() not in self.words:
                    raise Wrong(f"the move also forms {text}, which is not in the dictionary")
                also.append(Formed(text, score_squares(grid, cross), _from_one(cross)))
        return PlayResult(
            placed=tuple((r + 1, c + 1, letter) for r, c, letter in placed),
            main=main,
            also=tuple(also),
            bonus=BONUSES.get(len(placed), 0),
        )

    def play(self, row: int, col: int, across: bool, word: str) -> PlayResult:
        result = self.check_play(row, col, across, word)
        self.hand = self._take("".join(letter for _, _, letter in result.placed))
        for r, c, letter in result.placed:
            self.grid[r - 1][c - 1] = letter
        self.score += result.points
        self.drew = False
        self.empty = False
        return result

    def _filled(self, r: int, c: int) -> bool:
        return 0 <= r < SIZE and 0 <= c < SIZE and bool(self.grid[r][c])


def _run(grid: Sequence[Sequence[str]], r: int, c: int, dr: int, dc: int) -> list[tuple[int, int]]:
    """The squares of the maximal run of letters through (r, c) along (dr, dc), 0-based."""

    def filled(rr: int, cc: int) -> bool:
        return 0 <= rr < SIZE and 0 <= cc < SIZE and bool(grid[rr][cc])

    while filled(r - dr, c - dc):
        r, c = r - dr, c - dc
    squares = []
    while filled(r, c):
        squares.append((r, c))
        r, c = r + dr, c + dc
    return squares


def _from_one(squares: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    return tuple((r + 1, c + 1) for r, c in squares)


# --- the verdict ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One move line as replayed, for the judges' replay page."""

    line: int
    text: str
    kind: str  # draw, discard, play, also, bonus
    claimed: int | None  # the figure on the line (None for a draw)
    computed: int | None  # the figure the replay gives
    hand: str  # after this line
    piles: tuple[str, str, str]  # after this line
    placed: tuple[tuple[int, int, str], ...] = ()  # (row, column, letter), from 1
    words: tuple[tuple[str, int], ...] = ()  # a play's words (its own first) with their scores
    score: int = 0  # running total of the computed figures

    def to_json(self) -> dict[str, Any]:
        return {
            "line": self.line,
            "text": self.text,
            "kind": self.kind,
            "claimed": self.claimed,
            "computed": self.computed,
            "hand": self.hand,
            "piles": list(self.piles),
            "placed": [list(p) for p in self.placed],
            "words": [list(w) for w in self.words],
            "score": self.score,
        }


@dataclass(frozen=True)
class Report:
    """The verifier's report on one output: whether it replays, the score claimed and the
    score recomputed, and where and why it went wrong."""

    ok: bool
    claimed: int | None  # line 1 as claimed; None if unreadable
    verified: int | None  # the replayed total when ok, else None
    line: int | None  # the first wrong line, from 1; None when ok or for the whole file
    reason: str
    steps: tuple[Step, ...] = ()
    board: tuple[str, ...] = field(default=("." * SIZE,) * SIZE)  # as far as the replay got

    def to_json(self) -> dict[str, Any]:
        return {
            "version": SCHEMA_VERSION,
            "ok": self.ok,
            "claimed": self.claimed,
            "verified": self.verified,
            "line": self.line,
            "reason": self.reason,
            "steps": [step.to_json() for step in self.steps],
            "board": list(self.board),
        }


class _Fail(Exception):
    def __init__(self, line: int | None, reason: str):
        super().__init__(reason)
        self.line = line
        self.reason = reason


@dataclass
class _Pending:
    """The PLAY whose ALSO and BONUS lines are being read."""

    line: int
    text: str
    also: list[Formed]  # formed and not listed yet
    formed: frozenset[str]
    bonus: int
    bonus_listed: bool = False


_SYNTAX = {
    "DRAW": "DRAW <pile 1-3> <LETTERS>",
    "DISCARD": "DISCARD <LETTERS> <-points>",
    "PLAY": "PLAY <row> <column> <A|D> <WORD> <points>",
    "ALSO": "ALSO <WORD> <points>",
    "BONUS": "BONUS <50|100>",
}
_FIELDS = {"DRAW": "nl", "DISCARD": "ln", "PLAY": "nndln", "ALSO": "ln", "BONUS": "n"}


def _lines(output: bytes) -> list[str]:
    if len(output) > MAX_OUTPUT_BYTES:
        raise _Fail(None, f"output.txt is {len(output):,} bytes; at most {MAX_OUTPUT_BYTES:,} are read")
    if b"\0" in output:
        raise _Fail(None, f"output.txt is not text: a NUL byte at byte {output.index(bytes(1)) + 1}")
    try:
        text = output.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
    except UnicodeDecodeError as e:
        raise _Fail(None, f"output.txt is not text: byte {e.start + 1} is not UTF-8") from None
    if not text.strip():
        raise _Fail(None, "output.txt is empty; its first line must be the total score")
    lines = _LINE_ENDS.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _parse_move(number: int, tokens: list[str]) -> tuple[str, list[Any]]:
    keyword = tokens[0].upper()
    text = " ".join(tokens)
    if keyword not in _FIELDS:
        raise _Fail(
            number,
            f"{tokens[0][:30]!r} is not a keyword: a move line starts with DRAW, DISCARD, PLAY, ALSO or "
            "BONUS (and a comment with #)",
        )
    kinds = _FIELDS[keyword]
    if len(tokens) - 1 != len(kinds):
        raise _Fail(number, f"{text[:80]}: {len(tokens) - 1} fields, expected {len(kinds)}: {_SYNTAX[keyword]}")
    values: list[Any] = []
    for kind, token in zip(kinds, tokens[1:], strict=True):
        if kind == "n" and not _NUMBER.fullmatch(token):
            raise _Fail(number, f"{text[:80]}: {token[:30]!r} is not a whole number ({_SYNTAX[keyword]})")
        if kind == "l" and not (_LETTERS.fullmatch(token) and token.isascii()):
            raise _Fail(number, f"{text[:80]}: {token[:30]!r} is not letters A-Z ({_SYNTAX[keyword]})")
        if kind == "d" and token.upper() not in ("A", "D"):
            raise _Fail(number, f"{text[:80]}: the direction is A (across) or D (down), not {token[:30]!r}")
        values.append(int(token) if kind == "n" else token.upper())
    return keyword, values


def verify(output: bytes, piles: Sequence[str], words: frozenset[str]) -> Report:
    """Judge ``output`` (the bytes of output.txt) against the three ``piles`` and the
    dictionary ``words`` (lower case)."""
    game = Replay(piles, words)
    steps: list[Step] = []
    claimed: int | None = None
    try:
        lines = _lines(output)
        content = [
            (number, line.strip(" \t"))
            for number, line in enumerate(lines, start=1)
            if line.strip(" \t") and not line.strip(" \t").startswith("#")
        ]
        if not content:
            raise _Fail(None, "output.txt holds only comments; its first line must be the total score")
        total_line, total_text = content[0]
        if not _NUMBER.fullmatch(total_text):
            raise _Fail(total_line, f"the first line must be the total score, a whole number: {total_text[:40]!r}")
        claimed = int(total_text)
        board_rows = content[1 : 1 + SIZE]
        for index, (number, text) in enumerate(board_rows, start=1):
            squares = re.sub(r"[ \t]", "", text)
            if not _BOARD_ROW.fullmatch(squares):
                raise _Fail(
                    number,
                    f"row {index} of the board must be {SIZE} squares, each a letter or '.': {text[:40]!r}",
                )
        if len(board_rows) < SIZE:
            raise _Fail(None, f"the board has {len(board_rows)} rows after the total; it needs {SIZE}")
        board = [re.sub(r"[ \t]", "", text).upper() for _, text in board_rows]
        running = _replay(game, content[1 + SIZE :], steps)
        if running != claimed:
            raise _Fail(total_line, f"the total is {running}, not {claimed}")
        replayed = game.board_lines()
        for (number, _), shown, left, r in zip(board_rows, board, replayed, range(1, SIZE + 1), strict=True):
            for c in range(SIZE):
                if shown[c] != left[c]:
                    raise _Fail(
                        number,
                        f"the board differs at row {r}, column {c + 1}: output.txt shows {shown[c]!r}, "
                        f"the moves leave {left[c]!r}",
                    )
    except _Fail as fail:
        reason = f"line {fail.line}: {fail.reason}" if fail.line is not None else fail.reason
        return Report(False, claimed, None, fail.line, reason, tuple(steps), tuple(game.board_lines()))
    return Report(
        True,
        claimed,
        running,
        None,
        f"every line checks out: {running} points",
        tuple(steps),
        tuple(game.board_lines()),
    )


def _replay(game: Replay, lines: list[tuple[int, str]], steps: list[Step]) -> int:
    """Apply every move line; return the total of the computed figures."""
    running = 0
    pending: _Pending | None = None

    def close() -> None:
        if pending is None:
            return
        if pending.also:
            missing = pending.also[0]
            raise _Fail(
                pending.line,
                f"{pending.text}: the move also formed {missing.word}; it is not listed (ALSO {missing.word} "
                f"{missing.score})",
            )
        if pending.bonus and not pending.bonus_listed:
            raise _Fail(pending.line, f"{pending.text}: the move earns BONUS {pending.bonus}; it is not listed")

    for number, line in lines:
        tokens = line.split()
        keyword, values = _parse_move(number, tokens)
        text = " ".join(t.upper() if not _NUMBER.fullmatch(t) else t for t in tokens)
        step: dict[str, Any] = {}
        try:
            if keyword in ("ALSO", "BONUS"):
                if pending is None:
                    raise Wrong("ALSO and BONUS lines follow the PLAY of their move")
            else:
                close()
                pending = None
            if keyword == "DRAW":
                pile, letters = values
                game.draw(pile, letters)
                step = {"claimed": None, "computed": None}
            elif keyword == "DISCARD":
                letters, points = values
                computed = game.discard(letters)
                step = {"claimed": points, "computed": computed}
                if points != computed:
                    raise Wrong(f"discarding {letters} costs {computed}, not {points}")
            elif keyword == "PLAY":
                row, col, direction, word, points = values
                result = game.play(row, col, direction == "A", word)
                pending = _Pending(
                    number, text, list(result.also), frozenset(f.word for f in result.also), result.bonus
                )
                step = {
                    "claimed": points,
                    "computed": result.main.score,
                    "placed": result.placed,
                    "words": ((result.main.word, result.main.score),) + tuple((f.word, f.score) for f in result.also),
                }
                if points != result.main.score:
                    raise Wrong(f"{result.main.word} scores {result.main.score}, not {points}")
            elif keyword == "ALSO":
                assert pending is not None
                word, points = values
                candidates = [f for f in pending.also if f.word == word]
                if not candidates and word in pending.formed:
                    raise Wrong(f"{word} is listed already; list each word the move formed once")
                if not candidates:
                    raise Wrong(f"the move did not form {word}")
                formed = next((f for f in candidates if f.score == points), candidates[0])
                pending.also.remove(formed)
                step = {"claimed": points, "computed": formed.score, "words": ((formed.word, formed.score),)}
                if points != formed.score:
                    raise Wrong(f"{word} scores {formed.score}, not {points}")
            else:  # BONUS
                assert pending is not None
                (points,) = values
                if points not in BONUSES.values():
                    raise Wrong(f"a bonus is 50 or 100, not {points}")
                if not pending.bonus:
                    raise Wrong("the move earns no bonus: 50 for 7 letters from the hand, 100 for 8")
                if pending.bonus_listed:
                    raise Wrong("the move's bonus is listed already")
                pending.bonus_listed = True
                step = {"claimed": points, "computed": pending.bonus}
                if points != pending.bonus:
                    raise Wrong(f"the move earns BONUS {pending.bonus}, not {points}")
        except Wrong as wrong:
            raise _Fail(number, f"{text[:80]}: {wrong}") from None
        running += step["computed"] or 0
        steps.append(
            Step(
                line=number,
                text=text,
                kind=keyword.lower(),
                claimed=step["claimed"],
                computed=step["computed"],
                hand=game.hand,
                piles=(game.piles[0], game.piles[1], game.piles[2]),
                placed=step.get("placed", ()),
                words=step.get("words", ()),
                score=running,
            )
        )
    close()
    return running


# --- writing output.txt --------------------------------------------------------------------


@dataclass(frozen=True)
class Draw:
    pile: int  # 1 to 3
    letters: str


@dataclass(frozen=True)
class Discard:
    letters: str


@dataclass(frozen=True)
class Play:
    row: int  # of the first letter, 1 to 17
    col: int
    across: bool
    word: str


Move = Draw | Discard | Play

EXPLANATION = (
    "# Line 1: the total score. Then the final board, row 1 at the top, '.' an empty square.",
    "# DRAW p LETTERS: LETTERS taken from the left end of pile p (1 to 3).",
    "# DISCARD LETTERS -n: LETTERS discarded from the hand, n points lost.",
    "# PLAY r c A|D WORD n: WORD placed with its first letter at row r, column c (1 to 17),",
    "#   A across or D down, scoring n points.",
    "# ALSO WORD n: another word the same play formed, scoring n points.",
    "# BONUS n: 50 points for 7 letters played from the hand in one move, 100 for 8.",
)


def write_output(
    moves: Iterable[Move],
    piles: Sequence[str],
    words: frozenset[str],
    *,
    line_end: str = "\n",
    explain: bool = True,
) -> str:
    """``output.txt`` for ``moves``, in the published format, every figure computed by
    replaying them: the total, the board, the explanation (unless ``explain`` is false) and a
    line for each draw, discard, play, other word and bonus. A move the rules refuse is a
    ``ValueError`` naming it."""
    game = Replay(piles, words)
    body: list[str] = []
    for index, move in enumerate(moves, start=1):
        try:
            if isinstance(move, Draw):
                game.draw(move.pile, move.letters)
                body.append(f"DRAW {move.pile} {move.letters.upper()}")
            elif isinstance(move, Discard):
                points = game.discard(move.letters)
                body.append(f"DISCARD {move.letters.upper()} {points}")
            else:
                result = game.play(move.row, move.col, move.across, move.word)
                body.append(
                    f"PLAY {move.row} {move.col} {'A' if move.across else 'D'} {result.main.word} {result.main.score}"
                )
                body.extend(f"ALSO {f.word} {f.score}" for f in result.also)
                if result.bonus:
                    body.append(f"BONUS {result.bonus}")
        except Wrong as wrong:
            raise ValueError(f"move {index} ({move}): {wrong}") from None
    lines = [str(game.score), *game.board_lines(), *(EXPLANATION if explain else ()), *body]
    return "".join(line + line_end for line in lines)
