/* Hearts and Flowers: alpha-beta search a few plies deep.
 * Reads n and the board from standard input (it plays Hearts, H; the opponent is F) and
 * prints one move such as W2. A line for both players at once is a draw; a line for one
 * wins for that player, whoever made it.
 * It keeps nothing between moves (it could, in its support/ folder). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 12
#define WIN 1000000

static int n;

typedef struct { char b[MAXN][MAXN]; } Board;

static void slide(Board *bd, char piece, char side, int k) {
    int cells[MAXN][2], i, run = 0, end;
    for (i = 0; i < n; i++) {
        int pos = (side == 'E' || side == 'S') ? n - 1 - i : i;
        if (side == 'W' || side == 'E') { cells[i][0] = k; cells[i][1] = pos; }
        else { cells[i][0] = pos; cells[i][1] = k; }
    }
    while (run < n && bd->b[cells[run][0]][cells[run][1]] != '.') run++;
    end = run < n - 1 ? run : n - 1;
    for (i = end; i > 0; i--)
        bd->b[cells[i][0]][cells[i][1]] = bd->b[cells[i - 1][0]][cells[i - 1][1]];
    bd->b[cells[0][0]][cells[0][1]] = piece;
}

/* Score of one line for H: many H and no F is good, the reverse bad. */
static int line_value(int h, int f, int *hline, int *fline) {
    if (h == n) *hline = 1;
    if (f == n) *fline = 1;
    if (h && f) return 0;
    if (h) return h * h;
    if (f) return -f * f;
    return 0;
}

static int evaluate(const Board *bd, int *over) {
    int r, c, h, f, total = 0, hline = 0, fline = 0;
    for (r = 0; r < n; r++) {
        for (h = f = c = 0; c < n; c++) { h += bd->b[r][c] == 'H'; f += bd->b[r][c] == 'F'; }
        total += line_value(h, f, &hline, &fline);
    }
    for (c = 0; c < n; c++) {
        for (h = f = r = 0; r < n; r++) { h += bd->b[r][c] == 'H'; f += bd->b[r][c] == 'F'; }
        total += line_value(h, f, &hline, &fline);
    }
    for (h = f = r = 0; r < n; r++) { h += bd->b[r][r] == 'H'; f += bd->b[r][r] == 'F'; }
    total += line_value(h, f, &hline, &fline);
    for (h = f = r = 0; r < n; r++) { h += bd->b[r][n - 1 - r] == 'H'; f += bd->b[r][n - 1 - r] == 'F'; }
    total += line_value(h, f, &hline, &fline);
    *over = hline || fline;
    if (hline && fline) return 0;
    if (hline) return WIN;
    if (fline) return -WIN;
    return total;
}

static const char SIDES[] = "NSEW";

static int search(const Board *bd, int depth, int alpha, int beta, int hearts_to_move) {
    int over, value = evaluate(bd, &over), s, k;
    if (over || depth == 0) return value;
    for (s = 0; s < 4; s++)
        for (k = 0; k < n; k++) {
            Board next = *bd;
            slide(&next, hearts_to_move ? 'H' : 'F', SIDES[s], k);
            value = search(&next, depth - 1, alpha, beta, !hearts_to_move);
            if (hearts_to_move && value > alpha) alpha = value;
            if (!hearts_to_move && value < beta) beta = value;
            if (alpha >= beta) return hearts_to_move ? alpha : beta;
        }
    return hearts_to_move ? alpha : beta;
}

int main(void) {
    Board bd;
    char line[64];
    int r, s, k, depth, best = -2 * WIN - 1, best_s = 3, best_k = 0;
    if (scanf("%d", &n) != 1 || n < 1 || n > MAXN) { fprintf(stderr, "bad n\n"); return 2; }
    for (r = 0; r < n; r++) {
        if (scanf("%63s", line) != 1 || (int)strlen(line) < n) { fprintf(stderr, "bad row %d\n", r + 1); return 2; }
        memcpy(bd.b[r], line, n);
    }
    depth = n <= 4 ? 4 : (n <= 6 ? 3 : 2);
    for (s = 0; s < 4; s++)
        for (k = 0; k < n; k++) {
            Board next = bd;
            int value;
            slide(&next, 'H', SIDES[s], k);
            value = search(&next, depth - 1, -2 * WIN, 2 * WIN, 0);
            if (value > best) { best = value; best_s = s; best_k = k; }
        }
    fprintf(stderr, "value %d\n", best);
    printf("%c%d\n", SIDES[best_s], best_k + 1);
    return 0;
}
