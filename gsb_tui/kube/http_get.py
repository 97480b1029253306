"""One GET read whole over http.client, and the TLS context it speaks: the standard library
only, so the page-reading child process (kube/page_reader.py) starts in milliseconds."""

from __future__ import annotations

import contextlib
import http.client
import io
import os
import socket
import ssl
import tempfile
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

Closer = Callable[[], None]


class Cancel:
    """What ends a read blocked in a thread at once. A closer registered after cancel() runs at
    once: a thread still connecting when its caller gave up would otherwise send its request
    and wait out the read timeout, holding the server's connection open."""

    def __init__(self) -> None:
        self._closers: list[Closer] = []
        self._lock = threading.Lock()
        self.cancelled = False

    def append(self, closer: Closer) -> None:
        with self._lock:
            if not self.cancelled:
                self._closers.append(closer)
                return
        _quietly(closer)

    def cancel(self) -> None:
        with self._lock:
            self.cancelled = True
            closers, self._closers = self._closers, []
        for closer in closers:
            _quietly(closer)


def _quietly(closer: Closer) -> None:
    with contextlib.suppress(OSError):
        closer()


@dataclass(frozen=True)
class Fetched:
    status: int
    reason: str
    content_type: str
    body: bytes | None  # None: longer than the caller's limit
    retry_after: str = ""  # the Retry-After header, as sent


@dataclass
class Progress:
    """A read under way: the seconds it may take in all (None: bounded only by the read
    timeout of each receive) and the bytes come so far (set by the reading thread)."""

    deadline: float | None = None
    got: int = 0


class SlowAnswer(TimeoutError):
    """The answer did not come whole within its deadline: `got` bytes in `seconds`."""

    def __init__(self, got: int, seconds: float) -> None:
        super().__init__(f"{got} bytes in {seconds:.0f} s")
        self.got = got
        self.seconds = seconds


class Unreadable(http.client.HTTPException):
    """An answer HTTP cannot carry: `what` is "chunk" (a chunk size that is no number) or
    "gzip" (said to be gzip-compressed, and not); `detail` the reader's own words."""

    def __init__(self, what: str, detail: str) -> None:
        super().__init__(detail)
        self.what = what
        self.detail = detail


class _Counted(io.RawIOBase):
    """The socket read for http.client, counting the bytes into `progress` and refusing to
    go on past its deadline (a server sending a byte a second never trips a read timeout)."""

    def __init__(
        self, raw: io.RawIOBase, sock: socket.socket, progress: Progress, read: float
    ) -> None:
        self.raw = raw  # the socket's own file: it keeps the socket open after conn.close()
        self.sock = sock
        self.progress = progress
        self.read_timeout = read
        self.started = time.monotonic()

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        deadline = self.progress.deadline
        if deadline is not None:
            left = self.started + deadline - time.monotonic()
            if left <= 0:
                raise SlowAnswer(self.progress.got, deadline)
            self.sock.settimeout(min(self.read_timeout, left))
        try:
            n = self.raw.readinto(buffer) or 0
        except TimeoutError:
            if deadline is not None and time.monotonic() - self.started >= deadline:
                raise SlowAnswer(self.progress.got, deadline) from None
            raise
        self.progress.got += n
        return n

    def close(self) -> None:
        self.raw.close()
        super().close()


class _Made:
    """What http.client.HTTPResponse asks of a socket: its file, here the counted one."""

    def __init__(self, sock: socket.socket, progress: Progress, read: float) -> None:
        self.sock, self.progress, self.read = sock, progress, read

    def makefile(self, _mode: str) -> io.BufferedReader:
        raw = self.sock.makefile("rb", buffering=0)
        return io.BufferedReader(_Counted(raw, self.sock, self.progress, self.read), 1 << 16)


