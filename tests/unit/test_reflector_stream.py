"""The reflector's byte handling: watch lines split across any chunking, bounded sizes,
list items cleaned, and the decoder's answers on what orjson refuses."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import subprocess
import sys
from collections.abc import AsyncIterator
from typing import Any

import pytest

from gsb_tui.kube import decode, reflector
from gsb_tui.kube.answers import as_object, read_answer
from gsb_tui.kube.http_get import Fetched
from gsb_tui.kube.reflector import NotKubernetes, Reflector, _clean
from gsb_tui.snapshot import KINDS, Kind


class _Content:
    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    async def iter_any(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            yield chunk


class _Resp:
    content_type = "application/json"
    status, reason = 200, "OK"

    def __init__(self, chunks: list[bytes]) -> None:
        self.content = _Content(chunks)
        self.headers: dict[str, str] = {}
        self.released = False

    def release(self) -> None:
        self.released = True


def _reflector() -> Reflector:
    return Reflector(api=None, info=KINDS[Kind.CLAIMS], emit=lambda _c: None)  # type: ignore[arg-type]


async def _collect(resp: _Resp) -> list[bytes]:
    return [line async for line in _reflector()._lines(resp)]


def _chunked(data: bytes, rng: random.Random) -> list[bytes]:
    cuts = sorted(rng.sample(range(1, len(data)), k=min(len(data) - 1, rng.randint(0, 12))))
    return [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]


def test_watch_lines_survive_any_chunking() -> None:
    rng = random.Random(13)
    events = [json.dumps({"type": "MODIFIED", "object": {"n": i, "s": "x" * i}}) for i in range(40)]
    data = ("\n".join(events) + "\n\n").encode()
    for _ in range(200):
        lines = asyncio.run(_collect(_Resp(_chunked(data, rng))))
        assert [line.decode() for line in lines] == events


def test_a_last_line_without_newline_is_still_read() -> None:
    assert asyncio.run(_collect(_Resp([b'{"a":1}\n{"b"', b":2}"]))) == [b'{"a":1}', b'{"b":2}']


def test_an_endless_line_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reflector, "MAX_EVENT_BYTES", 1000)
    with pytest.raises(NotKubernetes):
        asyncio.run(_collect(_Resp([b"x" * 600, b"y" * 600, b"\n"])))


def test_an_endless_list_page_is_refused() -> None:
    """A page read through an ApiClient (ClientTransport.fetch) is bounded as a thread's read:
    past the limit no body, which the reflector refuses as not a list."""
    endless = _Resp([b"[" * 600, b"[" * 600])
    got = asyncio.run(read_answer(endless, 1000))
    assert got.body is None and endless.released
    with pytest.raises(NotKubernetes):
        as_object(got.body, got.content_type)
    whole = asyncio.run(read_answer(_Resp([b'{"items"', b":[]}"]), 1000))
    assert whole.body == b'{"items":[]}' and as_object(whole.body, whole.content_type) == {
        "items": []
    }


def test_clean_drops_managed_fields_and_names_the_kind() -> None:
    item: dict[str, Any] = {"metadata": {"name": "a", "managedFields": [{"manager": "m"}]}}
    cleaned = _clean(item, KINDS[Kind.CLAIMS])
    assert list(cleaned)[:2] == ["apiVersion", "kind"]
    assert cleaned["kind"] == KINDS[Kind.CLAIMS].object_kind
    assert cleaned["metadata"] == {"name": "a"}


@pytest.mark.parametrize(
    ("body", "want"),
    [
        (b'{"a": [1, 2.5, "\\u00e9"]}', {"a": [1, 2.5, "é"]}),
        (b'{"a": NaN}', "nan"),  # not JSON, but what the standard library reads
        (b'"\\ud800"', "\ud800"),  # a lone surrogate, as the standard library keeps it
    ],
)
def test_decode_answers_as_the_standard_library(body: bytes, want: object) -> None:
    got = decode.loads(body)
    if want == "nan":
        assert got["a"] != got["a"]
    else:
        assert got == want


@pytest.mark.parametrize("body", [b"{", b"\xff\xfe", b"[" * 100_000])
def test_decode_refuses_with_value_or_recursion_error(body: bytes) -> None:
    with pytest.raises((ValueError, RecursionError)):
        decode.loads(body)


class _Api:
    """Answers list pages from `pages` (one per call) and counts watches."""

    def __init__(self, items: list[dict[str, Any]]) -> None:
        self.items = items
        self.lists = 0
        self.watches = 0

    async def fetch(self, *_args: Any) -> Fetched:
        self.lists += 1
        body = {"metadata": {"resourceVersion": str(self.lists)}, "items": self.items}
        return Fetched(200, "OK", "application/json", json.dumps(body).encode())

    async def get(self, path: str, query: dict[str, Any], connect: float, read: float) -> Any:
        assert query.get("watch"), "lists are read with fetch"
        self.watches += 1
        await asyncio.sleep(3600)  # a watch with nothing to say


async def _reflect(items: int, seconds: float, watching: bool = True) -> tuple[_Api, list[Any]]:
    nodes = [{"metadata": {"name": f"n{i}"}} for i in range(items)]
    api, changes = _Api(nodes), []
    info = KINDS[Kind.NODES]
    ref = Reflector(
        api,  # type: ignore[arg-type]
        info,
        changes.append,
        poll_above=2,
        poll_every=0.05,
        watching=watching,
    )
    task = asyncio.create_task(ref.run())
    await asyncio.sleep(seconds)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    return api, changes


def test_many_nodes_are_listed_again_not_watched() -> None:
    api, changes = asyncio.run(_reflect(items=3, seconds=0.4))
    assert api.watches == 0
    assert api.lists >= 4  # one list, then one every 0.05 s
    states = [c.state for c in changes if c.type == "STATE"]
    assert states and all(s.phase == "synced" and s.every == 0.05 for s in states)
    assert all(len(c.items) == 3 for c in changes if c.type == "SYNCED")


def test_few_nodes_are_watched() -> None:
    api, changes = asyncio.run(_reflect(items=2, seconds=0.3))
    assert (api.lists, api.watches) == (1, 1)
    assert [c.state.every for c in changes if c.type == "STATE"] == [0.0]  # type: ignore[union-attr]


def test_a_one_shot_read_lists_and_never_watches() -> None:
    api, changes = asyncio.run(_reflect(items=2, seconds=0.3, watching=False))
    assert (api.lists, api.watches) == (1, 0)
    assert [c.type for c in changes] == ["SYNCED", "STATE"]


def test_the_one_shot_commands_do_not_import_aiohttp() -> None:
    # ~0.3 s of `gsb-tui check`: lists are read by http.client; aiohttp comes with a watch.
    probe = "import sys, gsb_tui.check_cli, gsb_tui.match_cli; print('aiohttp' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert out.stdout.strip() == "False"


def test_the_first_watch_waits_for_its_hold_and_later_ones_do_not() -> None:
    async def run() -> tuple[int, int, int]:
        api, changes = _Api([{"metadata": {"name": "n0"}}]), []
        release = asyncio.Event()
        holds: list[int] = []

        async def hold() -> None:
            holds.append(api.watches)
            await release.wait()

        info = KINDS[Kind.NODES]
        ref = Reflector(api, info, changes.append, before_first_watch=hold)  # type: ignore[arg-type]
        task = asyncio.create_task(ref.run())
        await asyncio.sleep(0.1)
        held = api.watches  # listed, not yet watching
        release.set()
        await asyncio.sleep(0.1)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        assert ref.before_first_watch is None  # a re-list later watches at once
        return held, api.watches, len(holds)

    held, watched, holds = asyncio.run(run())
    assert (held, watched, holds) == (0, 1, 1)


def test_the_dashboards_watch_hold_ends_when_drawn_or_at_its_bound(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    from gsb_tui.kube import live
    from gsb_tui.kube.config import Target

    monkeypatch.setattr(live, "WATCH_HOLD_S", 1.0)

    async def waited(source: live.LiveSource, draw_after: float | None) -> float:
        loop = asyncio.get_running_loop()
        if draw_after is not None:
            loop.call_later(draw_after, source.drawn)
        started = loop.time()
        await source._until_drawn()
        return loop.time() - started

    target = Target(kubeconfig=tmp_path / "none")
    assert asyncio.run(waited(live.LiveSource(target, hold_first_watches=True), 0.02)) < 0.5
    assert asyncio.run(waited(live.LiveSource(target, hold_first_watches=True), None)) >= 0.95
    assert asyncio.run(waited(live.LiveSource(target), None)) < 0.5  # record, tests: no hold
    drawn = live.LiveSource(target, hold_first_watches=True)
    drawn.drawn()  # drawn before a watch asked: nothing waits
    assert asyncio.run(waited(drawn, None)) < 0.5


def test_an_api_not_served_is_asked_for_less_and_less_often() -> None:
    waits = [reflector.not_served_wait(n) for n in range(1, 8)]
    assert waits[:3] == [10.0, 20.0, 40.0]
    assert waits[3:] == [reflector.NOT_SERVED_MAX_S] * 4
    assert waits == sorted(waits)


class _ApiClient:
    """kubernetes_asyncio's ApiClient as ClientTransport calls it: one answer for every call."""

    def __init__(self, resp: _Resp) -> None:
        self.resp = resp
        self.asked: list[tuple[str, str, Any]] = []

    async def call_api(self, path: str, method: str, **kwargs: Any) -> _Resp:
        self.asked.append((path, method, kwargs["query_params"]))
        return self.resp


def test_a_page_through_an_api_client_is_read_whole_as_a_threads_read_is() -> None:
    from gsb_tui.kube.transport import ClientTransport

    api = _ApiClient(_Resp([b'{"items":', b"[]}"]))
    got = asyncio.run(ClientTransport(api).fetch("/api/v1/nodes", {"limit": 500}, 5, 30, 1000))
    assert (got.status, got.body) == (200, b'{"items":[]}') and api.resp.released
    assert api.asked == [("/api/v1/nodes", "GET", [("limit", 500)])]
    refused = _Resp([b'{"kind":"Status","code":403}'])
    refused.status, refused.reason, refused.headers = 403, "Forbidden", {"Retry-After": "7"}
    got = asyncio.run(ClientTransport(_ApiClient(refused)).fetch("/x", {}, 5, 30, 1000))
    assert (got.status, got.reason, got.retry_after) == (403, "Forbidden", "7")
    assert got.body == b'{"kind":"Status","code":403}' and refused.released
