/* The jail's trusted runner and its launcher: one small native program, two modes.
 *
 * runner --control FD [--forward PORT SOCKET]
 *   The first process inside a jail (pid 1 of its pid namespace), started by bubblewrap with
 *   the program's uid and seccomp filter. It talks to the host over the SOCK_SEQPACKET socket
 *   FD. Each request is one message, a kind and lists of strings, each list its count then
 *   its strings, all NUL-terminated:
 *     "R" argv env folders   with three descriptors attached, the program's stdin, stdout and
 *                            stderr: run it, then empty the folders (a move's /tmp);
 *     "C" folders            empty these folders (the jail's /tmp and /dev/shm).
 *   Replies are JSON: {"ready": true} once, then {"spawned": PID} and, when the program and
 *   all it left behind are dead, {"exit_code": N|null, "signal": N|null, "runner_ns": N}, or
 *   {"error": "..."}, or {"cleaned": [...], "count": N, "runner_ns": N}. With folders to
 *   empty, the exit reply says "more": true and the emptying follows in a second reply, the
 *   latter: the program's time ends at the first. A folder is emptied and put back as the
 *   jail made it (mode 1777, times, no extended attributes); "stuck": true says something
 *   could not be removed (the host then makes the jail afresh). runner_ns is the
 *   runner's own CPU from the request to its last reply, which the host takes from the jail's
 *   cgroup to leave the program's (a count of the runner's children would miss those whose
 *   parent ignores SIGCHLD: the kernel reaps them and keeps no count).
 *   As init of the namespace the runner cannot be signalled by the program, and it marks
 *   itself non-dumpable so that /proc gives nothing of it away. With --forward it relays
 *   TCP connections to 127.0.0.1:PORT inside the jail to the Unix socket SOCKET: the
 *   program's only way out (threads of pid 1, so kill(-1) after a run spares them).
 *
 * runner --launch [--cgroup PROCS]... [--rlimit RES:VALUE]... [--mount SRC:DST]...
 *        --uid UID -- BWRAP ARGS...
 *   On the host, as root, in place of a fork of the Python worker: join the jail's cgroup,
 *   bind toolchain folders the slot's uid cannot reach in a private mount namespace, set the
 *   rlimits, drop every privilege to UID for good, then exec bubblewrap.
 *
 * Built by sandbox/native.py with the host's C compiler; it replaced a Python runner whose
 * interpreter and imports took 16 ms of every fresh jail (docs/benchmarks.md).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#define MAX_MESSAGE (1 << 20)
#define MAX_LISTED 20

/* The runner ignores these; a program gets them back at their defaults. */
static const int IGNORED[] = {SIGHUP,  SIGINT,  SIGTERM, SIGPIPE, SIGQUIT, SIGUSR1,
                              SIGUSR2, SIGALRM, SIGTSTP, SIGTTIN, SIGTTOU, SIGXFSZ};
#define N_IGNORED (sizeof IGNORED / sizeof IGNORED[0])

static int control = -1;

/* --- replies ---------------------------------------------------------------------------- */

struct text {
    char *data;
    size_t len, cap;
};

static void put(struct text *t, const char *s, size_t n) {
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 256;
        while (t->len + n + 1 > cap) cap *= 2;
        char *grown = realloc(t->data, cap);
        if (!grown) _exit(70);
        t->data = grown;
        t->cap = cap;
    }
    memcpy(t->data + t->len, s, n);
    t->len += n;
    t->data[t->len] = 0;
}

static void puts_(struct text *t, const char *s) { put(t, s, strlen(s)); }

/* A JSON string of any bytes: each byte outside printable ASCII as \u00XX (a file name
 * that is not UTF-8 must not make the reply unreadable). */
static void put_json_string(struct text *t, const char *s) {
    put(t, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char escaped[8];
        if (*p == '"' || *p == '\\') {
            escaped[0] = '\\';
            escaped[1] = (char)*p;
            put(t, escaped, 2);
        } else if (*p < 0x20 || *p >= 0x7f) {
            snprintf(escaped, sizeof escaped, "\\u%04x", *p);
            put(t, escaped, 6);
        } else {
            put(t, (const char *)p, 1);
        }
    }
    put(t, "\"", 1);
}

static void reply(struct text *t) {
    /* The host is gone if this fails: nothing is left to do but end. */
    if (send(control, t->data, t->len, MSG_NOSIGNAL) < 0) _exit(0);
    free(t->data);
    t->data = NULL;
    t->len = t->cap = 0;
}

static void reply_literal(const char *s) {
    struct text t = {0};
    puts_(&t, s);
    reply(&t);
}

