"""The judge of output.txt: a valid file, what it forgives, and every kind of error with its
line and reason."""

import json

import pytest

from games.crossed_words.verify import MAX_OUTPUT_BYTES, verify

WORDS = frozenset(["an", "cat", "no", "to", "third", "not", "at", "airplane", "pa"])
PILES = ("CATNOTHIRD", "QXANE", "PAIRPLANE")
EMPTY = "." * 17

# The page's CAT example (test_scoring works the figures out). Lines 19 to 28 are the moves.
BOARD = (
    [EMPTY] * 8
    + [
        ".....CAT.........",
        "......NOT........",
        "........H........",
        "........I........",
        "........R........",
        "........D........",
    ]
    + [EMPTY] * 3
)
MOVES = [
    "DRAW 1 CAT",  # 19
    "PLAY 9 6 A CAT 9",  # 20
    "DRAW 1 N",  # 21
    "PLAY 9 7 D AN 4",  # 22
    "DRAW 1 O",  # 23
    "PLAY 10 7 A NO 11",  # 24
    "ALSO TO 12",  # 25
    "DRAW 1 THIRD",  # 26
    "PLAY 10 9 D THIRD 18",  # 27
    "ALSO NOT 14",  # 28
]
GOOD = "\n".join(["68", *BOARD, *MOVES]) + "\n"


def judge(moves: list[str], total: int = 0, board: list[str] | None = None, piles=PILES, words=WORDS):
    text = "\n".join([str(total), *(board or [EMPTY] * 17), *moves]) + "\n"
    return verify(text.encode(), piles, words)


def fails(verdict, line, reason):
    assert not verdict.ok
    assert verdict.verified is None
    assert (verdict.line, verdict.reason) == (line, reason)


def test_the_cat_example_verifies():
    verdict = verify(GOOD.encode(), PILES, WORDS)
    assert (verdict.ok, verdict.claimed, verdict.verified, verdict.line) == (True, 68, 68, None)
    assert verdict.reason == "every line checks out: 68 points"
    assert list(verdict.board) == BOARD


def test_steps_for_a_replay_page():
    verdict = verify(GOOD.encode(), PILES, WORDS)
    assert [s.kind for s in verdict.steps] == ["draw", "play"] * 2 + ["draw", "play", "also"] * 2
    draw, play = verdict.steps[:2]
    assert (draw.line, draw.text, draw.hand, draw.piles, draw.claimed, draw.score) == (
        19,
        "DRAW 1 CAT",
        "CAT",
        ("NOTHIRD", "QXANE", "PAIRPLANE"),
        None,
        0,
    )
    assert (play.claimed, play.computed, play.hand, play.score) == (9, 9, "", 9)
    assert play.placed == ((9, 6, "C"), (9, 7, "A"), (9, 8, "T"))
    third = verdict.steps[8]
    assert third.words == (("THIRD", 18), ("NOT", 14))
    assert [s.score for s in verdict.steps] == [0, 9, 9, 13, 13, 24, 36, 36, 54, 68]
    data = verdict.to_json()
    assert json.loads(json.dumps(data)) == data
    assert data["version"] == 1 and data["steps"][1]["placed"][0] == [9, 6, "C"]


def test_forgiven_case_spaces_line_ends_comments():
    lines = GOOD.splitlines()
    lenient = (
        ["# my program's output", "", "  68  "]
        + [" ".join(row.lower()) + " \t" for row in lines[1:18]]  # spaces between squares
        + ["# the moves", "\tdraw\t1   cat", "play 9 6 a Cat 9", "", "draw 1 n"]
        + [line.lower() for line in lines[21:]]
    )
    for end in ("\n", "\r\n", "\r"):
        verdict = verify(end.join(lenient).encode(), PILES, WORDS)  # no final line end
        assert verdict.ok, verdict.reason
        assert verdict.verified == 68


def test_also_and_bonus_in_any_order_after_their_play():
    board = [EMPTY] * 8 + ["..P..............", "..AIRPLANE......."] + [EMPTY] * 7
    moves = ["DRAW 3 PA", "PLAY 9 3 D PA 7", "DRAW 3 IRPLANE", "BONUS 50", "PLAY 10 3 A AIRPLANE 24"]
    fails(judge(moves, 81, board), 22, "line 22: BONUS 50: ALSO and BONUS lines follow the PLAY of their move")
    moves = ["DRAW 3 PA", "PLAY 9 3 D PA 7", "DRAW 3 IRPLANE", "PLAY 10 3 A AIRPLANE 24", "# seven!", "BONUS 50"]
    assert judge(moves, 81, board).ok


def test_a_game_may_end_with_letters_in_hand_and_a_discard():
    assert judge(["DRAW 2 QXA", "DISCARD QX -17"], -17).ok
    assert judge([], 0).ok


