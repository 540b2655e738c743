"""Hearts and Flowers test player that keeps a memo in /tmp (says on stderr whether it found
one) and always plays W1."""

import os
import sys

sys.stdin.read()
print("memo found" if os.path.exists("/tmp/memo") else "fresh /tmp", file=sys.stderr)
with open("/tmp/memo", "a") as f:
    f.write("seen\n")
print("W1")
