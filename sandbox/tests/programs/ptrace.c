#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
int main(void) {
    char buf[64];
    struct iovec local = {buf, sizeof buf}, remote = {(void *)0x400000, sizeof buf};
    long a = ptrace(PTRACE_ATTACH, 1, 0, 0);
    printf("ptrace %ld %s\n", a, strerror(errno));
    long b = ptrace(PTRACE_TRACEME, 0, 0, 0);
    printf("traceme %ld %s\n", b, strerror(errno));
    ssize_t c = process_vm_readv(1, &local, 1, &remote, 1, 0);
    printf("process_vm_readv %zd %s\n", c, strerror(errno));
    return 0;
}