def test_discard_then_draw_again():
    board = [EMPTY] * 8 + [".....CAT........."] + [EMPTY] * 8
    moves = ["DRAW 2 QX", "DISCARD QX -17", "DRAW 1 CAT", "PLAY 9 6 A CAT 9"]
    assert judge(moves, -8, board).ok
    moves = ["DRAW 2 QX", "DISCARD Q -9", "DISCARD X -8", "DRAW 1 CAT", "PLAY 9 6 A CAT 9"]
    assert judge(moves, -8, board).ok


# --- every kind of error --------------------------------------------------------------------


def with_line(number: int, replacement: str | None) -> str:
    lines = GOOD.splitlines()
    if replacement is None:
        del lines[number - 1]
    else:
        lines[number - 1] = replacement
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("number", "replacement", "line", "reason"),
    [
        (19, "DRAW 1 CAX", 19, "DRAW 1 CAX: pile 1 starts with CAT"),
        (19, "DRAW 4 CAT", 19, "DRAW 4 CAT: there is no pile 4; the piles are 1, 2 and 3"),
        (19, "DRAW 0 CAT", 19, "DRAW 0 CAT: there is no pile 0; the piles are 1, 2 and 3"),
        (19, "DRAW 1 CATNOTHIR", 19, "DRAW 1 CATNOTHIR: a draw takes 1 to 8 letters, not 9"),
        (20, "PLAY 9 6 A CAT 12", 20, "PLAY 9 6 A CAT 12: CAT scores 9, not 12"),
        (20, "PLAY 9 6 A TAC 9", 20, "PLAY 9 6 A TAC 9: TAC is not in the dictionary"),
        (20, "PLAY 9 6 A CAN 9", 20, "PLAY 9 6 A CAN 9: N is not in the hand (CAT)"),
        (20, "PLAY 9 6 A C 4", 20, "PLAY 9 6 A C 4: a word has at least two letters"),
        (20, "PLAY 9 16 A CAT 9", 20, "PLAY 9 16 A CAT 9: CAT runs off the board: it would end at row 9, column 18"),
        (20, "PLAY 16 6 D CAT 9", 20, "PLAY 16 6 D CAT 9: CAT runs off the board: it would end at row 18, column 6"),
        (
            20,
            "PLAY 18 1 A CAT 9",
            20,
            "PLAY 18 1 A CAT 9: row 18, column 1 is off the board (rows and columns 1 to 17)",
        ),
        (22, "PLAY 9 7 D AT 5", 22, "PLAY 9 7 D AT 5: T is not in the hand (N)"),
        (
            22,
            "PLAY 9 6 A CAT 9",
            22,
            "PLAY 9 6 A CAT 9: every square of CAT is filled already; a play places a letter from the hand",
        ),
        (22, "PLAY 9 6 A CNT 9", 22, "PLAY 9 6 A CNT 9: row 9, column 7 holds A, not N"),
        (
            22,
            "PLAY 9 8 A TN 5",
            22,
            "PLAY 9 8 A TN 5: row 9 would read CATN there, not TN; the word named must be the whole run of letters",
        ),
        (22, "PLAY 8 7 D NA 4", 22, "PLAY 8 7 D NA 4: NA is not in the dictionary"),
        (
            24,
            "PLAY 10 7 D NO 5",
            24,
            "PLAY 10 7 D NO 5: column 7 would read ANO there, not NO; the word named must be the whole run of letters",
        ),
        (22, "PLAY 1 1 A AN 4", 22, "PLAY 1 1 A AN 4: A is not in the hand (N)"),
        (24, "PLAY 10 7 A NO 5", 24, "PLAY 10 7 A NO 5: NO scores 11, not 5"),
        (25, "ALSO TO 6", 25, "ALSO TO 6: TO scores 12, not 6"),
        (25, "ALSO AT 5", 25, "ALSO AT 5: the move did not form AT"),
        (25, None, 24, "PLAY 10 7 A NO 11: the move also formed TO; it is not listed (ALSO TO 12)"),
        (25, "BONUS 50", 25, "BONUS 50: the move earns no bonus: 50 for 7 letters from the hand, 100 for 8"),
        (25, "BONUS 75", 25, "BONUS 75: a bonus is 50 or 100, not 75"),
        (26, "ALSO TO 12", 26, "ALSO TO 12: TO is listed already; list each word the move formed once"),
        (21, "ALSO TO 12", 21, "ALSO TO 12: the move did not form TO"),
        (19, "ALSO CAT 9", 19, "ALSO CAT 9: ALSO and BONUS lines follow the PLAY of their move"),
        (21, "DRAW 2 Q", 22, "PLAY 9 7 D AN 4: N is not in the hand (Q)"),
        (23, "DRAW 2 Q", 24, "PLAY 10 7 A NO 11: O is not in the hand (Q)"),
        (1, "70", 1, "the total is 68, not 70"),
        (1, "68 points", 1, "the first line must be the total score, a whole number: '68 points'"),
        (
            11,
            "......NOT.......S",
            11,
            "the board differs at row 10, column 17: output.txt shows 'S', the moves leave '.'",
        ),
        (11, ".....CAT.......", 11, "row 10 of the board must be 17 squares, each a letter or '.': '.....CAT.......'"),
        (
            11,
            ".....CAT........-",
            11,
            "row 10 of the board must be 17 squares, each a letter or '.': '.....CAT........-'",
        ),
        (
            20,
            "PLACE 9 6 A CAT 9",
            20,
            "'PLACE' is not a keyword: a move line starts with DRAW, DISCARD, PLAY, ALSO or BONUS (and a comment with #)",
        ),
        (20, "PLAY 9 6 A CAT", 20, "PLAY 9 6 A CAT: 4 fields, expected 5: PLAY <row> <column> <A|D> <WORD> <points>"),
        (
            20,
            "PLAY 9 6 A CAT 9 9",
            20,
            "PLAY 9 6 A CAT 9 9: 6 fields, expected 5: PLAY <row> <column> <A|D> <WORD> <points>",
        ),
        (
            20,
            "PLAY 9 six A CAT 9",
            20,
            "PLAY 9 six A CAT 9: 'six' is not a whole number (PLAY <row> <column> <A|D> <WORD> <points>)",
        ),
        (20, "PLAY 9 6 X CAT 9", 20, "PLAY 9 6 X CAT 9: the direction is A (across) or D (down), not 'X'"),
        (
            20,
            "PLAY 9 6 A C-T 9",
            20,
            "PLAY 9 6 A C-T 9: 'C-T' is not letters A-Z (PLAY <row> <column> <A|D> <WORD> <points>)",
        ),
        (19, "DRAW", 19, "DRAW: 0 fields, expected 2: DRAW <pile 1-3> <LETTERS>"),
    ],
)
def test_each_error_names_its_line(number, replacement, line, reason):
    verdict = verify(with_line(number, replacement).encode(), PILES, WORDS)
    assert not verdict.ok
    assert (verdict.line, verdict.reason, verdict.verified) == (line, f"line {line}: {reason}", None)


