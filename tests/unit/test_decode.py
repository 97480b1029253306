"""kube/decode.py: a large body decodes with the cyclic collector paused, and the collector is
left as it was found (on, or off while the App holds it for the first lists)."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from types import SimpleNamespace

import orjson
import pytest

from gsb_tui.kube import decode


@pytest.fixture
def collections() -> Iterator[list[int]]:
    seen: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)


def _list_page(items: int) -> bytes:
    item = {"metadata": {"name": "x", "labels": {"a": "b"}}, "spec": {"k": [1, 2, 3]}}
    return json.dumps({"kind": "PodList", "items": [item] * items}).encode()


def test_a_large_page_decodes_without_collections_and_leaves_the_collector_on(
    collections: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    during: list[int] = []
    real = orjson.loads

    def counted(data: bytes | str) -> object:
        before = len(collections)
        try:
            return real(data)
        finally:
            during.append(len(collections) - before)

    monkeypatch.setattr(
        decode, "orjson", SimpleNamespace(loads=counted, JSONDecodeError=ValueError)
    )
    body = _list_page(20_000)
    assert len(body) > decode.PAUSE_GC_ABOVE
    assert gc.isenabled()
    page = decode.loads(body)
    assert during == [0]  # ~200,000 objects made: without the pause, collections among them
    assert len(page["items"]) == 20_000
    assert gc.isenabled()


def test_a_held_collector_stays_off_and_small_bodies_leave_it_alone() -> None:
    gc.disable()
    try:
        decode.loads(_list_page(20_000))
        assert not gc.isenabled()  # the App's hold (ui/pacing.GcHold) is not undone
    finally:
        gc.enable()
    assert decode.loads(b'{"type": "ADDED"}') == {"type": "ADDED"}
    assert gc.isenabled()


def test_what_orjson_refuses_still_reads_and_the_collector_comes_back() -> None:
    nan = b'{"items": [NaN], "pad": "' + b"x" * (decode.PAUSE_GC_ABOVE + 1) + b'"}'
    assert decode.loads(nan)["items"][0] != decode.loads(nan)["items"][0]  # NaN
    assert gc.isenabled()
    with pytest.raises(ValueError):
        decode.loads(b"{" + b" " * (decode.PAUSE_GC_ABOVE + 1))
    assert gc.isenabled()
