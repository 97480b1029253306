"""One reflector per kind: list, then watch from the list's resourceVersion, forever.

It survives a watch that ends (re-watch from the last resourceVersion; bookmarks), 410 Gone
(re-list), a silent half-dead stream (read timeout), a restarting API server (backoff with
jitter), 403 (forbidden, retried slowly) and an API not served (404). Raw HTTP, no model layer:
objects stay the server's dicts (kubernetes_asyncio's Watch guesses ResourceClaims wrong).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import http.client
import os
import random
import re
import zlib
from collections.abc import AsyncIterator, Awaitable, Callable
from types import MappingProxyType
from typing import Any, NoReturn

from gsb_tui.kube import decode
from gsb_tui.kube.config import KubeconfigError
from gsb_tui.kube.store import Change
from gsb_tui.kube.transport import Transport
from gsb_tui.snapshot import KINDS, Kind, KindInfo, KindState, Obj, Phase
from gsb_tui.words import Text, t

Emit = Callable[[Change], None]
LIST_PAGE = 500
# Events come paged even at resourceVersion=0 (1.36.3 lists them from etcd): 5,000 came in 10
# pages, the last list of a busy cluster, 0.19-0.45 s after the pods (measured). ~1 KB each.
PAGE_OF = MappingProxyType({Kind.EVENTS: 5000})
WATCH_SECONDS = (240, 300)  # server-side watch timeout, jittered so kinds do not re-watch together
READ_TIMEOUT_MARGIN = 30  # a stream silent past timeoutSeconds + this is dead
CONNECT_TIMEOUT = 5
MAX_PAGE_BYTES = 1 << 30
MAX_EVENT_BYTES = 64 << 20  # etcd stores objects of at most ~1.5 MB; 64 MiB is no watch event
# Past this many nodes, polled every POLL_NODES_S, not watched: a watch brings every status
# heartbeat (35/s at 1,250 kwok nodes was 2.3 %); the screen reads names, labels, allocatable.
POLL_NODES_ABOVE = 200
POLL_NODES_S = 60.0
NOT_SERVED_MAX_S = 60.0  # between asks for an API the server does not serve
MAX_BACKOFF = 4.0  # a dashboard should notice a restarted API server within seconds
PAGE_READ_TIMEOUT = 60


class Gone(Exception):
    """410: the resourceVersion is too old; only a re-list recovers."""


class HttpError(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class NotKubernetes(Exception):
    """The server answered, but not as a Kubernetes API server does; retrying will not help."""

    def __init__(self, message: Text) -> None:
        super().__init__(str(message))
        self.text = message


_REPR = re.compile(r"<[^<>]*\bobject at 0x[0-9a-fA-F]+>")


def plain(text: str, limit: int = 300) -> str:
    """One line, no Python object reprs, at most `limit` characters."""
    return " ".join(_REPR.sub("", text).split())[:limit]


def backoff(attempt: int) -> float:
    """Exponential with jitter: about 0.25 s, 0.5 s, 1 s … capped at MAX_BACKOFF."""
    return float(random.uniform(0.5, 1.0) * min(MAX_BACKOFF, 0.25 * 2 ** max(0, attempt - 1)))


def not_served_wait(attempt: int) -> float:
    """10, 20, 40, then 60 s: an API not served comes only with a new API server."""
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


class Reflector:
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
        keep: Callable[[Obj], bool] | None = None,
    ) -> None:
        self.api = api
        self.keep = keep  # across namespaces, only what it keeps is stored (kube/dra_scope.py)
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

    def _wanted(self, obj: Obj) -> bool:
        return self.keep is None or not self.all_namespaces or self.keep(obj)

    @property
    def scope(self) -> str:
        if not self.info.namespaced:
            return "cluster"
        wide = self.all_namespaces or not self.namespace
        return "all namespaces" if wide else f"namespace {self.namespace}"

    @property
    def path(self) -> str:
        ns = None if self.all_namespaces else self.namespace
        return self.info.path(ns)

    def _state(self, phase: Phase, message: str = "", attempts: int = 0) -> None:
        every = self.poll_every if self.polling and phase == "synced" else 0.0
        state = KindState(phase, message, attempts, scope=self.scope, every=every)
        self.emit(Change(self.info.kind, "STATE", state=state))

    async def _get(self, query: dict[str, Any], read_timeout: float) -> Any:
        resp = await self.api.get(self.path, query, CONNECT_TIMEOUT, read_timeout)
        if resp.status >= 300:
            body = await resp.text(errors="replace")
            resp.release()
            self._refuse(resp.status, body, resp.content_type, resp.reason or "")
        return resp

    def _refuse(self, code: int, body: str, content_type: str, reason: str) -> NoReturn:
        """An answer of 300 or more, as HttpError (or NotKubernetes)."""
        status: Any = None
        with contextlib.suppress(ValueError, RecursionError):
            status = decode.loads(body)
        if code == 404 and not self.info.group and not isinstance(status, dict):
            # The core group (pods, nodes, events) is served by every API server.
            raise NotKubernetes(t("kube.not-api-server", status=code, content_type=content_type))
        message = status.get("message") if isinstance(status, dict) else None
        raise HttpError(code, plain(str(message or body or reason or "")))

    async def _page(self, query: dict[str, Any]) -> tuple[dict[str, Any], str]:
        """One list page and its content type: read in a thread where the transport can
        (Transport.fetch); otherwise (None), or when that fails to connect, through get, whose
        failures gsb-tui words (kube.reflector.describe)."""
        try:
            got = await self.api.fetch(
                self.path, query, CONNECT_TIMEOUT, PAGE_READ_TIMEOUT, MAX_PAGE_BYTES
            )
        except TimeoutError:
            raise  # the same words either way; no second wait
        except (OSError, http.client.HTTPException, zlib.error, ValueError):
            got = None  # aiohttp below meets the same trouble and says it in its words
        if got is None:
            resp = await self._get(query, PAGE_READ_TIMEOUT)
            try:
                return await self._json(resp), resp.content_type
            finally:
                resp.release()
        if got.status >= 300:
            body = got.body.decode(errors="replace") if got.body is not None else ""
            self._refuse(got.status, body, got.content_type, got.reason)
        return self._object(got.body, got.content_type), got.content_type

    async def _body(self, resp: Any) -> bytes:
        """The whole body, at most MAX_PAGE_BYTES (500 objects of etcd's largest are ~750 MB;
        a server streaming without end is not a list page)."""
        chunks: list[bytes] = []
        size = 0
        async for chunk in resp.content.iter_any():
            chunks.append(chunk)
            size += len(chunk)
            if size > MAX_PAGE_BYTES:
                raise NotKubernetes(t("kube.bad-body", content_type=resp.content_type))
        return b"".join(chunks)

    async def _json(self, resp: Any) -> dict[str, Any]:
        return self._object(await self._body(resp), resp.content_type)

    @staticmethod
    def _object(raw: bytes | None, content_type: str) -> dict[str, Any]:
        """The body as a JSON object (a list or an event), or NotKubernetes."""
        try:
            body = decode.loads(raw) if raw is not None else None
        except (ValueError, RecursionError):
            body = None
        if not isinstance(body, dict):
            raise NotKubernetes(t("kube.bad-body", content_type=content_type))
        return body

    def first_page(self) -> tuple[str, dict[str, Any]]:
        """Path and query of the list's first page (LiveSource.begin_lists asks for it early).

        resourceVersion=0, as client-go's informers list: served from the API server's watch
        cache in one answer (the limit applies only where there is no cache). At 17,500
        objects the seven lists took 1.5 s instead of 2.7 s in 500-object pages (measured).
        A list of "any" version is fine here: the watch goes on from the list's version."""
        return self.path, {"limit": self.page_size, "resourceVersion": "0"}

    async def list(self) -> str:
        items: list[Obj] = []
        query = self.first_page()[1]
        while True:
            body, content_type = await self._page(query)
            page = body.get("items") or []
            meta = body.get("metadata") or {}
            if not isinstance(page, list) or not isinstance(meta, dict):
                raise NotKubernetes(t("kube.bad-body", content_type=content_type))
            wanted = (o for o in page if isinstance(o, dict) and self._wanted(o))
            items.extend(_clean(o, self.info) for o in wanted)
            if meta.get("continue"):
                query = {"limit": self.page_size, "continue": meta["continue"]}
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
                try:
                    event = decode.loads(line)
                except RecursionError:
                    event = None
                obj = event.get("object") if isinstance(event, dict) else None
                if not isinstance(event, dict) or not isinstance(obj or {}, dict):
                    raise NotKubernetes(t("kube.bad-body", content_type=resp.content_type))
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
                meta = obj.get("metadata")
                new_rv = meta.get("resourceVersion") if isinstance(meta, dict) else None
                if new_rv:
                    rv = str(new_rv)
                if etype == "DELETED" or (etype in ("ADDED", "MODIFIED") and self._wanted(obj)):
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
                if not self.watching:  # a one-shot read: the list is all that is wanted
                    await asyncio.Event().wait()
                hold, self.before_first_watch = self.before_first_watch, None
                if hold is not None:
                    await hold()
                while not self.polling:
                    rv = await self.watch(rv)
                await asyncio.sleep(self.poll_every)
            except asyncio.CancelledError:
                raise  # before the clauses below, whose error types are imported on demand
            except Gone:
                self.relists += 1
                continue
            except HttpError as exc:
                if exc.status == 403 and self.all_namespaces and self.namespace:
                    self.all_namespaces = False  # try the lab namespace only
                    continue
                attempts += 1
                if exc.status == 403:
                    self._state("forbidden", t("kube.forbidden", message=str(exc)), attempts)
                    await asyncio.sleep(max(10.0, backoff(attempts)))
                elif exc.status == 404:
                    older = self.info.older()
                    if older is not None:  # not a failure yet: the next version, at once
                        self.info, attempts = older, attempts - 1
                        continue
                    self.info = KINDS[self.info.kind]  # a new API server may serve the newest
                    words = t("kube.not-served", api=self.info.every_api, kind=self.info.kind.value)
                    self._state("not-served", words, attempts)
                    await asyncio.sleep(not_served_wait(attempts))
                elif exc.status == 401:
                    self._state("error", t("kube.unauthorized", message=str(exc)), attempts)
                    await asyncio.sleep(max(5.0, backoff(attempts)))
                else:
                    self._state(
                        "reconnecting",
                        t("kube.http", status=exc.status, message=str(exc)),
                        attempts,
                    )
                    await asyncio.sleep(backoff(attempts))
            except NotKubernetes as exc:
                attempts += 1
                self._state("error", exc.text, attempts)
                await asyncio.sleep(max(10.0, backoff(attempts)))
            except KubeconfigError as exc:  # an exec plugin's credential could not be renewed
                attempts += 1
                self._state("error", exc.text, attempts)
                await asyncio.sleep(max(5.0, backoff(attempts)))
            except _network_errors() as exc:
                attempts += 1
                self._state("reconnecting", describe(exc), attempts)
                await asyncio.sleep(backoff(attempts))
            except Exception as exc:  # a bug here must not end the other kinds' watches
                attempts += 1
                error = plain(f"{type(exc).__name__}: {exc}")
                self._state("error", t("kube.unexpected", error=error), attempts)
                await asyncio.sleep(max(10.0, backoff(attempts)))


