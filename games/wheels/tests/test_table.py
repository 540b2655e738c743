"""The rules as the server enforces them, command by command, and the page's sample dialogue."""

import re

import pytest

from games.wheels.cards import FULL_DECK, DeckError, decks_from_seed, parse_deck, read_decks, write_decks
from games.wheels.table import KNOWN, Table, is_move
from games.wheels.tests import dialogue


def _seconds(line: str) -> int:
    match = re.search(r" time (\d+) ", line)
    return int(match.group(1)) if match else 0


def test_the_pages_dialogue_line_by_line():
    dialogue.check_cards()
    table = dialogue.table()
    for sent, expected in dialogue.DIALOGUE:
        seconds = _seconds(expected[0])  # the page's own clock, back-steps and all
        answers = [table.execute(word, seconds).line for word in sent.split()]
        assert answers == [dialogue.DIFFERENCES.get(line, line) for line in expected], sent


def test_a_fresh_game_shows_thirteen_sets_and_empty_piles():
    table = Table(decks_from_seed(8, 1))
    assert table.execute("status", 0).line == "OK __ __ __ __ time 0 round 1 move 0 13 sets left in deck 1 of 8 decks"


def _deck(*first: str) -> tuple[str, ...]:
    return tuple(first) + tuple(c for c in FULL_DECK if c not in first)


def test_lay_deals_the_next_four_cards_left_to_right():
    table = Table([_deck("3h", "Js", "Kd", "Ks")])
    assert table.execute("lay", 5).line.startswith("OK 3h Js Kd Ks time 5 round 1 move 0 12 sets left")
    assert table.piles == [["3h"], ["Js"], ["Kd"], ["Ks"]]


@pytest.mark.parametrize(
    ("move", "why"),
    [
        ("32", ""),  # Ks onto Kd
        ("23", "cannot move 23"),  # to the right
        ("31", "cannot move 31"),  # ranks differ
        ("22", "cannot move 22"),  # onto itself
        ("10", "cannot move 10"),
    ],
)
def test_a_card_moves_only_left_onto_its_rank(move, why):
    table = Table([_deck("3h", "Js", "Kd", "Ks")])
    table.execute("lay", 0)
    answer = table.execute(move, 0)
    assert answer.move
    assert answer.illegal == bool(why)
    assert answer.line == (
        f"ERR {why}" if why else "OK 3h Js Ks __ time 0 round 1 move 1 12 sets left in deck 1 of 1 decks"
    )


def test_moving_onto_an_empty_pile_is_refused():
    table = Table([_deck()], piles=[[], ["Ac"], [], ["Ad"]], hand=[])
    assert table.execute("32", 0).line == "ERR cannot move 32"
    assert table.execute("20", 0).line == "ERR cannot move 20"
    assert table.illegal == 2 and table.moves == 0


def test_discard_takes_four_tops_of_one_rank_and_nothing_else():
    table = Table([_deck("8s", "8h", "8d", "8c", "2c", "2d", "2h", "3s")])
    assert table.execute("discard", 0).line == "ERR cannot discard: the four top cards do not match"
    table.execute("lay", 0)
    assert table.execute("discard", 0).line.startswith("OK __ __ __ __ ")
    assert table.discarded == 1
    table.execute("lay", 0)
    assert table.execute("discard", 0).illegal  # 2 2 2 3


def test_a_pick_up_turns_each_pile_over_in_the_order_named():
    table = Table([_deck()], hand=[], piles=[["Ac", "2c"], ["3c"], ["4c", "5c", "6c"], ["7c", "8c"]], round=4)
    assert table.execute("3012", 0).line.startswith("OK __ __ __ __ time 0 round 5 move 0 2 sets left")
    assert table.hand == ["7c", "8c", "Ac", "2c", "3c", "4c", "5c", "6c"]
    assert table.execute("lay", 0).line.startswith("OK 7c 8c Ac 2c ")


