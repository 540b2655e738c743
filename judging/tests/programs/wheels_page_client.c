/* A Wheels client written from the Solitaire 500 page alone (what a contestant of 1999 could
   have sent, here in C): connect to SWP_SERVERNAME:
   SWP_SERVERPORT, answer the login request with whoami:SWP_PASSWORD, then play on the tops
   the status lines show: discard four of a kind, move a card left onto its rank, lay, pick
   the piles up in a random order when the hand is used up, win when the deck is clear. */
#include <netdb.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static FILE *in, *out;
static char tops[4][3];
static int sets, finished;

static int ask(const char *command) {
    char line[512];
    fprintf(out, "%s\n", command);
    fflush(out);
    if (!fgets(line, sizeof line, in)) { fprintf(stderr, "server closed\n"); exit(1); }
    if (strncmp(line, "OK ", 3) != 0) return 0;
    char a[3], b[3], c[3], d[3];
    if (sscanf(line, "OK %2s %2s %2s %2s time %*d round %*d move %*d %d", a, b, c, d, &sets) == 5) {
        strcpy(tops[0], a); strcpy(tops[1], b); strcpy(tops[2], c); strcpy(tops[3], d);
        finished = strcmp(a, "FI") == 0;
    }
    return 1;
}

int main(void) {
    const char *host = getenv("SWP_SERVERNAME") ? getenv("SWP_SERVERNAME") : "localhost";
    const char *port = getenv("SWP_SERVERPORT") ? getenv("SWP_SERVERPORT") : "5200";
    const char *password = getenv("SWP_PASSWORD") ? getenv("SWP_PASSWORD") : "";
    struct passwd *me = getpwuid(getuid());
    struct addrinfo hints = {0}, *addr;
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, port, &hints, &addr) != 0) { fprintf(stderr, "cannot resolve %s\n", host); return 1; }
    int fd = socket(addr->ai_family, SOCK_STREAM, 0);
    if (connect(fd, addr->ai_addr, addr->ai_addrlen) != 0) { perror("connect"); return 1; }
    in = fdopen(fd, "r");
    out = fdopen(dup(fd), "w");
    char line[512];
    fgets(line, sizeof line, in); /* the login request */
    fprintf(out, "%s:%s\n", me ? me->pw_name : "me", password);
    fflush(out);
    if (!fgets(line, sizeof line, in) || strncmp(line, "OK", 2) != 0) { fprintf(stderr, "login: %s", line); return 1; }
    ask("status");
    srand(getpid());
    long instructions = 0;
    while (!finished) {
        instructions++;
        int r[4], moved = 0;
        for (int i = 0; i < 4; i++) r[i] = tops[i][0];
        if (r[0] != '_' && r[0] == r[1] && r[1] == r[2] && r[2] == r[3]) { ask("discard"); continue; }
        for (int from = 1; from < 4 && !moved; from++)
            for (int to = 0; to < from && !moved; to++)
                if (r[from] != '_' && r[from] == r[to] && rand() % 10) {
                    char move[3] = {(char)('0' + from), (char)('0' + to), 0};
                    moved = ask(move);
                }
        if (moved) continue;
        if (sets > 0) ask("lay");
        else if (!strcmp(tops[0], "__") && !strcmp(tops[1], "__") && !strcmp(tops[2], "__") && !strcmp(tops[3], "__")) ask("win");
        else {
            char order[5] = "0123";
            for (int i = 3; i > 0; i--) { int j = rand() % (i + 1); char t = order[i]; order[i] = order[j]; order[j] = t; }
            ask(order);
        }
    }
    fprintf(stderr, "finished after %ld instructions\n", instructions);
    return 0;
}
