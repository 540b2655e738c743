"""One thread for the numerical libraries (OpenBLAS, MKL, OpenMP) in every process of the site:
its web processes, its workers and ``manage.py``.

numpy's OpenBLAS starts a thread per core and splits a matrix's factorisation across them. A
judging host is always busy (programs in the sandbox, the other worker processes, the database),
and threads that wait for each other's cores there made a stage's ratings fit take 7–10 s at
200 entries against 0.3–0.7 s with one thread (issue 35). A site's process is one of several at
work: the parallelism is the processes'. So one thread, whatever the environment asks.

The libraries read their variables once, as they load: ``pin`` sets them before numpy is
imported (``arbiter/__init__.py`` calls it: every process of the site imports the package
``arbiter`` first, the Celery worker by ``-A arbiter``, gunicorn by ``arbiter.asgi``, Django by
``arbiter.settings``) and, where they are loaded already (a shell, a test runner), limits them
through threadpoolctl.
"""

from __future__ import annotations

import os
import sys

VARIABLES = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)


def pin() -> None:
    """The numerical libraries' threads, one in this process (and the processes it starts)."""
    for name in VARIABLES:
        os.environ[name] = "1"
    if "numpy" in sys.modules:  # loaded already: its libraries have read the variables
        from threadpoolctl import threadpool_limits

        threadpool_limits(1)
