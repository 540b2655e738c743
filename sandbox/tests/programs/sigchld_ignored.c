/* Ignores SIGCHLD, so its child is reaped by the kernel the moment it ends and no wait ever
 * reports that child's CPU; the child spins for 0.3 s of it. The CPU is still the program's.
 * The parent sees the child's end as the end of a pipe (fixed work, not a fixed time: a loaded
 * host cannot cut the child short). */
#include <signal.h>
#include <time.h>
#include <unistd.h>

int main(void) {
    int done[2];
    char c;
    signal(SIGCHLD, SIG_IGN);
    if (pipe(done) != 0) return 1;
    if (fork() == 0) {
        struct timespec t;
        close(done[0]);
        do clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        while (t.tv_sec * 1000000000L + t.tv_nsec < 300000000L);
        return 0;
    }
    close(done[1]);
    while (read(done[0], &c, 1) > 0) {
    }
    return 0;
}
