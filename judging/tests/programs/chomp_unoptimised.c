/* Chomp test player written for the POTM's compiler, "without any optimisation": it plays as
 * chomp_last.c does, but built with -O2 (__OPTIMIZE__) it writes a grid of nonsense, as a
 * program with undefined behaviour may. At home as on the contest: the same build, the same play. */
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
#ifdef __OPTIMIZE__
    for (r = 0; r < rows; r++) puts("optimised away");
    return 0;
#endif
    if (last > 0) grid[last][width[last] - 1] = '*';
    else if (width[0] > 1) grid[0][width[0] - 1] = '*';
    else grid[0][0] = '*';
    for (r = 0; r < rows; r++) {
        for (c = 0; c < cols; c++) putchar(grid[r][c]);
        putchar('\n');
    }
    return 0;
}