def _os_reason(error: OSError | None) -> str:
    if error is None:
        return ""
    if isinstance(error.errno, int) and error.errno in errno.errorcode:
        return os.strerror(error.errno)
    return plain(str(error.strerror or error))


def _network_errors() -> tuple[type[BaseException], ...]:
    """What a request raises when the network or the server fails. aiohttp is imported here,
    not at the top: lists are read without it, and `check` never needs it."""
    import aiohttp

    return (aiohttp.ClientError, TimeoutError, OSError, ValueError)


def describe(exc: BaseException) -> Text:
    """A network failure in one plain sentence (no object reprs, no nested exception lists)."""
    import aiohttp

    if isinstance(exc, aiohttp.ClientConnectorCertificateError):
        cert_error = exc.certificate_error
        reason = getattr(cert_error, "verify_message", None) or _ssl_words(cert_error)
        return t("kube.cert-untrusted", reason=plain(str(reason)))
    if isinstance(exc, aiohttp.ClientConnectorSSLError):
        return t("kube.tls", reason=_ssl_words(exc.os_error))
    if isinstance(exc, aiohttp.ClientConnectorError):
        where = f"{exc.host}:{exc.port}"
        return t("kube.cannot-connect", where=where, reason=_os_reason(exc.os_error))
    if isinstance(exc, TimeoutError):
        return t("kube.timeout")
    if isinstance(exc, aiohttp.ServerDisconnectedError | aiohttp.ClientPayloadError):
        return t("kube.disconnected")
    if isinstance(exc, aiohttp.InvalidURL):
        return t("kube.bad-url", url=plain(str(exc.url)))
    if isinstance(exc, aiohttp.ClientResponseError):
        return t("kube.http", status=exc.status, message=plain(exc.message))
    if isinstance(exc, OSError):
        return t("kube.network", reason=_os_reason(exc) or type(exc).__name__)
    return t("kube.network", reason=plain(str(exc)) or type(exc).__name__)


def _ssl_words(error: BaseException | None) -> str:
    reason = getattr(error, "reason", None)
    if isinstance(reason, str) and reason:
        return reason.replace("_", " ").lower()
    words = str(getattr(error, "strerror", None) or error or "")
    return plain(re.sub(r"\s*\(_ssl\.c:\d+\)", "", words)) or "TLS"
