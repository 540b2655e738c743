"""kombu's filesystem transport, with each message written whole before it is in the queue.

kombu 5.7's ``filesystem`` Channel creates a message's file in the queue's folder and then
writes it, while a consumer takes any file it lists there (moving it away and reading it):
under load a consumer took a file still empty, failed to decode it and the worker stopped
with "Unrecoverable error: JSONDecodeError", the message lost. Here a message is written to
a file beside the folder and renamed into it: a rename is atomic, so a consumer sees a whole
message or none; and a worker waits for messages a quarter second at a time (below).
``arbiter.celery`` makes this the transport of ``filesystem://`` URLs.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from time import monotonic

from celery.worker import state as worker_state
from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"  # kombu's own naming: consumers sort by it
        folder = self.data_folder_out
        writing = os.path.join(os.path.dirname(os.path.abspath(folder)), f".writing-{name}")
        try:
            with open(writing, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.rename(writing, os.path.join(folder, name))
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(writing)
            raise filesystem.ChannelError(f"Cannot add file {name!r} to directory {folder!r}") from exc


# Celery's loop for a transport with no event loop of its own waits for a message up to 2 s
# at a time and looks for a shutdown only between waits: Ctrl-C on `make run` took 5-8 s, past
# honcho's 5 s before its SIGKILL. A wait here is made of quarter seconds, and ends early once
# the worker is told to stop (a wait with no worker, a client's, is as long as asked).
DRAIN_SLICE_S = 0.25


class Transport(filesystem.Transport):
    Channel = Channel

    def drain_events(self, connection, timeout=None):
        deadline = None if timeout is None else monotonic() + timeout
        while True:
            left = DRAIN_SLICE_S if deadline is None else min(DRAIN_SLICE_S, max(0.0, deadline - monotonic()))
            try:
                return super().drain_events(connection, timeout=left)
            except TimeoutError:  # socket.timeout, as kombu raises it
                if (deadline is not None and monotonic() >= deadline) or _stopping():
                    raise


def _stopping() -> bool:
    """Whether this process is a Celery worker told to stop (warm or cold)."""
    told = (worker_state.should_stop, worker_state.should_terminate)  # an exit code when told: 0 too
    return any(flag is not None and flag is not False for flag in told)


def install() -> None:
    TRANSPORT_ALIASES["filesystem"] = "arbiter.broker:Transport"
