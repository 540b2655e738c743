/* Leaves a child behind that spins for 0.3 s of CPU and ends unwaited-for: the runner, init of
 * the jail, reaps it, and its CPU is the program's. The parent itself uses almost none. */
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(void) {
    if (fork() == 0) {
        struct timespec t;
        do clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        while (t.tv_sec * 1000000000L + t.tv_nsec < 300000000L);
        return 0;
    }
    usleep(600000); /* the child ends first, a zombie the parent never waits for */
    return 0;
}
