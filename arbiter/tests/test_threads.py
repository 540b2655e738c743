"""Every process of the site runs its numerical libraries on one thread (arbiter/threads.py),
asked through threadpoolctl in a process started as the site's are, on a host whose
environment asks for four."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.once  # no database: the processes only import the site

ASK = (
    "import judging.record.ratings\n"  # numpy, as the ratings' fit loads it
    "from threadpoolctl import threadpool_info\n"
    "print('threads', sorted({p['num_threads'] for p in threadpool_info()}))\n"
)
HOST = {"OPENBLAS_NUM_THREADS": "4", "OMP_NUM_THREADS": "4", "MKL_NUM_THREADS": "4"}


def threads(*argv: str) -> str:
    env = {**os.environ, **HOST, "ARBITER_VAR_DIR": str(ROOT / "var" / "test")}
    done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize(
    "started",
    [
        "import arbiter",  # the Celery worker: `celery -A arbiter worker` imports the package first
        "import arbiter.asgi",  # gunicorn's web processes
        "import arbiter.wsgi",
        "import numpy\nimport arbiter",  # numpy loaded first (a shell, a test runner): limited afterwards
    ],
)
def test_a_process_of_the_site_runs_one_thread(started):
    assert threads(sys.executable, "-c", f"{started}\n{ASK}") == "threads [1]"


def test_manage_py_runs_one_thread():
    assert threads(sys.executable, "manage.py", "shell", "-c", ASK) == "threads [1]"


def test_without_the_site_the_host_would_have_more():
    """What the pin changes: numpy alone takes the host's word (up to the cores there are)."""
    found = threads(sys.executable, "-c", ASK)
    assert found.startswith("threads [") and found != "threads []"  # threadpoolctl sees the library
    if (os.cpu_count() or 1) > 1:
        assert found != "threads [1]", found
