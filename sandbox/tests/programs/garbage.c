#include <stdio.h>
int main(void) { for (int i = 0; i < 4096 * 256; i++) putchar(i % 256); return 0; }
