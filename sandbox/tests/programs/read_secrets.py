import os
import sys

found = []
for path in ["/etc/shadow", "/etc/passwd", "/root/.bashrc", *sys.argv[1:]]:
    try:
        with open(path, "rb") as f:
            found.append((path, f.read(200)))
    except OSError as e:
        print(f"{path}: {e.strerror}")
for pid in os.listdir("/proc"):
    if pid.isdigit() and int(pid) != os.getpid():
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                found.append((f"/proc/{pid}/environ", f.read()))
        except OSError as e:
            print(f"/proc/{pid}/environ: {e.strerror}")
print("environ", dict(os.environ))
print("found", found)
