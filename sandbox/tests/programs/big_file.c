#include <stdio.h>
#include <string.h>
int main(void) {
    static char buf[1 << 20];
    memset(buf, 'z', sizeof buf);
    FILE *f = fopen("big.bin", "w");
    for (int i = 0; i < 2048; i++)
        if (fwrite(buf, 1, sizeof buf, f) != sizeof buf) { perror("write"); return 1; }
    return fclose(f) != 0;
}
