"""The page's letter table."""

from games.crossed_words import letters


def test_198_tiles_in_three_piles_of_66():
    assert letters.TILES == 198
    assert letters.PILE_SIZE == 66
    assert sorted(letters.VALUES) == sorted(letters.COUNTS) == list(letters.ALPHABET)


def test_the_table_row_by_row():
    assert (letters.COUNTS["Q"], letters.VALUES["Q"], letters.FREQUENCIES["Q"]) == (1, 9, 1280)
    assert (letters.COUNTS["E"], letters.VALUES["E"], letters.FREQUENCIES["E"]) == (17, 1, 81239)
    assert (letters.COUNTS["N"], letters.VALUES["N"]) == (12, 2)
    assert [letters.VALUES[c] for c in "CAT"] == [4, 2, 3]
    # Every letter of the page's dictionary: with one LF per word (94,234) that is its "779K
    # uncompressed" (778,823 bytes), with CR/LF its "873K" (873,057).
    assert sum(letters.FREQUENCIES.values()) == 684_589
    assert sum(letters.FREQUENCIES.values()) + 94_234 == 778_823


def test_a_discard_costs_the_single_values():
    assert letters.value("QX") == 17
    assert letters.value("qx") == 17
