"""The first list pages read by a child process (kube/page_reader.py, pages.ChildPages): the
answers as the parent's own reads would give them, managedFields dropped on the way, a timeout
said as one, anything else read again by the parent, and the child never left behind."""

from __future__ import annotations

import asyncio
import gc
import json
import time
import weakref
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any, ClassVar

import pytest

from gsb_tui.kube import pages
from gsb_tui.kube.page_reader import without_managed_fields
from gsb_tui.kube.pages import Begun, ChildPages
from gsb_tui.kube.transport import NativeTransport

from .local_server import serving, token_transport

ITEM = {"metadata": {"name": "a", "uid": "u1", "managedFields": [{"manager": "m"}]}, "spec": {}}
LIST = {"kind": "PodList", "metadata": {"resourceVersion": "7"}, "items": [ITEM, {"x": 1}]}


class _Handler(BaseHTTPRequestHandler):
    seen: ClassVar[list[str]] = []

    def log_message(self, *_args: Any) -> None:
        pass

    def do_GET(self) -> None:
        type(self).seen.append(self.path)
        if self.path.startswith("/stall"):
            time.sleep(3)
            return
        if self.path.startswith("/slow"):
            time.sleep(1)
        kind = "text/plain" if self.path.startswith("/text") else "application/json"
        data = json.dumps(LIST, indent=1).encode()
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def server() -> Iterator[str]:
    _Handler.seen = []
    with serving(_Handler) as url:
        yield url


def _fetch_all(api: NativeTransport, paths: list[str], read: float = 5) -> list[Any]:
    async def go() -> list[Any]:
        try:
            out: list[Any] = []
            for path in paths:
                try:
                    out.append(await api.fetch(path, {}, 5, read, 1 << 20))
                except TimeoutError as exc:
                    out.append(exc)
            return out
        finally:
            await api.close()

    return asyncio.run(go())


def test_the_child_answers_as_a_read_of_our_own_without_managed_fields(
    tmp_path: Path, server: str
) -> None:
    api = token_transport(tmp_path, server)
    assert api.begin([("/pods", {}), ("/text", {})], 5, 5, 1 << 20)
    child = api._early
    assert isinstance(child, ChildPages)
    pods, text = _fetch_all(api, ["/pods", "/text"])
    want = json.loads(json.dumps(LIST))
    del want["items"][0]["metadata"]["managedFields"]
    assert (pods.status, pods.content_type) == (200, "application/json")
    assert json.loads(pods.body) == want
    # Not JSON by its type: the bytes as the server sent them.
    assert text.body == json.dumps(LIST, indent=1).encode()
    assert sorted(_Handler.seen) == ["/pods?", "/text?"]  # each read once, by the child
    assert child._proc.poll() is not None  # answered everything, ended and reaped


def test_a_page_over_the_limit_comes_as_none(tmp_path: Path, server: str) -> None:
    api = token_transport(tmp_path, server)
    api.begin([("/pods", {})], 5, 5, 10)

    async def go() -> Any:
        try:
            return await api.fetch("/pods", {}, 5, 5, 10)
        finally:
            await api.close()

    got = asyncio.run(go())
    assert got.status == 200 and got.body is None
    assert _Handler.seen == ["/pods?"]


def test_a_timeout_in_the_child_is_a_timeout_here_without_a_second_wait(
    tmp_path: Path, server: str
) -> None:
    api = token_transport(tmp_path, server)
    api.begin([("/stall", {})], 5, 0.5, 1 << 20)
    started = time.monotonic()
    (got,) = _fetch_all(api, ["/stall"], read=0.5)
    assert isinstance(got, TimeoutError)
    assert time.monotonic() - started < 2.5  # the child's 0.5 s, not another read of ours
    assert _Handler.seen == ["/stall?"]


def _begun_child(tmp_path: Path, server: str, path: str) -> tuple[NativeTransport, ChildPages]:
    """A transport whose child has begun reading `path` (30 s read timeout)."""
    api = token_transport(tmp_path, server)
    api.begin([(path, {})], 5, 30, 1 << 20)
    child = api._early
    assert isinstance(child, ChildPages)
    return api, child


def test_a_child_that_died_leaves_its_pages_to_us(tmp_path: Path, server: str) -> None:
    api, child = _begun_child(tmp_path, server, "/slow")
    time.sleep(0.3)
    child._proc.kill()  # dies mid-read
    (got,) = _fetch_all(api, ["/slow"])
    assert json.loads(got.body) == LIST  # read again by us (managedFields and all)
    assert _Handler.seen == ["/slow?", "/slow?"]
    assert child._proc.poll() is not None


def test_close_kills_and_reaps_a_child_still_reading(tmp_path: Path, server: str) -> None:
    api, child = _begun_child(tmp_path, server, "/stall")
    time.sleep(0.2)
    started = time.monotonic()
    asyncio.run(api.close())
    assert child._proc.poll() is not None
    assert time.monotonic() - started < 1.0


def test_without_a_child_the_pages_are_read_by_threads(
    tmp_path: Path, server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pages.sys, "executable", str(tmp_path / "no-python"))
    api = token_transport(tmp_path, server)
    assert api.begin([("/pods", {})], 5, 5, 1 << 20)
    assert isinstance(api._early, Begun)
    (got,) = _fetch_all(api, ["/pods"])
    assert json.loads(got.body) == LIST  # our own read keeps managedFields; _clean drops them
    assert _Handler.seen == ["/pods?"]


def test_managed_fields_go_and_nothing_else_changes() -> None:
    body = json.dumps(LIST).encode()
    stripped = json.loads(without_managed_fields(body))
    assert stripped["items"][0]["metadata"] == {"name": "a", "uid": "u1"}
    assert stripped["items"][1] == {"x": 1}
    assert stripped["metadata"] == LIST["metadata"] and stripped["kind"] == "PodList"
    for odd in (b'{"items": [NaN]}', b"[1, 2]", b'{"items": 3}', b"not json", b""):
        assert without_managed_fields(odd) == odd  # as it came: the parent says what it is


def test_a_taken_answer_is_not_kept_by_the_child_pages(tmp_path: Path, server: str) -> None:
    api = token_transport(tmp_path, server)
    api.begin([("/pods", {})], 5, 5, 1 << 20)
    child = api._early
    assert isinstance(child, ChildPages)

    async def fetch() -> weakref.ref[Any]:
        got = await api.fetch("/pods", {}, 5, 5, 1 << 20)
        assert got.body
        return weakref.ref(got)

    kept = asyncio.run(fetch())
    deadline = time.monotonic() + 5
    while child._proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)  # the reading thread ends with the child
    gc.collect()
    assert kept() is None  # the body is gone with its taker, the transport still open
    asyncio.run(api.close())
