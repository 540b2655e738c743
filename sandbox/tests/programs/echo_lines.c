#include <stdio.h>
#include <string.h>
int main(void) {
    char line[4096];
    setvbuf(stdout, 0, _IONBF, 0);
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        if (!strcmp(line, "quit")) return 0;
        printf("echo %s\n", line);
    }
    return 0;
}
