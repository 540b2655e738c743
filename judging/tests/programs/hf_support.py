"""Hearts and Flowers test player that counts its moves in support/count and always plays W1.
It also leaves a file outside support/, which must be gone by its next move."""

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
stray = "stray file kept" if os.path.exists("stray") else "no stray file"
with open("stray", "w") as f:
    f.write("x")
print(f"move {count} of this match, {stray}", file=sys.stderr)
print("W1")
