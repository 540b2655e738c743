/* Sudoku test player: reads its first line and dies of a segmentation fault. */
#include <stdio.h>
int main(void) {
    char line[64];
    volatile int *p = 0;
    if (fgets(line, sizeof line, stdin)) return *p;
    return 1;
}