/* --- running a program ------------------------------------------------------------------ */

/* `name` on the program's PATH (posix_spawnp would search the runner's own). */
static char *resolve(const char *name, char **env, char *buf, size_t size) {
    if (strchr(name, '/')) return (char *)name;
    const char *path = "/usr/bin:/bin";
    for (char **e = env; *e; e++)
        if (strncmp(*e, "PATH=", 5) == 0) path = *e + 5;
    while (1) {
        const char *end = strchrnul(path, ':');
        size_t len = (size_t)(end - path);
        const char *folder = len ? path : "."; /* an empty entry is the current folder */
        if (snprintf(buf, size, "%.*s/%s", (int)(len ? len : 1), folder, name) < (int)size) {
            struct stat st;
            if (access(buf, X_OK) == 0 && stat(buf, &st) == 0 && !S_ISDIR(st.st_mode)) return buf;
        }
        if (!*end) break;
        path = end + 1;
    }
    return (char *)name;
}

static long long own_cpu_ns(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru); /* every thread of the runner: the relay's too */
    return ((long long)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
           ((long long)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
}

static void reap_all(void) {
    while (waitpid(-1, NULL, 0) > 0 || errno == EINTR) {
    }
}

static void clean(char **folders, long long cpu0);

static void run(char **argv, char **env, char **folders, int fds[3], long long cpu0) {
    char found[4096];
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    sigset_t defaults, none;
    posix_spawn_file_actions_init(&actions);
    for (int n = 0; n < 3; n++) posix_spawn_file_actions_adddup2(&actions, fds[n], n);
    posix_spawnattr_init(&attr);
    sigemptyset(&defaults);
    for (size_t i = 0; i < N_IGNORED; i++) sigaddset(&defaults, IGNORED[i]);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    pid_t pid;
    int err = posix_spawn(&pid, resolve(argv[0], env, found, sizeof found), &actions, &attr, argv, env);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    for (int n = 0; n < 3; n++) close(fds[n]);
    struct text t = {0};
    if (err) {
        puts_(&t, "{\"error\": ");
        char message[4200];
        snprintf(message, sizeof message, "cannot start %s: %s", argv[0], strerror(err));
        put_json_string(&t, message);
        puts_(&t, "}");
        reply(&t);
        return;
    }
    char line[64];
    snprintf(line, sizeof line, "{\"spawned\": %d}", (int)pid);
    reply_literal(line);
    int status = 0;
    while (1) { /* as pid 1, the runner also reaps the program's orphans meanwhile */
        pid_t reaped = waitpid(-1, &status, 0);
        if (reaped == pid) break;
        if (reaped < 0 && errno != EINTR) break;
    }
    kill(-1, SIGKILL); /* whatever it left behind: everyone in the namespace but init */
    reap_all();
    if (WIFSIGNALED(status))
        snprintf(line, sizeof line, "{\"exit_code\": null, \"signal\": %d", WTERMSIG(status));
    else
        snprintf(line, sizeof line, "{\"exit_code\": %d, \"signal\": null", WEXITSTATUS(status));
    puts_(&t, line);
    snprintf(line, sizeof line, ", \"runner_ns\": %lld", own_cpu_ns() - cpu0);
    puts_(&t, line);
    if (!*folders) {
        puts_(&t, "}");
        reply(&t);
        return;
    }
    puts_(&t, ", \"more\": true}"); /* the program's time ends here; its /tmp is emptied next */
    reply(&t);
    clean(folders, cpu0);
}

/* --- emptying /tmp between two programs --------------------------------------------------- */

#define MAX_DEPTH 24 /* folders open at once while emptying: below the jail's open-files limit */

static long flattened; /* folders moved up to be emptied in a later pass */

/* Remove `name` in `parent` and all it holds. A folder is made readable first (the program
 * may have closed it to itself); one deeper than MAX_DEPTH is moved up to `top`, for a later
 * pass, instead of opening yet another descriptor. */
static void remove_tree(int top, int parent, const char *name, int depth) {
    struct stat st;
    if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) != 0) return;
    if (!S_ISDIR(st.st_mode)) {
        unlinkat(parent, name, 0);
        return;
    }
    if (unlinkat(parent, name, AT_REMOVEDIR) == 0) return; /* already empty */
    fchmodat(parent, name, 0700, 0); /* to read it, and to move it (its ".." changes) */
    if (depth >= MAX_DEPTH) {
        char moved[64];
        for (int tries = 0; tries < 100; tries++) { /* a name of the program's own is never replaced */
            snprintf(moved, sizeof moved, ".arbiter-deep-%ld", flattened++);
            if (renameat2(parent, name, top, moved, RENAME_NOREPLACE) == 0 || errno != EEXIST) break;
        }
        return;
    }
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0) {
        DIR *dir = fdopendir(fd);
        if (dir) {
            struct dirent *e;
            while ((e = readdir(dir)))
                if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) remove_tree(top, dirfd(dir), e->d_name, depth + 1);
            closedir(dir);
        } else {
            close(fd);
        }
    }
    unlinkat(parent, name, AT_REMOVEDIR);
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Empty `top`; add the first paths found to `listed` (sorted, as many as fit) and return how
 * many entries it held. A folder the program made unreadable to itself may survive. */
