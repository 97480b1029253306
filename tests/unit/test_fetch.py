"""List pages read in a thread (NativeTransport.fetch): the body whole, bounded, inflated when
gzipped, cancellable while blocked; and no fall-back to aiohttp when it fails (issue 26)."""

from __future__ import annotations

import asyncio
import gzip
import json
import socket
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any, ClassVar

import pytest

from gsb_tui.kube.config import Target
from gsb_tui.kube.live import LiveSource
from gsb_tui.kube.reflector import Reflector
from gsb_tui.snapshot import KINDS, Kind

from .local_server import serving, token_transport

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
    with serving(_Handler) as url:
        yield url


def test_a_page_whole_and_bounded(tmp_path: Path, server: str) -> None:
    api = token_transport(tmp_path, server)
    got = asyncio.run(api.fetch("/api/v1/pods", {"limit": 5}, 5, 5, 1 << 20))
    assert (got.status, got.content_type, got.body) == (200, "application/json", BODY.encode())
    small = asyncio.run(api.fetch("/api/v1/pods", {}, 5, 5, 10))
    assert small.body is None  # longer than the limit


def test_gzip_is_asked_for_and_inflated_away_from_loopback(tmp_path: Path, server: str) -> None:
    api = token_transport(tmp_path, server)
    del api.headers["Accept-Encoding"]  # as for a remote server
    got = asyncio.run(api.fetch("/gzip", {}, 5, 5, 1 << 20))
    assert got.body == BODY.encode()
    assert asyncio.run(api.fetch("/gzip", {}, 5, 5, 10)).body is None  # bounded inflating


def test_cancelling_a_blocked_read_returns_at_once(tmp_path: Path, server: str) -> None:
    api = token_transport(tmp_path, server)

    async def cancel_soon() -> float:
        task = asyncio.create_task(api.fetch("/stall", {}, 5, 30, 1 << 20))
        await asyncio.sleep(0.2)
        started = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return time.monotonic() - started

    assert asyncio.run(cancel_soon()) < 1.0


def test_a_failing_fetch_is_said_as_it_failed_not_read_again(tmp_path: Path, server: str) -> None:
    # issue 26: aiohttp was run again after a failed fetch only to word the error
    api = token_transport(tmp_path, server)

    async def refused(*_args: Any) -> Any:
        raise ConnectionRefusedError(111, "Connection refused")

    async def never(*_args: Any) -> Any:
        raise AssertionError("read again through aiohttp")

    api.fetch = refused  # type: ignore[method-assign]
    api.get = never  # type: ignore[method-assign]
    changes: list[Any] = []

    async def listed() -> None:
        try:
            await Reflector(api, KINDS[Kind.NODES], changes.append).list()
        finally:
            await api.close()

    with pytest.raises(ConnectionRefusedError):
        asyncio.run(listed())
    assert not [c for c in changes if c.type == "SYNCED"]


class _Counting(_Handler):
    seen: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        type(self).seen.append(self.path)
        super().do_GET()


@pytest.fixture
def counting() -> Iterator[tuple[str, list[str]]]:
    _Counting.seen = []
    with serving(_Counting) as url:
        yield url, _Counting.seen


def test_a_page_begun_early_is_taken_once(tmp_path: Path, counting: tuple[str, list[str]]) -> None:
    server, seen = counting
    api = token_transport(tmp_path, server)
    api.begin([("/api/v1/pods", {"limit": 5})], 5, 5, 1 << 20)  # no event loop yet

    async def twice() -> list[Any]:
        first = await api.fetch("/api/v1/pods", {"limit": 5}, 5, 5, 1 << 20)
        asked = len(seen)
        second = await api.fetch("/api/v1/pods", {"limit": 5}, 5, 5, 1 << 20)
        other = await api.fetch("/api/v1/pods", {"limit": 6}, 5, 5, 1 << 20)
        await api.close()
        return [first, asked, second.body, other.body]

    first, asked, second, other = asyncio.run(twice())
    # The early answer came from the child, which writes the list again (compactly).
    assert json.loads(first.body) == json.loads(BODY)
    assert second == other == BODY.encode()
    assert asked == 1  # the early answer; no second request for it
    assert seen == ["/api/v1/pods?limit=5", "/api/v1/pods?limit=5", "/api/v1/pods?limit=6"]


