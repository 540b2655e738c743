"""The filesystem broker's messages are whole when a consumer takes them (arbiter/broker.py)."""

from __future__ import annotations

import threading

from kombu import Connection
from kombu.transport import filesystem

from arbiter import broker


def _connection(folder):
    for name in ("queue", "processed"):
        (folder / name).mkdir(exist_ok=True)
    options = {
        "data_folder_in": str(folder / "queue"),
        "data_folder_out": str(folder / "queue"),
        "processed_folder": str(folder / "processed"),
        "store_processed": False,
    }
    return Connection("filesystem://localhost/", transport_options=options)


def test_filesystem_urls_use_the_transport_that_writes_messages_whole(tmp_path):
    with _connection(tmp_path) as conn:
        assert isinstance(conn.default_channel, broker.Channel)


def test_a_message_enters_the_queue_only_once_written(tmp_path, monkeypatch):
    """While a message is being written, the queue's folder does not hold it."""
    queue = tmp_path / "queue"
    seen = []
    real = broker.str_to_bytes

    def spy(text):
        seen.append(sorted(p.name for p in queue.iterdir()))
        return real(text)

    monkeypatch.setattr(broker, "str_to_bytes", spy)
    with _connection(tmp_path) as conn:
        conn.default_channel._put("matches", {"body": "x" * 100_000})
        assert seen == [[]]
        assert conn.default_channel._get("matches") == {"body": "x" * 100_000}
    assert list(queue.iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["processed", "queue"]


def test_a_consumer_beside_producers_reads_every_message_whole(tmp_path):
    """Two producers put 1,500 messages each while a consumer takes them as fast as it can.
    With kombu's own channel, beside the test suite, the consumer took files not yet written
    (the check above is the one that cannot depend on the load)."""
    sent = 3000
    got, broken = [], []

    def produce(start):
        with _connection(tmp_path) as conn:
            for i in range(start, sent, 2):
                conn.default_channel._put("matches", {"n": i, "pad": "x" * 4000})

    def consume(channel, until_empty):
        while True:
            try:
                got.append(channel._get("matches")["n"])
            except filesystem.Empty:
                if until_empty:
                    return
            except ValueError as e:  # json's JSONDecodeError
                broken.append(str(e))
            if not until_empty and not any(t.is_alive() for t in producers):
                return

    producers = [threading.Thread(target=produce, args=(k,)) for k in range(2)]
    with _connection(tmp_path) as conn:
        for t in producers:
            t.start()
        consume(conn.default_channel, until_empty=False)  # beside them
        for t in producers:
            t.join()
        consume(conn.default_channel, until_empty=True)  # what they left
    assert broken == [] and sorted(got) == list(range(sent))


def _waited(conn, timeout: float) -> float:
    """How long a worker's wait for a message (none comes) lasted before it gave up."""
    import time

    conn.default_channel.basic_consume("q", True, lambda *a: None, "waiting")
    started = time.monotonic()
    try:
        conn.drain_events(timeout=timeout)
    except TimeoutError:
        return time.monotonic() - started
    raise AssertionError("a message came from an empty queue")


def test_a_worker_told_to_stop_stops_waiting_for_messages(tmp_path, monkeypatch):
    """Celery's loop waits 2 s at a time on this transport and looks for a shutdown between
    waits: Ctrl-C on `make run` took 5-8 s, and honcho killed the worker. Told to stop (a warm
    shutdown sets ``should_stop`` to its exit code, 0), the wait ends within a slice; a wait
    nobody stops lasts as long as asked, however it is sliced."""
    from celery.worker import state

    with _connection(tmp_path) as conn:
        conn.default_channel.queue_declare("q")
        assert _waited(conn, 0.6) >= 0.6
        monkeypatch.setattr(state, "should_stop", 0)
        assert _waited(conn, 30) < 30 * broker.DRAIN_SLICE_S
        monkeypatch.setattr(state, "should_stop", None)
        monkeypatch.setattr(state, "should_terminate", 1)
        assert _waited(conn, 30) < 30 * broker.DRAIN_SLICE_S
