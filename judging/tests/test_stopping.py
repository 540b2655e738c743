"""A worker stopped by SIGTERM to its whole process group (honcho on `make run`'s Ctrl-C,
systemd's default): what its pool processes and its main process do (judging/signals.py).
arbiter/tests/test_run.py stops a whole `make run` this way."""

import signal
from types import SimpleNamespace

from judging import signals
from sandbox.interrupt import clear_stop, stop_requested


def test_a_pool_process_ignores_sigterm_while_idle_and_flags_a_stop_while_a_task_runs(monkeypatch):
    """SIGTERM to a worker's whole process group (honcho on Ctrl-C): an idle pool process lets
    the main process stop it; one running a task stops the task at a safe point. Billiard's own
    handler, or the default, ended a process where it waited on the pool's queue, and the main
    process then waited for its pool forever."""
    monkeypatch.setattr(signals, "_a_pool_process", lambda: True)
    before = signal.getsignal(signal.SIGTERM)
    try:
        signals.ignore_sigterm_while_idle()
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
        signals.stop_the_task_on_sigterm()
        signal.raise_signal(signal.SIGTERM)
        assert stop_requested()
        signals.ignore_sigterm_again()
        assert signal.getsignal(signal.SIGTERM) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, before)
        clear_stop()


def test_a_process_that_runs_tasks_itself_keeps_sigterm_and_its_children_die_of_it():
    """A solo pool, an eager task, the tests' own worker: the signals ran in the main process
    and left SIGTERM ignored there, and every program it started afterwards inherited that: the
    suite's Wheels server outlived terminate() and a killed slot holder's jail its mount."""
    import subprocess
    import sys

    before = signal.getsignal(signal.SIGTERM)
    signals.ignore_sigterm_while_idle()
    signals.stop_the_task_on_sigterm()
    signals.ignore_sigterm_again()
    assert signal.getsignal(signal.SIGTERM) == before
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    child.terminate()
    assert child.wait(timeout=10) == -signal.SIGTERM


def test_only_a_command_line_worker_leaves_at_once_when_stopped(monkeypatch):
    """A worker inside another program (the tests' start_worker) returns to it."""
    exits = []
    monkeypatch.setattr(signals.os, "_exit", exits.append)
    signals.exit_once_stopped(SimpleNamespace(exitcode=0))
    assert exits == []
