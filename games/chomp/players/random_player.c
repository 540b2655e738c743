/* Chomp: a random legal player, for system tests.
 * Usage: random_player ROWS COLS < grid > grid
 * Eats a random cookie other than the poison one, unless the poison is all that is left. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX 50

int main(int argc, char **argv) {
    char grid[MAX][MAX + 2];
    int rows, cols, r, c, n = 0, pick;

    if (argc != 3) {
        fprintf(stderr, "usage: %s ROWS COLS\n", argv[0]);
        return 2;
    }
    rows = atoi(argv[1]);
    cols = atoi(argv[2]);
    if (rows < 1 || rows > MAX || cols < 1 || cols > MAX) {
        fprintf(stderr, "grid size out of range\n");
        return 2;
    }
    for (r = 0; r < rows; r++) {
        if (!fgets(grid[r], sizeof grid[r], stdin)) {
            fprintf(stderr, "short input at row %d\n", r + 1);
            return 2;
        }
        grid[r][cols] = '\0';
        for (c = 0; c < cols; c++)
            if (grid[r][c] == 'O')
                n++;
    }
    srand((unsigned)time(NULL) ^ ((unsigned)getpid() << 8));
    if (n == 0) { /* only the poison is left: we must eat it */
        grid[0][0] = '*';
    } else {
        pick = rand() % n;
        for (r = 0; r < rows; r++)
            for (c = 0; c < cols; c++)
                if (grid[r][c] == 'O' && pick-- == 0) {
                    int i, j;
                    for (i = r; i < rows; i++)
                        for (j = c; j < cols; j++)
                            grid[i][j] = '*';
                    fprintf(stderr, "chomp at row %d, column %d\n", r + 1, c + 1);
                    goto done;
                }
    }
done:
    for (r = 0; r < rows; r++)
        printf("%s\n", grid[r]);
    return 0;
}
