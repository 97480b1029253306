"""Issue 26, never trust the wire: the reflector against a loopback API server that misbehaves
one way at a time (local_server.MODES), on a clock compressed 100 times (30 s of its waits in
0.3 s). Counts are upper bounds from the backoff's shortest waits, so a slow machine only
makes them smaller; nothing here asserts how long anything took."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp  # noqa: F401  imported before any clock runs: its first import holds the loop
import pytest

from gsb_tui.kube import backoff, reflector
from gsb_tui.kube.backoff import Backoff, Compressed, retry_after
from gsb_tui.kube.config import Target
from gsb_tui.kube.live import LiveSource
from gsb_tui.kube.reflector import Reflector
from gsb_tui.kube.store import Change, Store
from gsb_tui.snapshot import KINDS, Kind, KindState
from gsb_tui.ui.panes.header import phase_text

from .local_server import token_kubeconfig, token_transport, wire_server

FACTOR = 100.0
SEED = 26


def _states(changes: list[Change]) -> list[KindState]:
    return [c.state for c in changes if c.type == "STATE" and c.state is not None]


async def _reflect(
    tmp_path: Path,
    mode: str,
    seconds: float,
    until: Callable[[list[Change]], bool] | None = None,
    **knobs: Any,
) -> tuple[Counter[str], Reflector, list[Change]]:
    """`seconds` of the compressed clock of one reflector (nodes) against `mode` (or until
    `until` says so, checked every millisecond): what the server was asked meanwhile, the
    reflector, what it emitted."""
    with wire_server(mode, bookmark_every=20 / FACTOR, drip=knobs.pop("drip", 0.01)) as wire:
        api = token_transport(tmp_path, wire.url)
        changes: list[Change] = []
        ref = Reflector(
            api,
            KINDS[Kind.NODES],
            changes.append,
            clock=Compressed(FACTOR),
            rng=random.Random(SEED),
            **knobs,
        )
        task = asyncio.ensure_future(ref.run())
        if until is None:
            await asyncio.sleep(seconds / FACTOR)
        else:
            for _ in range(int(seconds / FACTOR * 1000)):
                if until(changes):
                    break
                await asyncio.sleep(0.001)
        asked = Counter(wire.asked)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await api.close()
    return asked, ref, changes


def test_the_backoff_grows_with_jitter_to_its_cap_and_resets() -> None:
    wait = Backoff(random.Random(SEED))
    waits = [wait.failed() for _ in range(12)]
    floors = [min(backoff.BACKOFF_MAX_S, backoff.BACKOFF_INIT_S * 2**n) for n in range(12)]
    top = 1 + backoff.BACKOFF_JITTER
    assert all(f <= w <= f * top for w, f in zip(waits, floors, strict=True))
    assert waits[0] < 1.5 and max(waits) <= backoff.BACKOFF_MAX_S * 1.5
    assert len(set(waits)) == len(waits)  # jittered: no two alike
    wait.reset()
    assert wait.failures == 0 and wait.failed() < 1.5


@pytest.mark.parametrize(
    ("header", "seconds"),
    [("120", 120.0), (" 7 ", 7.0), ("", None), ("soon", None), ("-3", None)],
)
def test_retry_after_is_read_as_the_server_wrote_it(header: str, seconds: float | None) -> None:
    assert retry_after(header) == seconds


def test_retry_after_as_an_http_date() -> None:
    assert retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412450.0) == 30.0
    assert retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412500.0) == 0.0


def test_a_sane_server_is_listed_once_and_watched_once(tmp_path: Path) -> None:
    asked, ref, changes = asyncio.run(_reflect(tmp_path, "sane", 30))
    assert (asked["list"], asked["watch"]) == (1, 1)
    assert [(s.phase, s.quiet) for s in _states(changes)] == [("synced", "")]
    assert ref.backoff.failures == 0


def test_a_watch_that_ends_at_once_is_not_opened_again_at_once(tmp_path: Path) -> None:
    # before: 4,783 watch requests in 30 s (issue 26)
    asked, ref, changes = asyncio.run(_reflect(tmp_path, "clean-watch-end", 30))
    assert 2 <= asked["watch"] <= 8
    assert asked["list"] == 1  # watched again from the same resourceVersion, never re-listed
    last = _states(changes)[-1]
    assert last.phase == "reconnecting" and "ends the watch as soon as it opens" in last.message
    # each ended at once, unless the machine was too slow for 1 s of the compressed clock
    assert 1 <= ref.backoff.failures <= asked["watch"]


def test_410_on_every_watch_relists_under_the_backoff(tmp_path: Path) -> None:
    # before: 3,502 full LISTs in 30 s
    asked, ref, changes = asyncio.run(_reflect(tmp_path, "410-every-watch", 30))
    assert 2 <= asked["list"] <= 8
    assert ref.relists == asked["watch"] or ref.relists == asked["watch"] - 1
    assert any("410 Gone" in s.message for s in _states(changes))


def test_a_watch_failing_after_a_good_list_keeps_the_backoff_growing(tmp_path: Path) -> None:
    # before: the attempt counter reset at each list, 450-740 LISTs in 30 s
    asked, ref, changes = asyncio.run(_reflect(tmp_path, "watch-fails-after-list", 30))
    assert 2 <= asked["list"] <= 8
    assert ref.backoff.failures >= asked["list"] - 1  # a good list did not reset it
    attempts = [s.attempts for s in _states(changes) if s.phase == "reconnecting"]
    assert attempts == sorted(attempts) and attempts[-1] >= 2


@pytest.mark.parametrize(
    ("mode", "status"), [("retry-after-120", 429), ("retry-after-120-503", 503)]
)
def test_retry_after_is_honoured_capped(tmp_path: Path, mode: str, status: int) -> None:
    # before: retried in 0.1-4 s
    asked, _ref, changes = asyncio.run(_reflect(tmp_path, mode, 30))
    assert sum(asked.values()) == 1  # the next ask is 60 s away (120 asked, capped at 60)
    (state,) = _states(changes)
    assert state.phase == "reconnecting"
    assert f"HTTP {status}, Retry-After 120 s" in state.message and "in 60 s" in state.message


def _said(changes: list[Change]) -> bool:
    return bool(_states(changes))


def test_an_endless_continue_is_capped_in_pages_and_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # before: RSS 37 -> 1,081 MB in 90 s, 48,532 requests, "connecting" with no reason
    monkeypatch.setattr(reflector, "MAX_LIST_PAGES", 20)
    asked, _ref, changes = asyncio.run(_reflect(tmp_path, "endless-continue", 500, _said))
    assert asked["list"] == 20  # one list of 20 pages, then a wait of at least 10 s
    assert not [c for c in changes if c.type == "SYNCED"]
    (state,) = _states(changes)
    assert state.phase == "error" and "does not end: 20 pages" in state.message
    assert "metadata.continue" in state.message


def test_an_endless_continue_is_capped_in_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reflector, "MAX_LIST_BYTES", 4000)  # a page of 3 items is ~400 bytes
    asked, _ref, changes = asyncio.run(_reflect(tmp_path, "endless-continue", 500, _said))
    assert 5 <= asked["list"] <= 12
    assert "does not end" in _states(changes)[-1].message


def test_a_slow_loris_is_said_as_it_drips_and_given_up_at_the_deadline(tmp_path: Path) -> None:
    # before: every kind "connecting" after 90 s, no message
    asked, _ref, changes = asyncio.run(_reflect(tmp_path, "slow-loris", 70))
    assert not [c for c in changes if c.type == "SYNCED"]
    states = _states(changes)
    assert all(s.phase == "connecting" for s in states)
    assert states[0].message.startswith("slow response (") and " in 5 s)" in states[0].message
    given_up = [s for s in states if s.attempts]
    assert given_up and given_up[0].message.endswith(" in 60 s)")
    assert asked["list"] <= 2
    words = phase_text(states[-1])
    assert words.startswith("connecting: slow response (")


def test_a_silent_watch_is_stale_and_watched_again_not_relisted(tmp_path: Path) -> None:
    # before: "synced" for ~5 minutes
    asked, _ref, changes = asyncio.run(_reflect(tmp_path, "silent-watch", 200))
    assert asked["list"] == 1
    assert 2 <= asked["watch"] <= 4  # one each STALL_S (90 s), plus its backoff
    last = _states(changes)[-1]
    assert (last.phase, last.quiet) == ("synced", "stale")
    assert last.usable  # the data is the last the server said
    assert phase_text(last, now=last.heard + 95) == "stale 95 s"


def test_the_stale_mark_clears_when_the_watch_speaks_again() -> None:
    changes: list[Change] = []
    ref = Reflector(None, KINDS[Kind.NODES], changes.append)  # type: ignore[arg-type]
    ref._state("synced")
    ref._state("synced", quiet="stale")
    ref._alive()
    ref.server_silent(12.0)
    ref.server_silent(None)
    seen = [(s.phase, s.quiet, s.heard) for s in _states(changes)]
    assert seen == [
        ("synced", "", 0.0),
        ("synced", "stale", ref.heard_at),
        ("synced", "", 0.0),
        ("synced", "not-answering", 12.0),
        ("synced", "", 0.0),
    ]


async def _live(tmp_path: Path, mode: str, seconds: float) -> tuple[Counter[str], KindState]:
    with wire_server(mode, bookmark_every=20 / FACTOR) as wire:
        target = Target(kubeconfig=token_kubeconfig(tmp_path, wire.url), namespace="lab")
        source = LiveSource(target, kinds=(Kind.NODES,), clock=Compressed(FACTOR))
        store = Store(source.kinds)
        task = asyncio.ensure_future(source.run(store.apply))
        await asyncio.sleep(seconds / FACTOR)
        asked = Counter(wire.asked)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    return asked, store.snapshot().state(Kind.NODES)


def test_a_stopped_server_is_not_answering_within_seconds(tmp_path: Path) -> None:
    # before: a SIGSTOPped API server was "synced" for the whole 30 s
    asked, state = asyncio.run(_live(tmp_path, "frozen", 40))
    assert (state.phase, state.quiet) == ("synced", "not-answering")
    assert state.heard > 0 and asked["version"] >= 1
    assert phase_text(state, now=state.heard + 1).startswith("not answering (last heard ")


def test_a_sane_server_heard_from_stays_plainly_synced(tmp_path: Path) -> None:
    asked, state = asyncio.run(_live(tmp_path, "sane", 60))
    assert (state.phase, state.quiet, phase_text(state)) == ("synced", "", "synced")
    assert asked["list"] == 1 and asked["watch"] == 1


def test_the_test_server_stops_by_itself() -> None:
    with wire_server("silent-watch", lifetime=0.2) as wire:
        assert wire.stop.wait(10)  # its lifetime ended every hold
