/* Ignores SIGCHLD, so its child is reaped by the kernel the moment it ends and no wait ever
 * reports that child's CPU; the child spins for 0.3 s of it. The CPU is still the program's. */
#include <signal.h>
#include <time.h>
#include <unistd.h>

int main(void) {
    signal(SIGCHLD, SIG_IGN);
    if (fork() == 0) {
        struct timespec t;
        do clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        while (t.tv_sec * 1000000000L + t.tv_nsec < 300000000L);
        return 0;
    }
    usleep(600000);
    return 0;
}
