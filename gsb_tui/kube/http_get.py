"""One GET read whole over http.client, and the TLS context it speaks: the standard library
only, so the page-reading child process (kube/page_reader.py) starts in milliseconds."""

from __future__ import annotations

import http.client
import os
import socket
import ssl
import tempfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

Closer = Callable[[], None]


@dataclass(frozen=True)
class Fetched:
    status: int
    reason: str
    content_type: str
    body: bytes | None  # None: longer than the caller's limit


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
    cancel: list[Closer],
) -> Fetched:
    """GET target whole (at most `limit` bytes, else body None). Raises OSError, TimeoutError or
    http.client.HTTPException. Registers in `cancel` what ends a blocked read at once."""
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
        conn.request("GET", target, headers=headers)
        resp = conn.getresponse()
        body: bytes | None = resp.read(limit + 1)
        if body is not None and len(body) <= limit and resp.getheader("Content-Encoding") == "gzip":
            inflate = zlib.decompressobj(wbits=31)
            body = inflate.decompress(body, limit + 1)  # bounded: a gzip bomb stops here
            body = None if inflate.unconsumed_tail else body
        if body is not None and len(body) > limit:
            body = None
        content_type = (resp.getheader("Content-Type") or "").split(";")[0].strip()
        return Fetched(resp.status, resp.reason, content_type, body)
    finally:
        conn.close()
        for sock in open_socket:
            sock.close()