def test_hand_over_eight():
    board = [EMPTY] * 8 + [".....CAT........."] + [EMPTY] * 8
    assert judge(["DRAW 1 CATNOTHI", "PLAY 9 6 A CAT 9", "DRAW 2 QXA"], 9, board).ok  # 8 is allowed
    moves = ["DRAW 1 CATNOTHI", "PLAY 9 6 A CAT 9", "DRAW 2 QXAN"]
    fails(judge(moves), 21, "line 21: DRAW 2 QXAN: the hand would hold 9 letters (NOTHI and QXAN); at most 8")


def test_draw_limits():
    fails(judge(["DRAW 1 CATNOTHIR"]), 19, "line 19: DRAW 1 CATNOTHIR: a draw takes 1 to 8 letters, not 9")
    fails(judge(["DRAW 2 QXANEE"]), 19, "line 19: DRAW 2 QXANEE: pile 2 holds only 5 letters (QXANE)")
    fails(judge(["DRAW 2 QXANE", "DISCARD QXANE -22", "DRAW 2 Q"]), 21, "line 21: DRAW 2 Q: pile 2 is empty")


def test_two_draws_need_a_discard_between():
    fails(
        judge(["DRAW 1 C", "DRAW 1 A"]),
        20,
        "line 20: DRAW 1 A: a second draw in one move; a move draws again only after a discard",
    )
    assert judge(["DRAW 1 C", "DISCARD C -4", "DRAW 1 A"], -4).ok


def test_a_play_needs_a_hand():
    fails(
        judge(["PLAY 9 6 A CAT 9"]),
        19,
        "line 19: PLAY 9 6 A CAT 9: the hand is empty; a play needs a letter from the hand (DRAW first)",
    )
    fails(
        judge(["DRAW 1 CAT", "DISCARD CAT -9", "PLAY 9 6 A CAT 9"]),
        21,
        "line 21: PLAY 9 6 A CAT 9: the hand is empty; a play needs a letter from the hand (DRAW first)",
    )


def test_discard_errors():
    fails(judge(["DRAW 2 QXA", "DISCARD QX 17"]), 20, "line 20: DISCARD QX 17: discarding QX costs -17, not 17")
    fails(judge(["DRAW 2 QXA", "DISCARD QQ -18"]), 20, "line 20: DISCARD QQ -18: Q is not in the hand (QXA)")
    fails(judge(["DISCARD Q -9"]), 19, "line 19: DISCARD Q -9: Q is not in the hand (the hand is empty)")


