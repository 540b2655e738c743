"""What the contests layer announces to the layers above it, which listen (judging builds a
submission when it is received): contests never imports them."""

from django.dispatch import Signal

# Sent inside the transaction that saved a new submission (argument: submission).
submission_received = Signal()
