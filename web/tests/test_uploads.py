"""Large uploads are refused before they are stored: by Content-Length before the body is read
(UPLOAD_MAX_BYTES, every request), and while a file arrives (the contest's max_source_bytes,
the submission endpoints of the pages and the API)."""

import json
import socket
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.files.uploadhandler import TemporaryFileUploadHandler

from accounts.models import ApiToken
from contests.models import Entry, Submission
from contests.tests.factories import make_contest, make_entry, make_user

MiB = 1 << 20
BOUNDARY = "arbiterboundary"


@pytest.fixture
def spooled(settings, tmp_path, monkeypatch):
    """Every file upload goes to a temp folder of the test's own (none is kept in memory);
    returns [the most bytes of one file that reached it]."""
    folder = tmp_path / "spool"
    folder.mkdir()
    settings.FILE_UPLOAD_TEMP_DIR = str(folder)
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 0
    most = [0]
    original = TemporaryFileUploadHandler.receive_data_chunk

    def spy(self, raw_data, start):
        most[0] = max(most[0], start + len(raw_data))
        return original(self, raw_data, start)

    monkeypatch.setattr(TemporaryFileUploadHandler, "receive_data_chunk", spy)
    return most


def _token(user) -> str:
    return ApiToken.issue(user, "test")[1]


# --- Through the test client --------------------------------------------------------------


@pytest.mark.django_db
def test_a_request_over_the_sites_cap_is_refused_by_its_content_length(client, settings, spooled):
    settings.UPLOAD_MAX_BYTES = 1 * MiB
    entry = make_entry(make_contest(slug="chomp"))
    big = str(1 << 30)  # the body is never read: the header alone decides
    api = client.post(
        f"/api/entries/{entry.pk}/submissions/", b"{}", content_type="application/json",
        CONTENT_LENGTH=big, HTTP_AUTHORIZATION=f"Bearer {_token(entry.user)}",
    )  # fmt: skip
    assert api.status_code == 413 and api["Content-Type"] == "application/json"
    assert api.json() == {
        "error": {
            "status": 413,
            "code": "too_large",
            "message": "The request is 1,073,741,824 bytes; this site accepts at most 1,048,576 bytes in one request.",
        }
    }
    client.force_login(entry.user)
    page = client.post(
        "/contests/chomp/submit/", b"", content_type="multipart/form-data; boundary=x", CONTENT_LENGTH=big
    )
    assert page.status_code == 413 and page["Content-Type"].startswith("text/html")
    assert "at most 1,048,576 bytes" in page.content.decode()
    assert spooled == [0] and not Submission.objects.exists()


@pytest.mark.django_db
def test_a_30_mb_json_body_is_a_413_in_the_api_body(client, queued):
    entry = make_entry(make_contest())
    body = json.dumps({"filename": "a.c", "source": "x" * (30 * MiB)})
    response = client.post(
        f"/api/entries/{entry.pk}/submissions/", body, content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {_token(entry.user)}",
    )  # fmt: skip
    assert response.status_code == 413 and response.json()["error"]["code"] == "too_large"
    assert "this site accepts at most 16,777,216 bytes in one request" in response.json()["error"]["message"]


@pytest.mark.django_db
def test_a_file_over_the_contests_limit_is_stopped_while_it_arrives_on_the_page(client, spooled, queued):
    make_contest(slug="chomp", max_source_bytes=25_000)
    client.force_login(make_user())
    source = SimpleUploadedFile("m.c", b"/*" + b"x" * (3 * MiB) + b"*/")
    response = client.post("/contests/chomp/submit/", {"name": "Big", "source": source}, follow=True)
    assert "The file is larger than 25,000 bytes; Contest" in response.content.decode()
    assert "accepts at most 25,000." in response.content.decode()
    assert spooled[0] <= 25_000
    assert not Entry.objects.exists() and not Submission.objects.exists() and queued == []


@pytest.mark.django_db
def test_a_file_over_the_contests_limit_is_stopped_while_it_arrives_in_the_api(client, spooled, queued):
    entry = make_entry(make_contest(title="Chomp", max_source_bytes=25_000))
    source = SimpleUploadedFile("m.c", b"/*" + b"x" * (3 * MiB) + b"*/")
    response = client.post(
        f"/api/entries/{entry.pk}/submissions/", {"source": source},
        HTTP_AUTHORIZATION=f"Bearer {_token(entry.user)}",
    )  # fmt: skip
    assert response.status_code == 413
    assert response.json()["error"] == {
        "status": 413,
        "code": "too_large",
        "message": "The file is larger than 25,000 bytes; Chomp accepts at most 25,000.",
    }
    assert spooled[0] <= 25_000 and not Submission.objects.exists() and queued == []
    small = SimpleUploadedFile("m.c", b"int main(void) { return 0; }\n")
    ok = client.post(
        f"/api/entries/{entry.pk}/submissions/", {"source": small}, HTTP_AUTHORIZATION=f"Bearer {_token(entry.user)}"
    )
    assert ok.status_code == 201


