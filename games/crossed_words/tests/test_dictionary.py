"""The default word list, an organiser's upload, and the 26 files a program reads."""

import pytest

from games.crossed_words import dictionary


@pytest.mark.skipif(not dictionary.DEFAULT_PATH.exists(), reason="wamerican-large is not installed")
def test_the_default_list_is_scowl_filtered():
    words = dictionary.default_words()
    assert len(words) == 105_729
    assert all(2 <= len(w) <= 12 and w.isascii() and w.isalpha() and w.islower() for w in words)
    assert {"an", "plan", "plane", "airplane", "cat", "no", "to", "third", "not"} <= words
    assert "a" not in words  # one letter
    assert "aachen" not in words  # a proper noun (Aachen)
    assert dictionary.default_words() is words  # read once


def test_scowl_filter():
    text = "a\nAachen\naardvark\naardvark's\nabacus\nabbé\nincomprehensibilities\nzoo\n"
    assert dictionary.words_from_scowl(text) == {"aardvark", "abacus", "zoo"}


@pytest.mark.parametrize("end", [b"\n", b"\r", b"\r\n"])
def test_upload_any_line_end(end):
    data = end.join([b"cat", b"DOG", b"Bird"]) + end
    assert dictionary.parse_word_list(data) == {"cat", "dog", "bird"}


def test_upload_forgives_what_is_harmless():
    data = b"\xef\xbb\xbfcat\r\n\r\n  dog\t\ncat\rbird"  # BOM, blank line, spaces, repeat, mixed ends, no final end
    assert dictionary.parse_word_list(data) == {"cat", "dog", "bird"}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"cat\ndon't\n", 'line 2: "don\'t" is not a word of letters a-z'),
        (b"cat\r\ndog\r\ncaf\xc3\xa9\r\n", "line 3: 'caf\u00e9' is not a word of letters a-z"),
        (b"cat\rtwo words\r", "line 2: 'two words' is not a word of letters a-z"),
        (b"cat\na\n", "line 2: 'a' has 1 letter; words have 2 to 12"),
        (b"incomprehensible\n", "line 1: 'incomprehensible' has 16 letters; words have 2 to 12"),
        (b"", "the word list has no words"),
        (b"\n\r\n  \n", "the word list has no words"),
    ],
)
def test_upload_errors_name_the_line(data, message):
    with pytest.raises(ValueError) as raised:
        dictionary.parse_word_list(data)
    assert str(raised.value) == message


def test_upload_too_large():
    with pytest.raises(ValueError, match=r"the word list is 4,194,305 bytes; at most 4,194,304 are accepted"):
        dictionary.parse_word_list(b"a" * (dictionary.MAX_UPLOAD_BYTES + 1))


def test_word_files(tmp_path):
    dictionary.write_dictionaries(tmp_path, {"cat", "can", "zoo", "ax"})
    assert sorted(p.name for p in (tmp_path / "dict10").iterdir()) == [f"{chr(c)}.txt" for c in range(97, 123)]
    assert (tmp_path / "dict10" / "c.txt").read_bytes() == b"can\ncat\n"
    assert (tmp_path / "dict13" / "c.txt").read_bytes() == b"can\rcat\r"
    assert (tmp_path / "dict1310" / "c.txt").read_bytes() == b"can\r\ncat\r\n"
    assert (tmp_path / "dict1310" / "z.txt").read_bytes() == b"zoo\r\n"
    assert (tmp_path / "dict13" / "b.txt").read_bytes() == b""
