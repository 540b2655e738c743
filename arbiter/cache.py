"""The cache of one machine (no ``CACHE_URL``): Django's file cache in a folder every web and
worker process of the host shares, with ``add`` and ``incr`` made atomic across those processes.

Django's file cache adds by looking and then writing, and counts by reading and writing back:
processes that count at once lose counts, and two can both "add" the same key. The rate limits
(``web.limits``) count with ``add`` and ``incr``, and the ratings' debounce
(``judging.record.confidence.queue``) is an ``add``: here both take a lock file first, so one process
at a time does either, and ``incr`` keeps the key's expiry (Django's writes the default one).
Many machines set ``CACHE_URL`` to a Redis, whose ``SET NX`` and ``INCR`` are atomic already.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pickle
import tempfile
import time
import zlib
from collections.abc import Iterator

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache


class FileCache(FileBasedCache):
    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        self._createdir()
        # Not named *.djcache: clear() and the cull leave it.
        with open(os.path.join(self._dir, "counters.lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None) -> bool:
        with self._locked():
            return super().add(key, value, timeout, version)

    def incr(self, key, delta=1, version=None):
        fname = self._key_to_file(key, version)
        with self._locked():
            try:
                with open(fname, "rb") as f:
                    expiry = pickle.load(f)
                    value = pickle.loads(zlib.decompress(f.read()))
            except (FileNotFoundError, EOFError):
                raise ValueError(f"Key '{key}' not found.") from None
            if expiry is not None and expiry < time.time():
                self._delete(fname)
                raise ValueError(f"Key '{key}' not found.")
            value += delta
            fd, tmp_path = tempfile.mkstemp(dir=self._dir)
            try:
                with open(fd, "wb") as f:
                    f.write(pickle.dumps(expiry, self.pickle_protocol))
                    f.write(zlib.compress(pickle.dumps(value, self.pickle_protocol)))
                os.replace(tmp_path, fname)
            except BaseException:
                with contextlib.suppress(FileNotFoundError):
                    os.remove(tmp_path)
                raise
            return value

    def _cull(self) -> None:
        """Over ``MAX_ENTRIES``, drop the expired entries first (old windows' counters): Django's
        cull drops a random third, live counters among them."""
        files = self._list_cache_files()
        if len(files) < self._max_entries:
            return
        for fname in files:
            with contextlib.suppress(FileNotFoundError, EOFError, pickle.UnpicklingError), open(fname, "rb") as f:
                self._is_expired(f)
        super()._cull()
