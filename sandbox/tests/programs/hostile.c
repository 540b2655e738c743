/* A hostile program for the generated tests (sandbox/tests/hostile.py has its plans): it leaves
 * its folder, /tmp and its output streams as its plan says, then plays a legal move or not.
 *
 * The plan is the variable HOSTILE, a step a line: OP NAME DATA N, NAME and DATA in hex (so
 * they may hold any byte: not UTF-8, newlines), "-" for none, N a decimal number. A step the
 * system refuses (a folder missing, a name too long, a file too large, a FIFO with no reader
 * to write to) is passed over.
 *
 *   d NAME         a folder                  f NAME DATA     a file holding DATA
 *   s NAME DATA    a symbolic link to DATA   h NAME DATA     a hard link to the file DATA
 *   p NAME         a FIFO                    u NAME          a listening Unix socket
 *   z NAME - N     a sparse file of N bytes  m NAME - N      its mode made N
 *   n NAME - N     NAME inside NAME inside ..., N folders deep
 *   o - DATA       DATA to stdout            O - DATA N      DATA's first byte N times to stdout
 *   e - DATA       DATA to stderr            E - DATA N      the same to stderr
 *   k              a child that makes and removes files until it is killed
 *   x - - N        exit with N               c               play Chomp: eat the last cookie
 *   w              play Hearts and Flowers: read the board, answer W1
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

static char a[70001], b[70001];

static size_t unhex(const char *hex, char *out) {
    size_t n = 0;
    if (strcmp(hex, "-") == 0) return 0;
    for (; hex[0] && hex[1]; hex += 2) {
        unsigned byte;
        sscanf(hex, "%2x", &byte);
        out[n++] = (char)byte;
    }
    out[n] = 0;
    return n;
}

static void put(int fd, const char *data, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, data, n);
        if (w <= 0) return;
        data += w;
        n -= (size_t)w;
    }
}

static void chomp(int argc, char **argv) {
    if (argc < 3) return;
    char grid[50][64];
    int rows = atoi(argv[1]), cols = atoi(argv[2]), r, c, last = -1, width[50] = {0};
    for (r = 0; r < rows; r++) {
        if (!fgets(grid[r], sizeof grid[r], stdin)) return;
        for (width[r] = 0; width[r] < cols && grid[r][width[r]] != '*'; width[r]++) {}
        if (width[r] > 0) last = r;
    }
    if (last > 0) grid[last][width[last] - 1] = '*';
    else if (width[0] > 1) grid[0][width[0] - 1] = '*';
    else grid[0][0] = '*';
    for (r = 0; r < rows; r++) {
        for (c = 0; c < cols; c++) putchar(grid[r][c]);
        putchar('\n');
    }
    fflush(stdout);
}

int main(int argc, char **argv) {
    signal(SIGXFSZ, SIG_IGN); /* a file past its limit is refused, not the end of the plan */
    signal(SIGPIPE, SIG_IGN);
    const char *plan = getenv("HOSTILE");
    int home = open(".", O_RDONLY | O_DIRECTORY);
    static char line[200000], op[2], f1[140001], f2[140001];
    while (plan && *plan) {
        const char *end = strchr(plan, '\n');
        size_t len = end ? (size_t)(end - plan) : strlen(plan);
        if (len >= sizeof line) return 99;
        memcpy(line, plan, len);
        line[len] = 0;
        plan = end ? end + 1 : plan + len;
        long n = 0;
        strcpy(f1, "-");
        strcpy(f2, "-");
        if (sscanf(line, "%1s %140000s %140000s %ld", op, f1, f2, &n) < 1) continue;
        size_t na = unhex(f1, a), nb = unhex(f2, b);
        int fd;
        switch (op[0]) {
        case 'd': mkdir(a, 0755); break;
        case 'f':
            if ((fd = open(a, O_WRONLY | O_CREAT | O_TRUNC | O_NONBLOCK, 0644)) >= 0) {
                put(fd, b, nb);
                close(fd);
            }
            break;
        case 's': symlink(b, a); break;
        case 'h': link(b, a); break;
        case 'p': mkfifo(a, 0644); break;
        case 'u': {
            struct sockaddr_un addr = {.sun_family = AF_UNIX};
            if (na >= sizeof addr.sun_path) break;
            memcpy(addr.sun_path, a, na);
            fd = socket(AF_UNIX, SOCK_STREAM, 0);
            if (fd >= 0 && bind(fd, (struct sockaddr *)&addr, sizeof addr) == 0) listen(fd, 1);
            break;
        }
        case 'z':
            if ((fd = open(a, O_WRONLY | O_CREAT | O_NONBLOCK, 0644)) >= 0) {
                if (ftruncate(fd, (off_t)n) != 0) {}
                close(fd);
            }
            break;
        case 'm': chmod(a, (mode_t)n); break;
        case 'n':
            for (long i = 0; i < n; i++)
                if (mkdir(a, 0755) != 0 || chdir(a) != 0) break;
            if (fchdir(home) != 0) return 98;
            break;
        case 'o': put(1, b, nb); break;
        case 'e': put(2, b, nb); break;
        case 'O':
        case 'E':
            memset(a, nb ? b[0] : 'x', sizeof a);
            for (long left = n; left > 0; left -= (long)sizeof a)
                put(op[0] == 'O' ? 1 : 2, a, left < (long)sizeof a ? (size_t)left : sizeof a);
            break;
        case 'k':
            if (fork() == 0)
                for (long i = 0;; i++) {
                    char name[32];
                    snprintf(name, sizeof name, "churn-%ld", i % 8);
                    if ((fd = open(name, O_WRONLY | O_CREAT, 0644)) >= 0) close(fd);
                    unlink(name);
                    mkdir("churn-dir", 0755);
                    rmdir("churn-dir");
                }
            break;
        case 'x': return (int)n;
        case 'c': chomp(argc, argv); break;
        case 'w':
            while (fgets(line, sizeof line, stdin)) {}
            puts("W1");
            fflush(stdout);
            break;
        }
    }
    return 0;
}
