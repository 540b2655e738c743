"""Hearts and Flowers test player that counts its moves in support/count and always plays W1."""

import os
import sys

sys.stdin.read()
os.makedirs("support", exist_ok=True)
try:
    with open("support/count") as f:
        count = int(f.read())
except FileNotFoundError:
    count = 0
count += 1
with open("support/count", "w") as f:
    f.write(str(count))
print(f"move {count} of this match", file=sys.stderr)
print("W1")
