# Crossed Words: shows an activity line, then runs on past any limit (disqualified for the run).
import time

print("thinking... best so far 0", flush=True)
time.sleep(3600)
