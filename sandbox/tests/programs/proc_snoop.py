import os

pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
print("pids", pids)
with open("/proc/1/cmdline", "rb") as f:
    print("cmdline1", f.read().replace(b"\0", b" ").decode())
for path in ("/proc/1/environ", "/proc/1/mem", "/proc/1/fd/0", "/proc/1/root/etc/hostname", "/proc/kcore"):
    try:
        with open(path, "rb") as f:
            print("READ", path, f.read(64))
    except OSError as e:
        print(path, e.strerror)
try:
    print("fds1", os.listdir("/proc/1/fd"))
except OSError as e:
    print("/proc/1/fd", e.strerror)
with open("/proc/self/mountinfo") as f:
    print("mountinfo", f.read())
