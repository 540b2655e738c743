/* Chomp test player: eats the last cookie of the lowest row that has one (the poison only
 * when nothing else is left). Deterministic, so that standings can be worked out by hand. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    char grid[50][64];
    int rows = atoi(argv[1]), cols = atoi(argv[2]), r, c, last = -1, width[50];
    for (r = 0; r < rows; r++) {
        if (!fgets(grid[r], sizeof grid[r], stdin)) return 2;
        for (width[r] = 0; width[r] < cols && grid[r][width[r]] != '*'; width[r]++) {}
        if (width[r] > 0) last = r;
    }
    if (last > 0) grid[last][width[last] - 1] = '*';
    else if (width[0] > 1) grid[0][width[0] - 1] = '*';
    else grid[0][0] = '*';
    for (r = 0; r < rows; r++) {
        for (c = 0; c < cols; c++) putchar(grid[r][c]);
        putchar('\n');
    }
    return 0;
}