/* The emptied folder itself as the jail made it (its mode was put back before it was
 * opened): the program owns it, and its times and extended attributes could otherwise carry
 * something to the next program. */
static void reset_folder(int fd) {
    static char names[1 << 16];
    ssize_t n = flistxattr(fd, names, sizeof names);
    for (ssize_t at = 0; at < n; at += (ssize_t)strlen(names + at) + 1) fremovexattr(fd, names + at);
    struct timespec epoch[2] = {{0, 0}, {0, 0}};
    futimens(fd, epoch);
}

/* Empty `top`, naming what was in it (at most MAX_LISTED names over all folders in `listed`);
 * how many entries it held. `*stuck` is set when anything is left (or it cannot be read). */
static long wipe(const char *top, struct text *listed, int *shown, int *stuck) {
    chmod(top, 01777); /* the program may have locked it */
    int fd = open(top, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *dir = fd < 0 ? NULL : fdopendir(fd);
    if (!dir) {
        if (fd >= 0) close(fd);
        *stuck = 1;
        return 0;
    }
    char **names = NULL;
    long count = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(dir))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        if (count == cap) {
            cap = cap ? cap * 2 : 16;
            char **grown = realloc(names, (size_t)cap * sizeof *names);
            if (!grown) _exit(70);
            names = grown;
        }
        if (!(names[count++] = strdup(e->d_name))) _exit(70);
    }
    qsort(names, (size_t)count, sizeof *names, by_name);
    for (long i = 0; i < count; i++) {
        remove_tree(dirfd(dir), dirfd(dir), names[i], 0);
        if (*shown < MAX_LISTED) {
            char path[4200];
            snprintf(path, sizeof path, "%s/%s", top, names[i]);
            if ((*shown)++) puts_(listed, ", ");
            put_json_string(listed, path);
        }
        free(names[i]);
    }
    free(names);
    /* Then what was moved up from deep down, a pass at a time while a pass gets somewhere
     * (each folder is moved at most once, so the passes end); then anything still there. */
    long left;
    do {
        long gone = 0;
        left = 0;
        rewinddir(dir);
        while ((e = readdir(dir))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            if (strncmp(e->d_name, ".arbiter-deep-", 14) == 0) {
                struct stat st;
                remove_tree(dirfd(dir), dirfd(dir), e->d_name, 0);
                if (fstatat(dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
                    gone++;
                    continue;
                }
            }
            left++;
        }
        if (!gone) break;
    } while (1);
    if (left) *stuck = 1;
    reset_folder(dirfd(dir));
    closedir(dir);
    return count;
}

/* Empty the folders and say what they held: {"cleaned": [...], "count": N, "runner_ns": N}
 * (the runner's CPU since the request), with "stuck": true if something could not be removed
 * (the host then makes the jail afresh). */
static void clean(char **folders, long long cpu0) {
    struct text t = {0};
    int shown = 0, stuck = 0;
    long count = 0;
    char tail[128];
    puts_(&t, "{\"cleaned\": [");
    for (char **f = folders; *f; f++) count += wipe(*f, &t, &shown, &stuck);
    snprintf(tail, sizeof tail, "], \"count\": %ld, \"runner_ns\": %lld%s}", count, own_cpu_ns() - cpu0,
             stuck ? ", \"stuck\": true" : "");
    puts_(&t, tail);
    reply(&t);
}

/* --- the relay to the referee's socket ---------------------------------------------------- */

/* One relayed connection: a thread each way; the last one to end closes both sockets. */
struct connection {
    int client, upstream;
    int threads; /* still running, under lock */
    pthread_mutex_t lock;
};

struct direction {
    struct connection *c;
    int from, to;
    int hangs_up; /* the server's way back: when it ends, the server has hung up */
};

static void release(struct connection *c) {
    pthread_mutex_lock(&c->lock);
    int left = --c->threads;
    pthread_mutex_unlock(&c->lock);
    if (left == 0) {
        close(c->client);
        close(c->upstream);
        pthread_mutex_destroy(&c->lock);
        free(c);
    }
}

