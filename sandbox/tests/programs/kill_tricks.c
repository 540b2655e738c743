#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int hits = 0;
    /* The parent is the jail's init: the kernel accepts these and delivers nothing. */
    kill(getppid(), SIGKILL);
    kill(1, SIGKILL);
    if (kill(-1, SIGKILL) == 0) hits++;
    for (int i = 1; i < argc; i++)
        if (kill(atoi(argv[i]), SIGKILL) == 0) hits++;
    for (pid_t p = 2; p < 5000; p++)
        if (p != getpid() && kill(p, SIGKILL) == 0) hits++;
    printf("alive %d\n", hits);
    return 0;
}
