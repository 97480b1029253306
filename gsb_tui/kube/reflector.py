"""One reflector per kind: list, then watch from the list's resourceVersion, forever.

It trusts nothing the wire says, as client-go's reflector does not (kube/backoff.py has the
figures and where they differ): every failure of a list or a watch waits a backoff with jitter
that grows until a watch has stayed healthy a while; a watch is opened again no sooner than
WATCH_MIN_INTERVAL_S after the last one opened, and one that ends at once with nothing said is
a failure; 410 Gone re-lists under the same backoff; Retry-After is honoured; a page has a
deadline (PAGE_DEADLINE_S, its slowness said as it goes) and a list a cap on pages and bytes;
a watch that says nothing, not even a bookmark, past STALL_S is opened again. 403 (forbidden,
retried slowly) and an API not served (404) are states of their own. Raw HTTP, no model
layer: objects stay the server's dicts (kubernetes_asyncio's Watch guesses ResourceClaims
wrong). Every wait is on `clock` (tests compress it).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from types import MappingProxyType
from typing import Any, NoReturn
from urllib.parse import quote

from gsb_tui.kube import wire_words
from gsb_tui.kube.answers import (
    SLOW_WAIT_S,
    Gone,
    HttpError,
    NotKubernetes,
    Stalled,
    as_object,
    checked_page,
    error_body,
    paced,
    refuse,
    refused_state,
)
from gsb_tui.kube.backoff import REAL, Backoff, Clock
from gsb_tui.kube.config import KubeconfigError
from gsb_tui.kube.dra_scope import Scope
from gsb_tui.kube.http_get import Progress, SlowAnswer
from gsb_tui.kube.store import Change
from gsb_tui.kube.transport import Transport
from gsb_tui.kube.watch_loop import STALL_S, WATCH_SECONDS, WatchLoop
from gsb_tui.kube.wire_words import plain, wrong_shape
from gsb_tui.snapshot import KINDS, Kind, KindInfo, KindState, Obj, Phase
from gsb_tui.words import t

__all__ = ["STALL_S", "WATCH_SECONDS", "Gone", "HttpError", "NotKubernetes", "Reflector", "Stalled"]

Emit = Callable[[Change], None]
LIST_PAGE = 500
# Events come paged even at resourceVersion=0 (1.36.3 lists them from etcd): in pages of 500
# they were the last list of a busy cluster, well after the pods. ~1 KB each.
PAGE_OF = MappingProxyType({Kind.EVENTS: 5000})
CONNECT_TIMEOUT = 5
MAX_PAGE_BYTES = 1 << 30
MAX_LIST_BYTES = 1 << 30  # every page of one list together
MAX_LIST_PAGES = 100  # 50,000 objects in pages of 500 (no watch cache), 500,000 events
MAX_EVENT_BYTES = 64 << 20  # etcd stores objects of at most ~1.5 MB; 64 MiB is no watch event
# Past this many nodes, polled every POLL_NODES_S, not watched: a watch brings every status
# heartbeat (35/s at 1,250 kwok nodes was 2.3 %); the screen reads names, labels, allocatable.
POLL_NODES_ABOVE = 200
POLL_NODES_S = 60.0
NOT_SERVED_MAX_S = 60.0  # between asks for an API the server does not serve
PAGE_READ_TIMEOUT = 60  # each receive of a page
PAGE_DEADLINE_S = 60.0  # a page whole (a byte a second never trips a read timeout)
SLOW_REPORT_S = 5.0  # a page not whole after this long says so, and again as often


def not_served_wait(attempt: int) -> float:
    """10, 20, 40, then 60 s: an API not served comes only with a new API server, and an
    answer that is not Kubernetes' (a wrong shape, a list without end) with a mended one."""
    return float(min(NOT_SERVED_MAX_S, 10.0 * 2 ** max(0, attempt - 1)))


