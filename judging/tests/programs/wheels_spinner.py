"""A Wheels client that logs in and then only computes, for as long as it is let: the race's
CPU is shared between such programs (each in a cgroup of its own) as evenly as the kernel does."""

import os
import socket

s = socket.create_connection((os.environ["SWP_SERVERNAME"], int(os.environ["SWP_SERVERPORT"])))
f = s.makefile("rb")
f.readline()
s.sendall(f"{os.environ['SWP_USERNAME']}:{os.environ['SWP_PASSWORD']}\n".encode())
f.readline()
n = 0
while True:
    n += 1
