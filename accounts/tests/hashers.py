"""A password hasher for tests: Django's PBKDF2 at a thousandth of its iterations.

Its hashes read ``pbkdf2_sha256$1000$...``: a site on the default settings (a worker or a
gunicorn a test starts) checks them as its own, and this one checks the site's, since the
count of iterations is in each hash. One log-in at the default count costs a quarter of a
second of CPU; a stateful test that makes a judge per example spent 40 s on nothing else."""

from django.contrib.auth.hashers import PBKDF2PasswordHasher


class QuickPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    iterations = 1000
