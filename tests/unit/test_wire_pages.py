"""Issue 26: a page read slowly (a slow loris) is bounded by its deadline on every path (the
page-reading child, a thread of ours), and how far it got is said, not guessed."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

import pytest

from gsb_tui.kube.http_get import Cancel, Progress, SlowAnswer
from gsb_tui.kube.wire_words import describe

from .local_server import token_transport, wire_server


@pytest.mark.parametrize("early", [True, False])
def test_a_slow_loris_page_ends_at_its_deadline_with_the_bytes_come(
    tmp_path: Path, early: bool
) -> None:
    with wire_server("slow-loris", drip=0.01) as wire:
        api = token_transport(tmp_path, wire.url)
        if early:  # read by the page-reading child, as the dashboard's first pages are
            assert api.begin([("/api/v1/pods", {})], 5, 5, 1 << 20, deadline=2.5)
        seen: list[int] = []

        async def read() -> SlowAnswer:
            progress = Progress(deadline=2.5)
            task = asyncio.ensure_future(api.fetch("/api/v1/pods", {}, 5, 5, 1 << 20, progress))
            while not task.done():
                seen.append(progress.got)
                await asyncio.sleep(0.05)
            await api.close()
            exc = task.exception()
            assert isinstance(exc, SlowAnswer), exc
            return exc

        slow = asyncio.run(read())
    assert slow.got > 0 and slow.seconds == 2.5
    assert str(describe(slow)) == f"slow response ({slow.got:,} bytes in 2 s)"
    assert max(seen) > 0  # the bytes were said while they came


def test_a_read_its_caller_gave_up_on_before_it_connected_is_ended_at_once() -> None:
    """A thread still connecting when its caller was cancelled registers its closer late: the
    closer runs then, so the read does not go on to hold the server's connection open (seen:
    an HTTP server's shutdown waiting 60 s for it)."""
    cancel = Cancel()
    closed: list[str] = []
    cancel.append(lambda: closed.append("before"))
    cancel.cancel()
    assert closed == ["before"] and cancel.cancelled
    cancel.append(lambda: closed.append("after"))  # registered after the caller gave up
    assert closed == ["before", "after"]
    cancel.cancel()  # once each
    assert closed == ["before", "after"]


def test_a_cancelled_thread_read_ends_before_it_is_answered(tmp_path: Path) -> None:
    with wire_server("slow-loris", drip=0.01) as wire:
        api = token_transport(tmp_path, wire.url)

        async def read() -> float:
            task = asyncio.ensure_future(api.fetch("/api/v1/pods", {}, 5, 30, 1 << 20))
            await asyncio.sleep(0.2)
            task.cancel()
            started = time.monotonic()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            await api.close()
            return time.monotonic() - started

        assert asyncio.run(read()) < 5  # not the 30 s read timeout