/* Copy `from` into `to` until `from` ends, then pass the end on (a half close), so that what
 * the other side still sends (a server's last answer before it hangs up) gets through. When
 * the server ends its side it has hung up: what the program still sends goes nowhere (the
 * other direction reads and drops it, so the program is never left blocked on a write), and
 * the server sees the connection end at once, as a server whose client closed. */
static void *pump(void *arg) {
    struct direction d = *(struct direction *)arg;
    free(arg);
    char buf[65536];
    ssize_t n;
    int dropping = 0;
    while ((n = recv(d.from, buf, sizeof buf, 0)) > 0 || (n < 0 && errno == EINTR)) {
        for (ssize_t sent = 0; n > 0 && sent < n && !dropping;) {
            ssize_t k = send(d.to, buf + sent, (size_t)(n - sent), MSG_NOSIGNAL);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) dropping = 1;
            else sent += k;
        }
    }
    shutdown(d.to, SHUT_WR);
    if (d.hangs_up) shutdown(d.from, SHUT_WR); /* the other direction's sends fail: it drops */
    release(d.c);
    return NULL;
}

/* Start a thread pumping `from` into `to`; 0, or -1 if no thread could be made (the process
 * limit counts threads). */
static int start_pump(struct connection *c, int from, int to, int hangs_up) {
    struct direction *d = malloc(sizeof *d);
    pthread_t thread;
    pthread_attr_t attr;
    if (!d) return -1;
    *d = (struct direction){c, from, to, hangs_up};
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    int err = pthread_create(&thread, &attr, pump, d);
    pthread_attr_destroy(&attr);
    if (err) free(d);
    return err ? -1 : 0;
}

struct relay {
    int listener;
    struct sockaddr_un upstream;
};

static void *serve(void *arg) {
    struct relay *relay = arg;
    while (1) {
        int client = accept4(relay->listener, NULL, NULL, SOCK_CLOEXEC);
        if (client < 0) {
            if (errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE) {
                if (errno != EINTR && errno != ECONNABORTED) usleep(10000);
                continue;
            }
            return NULL;
        }
        int up = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (up < 0 || connect(up, (struct sockaddr *)&relay->upstream, sizeof relay->upstream) != 0) {
            close(client);
            if (up >= 0) close(up);
            continue;
        }
        struct connection *c = malloc(sizeof *c);
        if (!c) {
            close(client);
            close(up);
            continue;
        }
        *c = (struct connection){.client = client, .upstream = up, .threads = 2};
        pthread_mutex_init(&c->lock, NULL);
        if (start_pump(c, client, up, 0) != 0) {
            c->threads = 1;
            release(c); /* closes both */
            continue;
        }
        if (start_pump(c, up, client, 1) != 0) { /* the first thread ends on the shutdown and closes both */
            shutdown(client, SHUT_RDWR);
            shutdown(up, SHUT_RDWR);
            release(c);
        }
    }
}

static int forward(int port, const char *path) {
    static struct relay relay;
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    int one = 1;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    relay.listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (relay.listener < 0) return -1;
    setsockopt(relay.listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(relay.listener, (struct sockaddr *)&address, sizeof address) || listen(relay.listener, 16)) return -1;
    relay.upstream.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof relay.upstream.sun_path) return -1;
    strcpy(relay.upstream.sun_path, path);
    pthread_t thread;
    return pthread_create(&thread, NULL, serve, &relay) ? -1 : 0;
}

/* --- the runner's loop ------------------------------------------------------------------ */

/* One list of a request: its count, then its strings, each NUL-terminated. A NULL-terminated
 * list of them in `*out`; the position after it, or NULL for a malformed request. */
static char *split(char *p, char *end, char ***out) {
    *out = NULL;
    if (p >= end) return NULL;
    char *stop;
    unsigned long n = strtoul(p, &stop, 10);
    if (stop == p || *stop || n > MAX_MESSAGE) return NULL;
    p = stop + 1;
    char **list = malloc((n + 1) * sizeof *list);
    if (!list) _exit(70);
    for (unsigned long i = 0; i < n; i++) {
        if (p >= end) {
            free(list);
            return NULL;
        }
        list[i] = p;
        p += strlen(p) + 1;
    }
    list[n] = NULL;
    *out = list;
    return p;
}

