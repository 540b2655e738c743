#include <stdio.h>
int main(void) { for (;;) puts("all work and no play makes jack a dull boy"); }
