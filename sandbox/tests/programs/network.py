import socket
import sys

targets = [("127.0.0.1", int(p)) for p in sys.argv[1:]] + [("192.0.2.1", 80), ("::1", 6379)]
for host, port in targets:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    s = socket.socket(family, socket.SOCK_STREAM)
    s.settimeout(2)
    try:
        s.connect((host, port))
        print(f"CONNECTED {host}:{port}")
    except OSError as e:
        print(f"{host}:{port} {e.strerror}")
    s.close()
for family in (socket.AF_PACKET, 40):  # raw packets, AF_VSOCK
    try:
        socket.socket(family, socket.SOCK_RAW if family == socket.AF_PACKET else socket.SOCK_STREAM)
        print(f"SOCKET {family}")
    except OSError as e:
        print(f"socket {family}: {e.strerror}")
