"""Properties of the rules that hold for every position reached by legal play."""

from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import ordinal, places
from games.chomp import codec as chomp_codec
from games.chomp.rules import Chomp, grid_lines
from games.hearts_flowers import codec as hf_codec
from games.hearts_flowers.rules import EMPTY, HeartsFlowers, slide

chomp = Chomp()
hf = HeartsFlowers()


@st.composite
def chomp_positions(draw):
    rows, cols = draw(st.integers(2, 12)), draw(st.integers(2, 12))
    state = chomp.initial_state({"rows": rows, "cols": cols}, 0)
    for _ in range(draw(st.integers(0, 30))):
        moves = [m for m in chomp.legal_moves(state) if m != (1, 1)]
        if not moves:
            break
        state = chomp.apply(state, draw(st.sampled_from(moves)))
    return state


@settings(max_examples=200, deadline=None)
@given(chomp_positions(), st.data())
def test_chomp_every_legal_move_reads_back_from_the_grid_it_prints(state, data):
    move = data.draw(st.sampled_from(chomp.legal_moves(state)))
    after = chomp.apply(state, move)
    printed = "".join(line + "\n" for line in grid_lines(after))
    assert chomp_codec.read_reply(chomp, state, printed) == move
    assert list(after.widths) == sorted(after.widths, reverse=True)  # still a staircase
    assert sum(after.eaten) + sum(after.widths) == state.rows * state.cols


@settings(max_examples=200, deadline=None)
@given(chomp_positions())
def test_chomp_the_grid_the_program_reads_is_the_state(state):
    lines = chomp_codec.program_input(state).splitlines()
    assert len(lines) == state.rows and all(len(line) == state.cols for line in lines)
    assert [sum(ch != "*" for ch in line) for line in lines] == list(state.widths)


@st.composite
def hf_positions(draw):
    n = draw(st.integers(3, 7))
    state = hf.initial_state({"n": n}, 0)
    for _ in range(draw(st.integers(0, 40))):
        if hf.to_move(state) is None:
            break
        state = hf.apply(state, draw(st.sampled_from(hf.legal_moves(state))))
    return state


@settings(max_examples=300, deadline=None)
@given(hf_positions(), st.sampled_from("NSEW"), st.integers(1, 7), st.sampled_from("HF"))
def test_hf_a_slide_adds_one_piece_and_loses_at_most_the_one_pushed_off(state, side, k, piece):
    k = min(k, state.n)
    after = slide(state.board, piece, (side, k))
    before_count = sum(row.count(EMPTY) for row in state.board)
    after_count = sum(row.count(EMPTY) for row in after)
    assert after_count in (before_count - 1, before_count)  # one piece in, at most one off
    line = after[k - 1] if side in "WE" else "".join(row[k - 1] for row in after)
    entry = {"W": 0, "N": 0, "E": -1, "S": -1}[side]
    assert line[entry] == piece
    untouched = [i for i in range(state.n) if i != k - 1]
    for i in untouched:  # nothing outside the pushed row or column moves
        if side in "WE":
            assert after[i] == state.board[i]
        else:
            assert [row[i] for row in after] == [row[i] for row in state.board]


@settings(max_examples=200, deadline=None)
@given(hf_positions())
def test_hf_each_seat_reads_the_board_as_hearts(state):
    for seat in (0, 1):
        lines = hf_codec.program_input(state, seat).splitlines()
        assert lines[0] == str(state.n)
        mine = "H" if seat == 0 else "F"
        assert sum(row.count("H") for row in lines[1:]) == sum(row.count(mine) for row in state.board)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.none(), st.integers(-3, 3).map(float)), min_size=1, max_size=8))
def test_places_by_points_share_the_better_place_and_fill_the_rest(points):
    """Standard competition places ("1, 1, 3"): a seat's place is one more than the seats with
    more points; the places seen are exactly those the ties leave."""
    statuses = ["win"] * len(points)
    placed = places(points, statuses)
    scored = [p or 0.0 for p in points]
    for mine, place in zip(scored, placed, strict=True):
        assert place == 1 + sum(other > mine for other in scored)
    assert min(placed) == 1 and max(placed) <= len(points)
    assert places([*points, 99.0], [*statuses, "bye"])[-1] == 0  # a bye places nowhere


def test_ordinals_as_a_table_heads_them():
    said = {n: ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112)}
    assert said == {
        1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st",
        22: "22nd", 23: "23rd", 101: "101st", 111: "111th", 112: "112th",
    }  # fmt: skip
