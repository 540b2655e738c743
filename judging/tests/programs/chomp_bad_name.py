"""Chomp test player that leaves a file named with a byte that is not UTF-8 and a newline in
its folder (the reason naming it once failed to save: UnicodeEncodeError)."""

import sys

sys.stdin.read()
open(b"bad\xff\nname", "w").close()
print("XO\nO*")  # a legal first move on 2 x 2; the file is what loses
