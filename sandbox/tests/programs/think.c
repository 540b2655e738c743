/* Answers "done" to each line of its input after thinking: `think cpu S` computes for S
   seconds of its own CPU time, `think sleep S` sleeps S seconds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_now(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    double seconds = atof(argv[2]);
    int sleeps = strcmp(argv[1], "sleep") == 0;
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        if (sleeps) {
            struct timespec t = {(time_t)seconds, (long)((seconds - (time_t)seconds) * 1e9)};
            nanosleep(&t, NULL);
        } else {
            volatile unsigned long n = 0;
            double until = cpu_now() + seconds;
            while (cpu_now() < until) n++;
        }
        printf("done\n");
        fflush(stdout);
    }
    return 0;
}
