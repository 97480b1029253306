"""List pages read whole in threads of their own, and their answers awaited in the event loop.

asyncio's TLS reads the API server's ~4 KiB records one by one in Python (0.47 s of CPU for
19 MB of pods, measured); http.client reads them in C without the GIL (0.11 s). The threads are
daemons: a blocked read never holds up the exit, as the default executor's threads would.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import http.client
import socket
import ssl
import threading
import zlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit

T = TypeVar("T")
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


def close_all(closers: list[Closer]) -> None:
    for close in closers:
        with contextlib.suppress(OSError):
            close()


def _in_thread(
    work: Callable[[list[Closer]], T],
) -> tuple[concurrent.futures.Future[T], list[Closer]]:
    """Start work in a daemon thread; its answer, and what ends its blocked read."""
    answer: concurrent.futures.Future[T] = concurrent.futures.Future()
    closers: list[Closer] = []

    def run() -> None:
        # A cancelled answer refuses both: nobody waits for it any more.
        with contextlib.suppress(concurrent.futures.InvalidStateError):
            try:
                got = work(closers)
            except BaseException as exc:  # handed to whoever awaits it, who raises it
                answer.set_exception(exc)
            else:
                answer.set_result(got)

    threading.Thread(target=run, name="gsb-tui list", daemon=True).start()
    return answer, closers


async def _awaited(answer: concurrent.futures.Future[T], closers: list[Closer]) -> T:
    try:
        return await asyncio.wrap_future(answer)
    except asyncio.CancelledError:  # the caller gave up: end the read
        close_all(closers)
        raise


async def in_daemon_thread(work: Callable[[list[Closer]], T]) -> T:
    """Run work in a daemon thread; cancelling the caller runs the closers work registered."""
    return await _awaited(*_in_thread(work))


class Begun:
    """Reads started before there is an event loop (LiveSource.begin_lists), each in a daemon
    thread; `take` hands one out once, as an awaitable."""

    def __init__(self) -> None:
        self._answers: dict[str, tuple[concurrent.futures.Future[Any], list[Closer]]] = {}

    def start(self, key: str, work: Callable[[list[Closer]], Any]) -> None:
        if key not in self._answers:
            self._answers[key] = _in_thread(work)

    def take(self, key: str) -> Awaitable[Any] | None:
        begun = self._answers.pop(key, None)
        return None if begun is None else _awaited(*begun)

    def close(self) -> None:
        """End the reads nobody took."""
        for _answer, closers in self._answers.values():
            close_all(closers)
        self._answers.clear()
