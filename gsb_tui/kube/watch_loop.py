"""The watch half of a reflector (kube/reflector.py): a watch from a resourceVersion, its
watchdog, and the loop that opens one after another.

A watch that says nothing, not even a bookmark, for STALL_S is stalled: the API server sends
one about every minute (apiserver's cacher.go, bookmarkFrequency), so silence past that and a
margin is a dead stream or a server that stopped. It is opened again under the backoff, and
the kind is shown "stale" until it speaks. A watch is opened no sooner than
WATCH_MIN_INTERVAL_S after the one before; one that ends within SHORT_WATCH_S having said
nothing is a failure (client-go's VeryShortWatchError), backed off. A watch heard from
HEALTHY_S after it opened resets the backoff (kube/backoff.py).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from typing import Any, NoReturn

from gsb_tui.kube import decode
from gsb_tui.kube.answers import Gone, HttpError, NotKubernetes, Stalled, checked
from gsb_tui.kube.backoff import HEALTHY_S, Backoff, Clock
from gsb_tui.kube.dra_scope import Scope
from gsb_tui.kube.store import Change
from gsb_tui.kube.wire_words import plain
from gsb_tui.snapshot import KindInfo, KindState, Obj, Phase
from gsb_tui.words import t

WATCH_SECONDS = (240, 300)  # server-side watch timeout, jittered so kinds do not re-watch together
STALL_S = 90.0  # a bookmark comes about every 60 s
WATCH_MIN_INTERVAL_S = 5.0  # between the opening of one watch and the next
SHORT_WATCH_S = 1.0  # ended this soon with nothing said: a failure


class WatchLoop:
    """What Reflector does once listed. It reads these of the reflector:"""

    info: KindInfo
    emit: Callable[[Change], None]
    scope_filter: Scope | None  # what of the kind is stored (kube/dra_scope.py)
    clock: Clock
    rng: random.Random
    backoff: Backoff
    shown: KindState | None
    heard_at: float
    server_silent_since: float | None
    watch_lines: int
    _last_line: float
    _next_watch_at: float

    def _state(
        self,
        phase: Phase,
        message: str = "",
        attempts: int = 0,
        quiet: str = "",
        heard: float | None = None,
    ) -> None:
        raise NotImplementedError

    def _clean(self, obj: dict[str, Any]) -> Obj:
        raise NotImplementedError

    def selected(self, query: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    async def _get(self, query: dict[str, Any], read_timeout: float) -> Any:
        raise NotImplementedError

    def _lines(self, resp: Any) -> AsyncIterator[bytes]:
        raise NotImplementedError

    def _alive(self) -> None:
        """The watch spoke: synced, unless the server is known not to answer."""
        if self.server_silent_since is not None:
            self.server_silent_since = None
        shown = self.shown
        if shown is None or shown.phase != "synced" or shown.quiet:
            self._state("synced")

    def server_silent(self, since: float | None) -> None:
        """LiveSource: the API server did not answer a probe (None: it answers again)."""
        self.server_silent_since = since
        shown = self.shown
        if shown is None or shown.phase != "synced":
            return
        if since is not None:
            self._state("synced", quiet="not-answering", heard=since)
        elif shown.quiet == "not-answering":
            self._state("synced")

    async def _watchdog(self, task: asyncio.Task[Any], stalled: list[bool]) -> None:
        """Cancel `task` once the watch has said nothing for STALL_S."""
        while True:
            left = self._last_line + STALL_S - self.clock.now()
            if left <= 0:
                stalled.append(True)
                task.cancel()
                return
            await self.clock.sleep(left)

    async def watch(self, rv: str) -> str:
        """Stream events from rv until the server ends the watch; return the last rv seen.
        Raises Stalled when it says nothing for STALL_S."""
        seconds = self.rng.randint(*WATCH_SECONDS)
        query = self.selected(
            {
                "watch": "1",
                "resourceVersion": rv,
                "allowWatchBookmarks": "true",
                "timeoutSeconds": seconds,
            }
        )
        self.watch_lines = 0
        opened = self._last_line = self.clock.now()
        me = asyncio.current_task()
        assert me is not None
        stalled: list[bool] = []
        dog = asyncio.ensure_future(self._watchdog(me, stalled))
        try:
            rv = await self._stream(query, rv, opened)
        except asyncio.CancelledError:
            if stalled and me.uncancel() == 0:
                raise Stalled() from None
            raise
        finally:
            dog.cancel()
        return rv

    async def _stream(self, query: dict[str, Any], rv: str, opened: float) -> str:
        resp = await self._get(query, STALL_S + 30)
        try:
            async for line in self._lines(resp):
                now = self._last_line = self.heard_at = self.clock.now()
                self.watch_lines += 1
                if self.watch_lines == 1:
                    self._alive()
                if now - opened >= HEALTHY_S:
                    self.backoff.reset()
                rv = self._event(line, rv, resp.content_type)
        finally:
            resp.release()
        return rv

    def _event(self, line: bytes, rv: str, content_type: str) -> str:
        try:
            event = decode.loads(line)
        except RecursionError:
            event = None
        obj = event.get("object") if isinstance(event, dict) else None
        if not isinstance(event, dict) or not isinstance(obj or {}, dict):
            raise NotKubernetes(t("kube.bad-body", content_type=content_type))
        etype = event.get("type")
        obj = obj or {}
        if etype == "ERROR":
            if obj.get("code") == 410:
                raise Gone(obj.get("message", "resourceVersion too old"))
            code = obj.get("code")
            raise HttpError(
                code if isinstance(code, int) else 500,
                plain(str(obj.get("message") or t("kube.watch-error"))),
            )
        meta = checked(obj, f"{self.info.kind.value} watch event object").get("metadata")
        new_rv = meta.get("resourceVersion") if isinstance(meta, dict) else None
        if new_rv:
            rv = str(new_rv)
        if etype in ("ADDED", "MODIFIED", "DELETED"):
            passed = etype if self.scope_filter is None else self.scope_filter.event(etype, obj)
            if passed is not None:
                self.emit(Change(self.info.kind, passed, obj=self._clean(obj)))
        return rv

    async def _watching(self, rv: str) -> NoReturn:
        """Watch from rv again and again; raises what needs a re-list."""
        while True:
            await self.clock.sleep(self._next_watch_at - self.clock.now())
            opened = self.clock.now()
            self._next_watch_at = opened + WATCH_MIN_INTERVAL_S
            try:
                rv = await self.watch(rv)
            except Stalled:
                silent = self.server_silent_since
                quiet = "stale" if silent is None else "not-answering"
                self._state("synced", quiet=quiet, heard=silent)
                await self.clock.sleep(self.backoff.failed())
                continue
            lasted = self.clock.now() - opened
            if lasted >= HEALTHY_S:
                self.backoff.reset()
            elif self.watch_lines == 0 and lasted < SHORT_WATCH_S:
                wait = self.backoff.failed()
                n = self.backoff.failures
                self._state("reconnecting", t("wire.watch-ended", n=n), n)
                await self.clock.sleep(wait)