def test_an_early_page_that_failed_fails_the_fetch_as_a_late_one_would(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    api = token_transport(tmp_path, f"http://127.0.0.1:{port}")
    api.begin([("/api/v1/nodes", {"limit": 500})], 5, 5, 1 << 20)
    with pytest.raises(ConnectionRefusedError):
        asyncio.run(api.fetch("/api/v1/nodes", {"limit": 500}, 5, 5, 1 << 20))


def test_an_early_page_nobody_took_is_closed_quietly(
    tmp_path: Path, server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    api = token_transport(tmp_path, server)
    api.begin([("/stall", {})], 5, 30, 1 << 20)  # blocked in its read
    time.sleep(0.2)
    started = time.monotonic()
    asyncio.run(api.close())
    time.sleep(0.2)  # the thread sees its socket closed and ends
    assert time.monotonic() - started < 1.0
    assert capsys.readouterr().err == ""  # no thread traceback on the terminal


def test_exec_plugins_and_unusable_kubeconfigs_begin_nothing(tmp_path: Path, server: str) -> None:
    config = {
        "apiVersion": "v1",
        "clusters": [{"name": "c", "cluster": {"server": server}}],
        "contexts": [{"name": "x", "context": {"cluster": "c", "user": "u"}}],
        "users": [
            {"name": "u", "user": {"exec": {"command": "true", "apiVersion": "x/v1"}}},
        ],
        "current-context": "x",
    }
    path = tmp_path / "config"
    path.write_text(json.dumps(config))
    plugin = LiveSource(Target(kubeconfig=path))
    plugin.begin_lists()
    assert plugin._early_api is None  # the plugin runs in the event loop, as before
    missing = LiveSource(Target(kubeconfig=tmp_path / "none"))
    missing.begin_lists()
    assert missing._early_api is None and missing.config_error


def test_the_dashboard_asks_every_kind_early_with_the_reflectors_queries(
    tmp_path: Path, counting: tuple[str, list[str]]
) -> None:
    server, _seen = counting
    api = token_transport(tmp_path, server)
    config = tmp_path / "config"
    source = LiveSource(Target(kubeconfig=config, namespace="lab"))
    source.begin_lists()
    assert source._early_api is not None
    early = set(source._early_api._early._answers)
    wanted = set()
    for reflector in source._reflectors(api, lambda _c: None).values():
        path, query = reflector.first_page()
        wanted.add(api._target(path, query))
    assert early == wanted and len(early) == len(Kind)
    assert "/api/v1/events?limit=5000&resourceVersion=0" in early  # filtered: dra_scope
    assert "/api/v1/pods?limit=500&resourceVersion=0" in early
    assert "/apis/resource.k8s.io/v1/resourceclaims?limit=500&resourceVersion=0" in early
    asyncio.run(source._early_api.close())


def test_a_reflector_lists_from_an_early_page(
    tmp_path: Path, counting: tuple[str, list[str]]
) -> None:
    server, seen = counting
    api = token_transport(tmp_path, server)
    changes: list[Any] = []
    reflector = Reflector(api, KINDS[Kind.PODS], changes.append, namespace="lab")
    path, query = reflector.first_page()
    api.begin([(path, query)], 5, 5, 1 << 20)

    async def listed() -> str:
        try:
            return await reflector.list()
        finally:
            await api.close()

    assert asyncio.run(listed()) == "7"
    synced = [c for c in changes if c.type == "SYNCED"]
    assert [[o["metadata"]["name"] for o in c.items] for c in synced] == [["a"]]
    assert synced[0].items[0]["kind"] == "Pod"  # cleaned as a late page is
    assert len(seen) == 1
