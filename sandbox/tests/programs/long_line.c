#include <string.h>
#include <unistd.h>
int main(void) {
    static char buf[1 << 20];
    memset(buf, 'x', sizeof buf);
    for (int i = 0; i < 1024; i++) write(1, buf, sizeof buf);  /* 1 GB, no newline */
    return 0;
}
