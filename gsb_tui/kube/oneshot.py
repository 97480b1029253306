"""One consistent snapshot for the headless commands (`check`, `match`, `record`)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterable

from gsb_tui.kube.config import KubeconfigError, Target
from gsb_tui.kube.live import LiveSource
from gsb_tui.kube.store import Change, Store
from gsb_tui.snapshot import Kind, Snapshot

SETTLED = frozenset({"synced", "forbidden", "not-served"})
FAILING = frozenset({"reconnecting", "error"})
GIVE_UP_AFTER_S = 3.0  # every kind failing this long: the server is not there


class Unreachable(RuntimeError):
    """The cluster could not be read; the message says why."""


async def fetch_snapshot(
    target: Target, kinds: Iterable[Kind] = tuple(Kind), timeout: float = 8.0
) -> Snapshot:
    """List every kind once; return when each is synced, forbidden or not served."""
    kinds = tuple(kinds)
    store = Store(kinds)
    source = LiveSource(target, kinds)
    if source.config_error:
        raise KubeconfigError(source.config_error)
    settled = asyncio.Event()
    failing_since: list[float] = []

    def emit(change: Change) -> None:
        store.apply(change)
        snap = store.snapshot()
        if all(snap.state(k).phase in SETTLED for k in kinds):
            settled.set()
        elif all(snap.state(k).phase in FAILING for k in kinds):
            failing_since.append(time.monotonic())
            if failing_since[-1] - failing_since[0] >= GIVE_UP_AFTER_S:
                settled.set()
        else:
            failing_since.clear()

    task = asyncio.create_task(source.run(emit))
    started = time.monotonic()
    try:
        await asyncio.wait_for(settled.wait(), timeout)
        if failing_since:
            raise TimeoutError
    except TimeoutError:
        snap = store.snapshot()
        reasons = {snap.state(k).message for k in kinds if snap.state(k).phase not in SETTLED}
        reason = "; ".join(sorted(r for r in reasons if r)) or "no answer"
        raise Unreachable(
            f"cannot read the cluster at {source.info.server} within "
            f"{time.monotonic() - started:.0f} s: {reason}"
        ) from None
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
    return store.snapshot()
