"""One hostile act per command, so a referee's session can try them one after another."""
import os
import sys
import threading
import time


def spin():
    while True:
        pass


for line in sys.stdin:
    cmd = line.strip()
    if cmd == "ping":
        print("pong", flush=True)
    elif cmd == "spin":
        spin()
    elif cmd == "memory":
        blocks = []
        while True:
            blocks.append(bytearray(16 << 20))
    elif cmd == "forkbomb":
        while True:
            try:
                os.fork()
            except OSError:
                pass
    elif cmd == "flood":
        while True:
            sys.stdout.write("x" * 65536)
    elif cmd == "sleep":
        time.sleep(3600)
    elif cmd == "background":  # reply, then think on the opponent's time
        threading.Thread(target=spin, daemon=True).start()
        print("thinking in the background", flush=True)
    elif cmd == "killall":
        for pid in range(1, 300):
            if pid != os.getpid():
                try:
                    os.kill(pid, 9)
                except OSError:
                    pass
        try:
            os.kill(-1, 9)
        except OSError:
            pass
        print("still here", flush=True)
    elif cmd == "closeout":
        os.close(1)
        spin()
    elif cmd == "daemon":  # outlives the session if it can, then leaves a file behind
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                while not os.path.exists("/work/session-closed"):  # the referee's cue, after the session
                    time.sleep(0.01)
                with open("/work/leaked.txt", "w") as f:
                    f.write("x")
                time.sleep(3600)
            os._exit(0)
        print("daemon started", flush=True)
