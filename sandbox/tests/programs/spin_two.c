/* Two processes spin; each reports its own CPU time on stdout every 20 ms of it, so a test
 * can see that the limit stopped them on their sum, not on either one's share. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double cpu(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(void) {
    char who = fork() == 0 ? 'b' : 'a';
    double next = 0.02;
    setvbuf(stdout, NULL, _IONBF, 0);
    for (;;) {
        if (cpu() >= next) {
            printf("%c %.3f\n", who, cpu());
            next += 0.02;
        }
    }
}
