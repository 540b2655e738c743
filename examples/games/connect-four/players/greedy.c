/* Connect Four: a player that wins when it can, blocks when it must, and otherwise drops in
 * the column nearest the centre (see rules.md). C11, standard library only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAX = 12 };

static int rows, columns;
static char grid[MAX][MAX]; /* grid[0] is the top row; '.' is empty */

/* The row a disc dropped in this column lands in, or -1 when the column is full. */
static int landing(int column) {
    for (int row = rows - 1; row >= 0; row--)
        if (grid[row][column] == '.')
            return row;
    return -1;
}

/* How many of `disc` follow (row, column) in the direction (dr, dc), not counting it. */
static int run(int row, int column, int dr, int dc, char disc) {
    int n = 0;
    for (int r = row + dr, c = column + dc; r >= 0 && r < rows && c >= 0 && c < columns && grid[r][c] == disc;
         r += dr, c += dc)
        n++;
    return n;
}

/* Whether `disc` dropped in this column makes four in a row. */
static int wins(int column, char disc) {
    static const int directions[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    int row = landing(column);
    if (row < 0)
        return 0;
    for (int d = 0; d < 4; d++) {
        int dr = directions[d][0], dc = directions[d][1];
        if (1 + run(row, column, dr, dc, disc) + run(row, column, -dr, -dc, disc) >= 4)
            return 1;
    }
    return 0;
}

static int choose(char mine, char theirs) {
    for (int c = 0; c < columns; c++)
        if (wins(c, mine))
            return c;
    for (int c = 0; c < columns; c++)
        if (wins(c, theirs))
            return c;
    int best = -1;
    for (int c = 0; c < columns; c++)
        if (landing(c) >= 0 && (best < 0 || abs(2 * c - (columns - 1)) < abs(2 * best - (columns - 1))))
            best = c;
    return best;
}

int main(void) {
    char line[64];
    if (!fgets(line, sizeof line, stdin) || sscanf(line, "%d %d", &rows, &columns) != 2 || rows < 1 ||
        rows > MAX || columns < 1 || columns > MAX)
        return 1;
    memset(grid, '.', sizeof grid);
    /* Its own discs are 'M' and the opponent's 'T', whichever seat it has. */
    while (fgets(line, sizeof line, stdin) && strncmp(line, "Quit", 4) != 0) {
        if (strncmp(line, "Start", 5) != 0) {
            int theirs = atoi(line) - 1;
            grid[landing(theirs)][theirs] = 'T';
        }
        int mine = choose('M', 'T');
        grid[landing(mine)][mine] = 'M';
        printf("%d\n", mine + 1);
        fflush(stdout);
    }
    return 0;
}
