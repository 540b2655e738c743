# Crossed Words: ends without writing output.txt.
print("no idea")
