# Crossed Words: takes memory until the jail stops it.
blocks = []
while True:
    blocks.append(bytearray(64 << 20))
