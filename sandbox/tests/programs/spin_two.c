#include <unistd.h>
int main(void) { fork(); volatile unsigned long n = 0; for (;;) n++; }
