"""A Wheels client that misbehaves, each way by the login name it is given (its entry's name):
stray (tries to reach anything but the server), flood (sends a 10 MB line, then comes back),
twice (opens a second socket while its first is open), quitter (crashes at once). Each says
what happened on stderr; none of them plays a deck."""

import os
import socket
import subprocess
import sys

me = os.environ["SWP_USERNAME"]
host, port, password = os.environ["SWP_SERVERNAME"], int(os.environ["SWP_SERVERPORT"]), os.environ["SWP_PASSWORD"]
whoami = subprocess.run(["whoami"], capture_output=True, text=True).stdout.strip()
print(f"whoami {whoami} SWP_USERNAME {me}", file=sys.stderr)


def connect():
    s = socket.create_connection((host, port), timeout=60)
    f = s.makefile("rb")
    f.readline()
    s.sendall(f"{me}:{password}\n".encode())
    return s, f, f.readline().decode().strip()


if me == "quitter":
    sys.exit(3)
if me == "stray":
    for target in [("127.0.0.1", 80), ("127.0.0.1", port + 1), ("10.0.0.1", 5200), ("1.1.1.1", 53)]:
        try:
            socket.create_connection(target, timeout=2).close()
            print(f"REACHED {target}", file=sys.stderr)
        except OSError as e:
            print(f"refused {target}: {e.strerror or e}", file=sys.stderr)
    try:
        socket.getaddrinfo("example.com", 80)
        print("REACHED DNS", file=sys.stderr)
    except OSError as e:
        print(f"refused DNS: {e}", file=sys.stderr)
if me == "flood":
    s, f, first = connect()
    try:
        s.sendall(b"x" * (10 << 20) + b"\n")
    except OSError as e:
        print(f"send cut: {e.strerror}", file=sys.stderr)
    print(f"answer: {f.readline().decode().strip()}", file=sys.stderr)
    s.close()
    s, f, again = connect()
    print(f"again: {again[:20]}", file=sys.stderr)
if me == "twice":
    s, f, first = connect()
    s2, f2, second = connect()
    print(f"second socket: {second}", file=sys.stderr)
    s.sendall(b"status\n")
    print(f"first still: {f.readline().decode().strip()[:20]}", file=sys.stderr)
