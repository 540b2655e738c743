#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    if (fork() == 0) {
        setsid();
        if (fork() == 0) {
            close(0); close(1); close(2);
            sleep(1);
            int fd = open("/work/leaked.txt", O_WRONLY | O_CREAT, 0644);
            write(fd, "still here\n", 11);
            for (;;) pause();
        }
        return 0;
    }
    puts("parent done");
    return 0;
}
