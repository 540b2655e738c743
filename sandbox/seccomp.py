"""The seccomp filter every jailed process runs under, compiled to classic BPF for bwrap.

Default allow, with a deny list of the calls that widen the kernel's attack surface or reach
outside the jail. Syscalls of any other architecture (32-bit int 0x80, x32) kill the process.
"""

from __future__ import annotations

import errno
import functools
import socket
import tempfile

from .errors import SandboxUnavailable

DENIED = (
    # debugging and reading other processes
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "kcmp",
    "pidfd_getfd",
    # kernel keyrings, BPF, perf, userfaultfd, io_uring
    "keyctl",
    "add_key",
    "request_key",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    # namespaces and mounts
    "mount",
    "umount2",
    "pivot_root",
    "unshare",
    "setns",
    "chroot",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "move_mount",
    "open_tree",
    "mount_setattr",
    "open_by_handle_at",
    "name_to_handle_at",
    # kernel images, modules, machine state
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "reboot",
    "swapon",
    "swapoff",
    "acct",
    "quotactl",
    "syslog",
    "vhangup",
    "iopl",
    "ioperm",
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
    "personality",
    "lookup_dcookie",
    "nfsservctl",
    "uselib",
    "_sysctl",
)

# CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET
NAMESPACE_FLAGS = (0x00020000, 0x02000000, 0x04000000, 0x08000000, 0x10000000, 0x20000000, 0x40000000)
AF_VSOCK = getattr(socket, "AF_VSOCK", 40)
TIOCSTI = 0x5412
# socket()'s domain and ioctl()'s request are 32-bit in the kernel, which ignores the upper half
# of the register: compare the lower half only, or 0x1_0000_0028 would pass as AF_VSOCK.
LOW_32 = 0xFFFFFFFF


@functools.cache
def compiled_filter() -> bytes:
    """The BPF program (cached per process)."""
    try:
        import pyseccomp as sc
    except (ImportError, OSError) as e:  # OSError: libseccomp2 missing
        raise SandboxUnavailable(f"libseccomp is not usable: {e}") from e

    f = sc.SyscallFilter(sc.ALLOW)
    f.set_attr(sc.Attr.ACT_BADARCH, sc.KILL_PROCESS)
    deny = sc.ERRNO(errno.EPERM)
    for name in DENIED:
        try:  # noqa: SIM105 - the comment says why
            f.add_rule(deny, name)
        except (ValueError, RuntimeError, OSError):
            pass  # not a syscall on this architecture
    # clone3 passes its flags in memory BPF cannot read: make libc fall back to clone.
    f.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
    for flag in NAMESPACE_FLAGS:
        f.add_rule(deny, "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
    f.add_rule(deny, "socket", sc.Arg(0, sc.MASKED_EQ, LOW_32, AF_VSOCK))
    f.add_rule(deny, "ioctl", sc.Arg(1, sc.MASKED_EQ, LOW_32, TIOCSTI))
    with tempfile.TemporaryFile() as out:
        f.export_bpf(out)
        out.seek(0)
        return out.read()
