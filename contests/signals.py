"""What the contests layer announces to the layers above it, which listen (judging builds a
submission when it is received, and tells a contestant a judge's decision on their entry):
contests never imports them."""

from django.dispatch import Signal

# Sent inside the transaction that saved a new submission (argument: submission).
submission_received = Signal()

# Sent inside the transaction of a judge's decision on an entry (arguments: entry, action:
# "disqualify" or "reinstate", reason: what its contestant reads).
entry_judged = Signal()

# Sent inside the transaction that named someone to a contest's role or took it away
# (arguments: contest, user, role: "organiser", "judge" or None when taken away, actor).
role_changed = Signal()

# Sent inside the transaction that saved a change to a contest's settings (arguments:
# contest, actor, changed: the names of the settings written, reason).
contest_changed = Signal()