static int runner(int argc, char **argv) {
    if (getpid() != 1) return 64; /* its kill(-1) after each program is for a jail's namespace only */
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    for (size_t i = 0; i < N_IGNORED; i++) signal(IGNORED[i], SIG_IGN);
    if (argc < 3 || strcmp(argv[1], "--control")) return 64;
    control = atoi(argv[2]);
    fcntl(control, F_SETFD, FD_CLOEXEC); /* the program must never get it */
    if (argc >= 6 && !strcmp(argv[3], "--forward") && forward(atoi(argv[4]), argv[5]) != 0) return 71;
    reply_literal("{\"ready\": true}");
    char *message = malloc(MAX_MESSAGE + 1);
    if (!message) return 70;
    while (1) {
        char cbuf[CMSG_SPACE(3 * sizeof(int))];
        struct iovec iov = {.iov_base = message, .iov_len = MAX_MESSAGE};
        struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof cbuf};
        ssize_t n = recvmsg(control, &msg, MSG_CMSG_CLOEXEC);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return 0; /* the host closed the jail */
        long long cpu0 = own_cpu_ns();
        message[n] = 0;
        int fds[3] = {-1, -1, -1}, nfds = 0;
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
            if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
            int count = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
            for (int i = 0; i < count; i++) {
                int fd;
                memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
                if (nfds < 3)
                    fds[nfds++] = fd;
                else
                    close(fd);
            }
        }
        char *end = message + n;
        char **args = NULL, **env = NULL, **folders = NULL, *rest = NULL;
        if (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
            for (int i = 0; i < nfds; i++) close(fds[i]);
            reply_literal("{\"error\": \"a request too large for the runner\"}");
        } else if (message[0] == 'C' && split(message + 1, end, &folders)) {
            for (int i = 0; i < nfds; i++) close(fds[i]);
            clean(folders, cpu0);
        } else if (message[0] == 'R' && nfds == 3 && (rest = split(message + 1, end, &args)) &&
                   (rest = split(rest, end, &env)) && split(rest, end, &folders) && args[0]) {
            run(args, env, folders, fds, cpu0);
        } else {
            for (int i = 0; i < nfds; i++) close(fds[i]);
            reply_literal("{\"error\": \"a request the runner does not understand\"}");
        }
        free(args);
        free(env);
        free(folders);
    }
}

/* --- the launcher --------------------------------------------------------------------------- */

static int fail(const char *what) {
    dprintf(2, "arbiter launcher: %s: %s\n", what, strerror(errno));
    return 71;
}

static int launcher(int argc, char **argv) {
    uid_t uid = 0;
    int have_uid = 0, i = 2, private_ns = 0;
    char pid[32];
    snprintf(pid, sizeof pid, "%d", (int)getpid());
    for (; i < argc && strcmp(argv[i], "--"); i += 2) {
        if (i + 1 >= argc) return 64;
        const char *option = argv[i], *value = argv[i + 1];
        if (!strcmp(option, "--cgroup")) {
            int fd = open(value, O_WRONLY | O_CLOEXEC);
            if (fd < 0 || write(fd, pid, strlen(pid)) < 0) return fail(value);
            close(fd);
        } else if (!strcmp(option, "--rlimit")) {
            int resource;
            unsigned long long limit;
            if (sscanf(value, "%d:%llu", &resource, &limit) != 2) return 64;
            struct rlimit rl = {(rlim_t)limit, (rlim_t)limit};
            if (setrlimit(resource, &rl)) return fail("setrlimit");
        } else if (!strcmp(option, "--mount")) {
            char *copy = strdup(value), *colon = copy ? strchr(copy, ':') : NULL;
            if (!colon) return 64;
            *colon = 0;
            if (!private_ns) {
                if (unshare(CLONE_NEWNS) || mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL))
                    return fail("a private mount namespace");
                private_ns = 1;
            }
            if (mount(copy, colon + 1, NULL, MS_BIND | MS_REC, NULL)) return fail(copy);
            free(copy);
        } else if (!strcmp(option, "--uid")) {
            uid = (uid_t)strtoul(value, NULL, 10);
            have_uid = 1;
        } else {
            return 64;
        }
    }
    if (i >= argc - 1 || !have_uid || uid == 0) return 64;
    if (setgroups(0, NULL) || setresgid(uid, uid, uid) || setresuid(uid, uid, uid)) return fail("dropping to the slot's uid");
    if (setresuid(0, 0, 0) == 0) return 71; /* the drop must be for good */
    execv(argv[i + 1], argv + i + 1);
    return fail(argv[i + 1]);
}

int main(int argc, char **argv) {
    if (argc > 1 && !strcmp(argv[1], "--launch")) return launcher(argc, argv);
    return runner(argc, argv);
}
