"""kombu's filesystem transport, with each message written whole before it is in the queue.

kombu 5.7's ``filesystem`` Channel creates a message's file in the queue's folder and then
writes it, while a consumer takes any file it lists there (moving it away and reading it):
under load a consumer took a file still empty, failed to decode it and the worker stopped
with "Unrecoverable error: JSONDecodeError", the message lost. Here a message is written to
a file beside the folder and renamed into it: a rename is atomic, so a consumer sees a whole
message or none. ``arbiter.celery`` makes this the transport of ``filesystem://`` URLs.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from time import monotonic

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


class Transport(filesystem.Transport):
    Channel = Channel


def install() -> None:
    TRANSPORT_ALIASES["filesystem"] = "arbiter.broker:Transport"
