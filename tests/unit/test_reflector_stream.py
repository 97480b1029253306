"""The reflector's byte handling: watch lines split across any chunking, bounded sizes,
list items cleaned, and the decoder's answers on what orjson refuses."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from gsb_tui.kube import decode, reflector
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

    def __init__(self, chunks: list[bytes]) -> None:
        self.content = _Content(chunks)


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


def test_an_endless_list_page_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(reflector, "MAX_PAGE_BYTES", 1000)
    with pytest.raises(NotKubernetes):
        asyncio.run(_reflector()._body(_Resp([b"[" * 600, b"[" * 600])))
    assert asyncio.run(_reflector()._body(_Resp([b'{"items"', b":[]}"]))) == b'{"items":[]}'


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
