/* Count the solutions of a 9x9 sudoku, up to a limit (the referee needs 0, 1 or "2 or more").
 *
 * Depth-first search over candidate bitmasks with constraint propagation at every node:
 * naked singles, hidden singles, and a check that every digit still has a place in every
 * row, column and box. The last two make hidden contradictions in nearly empty grids (a
 * digit with no place left in some box) fail at once instead of after a long search.
 * Branching is on the empty cell with the fewest candidates.
 *
 * Built by games/sudoku/native.py with the system C compiler and loaded through ctypes.
 */
#include <stdint.h>
#include <string.h>

typedef struct {
    uint16_t cand[81];
    uint8_t val[81];
    int empty;
} State;

static int peers[81][20];
static int units[27][9];
static int ready;

static void init(void) {
    int c, u, i, n;
    if (ready) return;
    for (i = 0; i < 9; i++)
        for (c = 0; c < 9; c++) {
            units[i][c] = i * 9 + c;                                   /* rows */
            units[9 + i][c] = c * 9 + i;                               /* columns */
            units[18 + i][c] = (i / 3 * 3 + c / 3) * 9 + i % 3 * 3 + c % 3; /* boxes */
        }
    for (c = 0; c < 81; c++) {
        n = 0;
        for (i = 0; i < 81; i++) {
            if (i == c) continue;
            if (i / 9 == c / 9 || i % 9 == c % 9 || (i / 27 == c / 27 && i % 9 / 3 == c % 9 / 3))
                peers[c][n++] = i;
        }
    }
    (void)u;
    ready = 1;
}

static int assign(State *s, int c, int d) {
    uint16_t bit = (uint16_t)(1u << (d - 1));
    int i;
    s->val[c] = (uint8_t)d;
    s->cand[c] = 0;
    s->empty--;
    for (i = 0; i < 20; i++) {
        int p = peers[c][i];
        if (!s->val[p] && (s->cand[p] & bit)) {
            s->cand[p] &= (uint16_t)~bit;
            if (!s->cand[p]) return 0;
        }
    }
    return 1;
}

static int propagate(State *s) {
    for (;;) {
        int changed = 0, c, u, i;
        for (c = 0; c < 81; c++) {
            uint16_t m = s->cand[c];
            if (s->val[c]) continue;
            if (!m) return 0;
            if (!(m & (m - 1))) {
                if (!assign(s, c, __builtin_ctz(m) + 1)) return 0;
                changed = 1;
            }
        }
        for (u = 0; u < 27; u++) {
            uint16_t once = 0, twice = 0, placed = 0, singles;
            for (i = 0; i < 9; i++) {
                c = units[u][i];
                if (s->val[c]) {
                    placed |= (uint16_t)(1u << (s->val[c] - 1));
                } else {
                    twice |= once & s->cand[c];
                    once |= s->cand[c];
                }
            }
            if ((uint16_t)(once | placed) != 0x1FF) return 0; /* a digit with no place left */
            singles = once & (uint16_t)~twice & (uint16_t)~placed;
            while (singles) {
                uint16_t bit = singles & (uint16_t)-singles;
                singles &= (uint16_t)(singles - 1);
                for (i = 0; i < 9; i++) {
                    c = units[u][i];
                    if (!s->val[c] && (s->cand[c] & bit)) break;
                }
                if (i == 9) return 0; /* its only cell was taken by another single */
                if (!assign(s, c, __builtin_ctz(bit) + 1)) return 0;
                changed = 1;
            }
        }
        if (!changed) return 1;
    }
}

static long search(State *s, long limit) {
    int c, best = -1, fewest = 10;
    long total = 0;
    uint16_t m;
    if (!propagate(s)) return 0;
    if (s->empty == 0) return 1;
    for (c = 0; c < 81; c++) {
        if (!s->val[c]) {
            int n = __builtin_popcount(s->cand[c]);
            if (n < fewest) {
                fewest = n;
                best = c;
                if (n == 2) break;
            }
        }
    }
    m = s->cand[best];
    while (m) {
        uint16_t bit = m & (uint16_t)-m;
        State t;
        m &= (uint16_t)(m - 1);
        memcpy(&t, s, sizeof t);
        if (assign(&t, best, __builtin_ctz(bit) + 1)) {
            total += search(&t, limit - total);
            if (total >= limit) return total;
        }
    }
    return total;
}

/* grid: 81 values 0 (empty) to 9, row by row. When exclude_cell >= 0, solutions with
 * exclude_digit in that (empty) cell are not counted. Returns min(solutions, limit). */
long sudoku_count(const uint8_t *grid, long limit, int exclude_cell, int exclude_digit) {
    State s;
    int c;
    init();
    for (c = 0; c < 81; c++) {
        s.cand[c] = 0x1FF;
        s.val[c] = 0;
    }
    s.empty = 81;
    for (c = 0; c < 81; c++) {
        int d = grid[c];
        if (d < 0 || d > 9) return 0;
        if (d) {
            if (!(s.cand[c] & (1u << (d - 1)))) return 0; /* a digit doubled in a unit */
            if (!assign(&s, c, d)) return 0;
        }
    }
    if (exclude_cell >= 0 && exclude_cell < 81 && !s.val[exclude_cell] && exclude_digit >= 1 && exclude_digit <= 9) {
        s.cand[exclude_cell] &= (uint16_t)~(1u << (exclude_digit - 1));
        if (!s.cand[exclude_cell]) return 0;
    }
    return search(&s, limit);
}
