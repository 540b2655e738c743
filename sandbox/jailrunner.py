"""The trusted runner: the first process inside a jail, started by bubblewrap.

It is not imported by the host. The host copies this file into the jail and talks to it over
a SOCK_SEQPACKET socket on fd 3: each request is one JSON message with three file descriptors
attached (the program's stdin, stdout and stderr); the runner spawns the program, replies
{"spawned": pid}, waits for it, kills whatever the program left behind (kill(-1) in the jail's
pid namespace spares only the runner, its init) and replies with its exit status.
So a jail lives for a whole match and each move costs one spawn, not one jail.

With --forward PORT SOCKET it also relays TCP connections to 127.0.0.1:PORT inside the jail
to the Unix socket SOCKET, bound in from the referee: the program's only way out.

The runner runs with the program's uid and seccomp filter. It is the pid namespace's init, so
the program cannot signal it (not even SIGKILL), and it marks itself non-dumpable, so the
program cannot open its descriptors or memory through /proc.
"""

import contextlib
import ctypes
import json
import os
import signal
import socket
import sys
import threading

PR_SET_DUMPABLE = 4
# The runner ignores these; the program gets them back at their defaults.
IGNORED = (
    signal.SIGHUP,
    signal.SIGINT,
    signal.SIGTERM,
    signal.SIGPIPE,
    signal.SIGQUIT,
    signal.SIGUSR1,
    signal.SIGUSR2,
    signal.SIGALRM,
    signal.SIGTSTP,
    signal.SIGTTIN,
    signal.SIGTTOU,
    signal.SIGXFSZ,
)


def forward(port, path):
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(16)

    def pump(src, dst):
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def serve():
        while True:
            client, _ = listener.accept()
            upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                upstream.connect(path)
            except OSError:
                client.close()
                upstream.close()
                continue
            threading.Thread(target=pump, args=(client, upstream), daemon=True).start()
            threading.Thread(target=pump, args=(upstream, client), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()


def resolve(name, env):
    """Find `name` on the program's PATH (posix_spawnp would search the runner's)."""
    if "/" in name:
        return name
    for folder in env.get("PATH", "/usr/bin:/bin").split(":"):
        path = os.path.join(folder or ".", name)
        if os.access(path, os.X_OK) and not os.path.isdir(path):
            return path
    return name


def wipe(top):
    """Empty the folder ``top`` (the jail's /tmp or /dev/shm, between two programs: nothing
    else runs then); the paths that were in it, at most 20, and how many there were."""
    import shutil

    found = []
    try:
        fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return found, 0
    try:
        names = sorted(os.listdir(fd))
        for name in names:
            with contextlib.suppress(OSError):
                if _is_dir(fd, name):
                    shutil.rmtree(name, dir_fd=fd, ignore_errors=True)
                else:
                    os.unlink(name, dir_fd=fd)
    finally:
        os.close(fd)
    return [os.path.join(top, name) for name in names[:20]], len(names)


def _is_dir(dir_fd, name):
    import stat

    return stat.S_ISDIR(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)


def reap_all():
    """Wait for every other process of the jail: after kill(-1) they are all dying, and as
    the namespace's init the runner inherits each orphan."""
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


def main():
    ctypes.CDLL(None).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    for sig in IGNORED:
        signal.signal(sig, signal.SIG_IGN)
    args = sys.argv[1:]
    os.set_inheritable(int(args[1]), False)  # the program must never get it
    control = socket.socket(fileno=int(args[1]))  # --control FD
    if args[2:3] == ["--forward"]:
        forward(int(args[3]), args[4])
    control.sendall(b'{"ready": true}')
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(control, 1 << 20, 3, socket.MSG_CMSG_CLOEXEC)
        except OSError:
            return
        if not message:
            return
        for fd in fds:  # recv_fds ignores MSG_CMSG_CLOEXEC before Python 3.12: only 0-2 may reach the program
            os.set_inheritable(fd, False)
        request = json.loads(message)
        if "clean" in request:  # a fresh /tmp for the next program: say what the last one left
            left, count = [], 0
            for top in request["clean"]:
                paths, n = wipe(top)
                left, count = left + paths, count + n
            control.sendall(json.dumps({"cleaned": left[:20], "count": count}).encode())
            continue
        try:
            pid = os.posix_spawn(
                resolve(request["argv"][0], request["env"]),
                request["argv"],
                request["env"],
                file_actions=[(os.POSIX_SPAWN_DUP2, fd, n) for n, fd in enumerate(fds)],
                setsid=True,
                setsigdef=IGNORED,
            )
        except OSError as e:
            for fd in fds:
                os.close(fd)
            control.sendall(json.dumps({"error": f"cannot start {request['argv'][0]}: {e.strerror}"}).encode())
            continue
        for fd in fds:
            os.close(fd)
        control.sendall(json.dumps({"spawned": pid}).encode())
        while True:  # as pid 1, the runner also reaps orphans of the program
            reaped, status = os.waitpid(-1, 0)
            if reaped == pid:
                break
        try:  # noqa: SIM105 - the comment says why
            os.kill(-1, signal.SIGKILL)
        except ProcessLookupError:
            pass  # nothing left behind
        reap_all()
        if os.WIFSIGNALED(status):
            reply = {"exit_code": None, "signal": os.WTERMSIG(status)}
        else:
            reply = {"exit_code": os.WEXITSTATUS(status), "signal": None}
        control.sendall(json.dumps(reply).encode())


if __name__ == "__main__":
    main()