def test_a_word_must_touch_the_board():
    moves = ["DRAW 1 CAT", "PLAY 9 6 A CAT 9", "DRAW 2 QXAN", "PLAY 1 1 A AN 4"]
    fails(judge(moves), 22, "line 22: PLAY 1 1 A AN 4: AN does not touch any letter on the board")


def test_a_new_letter_beside_the_board_touches():
    board = [EMPTY] * 8 + [".....CAT.........", ".....AN.........."] + [EMPTY] * 7
    moves = ["DRAW 1 CAT", "PLAY 9 6 A CAT 9", "DRAW 2 QXAN", "DISCARD QX -17", "PLAY 10 6 A AN 4"]
    words = WORDS | {"ca"}
    verdict = judge(moves + ["ALSO CA 6"], 9 - 17 + 4 + 6 + 4, board, words=words)
    assert verdict.reason == "line 23: PLAY 10 6 A AN 4: the move also formed AN; it is not listed (ALSO AN 4)"
    assert judge(moves + ["ALSO AN 4", "ALSO CA 6"], 9 - 17 + 4 + 6 + 4, board, words=words).ok


def test_a_corner_does_not_touch():
    moves = ["DRAW 1 CAT", "PLAY 9 6 A CAT 9", "DRAW 2 QXAN", "DISCARD QX -17", "PLAY 10 9 A AN 4"]
    fails(judge(moves), 23, "line 23: PLAY 10 9 A AN 4: AN does not touch any letter on the board")


def test_a_cross_word_not_in_the_dictionary():
    verdict = verify(GOOD.encode(), PILES, WORDS - {"to"})
    fails(verdict, 24, "line 24: PLAY 10 7 A NO 11: the move also forms TO, which is not in the dictionary")


def test_bonus_missing_or_wrong():
    board = [EMPTY] * 8 + ["..P..............", "..AIRPLANE......."] + [EMPTY] * 7
    moves = ["DRAW 3 PA", "PLAY 9 3 D PA 7", "DRAW 3 IRPLANE", "PLAY 10 3 A AIRPLANE 24"]
    fails(judge(moves, 81, board), 22, "line 22: PLAY 10 3 A AIRPLANE 24: the move earns BONUS 50; it is not listed")
    fails(judge(moves + ["BONUS 100"], 131, board), 23, "line 23: BONUS 100: the move earns BONUS 50, not 100")
    fails(
        judge(moves + ["BONUS 50", "BONUS 50"], 131, board), 24, "line 24: BONUS 50: the move's bonus is listed already"
    )


def test_eight_letters_earn_100():
    board = [EMPTY] * 9 + ["..AIRPLANE......."] + [EMPTY] * 7
    moves = ["DRAW 3 P", "DISCARD P -5", "DRAW 3 AIRPLANE", "PLAY 10 3 A AIRPLANE 24", "BONUS 100"]
    assert judge(moves, 119, board).ok


def test_board_and_total_are_checked_after_the_moves():
    text = with_line(1, "70").replace("ALSO NOT 14", "ALSO NOT 15")
    fails(verify(text.encode(), PILES, WORDS), 28, "line 28: ALSO NOT 15: NOT scores 14, not 15")


def test_file_level_errors():
    fails(verify(b"", PILES, WORDS), None, "output.txt is empty; its first line must be the total score")
    fails(
        verify(b"# nothing\n", PILES, WORDS),
        None,
        "output.txt holds only comments; its first line must be the total score",
    )
    fails(verify(b"0\n\0\n", PILES, WORDS), None, "output.txt is not text: a NUL byte at byte 3")
    fails(verify(b"0\n\xff\n", PILES, WORDS), None, "output.txt is not text: byte 3 is not UTF-8")
    big = b"0\n" + b"#" * MAX_OUTPUT_BYTES
    fails(verify(big, PILES, WORDS), None, f"output.txt is {len(big):,} bytes; at most 1,000,000 are read")
    fails(
        verify(b"0\n" + b".................\n" * 5, PILES, WORDS),
        None,
        "the board has 5 rows after the total; it needs 17",
    )


def test_claimed_is_kept_when_the_file_is_wrong():
    verdict = verify(with_line(20, "PLAY 9 6 A CAT 12").encode(), PILES, WORDS)
    assert (verdict.claimed, verdict.verified, len(verdict.steps)) == (68, None, 1)
    assert verify(b"lots\n", PILES, WORDS).claimed is None


def test_a_byte_order_mark_is_forgiven_a_comment_after_a_move_is_not():
    assert verify(b"\xef\xbb\xbf" + GOOD.encode(), PILES, WORDS).ok
    verdict = verify(with_line(19, "DRAW 1 CAT # three letters").encode(), PILES, WORDS)
    assert verdict.line == 19
    assert verdict.reason.startswith("line 19: DRAW 1 CAT # three letters: 5 fields, expected 2")
