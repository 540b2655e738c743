"""Capped capture of a program's output: total bytes and line length."""

from __future__ import annotations


class Capture:
    """Keeps at most `max_bytes` bytes and at most `max_line` bytes of any one line; anything
    beyond is dropped and `truncated` is set."""

    def __init__(self, max_bytes: int, max_line: int) -> None:
        self.max_bytes = max_bytes
        self.max_line = max_line
        self.truncated = False
        self._buf = bytearray()
        self._line = 0  # length of the current, unfinished line

    def feed(self, data: bytes) -> None:
        if self._line + len(data) <= self.max_line and len(self._buf) + len(data) <= self.max_bytes:
            # No line of it can be too long, and it all fits: kept whole (the usual piece).
            self._buf += data
            nl = data.rfind(b"\n")
            self._line = self._line + len(data) if nl < 0 else len(data) - nl - 1
            return
        pos = 0
        while pos < len(data):
            nl = data.find(b"\n", pos)
            end = len(data) if nl < 0 else nl + 1
            body = end - pos - (0 if nl < 0 else 1)
            room = max(0, self.max_line - self._line)
            if body > room:
                self.truncated = True
                self._append(data[pos : pos + room])
                if nl >= 0:
                    self._append(b"\n")
            else:
                self._append(data[pos:end])
            self._line = 0 if nl >= 0 else self._line + body
            pos = end

    def _append(self, chunk: bytes) -> None:
        room = self.max_bytes - len(self._buf)
        if len(chunk) > room:
            self.truncated = True
            chunk = chunk[: max(0, room)]
        self._buf += chunk

    def take_line(self) -> bytes | None:
        """Remove and return the first complete line (without its newline), if any."""
        nl = self._buf.find(b"\n")
        if nl < 0:
            return None
        line = bytes(self._buf[:nl])
        del self._buf[: nl + 1]
        return line

    @property
    def pending(self) -> int:
        return len(self._buf)

    def getvalue(self) -> bytes:
        return bytes(self._buf)
