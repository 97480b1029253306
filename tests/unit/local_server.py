"""A plain-HTTP API server stand-in on loopback and a token kubeconfig for it (test helpers).

`serving(handler)` answers with any handler; `wire_server(mode)` is an API server that
misbehaves in one way (MODES), for the reflector's tests and bench/wire_modes.py. Both are
bounded: every answer that holds a connection open (a watch, a slow drip) ends when the block
ends, at its own `timeoutSeconds` or at HOLD_MAX_S, whichever comes first; a server nobody
stops stops by itself after `lifetime` seconds.
"""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import parse_qs, urlsplit

from gsb_tui.kube.config import Target, resolve
from gsb_tui.kube.transport import NativeTransport

POLL_S = 0.05  # serve_forever's shutdown poll: shutdown() waits at most this long
HOLD_MAX_S = 120.0  # no answer holds a connection longer
LIFETIME_S = 600.0  # a server nobody stopped stops by itself

MODES = (
    "sane",  # lists answer, watches hold with a bookmark every `bookmark_every` s
    "clean-watch-end",  # every watch: 200, no event, ended at once
    "410-every-watch",  # every watch: an ERROR event, code 410
    "watch-fails-after-list",  # lists answer; every watch: HTTP 500
    "retry-after-120",  # everything: 429 with Retry-After: 120
    "retry-after-120-503",  # everything: 503 with Retry-After: 120
    "endless-continue",  # every list page names a next one
    "slow-loris",  # every answer dripped a byte every `drip` s, headers included
    "silent-watch",  # lists answer; watches: 200, then nothing
    "gzip-lie",  # Content-Encoding: gzip on bodies that are not
    "bad-chunk",  # a chunked answer whose chunk size is not hexadecimal
    "wrong-type-metadata",  # list items whose metadata is a string
    "403-everything",  # everything: 403 Forbidden
    "frozen",  # lists answer; watches and /version get nothing, not even headers (SIGSTOP)
)


