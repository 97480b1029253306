"""One reflector per kind: list, then watch from the list's resourceVersion, forever.

The loop survives what a long-lived dashboard meets: a watch that ends (re-watch from the last
resourceVersion, bookmarks keep it fresh), 410 Gone (re-list), a silent half-dead stream (read
timeout), a restarting API server (exponential backoff with jitter), 403 (the kind is marked
forbidden and retried slowly) and an API that is not served (404).
Raw HTTP (kube/transport.py) with no model layer: objects stay the server's camelCase dicts,
and kubernetes_asyncio's Watch, which guesses the wrong model for ResourceClaims, is never used.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp

from gsb_tui.kube.store import Change
from gsb_tui.kube.transport import Transport
from gsb_tui.snapshot import KindInfo, KindState, Obj, Phase

Emit = Callable[[Change], None]
LIST_PAGE = 500
WATCH_SECONDS = (240, 300)  # server-side watch timeout, jittered so kinds do not re-watch together
READ_TIMEOUT_MARGIN = 30  # a stream silent past timeoutSeconds + this is dead
CONNECT_TIMEOUT = 5
MAX_BACKOFF = 4.0  # a dashboard should notice a restarted API server within seconds


class Gone(Exception):
    """410: the resourceVersion is too old; only a re-list recovers."""


class HttpError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def backoff(attempt: int) -> float:
    """Exponential with jitter: about 0.25 s, 0.5 s, 1 s … capped at MAX_BACKOFF."""
    return float(random.uniform(0.5, 1.0) * min(MAX_BACKOFF, 0.25 * 2 ** max(0, attempt - 1)))


def _clean(obj: dict[str, Any], info: KindInfo) -> Obj:
    """Give list items their kind/apiVersion (lists omit them) and drop managedFields."""
    meta = obj.get("metadata")
    if isinstance(meta, dict) and "managedFields" in meta:
        meta = {k: v for k, v in meta.items() if k != "managedFields"}
        obj = {**obj, "metadata": meta}
    if "kind" not in obj or "apiVersion" not in obj:
        obj = {"apiVersion": info.api_version, "kind": info.object_kind, **obj}
    return obj


class Reflector:
    def __init__(
        self,
        api: Transport,
        info: KindInfo,
        emit: Emit,
        namespace: str | None = None,
        all_namespaces_first: bool = False,
    ) -> None:
        self.api = api
        self.info = info
        self.emit = emit
        self.namespace = namespace
        # Claims are wanted across namespaces (devices held elsewhere are not free);
        # fall back to the lab namespace when RBAC forbids the wider list.
        self.all_namespaces = all_namespaces_first
        self.relists = 0

    @property
    def scope(self) -> str:
        if not self.info.namespaced:
            return "cluster"
        return (
            "all namespaces"
            if self.all_namespaces or not self.namespace
            else f"namespace {self.namespace}"
        )

    @property
    def path(self) -> str:
        ns = None if self.all_namespaces else self.namespace
        return self.info.path(ns)

    def _state(self, phase: Phase, message: str = "", attempts: int = 0) -> None:
        self.emit(
            Change(
                self.info.kind,
                "STATE",
                state=KindState(phase=phase, message=message, attempts=attempts, scope=self.scope),
            )
        )

    async def _get(self, query: dict[str, Any], read_timeout: float) -> Any:
        resp = await self.api.get(self.path, query, CONNECT_TIMEOUT, read_timeout)
        if resp.status >= 300:
            body = await resp.text()
            resp.release()
            try:
                message = json.loads(body).get("message", body)
            except ValueError:
                message = body.strip()[:200]
            raise HttpError(resp.status, message or resp.reason or "")
        return resp

    async def list(self) -> str:
        items: list[Obj] = []
        query: dict[str, Any] = {"limit": LIST_PAGE}
        while True:
            resp = await self._get(query, 60)
            try:
                body = await resp.json(content_type=None)
            finally:
                resp.release()
            items.extend(_clean(o, self.info) for o in body.get("items") or [])
            meta = body.get("metadata") or {}
            if meta.get("continue"):
                query = {"limit": LIST_PAGE, "continue": meta["continue"]}
                continue
            rv = str(meta.get("resourceVersion") or "")
            self.emit(Change(self.info.kind, "SYNCED", items=tuple(items)))
            self._state("synced")
            return rv

    async def _lines(self, resp: Any) -> AsyncIterator[bytes]:
        # Chunked read: a single watch event (a big slice) can exceed aiohttp's line limit.
        buf = b""
        async for chunk in resp.content.iter_any():
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                if line.strip():
                    yield line
        if buf.strip():
            yield buf

    async def watch(self, rv: str) -> str:
        """Stream events from rv until the server ends the watch; return the last rv seen."""
        seconds = random.randint(*WATCH_SECONDS)
        query = {
            "watch": "1",
            "resourceVersion": rv,
            "allowWatchBookmarks": "true",
            "timeoutSeconds": seconds,
        }
        resp = await self._get(query, seconds + READ_TIMEOUT_MARGIN)
        try:
            async for line in self._lines(resp):
                event = json.loads(line)
                etype = event.get("type")
                obj = event.get("object") or {}
                if etype == "ERROR":
                    if obj.get("code") == 410:
                        raise Gone(obj.get("message", "resourceVersion too old"))
                    raise HttpError(int(obj.get("code") or 500), obj.get("message", "watch error"))
                new_rv = (obj.get("metadata") or {}).get("resourceVersion")
                if new_rv:
                    rv = str(new_rv)
                if etype in ("ADDED", "MODIFIED", "DELETED"):
                    self.emit(Change(self.info.kind, etype, obj=_clean(obj, self.info)))
        finally:
            resp.release()
        return rv

    async def run(self) -> None:
        """Reflect forever (until cancelled). Never raises for cluster trouble."""
        attempts = 0
        while True:
            try:
                rv = await self.list()
                attempts = 0
                while True:
                    rv = await self.watch(rv)
            except Gone:
                self.relists += 1
                continue
            except HttpError as exc:
                if exc.status == 403 and self.all_namespaces and self.namespace:
                    self.all_namespaces = False  # try the lab namespace only
                    continue
                attempts += 1
                if exc.status == 403:
                    self._state("forbidden", f"forbidden (RBAC): {exc}", attempts)
                    await asyncio.sleep(max(10.0, backoff(attempts)))
                elif exc.status == 404:
                    self._state(
                        "not-served",
                        f"{self.info.api_version} {self.info.kind.value} "
                        "is not served by this API server",
                        attempts,
                    )
                    await asyncio.sleep(max(10.0, backoff(attempts)))
                elif exc.status == 401:
                    self._state(
                        "error", f"the API server rejected the credentials (401): {exc}", attempts
                    )
                    await asyncio.sleep(max(5.0, backoff(attempts)))
                else:
                    self._state("reconnecting", f"HTTP {exc.status}: {exc}", attempts)
                    await asyncio.sleep(backoff(attempts))
            except (aiohttp.ClientError, TimeoutError, OSError, ValueError) as exc:
                attempts += 1
                self._state("reconnecting", _describe(exc), attempts)
                await asyncio.sleep(backoff(attempts))


def _describe(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if isinstance(exc, TimeoutError):
        return "no answer from the API server (timeout)"
    if "Connect call failed" in text or "Cannot connect" in text:
        return f"cannot connect to the API server: {text}"
    if "certificate" in text.lower() or "ssl" in text.lower():
        return f"TLS problem talking to the API server: {text}"
    return text
