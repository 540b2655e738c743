/* Chomp test player that thinks long on its first move (a full grid: 0.4 s of CPU), then
 * answers at once, eating the last cookie of the lowest row as chomp_last.c does. Within an
 * average of 0.2 s a move over a game of a few moves, as Chomp's page allows. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
    char grid[50][64];
    int rows = atoi(argv[1]), cols = atoi(argv[2]), r, c, last = -1, width[50], full = 1;
    for (r = 0; r < rows; r++) {
        if (!fgets(grid[r], sizeof grid[r], stdin)) return 2;
        for (width[r] = 0; width[r] < cols && grid[r][width[r]] != '*'; width[r]++) {}
        if (width[r] > 0) last = r;
        if (width[r] < cols) full = 0;
    }
    if (full) {
        volatile unsigned long n = 0;
        while (clock() < CLOCKS_PER_SEC * 4 / 10) n++;
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
