"""Any OpenSpiel game: always the first legal action."""

import sys

for line in sys.stdin:
    word, _, rest = line.strip().partition(" ")
    if word == "legal":
        print(rest.split()[0].split(":")[0], flush=True)
