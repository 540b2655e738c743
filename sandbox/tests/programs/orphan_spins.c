/* Leaves a child behind that spins for 0.3 s of CPU and ends unwaited-for: the runner, init of
 * the jail, reaps it, and its CPU is the program's. The parent itself uses almost none. It
 * waits for the child's end without waiting for the child: its end of a pipe closes (a fixed
 * amount of work, not a fixed time, so that a loaded host cannot cut the child short). */
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(void) {
    int done[2];
    char c;
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
    } /* the child ends first, a zombie the parent never waits for */
    return 0;
}