def _chunk_error(exc: BaseException) -> bool:
    """http.client's IncompleteRead that was a chunk size it could not read (a ValueError
    somewhere in its context)."""
    seen: BaseException | None = exc
    for _ in range(8):
        seen = seen.__context__ if seen is not None else None
        if isinstance(seen, ValueError):
            return True
    return False


@dataclass(frozen=True)
class Address:
    """Where the API server is and how to speak TLS to it."""

    server: str  # https://host:port (a path prefix is in the target)
    ssl: ssl.SSLContext
    server_name: str | None  # tls-server-name, when it is not the host


def client_context(ca: bytes | None, insecure: bool) -> ssl.SSLContext:
    """Trusting `ca` (PEM) or the system's roots. Raises ssl.SSLError or ValueError (not PEM)."""
    ctx = ssl.create_default_context(cadata=ca.decode("ascii") if ca else None)
    if insecure:
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
    return ctx


def load_client_cert(ctx: ssl.SSLContext, cert: bytes, key: bytes) -> None:
    """The client certificate and key (PEM). Raises ssl.SSLError or ValueError."""
    # load_cert_chain wants files: a private temporary folder, removed at once.
    with tempfile.TemporaryDirectory(prefix="gsb-tui-") as tmp:
        cert_file, key_file = Path(tmp) / "c.pem", Path(tmp) / "k.pem"
        for path, blob in ((cert_file, cert), (key_file, key)):
            fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
            with os.fdopen(fd, "wb") as fh:
                fh.write(blob)
        ctx.load_cert_chain(cert_file, key_file)


def read_page(
    address: Address,
    target: str,
    headers: dict[str, str],
    connect: float,
    read: float,
    limit: int,
    cancel: Cancel,
    progress: Progress | None = None,
) -> Fetched:
    """GET target whole (at most `limit` bytes, else body None). Raises OSError, TimeoutError
    (SlowAnswer past the progress's deadline), zlib.error or http.client.HTTPException
    (Unreadable for a broken chunk or a gzip lie). Registers in `cancel` what ends a blocked
    read at once; counts the bytes come in `progress`."""
    progress = progress if progress is not None else Progress()
    url = urlsplit(address.server)
    host, secure = url.hostname or "", url.scheme == "https"
    port = url.port or (443 if secure else 80)
    # Over loopback the transport's headers say identity; elsewhere gzip, inflated here.
    headers.setdefault("Accept-Encoding", "gzip")
    open_socket = [socket.create_connection((host, port), timeout=connect)]
    conn = http.client.HTTPConnection(host, port)
    cancel.append(lambda: open_socket[-1].close())
    try:
        if secure:
            name = address.server_name or host
            open_socket.append(address.ssl.wrap_socket(open_socket[0], server_hostname=name))
        open_socket[-1].settimeout(read)
        conn.sock = open_socket[-1]
        made = _Made(open_socket[-1], progress, read)
        conn.response_class = lambda _sock, **kw: http.client.HTTPResponse(made, **kw)  # type: ignore[assignment,arg-type]
        conn.request("GET", target, headers=headers)
        resp = conn.getresponse()
        try:
            body: bytes | None = resp.read(limit + 1)
        except http.client.IncompleteRead as exc:
            if _chunk_error(exc):
                raise Unreadable("chunk", "chunk size is not a number") from None
            raise
        if body is not None and len(body) <= limit and resp.getheader("Content-Encoding") == "gzip":
            inflate = zlib.decompressobj(wbits=31)
            try:
                body = inflate.decompress(body, limit + 1)  # bounded: a gzip bomb stops here
            except zlib.error as exc:
                raise Unreadable("gzip", str(exc)) from None
            body = None if inflate.unconsumed_tail else body
        if body is not None and len(body) > limit:
            body = None
        content_type = (resp.getheader("Content-Type") or "").split(";")[0].strip()
        retry_after = resp.getheader("Retry-After") or ""
        return Fetched(resp.status, resp.reason, content_type, body, retry_after[:40])
    finally:
        conn.close()
        for sock in open_socket:
            sock.close()
