"""The word list: the default one, an organiser's upload, and the 26 files a program reads.

The page's own list ("94234 words in 26 files, divided by starting letter ... the longest
words in our dictionary are 12 letters long") is lost. The default list is built instead from
SCOWL (Spell Checker Oriented Word Lists, Kevin Atkinson), as Debian's ``wamerican-large``
package installs it at ``/usr/share/dict/american-english-large`` (SCOWL 2020.12.07): every
line that is 2 to 12 lower-case letters a-z, i.e. without proper nouns (capitalised),
possessives and contractions (apostrophes), accented words and one-letter words. That leaves
105,729 words.

SCOWL's licence (``/usr/share/doc/wamerican-large/copyright``) is permissive: "Permission to
use, copy, modify, distribute and sell these word lists, the associated scripts, the output
created from the scripts, and its documentation for any purpose is hereby granted without
fee, provided that the above copyright notice appears in all copies and that both that
copyright notice and this permission notice appear in supporting documentation." Copyright
2000-2011 by Kevin Atkinson (and the authors of its sources, listed in that file). The list is
read from the installed package, never copied into the repository; the dictionary files given
to programs carry it, so ``write_word_files`` is what needs the notice in a contest's docs.

Words are held in lower case. The files given to programs are lower case too (decision: the
page does not say which case its files used; SCOWL spells its words in lower case, and the
pool's letters and ``output.txt`` are upper case, so a program compares letters without regard
to case either way).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from pathlib import Path

DEFAULT_PATH = Path("/usr/share/dict/american-english-large")
DEBIAN_PACKAGE = "wamerican-large"
MIN_LETTERS = 2
MAX_LETTERS = 12  # "the longest words in our dictionary are 12 letters long"
MAX_UPLOAD_BYTES = 4 * 1024 * 1024  # the page's list was 873K with CR/LF
# Each folder of 26 files and the line end after every word in it: "words separated by line
# feeds", "by carriage returns", "by combined carriage return/line feed".
FOLDERS = {"dict10": "\n", "dict13": "\r", "dict1310": "\r\n"}
_WORD = re.compile(rf"[a-z]{{{MIN_LETTERS},{MAX_LETTERS}}}")
_LINES = re.compile(r"\r\n|\r|\n")
_LETTERS = re.compile(r"[A-Za-z]+")


def words_from_scowl(text: str) -> frozenset[str]:
    """The lines of a SCOWL list that are 2 to 12 lower-case letters a-z."""
    return frozenset(line for line in text.splitlines() if _WORD.fullmatch(line))


@functools.cache
def default_words() -> frozenset[str]:
    """The default dictionary (105,729 words from ``wamerican-large``), read once."""
    try:
        text = DEFAULT_PATH.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FileNotFoundError(
            f"{DEFAULT_PATH} is missing: Crossed Words Solitaire's dictionary comes from the "
            f"Debian package {DEBIAN_PACKAGE} (scripts/system-deps.sh installs it)"
        ) from None
    return words_from_scowl(text)


def parse_word_list(data: bytes) -> frozenset[str]:
    """An organiser's word list: one word a line, lines ended by LF, CR or CR/LF (mixed too).

    Letters a-z in either case (kept in lower case), 2 to 12 of them. Forgiven: a UTF-8 byte
    order mark, spaces and tabs around a word, blank lines, repeated words, a missing final
    line end. Anything else is a ``ValueError`` naming the first bad line.
    """
    if len(data) > MAX_UPLOAD_BYTES:
        raise ValueError(f"the word list is {len(data):,} bytes; at most {MAX_UPLOAD_BYTES:,} are accepted")
    text = data.removeprefix(b"\xef\xbb\xbf").decode("utf-8", errors="replace")
    words = set()
    for number, raw in enumerate(_LINES.split(text), start=1):
        line = raw.strip(" \t")
        if not line:
            continue
        if not _LETTERS.fullmatch(line) or not line.isascii():
            raise ValueError(f"line {number}: {line[:40]!r} is not a word of letters a-z")
        if not MIN_LETTERS <= len(line) <= MAX_LETTERS:
            raise ValueError(
                f"line {number}: {line[:40]!r} has {len(line)} letter{'' if len(line) == 1 else 's'}; "
                f"words have {MIN_LETTERS} to {MAX_LETTERS}"
            )
        words.add(line.lower())
    if not words:
        raise ValueError("the word list has no words")
    return frozenset(words)


def write_word_files(folder: Path, words: Iterable[str], line_end: str) -> None:
    """``a.txt`` to ``z.txt`` in ``folder``: the words that start with that letter, in
    alphabetical order, in lower case, each followed by ``line_end`` ("every file ends with
    the EOL character"). A letter that starts no word gets an empty file."""
    folder.mkdir(parents=True, exist_ok=True)
    by_letter: dict[str, list[str]] = {chr(c): [] for c in range(ord("a"), ord("z") + 1)}
    for word in sorted({w.lower() for w in words}):
        by_letter[word[0]].append(word)
    for letter, group in by_letter.items():
        (folder / f"{letter}.txt").write_bytes("".join(w + line_end for w in group).encode("ascii"))


def write_dictionaries(folder: Path, words: Iterable[str]) -> None:
    """The three folders ``dict10/``, ``dict13/`` and ``dict1310/`` under ``folder``: the same
    words, separated by LF, CR and CR/LF ("All three files are identical except for the line
    separators used between words")."""
    words = frozenset(words)
    for name, line_end in FOLDERS.items():
        write_word_files(folder / name, words, line_end)