def _clean(obj: dict[str, Any], info: KindInfo) -> Obj:
    """Give list items their kind/apiVersion (lists omit them) and drop managedFields.

    `obj` was just decoded and nobody else holds it, so metadata is changed in place."""
    meta = obj.get("metadata")
    if isinstance(meta, dict):
        meta.pop("managedFields", None)
    if "kind" not in obj or "apiVersion" not in obj:
        obj = {"apiVersion": info.api_version, "kind": info.object_kind, **obj}
    return obj


class Reflector(WatchLoop):
    def __init__(
        self,
        api: Transport,
        info: KindInfo,
        emit: Emit,
        namespace: str | None = None,
        all_namespaces_first: bool = False,
        poll_above: int | None = None,
        poll_every: float = POLL_NODES_S,
        watching: bool = True,
        before_first_watch: Callable[[], Awaitable[None]] | None = None,
        scope: Scope | None = None,
        clock: Clock = REAL,
        rng: random.Random | None = None,
        field_selector: str = "",
    ) -> None:
        self.api = api
        # The server keeps only these (one object of a kind: `why` reads its pod by name).
        self.field_selector = field_selector
        self.scope_filter = scope  # only what it keeps is stored (kube/dra_scope.py)
        self.info = info
        self.emit = emit
        self.namespace = namespace
        # More objects than poll_above: list again every poll_every seconds, never watch.
        self.poll_above = poll_above
        self.poll_every = poll_every
        self.polling = False
        self.watching = watching  # False: list (and re-list on failure), never watch
        # Across namespaces first; the lab namespace when RBAC forbids the wider list.
        self.all_namespaces = all_namespaces_first
        self.relists = 0
        self.page_size = PAGE_OF.get(info.kind, LIST_PAGE)
        self.before_first_watch = before_first_watch  # awaited once, after the first list
        self.clock = clock
        self.rng = rng or random.Random()
        self.backoff = Backoff(self.rng)
        self.shown: KindState | None = None  # the last state emitted
        self.heard_at = clock.now()  # the last answer, event or bookmark (LiveSource reads it)
        self.server_silent_since: float | None = None  # LiveSource: the server stopped answering
        self.watch_lines = 0  # events and bookmarks of the watch under way
        self._last_line = self.heard_at  # of the watch under way (its watchdog reads it)
        self._next_watch_at = float("-inf")

    @property
    def scope(self) -> str:
        if not self.info.namespaced:
            return "cluster"
        wide = self.all_namespaces or not self.namespace
        return "all namespaces" if wide else f"namespace {self.namespace}"

    @property
    def path(self) -> str:
        ns = None if self.all_namespaces else self.namespace
        return self.info.path(quote(ns, safe="") if ns else None)  # a URL component, escaped

    def _state(
        self,
        phase: Phase,
        message: str = "",
        attempts: int = 0,
        quiet: str = "",
        heard: float | None = None,
    ) -> None:
        every = self.poll_every if self.polling and phase == "synced" else 0.0
        heard = (self.heard_at if heard is None else heard) if quiet else 0.0
        state = KindState(phase, message, attempts, self.scope, every, heard=heard, quiet=quiet)
        if state != self.shown:
            self.shown = state
            self.emit(Change(self.info.kind, "STATE", state=state))

    def _clean(self, obj: dict[str, Any]) -> Obj:
        return _clean(obj, self.info)

    def _heard(self) -> None:
        self.heard_at = self.clock.now()

    async def _get(self, query: dict[str, Any], read_timeout: float) -> Any:
        """A watch's answer (WatchLoop streams it), or its refusal raised."""
        resp = await self.api.get(self.path, query, CONNECT_TIMEOUT, read_timeout)
        if resp.status >= 300:
            body = await error_body(resp)
            waited = str(getattr(resp, "headers", {}).get("Retry-After") or "")
            self._refuse(resp.status, body, resp.content_type, resp.reason or "", waited)
        return resp

    def _refuse(
        self, code: int, body: bytes | None, content_type: str, reason: str, waited: str = ""
    ) -> NoReturn:
        refuse(code, body, content_type, reason, waited, core=not self.info.group)

    async def _page(self, query: dict[str, Any]) -> tuple[dict[str, Any], str, int]:
        """One list page, its content type and size, whole within PAGE_DEADLINE_S; slowness is
        said every SLOW_REPORT_S meanwhile."""
        progress = Progress(deadline=PAGE_DEADLINE_S)
        reading = self._read_page(query, progress)
        return await paced(reading, progress, self.clock, SLOW_REPORT_S, self._slow)

    def _slow(self, progress: Progress, seconds: float) -> None:
        shown = self.shown
        if shown is not None and shown.phase == "synced":
            return  # a poll's re-list: the data shown is still the last list's
        got = progress.got
        words = wire_words.slow(got, seconds) if got >= 0 else wire_words.waiting(seconds)
        phase: Phase = (
            "connecting" if shown is None or shown.phase == "connecting" else "reconnecting"
        )
        self._state(phase, words, shown.attempts if shown is not None else 0)

    async def _read_page(
        self, query: dict[str, Any], progress: Progress
    ) -> tuple[dict[str, Any], str, int]:
        """The page as the transport reads one (Transport.fetch, the one way a list is read). A
        failure is raised as that read saw it, and worded from it (kube/wire_words.py)."""
        got = await self.api.fetch(
            self.path, query, CONNECT_TIMEOUT, PAGE_READ_TIMEOUT, MAX_PAGE_BYTES, progress
        )
        self._heard()
        if got.status >= 300:
            self._refuse(got.status, got.body, got.content_type, got.reason, got.retry_after)
        size = len(got.body) if got.body is not None else 0
        return self._object(got.body, got.content_type), got.content_type, size

    @staticmethod
    def _object(raw: bytes | None, content_type: str) -> dict[str, Any]:
        return as_object(raw, content_type)

    def first_page(self) -> tuple[str, dict[str, Any]]:
        """Path and query of the list's first page (LiveSource.begin_lists asks for it early).

        resourceVersion=0, as client-go's informers list: served from the API server's watch
        cache in one answer (the limit applies only where there is no cache), much faster
        than pages of 500.
        A list of "any" version is fine here: the watch goes on from the list's version."""
        return self.path, self.selected({"limit": self.page_size, "resourceVersion": "0"})

    def selected(self, query: dict[str, Any]) -> dict[str, Any]:
        """The query with the field selector, on every page and watch (a continue token is
        only good with the selector of its first page)."""
        if self.field_selector:
            query["fieldSelector"] = self.field_selector
        return query

    async def list(self) -> str:
        items: list[Obj] = []
        query = self.first_page()[1]
        if self.scope_filter is not None:
            self.scope_filter.relisting()
        pages = size = seen = 0
        kind = self.info.kind.value
        while True:
            body, _content_type, got = await self._page(query)
            pages, size = pages + 1, size + got
            page = body.get("items") or []
            meta = body.get("metadata") or {}
            if not isinstance(page, list):
                raise NotKubernetes(wrong_shape(f"{kind} items", page, "list"))
            if not isinstance(meta, dict):
                raise NotKubernetes(wrong_shape(f"{kind} metadata", meta, "mapping"))
            checked_page(page, f"{kind} items", seen)
            seen += len(page)
            kept = page if self.scope_filter is None else self.scope_filter.listed(page)
            items.extend(_clean(o, self.info) for o in kept)
            token = meta.get("continue")
            if token:
                if not isinstance(token, str):
                    raise NotKubernetes(wrong_shape(f"{kind} metadata.continue", token, "string"))
                if pages >= MAX_LIST_PAGES or size >= MAX_LIST_BYTES:
                    mib = f"{size / (1 << 20):.1f}"
                    raise NotKubernetes(t("wire.endless-list", kind=kind, pages=pages, mib=mib))
                query = self.selected({"limit": self.page_size, "continue": token})
                continue
            rv = str(meta.get("resourceVersion") or "")
            self.polling = self.poll_above is not None and len(items) > self.poll_above
            self.emit(Change(self.info.kind, "SYNCED", items=tuple(items)))
            self._state("synced")
            return rv

    async def _lines(self, resp: Any) -> AsyncIterator[bytes]:
        # Chunked read: a single watch event (a big slice) can exceed aiohttp's line limit.
        # Chunks without a newline wait in a list (no quadratic joining); one event longer
        # than MAX_EVENT_BYTES is not something an API server sends.
        pending: list[bytes] = []
        size = 0
        async for chunk in resp.content.iter_any():
            pending.append(chunk)
            size += len(chunk)
            if b"\n" not in chunk:
                if size > MAX_EVENT_BYTES:
                    raise NotKubernetes(t("kube.bad-body", content_type=resp.content_type))
                continue
            *lines, rest = b"".join(pending).split(b"\n")
            pending, size = ([rest], len(rest)) if rest else ([], 0)
            for line in lines:
                if line.strip():
                    yield line
        rest = b"".join(pending)
        if rest.strip():
            yield rest

    async def run(self) -> None:
        """Reflect forever (until cancelled). Never raises for cluster trouble."""
        while True:
            try:
                rv = await self.list()
                if not self.watching:  # a one-shot read: the list is all that is wanted
                    await asyncio.Event().wait()
                hold, self.before_first_watch = self.before_first_watch, None
                if hold is not None:
                    await hold()
                if not self.polling:
                    await self._watching(rv)
                self.backoff.reset()  # polled: a list that came is as healthy as it gets
                await self.clock.sleep(self.poll_every)
            except asyncio.CancelledError:
                raise  # before the clause below, whose error types are imported on demand
            except Exception as exc:  # a bug here must not end the other kinds' watches
                await self.clock.sleep(self._failed(exc))

    def _failed(self, exc: Exception) -> float:
        """Say what failed; the seconds to wait before listing again."""
        wide = self.all_namespaces and self.namespace
        if isinstance(exc, HttpError) and exc.status == 403 and wide:
            self.all_namespaces = False  # try the lab namespace only
            return 0.0
        if isinstance(exc, HttpError) and exc.status == 404:
            older = self.info.older()
            if older is not None:  # not a failure yet: the next version, at once
                self.info = older
                return 0.0
        wait = self.backoff.failed()
        n = self.backoff.failures
        if isinstance(exc, Gone):
            self.relists += 1
            if n > 1:  # one 410 is a compaction; one after another is a server to spare
                self._state("reconnecting", t("wire.gone", n=n), n)
            return wait
        if isinstance(exc, HttpError):
            return self._refused(exc, wait, n)
        if isinstance(exc, KubeconfigError):
            self._state("error", exc.text, n)
            return max(5.0, wait)
        if isinstance(exc, NotKubernetes):  # a wrong shape, an endless list: 10, 20, 40, 60 s
            self._state("error", exc.text, n)
            return max(not_served_wait(n), wait)
        words = wire_words.describe(exc, str(getattr(self.api, "server", "")))
        if words is not None:
            never = self.shown is None or self.shown.phase == "connecting"
            slow = isinstance(exc, SlowAnswer) and never  # still coming: "connecting: slow …"
            self._state("connecting" if slow else "reconnecting", words, n)
            return wait
        error = plain(f"{type(exc).__name__}: {exc}")
        self._state("error", t("kube.unexpected", error=error), n)
        return max(SLOW_WAIT_S, wait)

    def _refused(self, exc: HttpError, wait: float, n: int) -> float:
        if exc.status == 404:
            self.info = KINDS[self.info.kind]  # a new API server may serve the newest
            words = t("kube.not-served", api=self.info.every_api, kind=self.info.kind.value)
            self._state("not-served", words, n)
            return not_served_wait(n)
        phase, message, wait = refused_state(exc, wait)
        self._state(phase, message, n)
        return wait