@pytest.mark.parametrize(
    ("word", "why"),
    [
        ("0012", "cannot pick up 0012: name each pile once"),
        ("0123", "cannot pick up 0123: there are still cards in hand"),
    ],
)
def test_a_pick_up_needs_each_pile_once_and_an_empty_hand(word, why):
    table = Table([_deck()])
    table.execute("lay", 0)
    assert table.execute(word, 0).line == f"ERR {why}"
    assert table.round == 1


def test_lay_with_an_empty_hand_is_refused():
    table = Table([_deck()], hand=[], piles=[["Ac"], ["2c"], ["3c"], ["4c"]])
    assert table.execute("lay", 0).line == "ERR cannot lay: no cards left in hand"


def test_win_starts_the_next_deck_and_finishes_after_the_last():
    decks = decks_from_seed(2, 7)
    table = Table(decks, hand=[], piles=[[], [], [], []], discarded=13, round=9, moves=40)
    assert table.execute("win", 12).line == "OK __ __ __ __ time 12 round 10 move 40 13 sets left in deck 2 of 2 decks"
    assert table.hand == list(decks[1])
    assert table.execute("win", 12).line == "ERR there are still cards in this deck"
    table.hand = []
    table.piles = [[], [], [], []]
    assert table.execute("win", 13).line == "OK FI NI SH ED time 13 round 10 move 40 0 sets left in deck 2 of 2 decks"
    assert table.finished and table.progress() == (2, 0)
    assert table.execute("lay", 14).line == "ERR the game is over: every deck is won"
    assert table.execute("status", 15).line.startswith("OK FI NI SH ED time 15 ")


def test_a_whole_deck_played_by_the_rules_only_reaches_win():
    """Random legal play (moves, pick-ups in random order) ends every deck it is given."""
    import random

    rng = random.Random(3)
    table = Table(decks_from_seed(3, 11))
    for _ in range(200_000):
        if table.finished:
            break
        for word in ("discard", *[f"{a}{b}" for a in range(4) for b in range(a)]):
            if rng.random() < 0.8 and not table.execute(word, 0).illegal:
                break
        else:
            if table.hand:
                table.execute("lay", 0)
            elif any(table.piles):
                order = [0, 1, 2, 3]
                rng.shuffle(order)
                table.execute("".join(map(str, order)), 0)
            else:
                assert not table.execute("win", 0).illegal
        held = len(table.hand) + sum(map(len, table.piles)) + 4 * table.discarded
        assert held == 52 or table.finished
    assert table.finished


@pytest.mark.parametrize("word", ["blat", "LAY", "4", "03x", "sync", "01234", "34"])
def test_an_unknown_word_is_named_with_what_the_server_knows(word):
    answer = Table(decks_from_seed(1, 1)).execute(word, 0)
    known = word == "34"  # a move of two digits, out of range: unknown
    assert answer.line == f'ERR what is "{word}"? I know: {KNOWN}' or known
    assert not answer.illegal


def test_sync_words_are_echoed():
    table = Table(decks_from_seed(1, 1))
    assert table.execute("syncA", 0).line == "OK, synching syncA"
    assert table.execute("sync_42", 0).line == "OK, synching sync_42"
    assert not is_move("syncA") and is_move("lay") and is_move("21") and is_move("3012")


def test_deck_files_round_trip_and_refuse_what_is_not_a_deck():
    decks = decks_from_seed(5, 42)
    assert read_decks(write_decks(decks)) == decks
    assert decks_from_seed(5, 42) == decks != decks_from_seed(5, 43)
    assert read_decks("# comment\n\n" + write_decks(decks[:1]).replace("\n", "\r\n")) == decks[:1]
    line = write_decks(decks[:1]).strip()
    with pytest.raises(DeckError, match="51 cards, not 52"):
        parse_deck(line.rsplit(" ", 1)[0])
    with pytest.raises(DeckError, match="card 1 is '1h'"):
        parse_deck("1h" + line[2:])
    doubled = line.split(" ")
    doubled[1] = doubled[0]
    with pytest.raises(DeckError, match="missing"):
        parse_deck(" ".join(doubled))
    with pytest.raises(DeckError, match="no decks"):
        read_decks("# nothing\n")
