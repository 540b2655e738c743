"""The pool and the files written for a program."""

from collections import Counter

import pytest

from games.crossed_words import inputs, letters


def test_shuffle_is_the_198_tiles_in_three_piles():
    piles = inputs.shuffle_pool(inputs.PRACTICE_SEED)
    assert [len(p) for p in piles] == [66, 66, 66]
    assert Counter("".join(piles)) == Counter(letters.COUNTS)
    assert inputs.shuffle_pool(inputs.PRACTICE_SEED) == piles
    assert inputs.shuffle_pool(1) != piles


def test_shuffle_is_pinned():
    # random.Random(seed).shuffle is stable across Python versions; a change here would
    # change every contest's pool.
    assert inputs.shuffle_pool(inputs.PRACTICE_SEED)[0] == (
        "YIKGSHRGNATHHLTISUALWOBYAALUDPEIMSORMUSRIIUUNCZKESISUFICONYXOATOCP"
    )


def test_input_files_exact_bytes(tmp_path):
    piles = ("AB", "CD", "EF")
    inputs.write_inputs(tmp_path, piles, {"cat", "dog"}, 300)
    assert (tmp_path / "input10.txt").read_bytes() == b"AB\nCD\nEF\n"
    assert (tmp_path / "input13.txt").read_bytes() == b"AB\rCD\rEF\r"
    assert (tmp_path / "input1310.txt").read_bytes() == b"AB\r\nCD\r\nEF\r\n"
    assert (tmp_path / "seconds.txt").read_bytes() == b"300\r\n"
    assert (tmp_path / "seconds10.txt").read_bytes() == b"300\n"
    assert (tmp_path / "dict10" / "c.txt").read_bytes() == b"cat\n"
    assert (tmp_path / "dict13" / "d.txt").read_bytes() == b"dog\r"
    assert (tmp_path / "dict1310" / "c.txt").read_bytes() == b"cat\r\n"
    names = {p.name for p in tmp_path.iterdir()}
    assert names == {"input10.txt", "input13.txt", "input1310.txt", "seconds.txt", "seconds10.txt"} | {
        "dict10",
        "dict13",
        "dict1310",
    }


def test_the_real_pool_files(tmp_path):
    piles = inputs.shuffle_pool(7)
    inputs.write_inputs(tmp_path, piles, {"cat"}, 300)
    lines = (tmp_path / "input1310.txt").read_bytes().split(b"\r\n")
    assert [len(line) for line in lines] == [66, 66, 66, 0]


@pytest.mark.parametrize(
    ("piles", "seconds", "message"),
    [
        (("AB", "CD"), 300, "there are 2 piles"),
        (("AB", "cd", "EF"), 300, "pile 2 must be upper-case letters"),
        (("AB", "C1", "EF"), 300, "pile 2 must be upper-case letters"),
        (("AB", "CD", "EF"), 0, "the time limit must be a whole number"),
        (("AB", "CD", "EF"), 2.5, "the time limit must be a whole number"),
    ],
)
def test_bad_inputs(tmp_path, piles, seconds, message):
    with pytest.raises(ValueError, match=message):
        inputs.write_inputs(tmp_path, piles, {"cat"}, seconds)
