"""List pages read in a thread (NativeTransport.fetch): the body whole, bounded, inflated when
gzipped, cancellable while blocked; and the reflector's fall-back to aiohttp when it fails."""

from __future__ import annotations

import asyncio
import gzip
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from gsb_tui.kube.config import Target, resolve
from gsb_tui.kube.reflector import Reflector
from gsb_tui.kube.transport import NativeTransport
from gsb_tui.snapshot import KINDS, Kind

BODY = json.dumps({"metadata": {"resourceVersion": "7"}, "items": [{"metadata": {"name": "a"}}]})


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *_args: Any) -> None:
        pass

    def do_GET(self) -> None:
        if "stall" in self.path:
            time.sleep(5)
            return
        data = BODY.encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if "gzip" in self.path and "gzip" in self.headers.get("Accept-Encoding", ""):
            data = gzip.compress(data)
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


def _transport(tmp_path: Path, server: str) -> NativeTransport:
    config = {
        "apiVersion": "v1",
        "clusters": [{"name": "c", "cluster": {"server": server}}],
        "contexts": [{"name": "x", "context": {"cluster": "c", "user": "u"}}],
        "users": [{"name": "u", "user": {"token": "t"}}],
        "current-context": "x",
    }
    path = tmp_path / "config"
    path.write_text(json.dumps(config))
    return NativeTransport(resolve(Target(kubeconfig=path)))


def test_a_page_whole_and_bounded(tmp_path: Path, server: str) -> None:
    api = _transport(tmp_path, server)
    got = asyncio.run(api.fetch("/api/v1/pods", {"limit": 5}, 5, 5, 1 << 20))
    assert (got.status, got.content_type, got.body) == (200, "application/json", BODY.encode())
    small = asyncio.run(api.fetch("/api/v1/pods", {}, 5, 5, 10))
    assert small.body is None  # longer than the limit


def test_gzip_is_asked_for_and_inflated_away_from_loopback(tmp_path: Path, server: str) -> None:
    api = _transport(tmp_path, server)
    del api.headers["Accept-Encoding"]  # as for a remote server
    got = asyncio.run(api.fetch("/gzip", {}, 5, 5, 1 << 20))
    assert got.body == BODY.encode()
    assert asyncio.run(api.fetch("/gzip", {}, 5, 5, 10)).body is None  # bounded inflating


def test_cancelling_a_blocked_read_returns_at_once(tmp_path: Path, server: str) -> None:
    api = _transport(tmp_path, server)

    async def cancel_soon() -> float:
        task = asyncio.create_task(api.fetch("/stall", {}, 5, 30, 1 << 20))
        await asyncio.sleep(0.2)
        started = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return time.monotonic() - started

    assert asyncio.run(cancel_soon()) < 1.0


def test_a_failing_fetch_falls_back_to_aiohttp(tmp_path: Path, server: str) -> None:
    api = _transport(tmp_path, server)

    async def refused(*_args: Any) -> Any:
        raise ConnectionRefusedError("no")

    api.fetch = refused  # type: ignore[method-assign]
    changes: list[Any] = []

    async def listed() -> str:
        try:
            return await Reflector(api, KINDS[Kind.NODES], changes.append).list()
        finally:
            await api.close()

    assert asyncio.run(listed()) == "7"
    assert [len(c.items) for c in changes if c.type == "SYNCED"] == [1]
