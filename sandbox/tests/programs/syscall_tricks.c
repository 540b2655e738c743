/* Denied calls reached through the unused upper half of a 32-bit argument, then a syscall of
   the x32 ABI (which must kill the process). Sockets are only created, never connected. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static void show(const char *what, long r) { printf("%s %ld %s\n", what, r, r < 0 ? strerror(errno) : "ok"); }

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    errno = 0;
    show("vsock", syscall(SYS_socket, 40L, 1L, 0L));
    show("vsock_high_bits", syscall(SYS_socket, 0x100000028L, 1L, 0L));
    show("tiocsti_high_bits", syscall(SYS_ioctl, 0L, 0x100005412L, "x"));
    show("clone_newuser", syscall(SYS_clone, 0x10000000L | 17, 0L, 0L, 0L, 0L));
    show("clone_newnet_high_bits", syscall(SYS_clone, 0x140000000L | 17, 0L, 0L, 0L, 0L));
    show("x32_getpid", syscall(0x40000000L | 39));
    return 0;
}