# --- Real HTTP requests against a live server -----------------------------------------------


def _send(live_server, head: list[str], pieces, *, after_each=None) -> tuple[int, dict, bytes]:
    """Send a request over a socket, head then body piece by piece, and read the answer."""
    address = urlsplit(live_server.url)
    with socket.create_connection((address.hostname, address.port), timeout=30) as sock:
        sock.sendall(("\r\n".join([*head, "", ""])).encode())
        for piece in pieces:
            try:
                sock.sendall(piece)
            except OSError:  # the server answered and closed: it reads no more of the body
                break
            if after_each:
                after_each()
        answer = b""
        while b"\r\n\r\n" not in answer:
            more = sock.recv(65536)
            assert more, f"the server closed the connection without an answer: {answer!r}"
            answer += more
        top, _, body = answer.partition(b"\r\n\r\n")
        lines = top.decode().split("\r\n")
        headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        length = int(headers["content-length"])
        while len(body) < length:
            more = sock.recv(65536)
            assert more, "the server closed the connection in the middle of its answer"
            body += more
        return int(lines[0].split()[1]), headers, body[:length]


def _multipart_head(path: str, token: str, length: int | None) -> list[str]:
    head = [
        f"POST {path} HTTP/1.1",
        "Host: localhost",
        f"Authorization: Bearer {token}",
        f"Content-Type: multipart/form-data; boundary={BOUNDARY}",
    ]
    return [*head, f"Content-Length: {length}"] if length is not None else [*head, "Transfer-Encoding: chunked"]


def _file_part_head() -> bytes:
    return (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="source"; filename="big.c"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n"
    ).encode()


@pytest.mark.slow
def test_a_real_1_gb_upload_is_refused_before_it_is_read(live_server, transactional_db, spooled, settings):
    entry = make_entry(make_contest(max_source_bytes=25_000))
    path = f"/api/entries/{entry.pk}/submissions/"
    pieces = [_file_part_head(), *[b"x" * 65536] * 32]  # 2 MB of the 1 GB announced, then we listen
    status, headers, body = _send(live_server, _multipart_head(path, _token(entry.user), 1 << 30), pieces)
    assert status == 413 and headers["content-type"] == "application/json"
    assert "this site accepts at most 16,777,216 bytes in one request" in json.loads(body)["error"]["message"]
    assert spooled == [0] and not any(_spool(settings).iterdir())


@pytest.mark.slow
def test_a_real_chunked_upload_is_refused_before_it_is_read(live_server, transactional_db, spooled, settings):
    entry = make_entry(make_contest(max_source_bytes=25_000))
    path = f"/api/entries/{entry.pk}/submissions/"
    chunk = b"x" * 65536
    pieces = [b"%x\r\n%s\r\n" % (len(chunk), chunk)] * 64
    status, headers, body = _send(live_server, _multipart_head(path, _token(entry.user), None), pieces)
    assert status == 411 and headers["content-type"] == "application/json"
    assert "Content-Length" in json.loads(body)["error"]["message"]
    assert spooled == [0] and not any(_spool(settings).iterdir())


@pytest.mark.slow
def test_a_real_upload_over_the_contests_limit_is_stopped_while_it_arrives(
    live_server, transactional_db, spooled, settings
):
    entry = make_entry(make_contest(title="Chomp", max_source_bytes=25_000))
    path = f"/api/entries/{entry.pk}/submissions/"
    size = 12 * MiB  # under the site's cap of 16 MiB: the contest's limit stops it
    tail = f"\r\n--{BOUNDARY}--\r\n".encode()
    head = _file_part_head()
    largest_on_disk = [0]

    def look():
        for p in _spool(settings).iterdir():
            try:
                largest_on_disk[0] = max(largest_on_disk[0], p.stat().st_size)
            except FileNotFoundError:
                continue  # the server removed it between the listing and the look

    pieces = [head, *[b"x" * 65536] * (size // 65536), tail]
    length = sum(len(p) for p in pieces)
    status, headers, body = _send(
        live_server, _multipart_head(path, _token(entry.user), length), pieces, after_each=look
    )
    assert status == 413
    assert json.loads(body)["error"]["message"] == "The file is larger than 25,000 bytes; Chomp accepts at most 25,000."
    assert spooled[0] <= 25_000 and largest_on_disk[0] <= 25_000
    assert not any(_spool(settings).iterdir())
    assert not Submission.objects.exists()


def _spool(settings) -> Path:
    return Path(settings.FILE_UPLOAD_TEMP_DIR)