def _log_nothing(_self: BaseHTTPRequestHandler, *_args: Any) -> None:
    pass


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler], lifetime: float = LIFETIME_S) -> Iterator[str]:
    """http://127.0.0.1:<port> answered by `handler` in threads, until the block ends (or
    `lifetime` seconds, whichever comes first)."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, args=(POLL_S,), daemon=True).start()
    timer = threading.Timer(lifetime, httpd.shutdown)
    timer.daemon = True
    timer.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        timer.cancel()
        httpd.shutdown()
        httpd.server_close()


def token_transport(tmp_path: Path, server: str) -> NativeTransport:
    """The transport a kubeconfig with a bearer token for `server` makes."""
    return NativeTransport(resolve(Target(kubeconfig=token_kubeconfig(tmp_path, server))))


def token_kubeconfig(tmp_path: Path, server: str) -> Path:
    """A kubeconfig with a bearer token for `server`, written in tmp_path."""
    config = {
        "apiVersion": "v1",
        "clusters": [{"name": "c", "cluster": {"server": server}}],
        "contexts": [{"name": "x", "context": {"cluster": "c", "user": "u"}}],
        "users": [{"name": "u", "user": {"token": "t"}}],
        "current-context": "x",
    }
    path = tmp_path / "config"
    path.write_text(json.dumps(config))
    return path


class Wire:
    """What a wire_server was asked: requests by sort ("list", "watch", "version"), bytes
    sent; `stop` ends every answer under way."""

    def __init__(self, mode: str, bookmark_every: float, drip: float, items: int) -> None:
        if mode not in MODES:
            raise ValueError(f"no mode {mode!r}")
        self.mode = mode
        self.bookmark_every = bookmark_every
        self.drip = drip
        self.items = items
        self.url = ""
        self.asked: Counter[str] = Counter()
        self.sent = 0
        self.stop = threading.Event()
        self._lock = threading.Lock()

    def count(self, sort: str) -> None:
        with self._lock:
            self.asked[sort] += 1

    def add_sent(self, n: int) -> None:
        with self._lock:
            self.sent += n

    @property
    def requests(self) -> int:
        return sum(self.asked.values())


def _item(path: str, i: int) -> dict[str, Any]:
    name = f"{path.rstrip('/').rsplit('/', 1)[-1] or 'thing'}-{i}"
    return {"metadata": {"name": name, "namespace": "lab", "uid": f"u{i}", "resourceVersion": "9"}}


class _WireHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # head and body in two writes: no 200 ms wait between
    wire: ClassVar[Wire]
    log_message = _log_nothing

    def do_GET(self) -> None:
        wire = self.wire
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        sort = "version" if url.path == "/version" else "watch" if query.get("watch") else "list"
        wire.count(sort)
        mode = wire.mode
        if mode == "frozen" and sort != "list":
            wire.stop.wait(HOLD_MAX_S)  # a stopped process: the kernel took the connection
            return
        if mode == "403-everything":
            message = f'{url.path} is forbidden: User "u" cannot {sort} this resource'
            return self._status(403, "Forbidden", message)
        if mode.startswith("retry-after-120"):
            code = 503 if mode.endswith("503") else 429
            return self._status(code, "TooManyRequests", "come back later", {"Retry-After": "120"})
        if sort == "version":
            return self._json({"major": "1", "minor": "36", "gitVersion": "v1.36.5"})
        if sort == "list":
            return self._list(url.path, query)
        self._watch(query)

    def _list(self, path: str, query: dict[str, str]) -> None:
        wire = self.wire
        items: list[Any] = [_item(path, i) for i in range(wire.items)]
        meta: dict[str, Any] = {"resourceVersion": "10"}
        if wire.mode == "wrong-type-metadata":
            items = [{"metadata": "not an object"}, *items]
        if wire.mode == "endless-continue":
            page = int(query.get("continue", "0") or 0) + 1
            meta["continue"] = str(page)  # a new token every time: never the end
            items = [_item(path, page * 1000 + i) for i in range(wire.items)]
        self._json({"kind": "List", "apiVersion": "v1", "metadata": meta, "items": items})

    def _watch(self, query: dict[str, str]) -> None:
        wire = self.wire
        mode = wire.mode
        if mode == "watch-fails-after-list":
            return self._status(500, "InternalError", "etcd is having a bad day")
        headers = {"Content-Type": "application/json", "Transfer-Encoding": "chunked"}
        if mode == "gzip-lie":
            headers["Content-Encoding"] = "gzip"  # it is not
        self._head(200, headers)
        if mode == "bad-chunk":
            return self._send(b"zz\r\n{}\r\n0\r\n\r\n")
        if mode == "clean-watch-end":
            return self._send(b"0\r\n\r\n")
        if mode == "410-every-watch":
            gone = {"type": "ERROR", "object": {"kind": "Status", "code": 410, "reason": "Expired"}}
            gone["object"]["message"] = "too old resource version: 1 (10)"
            return self._send(_chunk(json.dumps(gone).encode() + b"\n") + b"0\r\n\r\n")
        hold = min(float(query.get("timeoutSeconds", "60") or 60), HOLD_MAX_S)
        ends = time.monotonic() + hold
        bookmark = {"type": "BOOKMARK", "object": {"kind": "Thing", "metadata": {}}}
        while not wire.stop.is_set() and time.monotonic() < ends:
            every = wire.bookmark_every if mode != "silent-watch" else hold
            if wire.stop.wait(min(every, max(0.0, ends - time.monotonic()))):
                return
            if mode != "silent-watch" and time.monotonic() < ends:
                bookmark["object"]["metadata"] = {"resourceVersion": "10"}
                if not self._send(_chunk(json.dumps(bookmark).encode() + b"\n")):
                    return
        self._send(b"0\r\n\r\n")

    def _status(self, code: int, reason: str, message: str, extra: Any = None) -> None:
        body = {"kind": "Status", "apiVersion": "v1", "status": "Failure", "code": code}
        body.update(reason=reason, message=message)
        self._json(body, code, extra or {})

    def _json(self, doc: Any, code: int = 200, extra: dict[str, str] | None = None) -> None:
        data = json.dumps(doc).encode()
        headers = {"Content-Type": "application/json", **(extra or {})}
        if self.wire.mode == "gzip-lie":
            headers["Content-Encoding"] = "gzip"  # it is not
        if self.wire.mode == "bad-chunk":
            headers["Transfer-Encoding"] = "chunked"
            self._head(code, headers)
            self._send(b"zz\r\n" + data + b"\r\n0\r\n\r\n")
            return
        headers["Content-Length"] = str(len(data))
        self._head(code, headers)
        self._send(data)

    def _head(self, code: int, headers: dict[str, str]) -> None:
        lines = [f"HTTP/1.1 {code} {self.responses.get(code, ('',))[0]}"]
        lines += [f"{k}: {v}" for k, v in {**headers, "Connection": "close"}.items()]
        self.close_connection = True
        self._send(("\r\n".join(lines) + "\r\n\r\n").encode())

    def _send(self, data: bytes) -> bool:
        """Write data (a byte at a time, `drip` s apart, for the slow loris); False once the
        client is gone or the server stops."""
        wire = self.wire
        try:
            if wire.mode != "slow-loris":
                self.wfile.write(data)
                self.wfile.flush()
                wire.add_sent(len(data))
                return True
            for i in range(len(data)):
                if wire.stop.wait(wire.drip):
                    return False
                self.wfile.write(data[i : i + 1])
                self.wfile.flush()
                wire.add_sent(1)
            return True
        except OSError:
            return False


def _chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"


@contextmanager
def wire_server(
    mode: str,
    bookmark_every: float = 60.0,
    drip: float = 1.0,
    items: int = 3,
    lifetime: float = LIFETIME_S,
) -> Iterator[Wire]:
    """An API server stand-in misbehaving as `mode` says (MODES), until the block ends."""
    wire = Wire(mode, bookmark_every, drip, items)
    handler = type("Handler", (_WireHandler,), {"wire": wire})
    ends = threading.Timer(lifetime, wire.stop.set)  # with serving's own: stops by itself
    ends.daemon = True
    ends.start()
    with serving(handler, lifetime) as url:
        wire.url = url
        try:
            yield wire
        finally:
            ends.cancel()
            wire.stop.set()  # before the server's shutdown: every hold and drip ends


def main() -> None:
    """`python -m tests.unit.local_server MODE [BOOKMARK_EVERY]`: serve MODE and print its URL;
    on SIGTERM print what it was asked (one JSON line) and end. bench/wire_modes.py runs it
    in a process of its own, so that it can be stopped with SIGSTOP."""
    import signal
    import sys

    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})  # taken below, not handled
    every = float(sys.argv[2]) if len(sys.argv) > 2 else 60.0
    with wire_server(sys.argv[1], bookmark_every=every) as wire:
        print(wire.url, flush=True)
        signal.sigtimedwait({signal.SIGTERM}, LIFETIME_S)
        print(json.dumps({"asked": dict(wire.asked), "sent": wire.sent}), flush=True)


if __name__ == "__main__":
    main()
