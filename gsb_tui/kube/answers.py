"""What an API server's answer means to a reflector (kube/reflector.py): the failures it
raises, the shapes it accepts, a page read against its deadline, and the state a refusal is
shown as."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, NoReturn, TypeVar

from gsb_tui.kube import decode
from gsb_tui.kube.backoff import RETRY_AFTER_MAX_S, Clock, retry_after
from gsb_tui.kube.http_get import Fetched, Progress, SlowAnswer
from gsb_tui.kube.wire_words import plain, wrong_shape
from gsb_tui.snapshot import Phase
from gsb_tui.words import Text, t

T = TypeVar("T")
MAX_ERROR_BYTES = 1 << 16  # of an answer of 300 or more
SLOW_WAIT_S = 10.0  # at least this long after an error retrying alone will not mend


class Gone(Exception):
    """410: the resourceVersion is too old; only a re-list recovers."""


class Stalled(Exception):
    """The watch said nothing, not even a bookmark, past its stall limit."""


class HttpError(Exception):
    def __init__(self, status: int, message: str, retry_after: str = "") -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


class NotKubernetes(Exception):
    """The server answered, but not as a Kubernetes API server does; retrying will not help."""

    def __init__(self, message: Text) -> None:
        super().__init__(str(message))
        self.text = message


def checked(obj: Any, where: str) -> dict[str, Any]:
    """An object as the store reads it (a mapping whose metadata is a mapping of strings),
    or NotKubernetes saying where it is not."""
    if not isinstance(obj, dict):
        raise NotKubernetes(wrong_shape(where, obj, "mapping"))
    meta = obj.get("metadata")
    if meta is None:
        return obj
    if not isinstance(meta, dict):
        raise NotKubernetes(wrong_shape(f"{where}.metadata", meta, "mapping"))
    for field in ("name", "namespace", "uid", "resourceVersion"):
        value = meta.get(field)
        if value is not None and not isinstance(value, str):
            raise NotKubernetes(wrong_shape(f"{where}.metadata.{field}", value, "string"))
    return obj


def checked_page(page: list[Any], where: str, first: int = 0) -> None:
    """Every item of a list page a mapping whose metadata is one (or absent), or NotKubernetes
    naming the first that is not. Cheap: the rest of `checked` only for a suspect."""
    for i, obj in enumerate(page):
        if type(obj) is not dict or type(obj.get("metadata") or _EMPTY) is not dict:
            checked(obj, f"{where}[{first + i}]")


_EMPTY: dict[str, Any] = {}


def as_object(raw: bytes | None, content_type: str) -> dict[str, Any]:
    """The body as a JSON object (a list or an event), or NotKubernetes."""
    try:
        body = decode.loads(raw) if raw is not None else None
    except (ValueError, RecursionError):
        body = None
    if not isinstance(body, dict):
        raise NotKubernetes(t("kube.bad-body", content_type=content_type))
    return body


def refuse(
    code: int,
    body: bytes | None,
    content_type: str,
    reason: str,
    waited: str = "",
    core: bool = False,
) -> NoReturn:
    """An answer of 300 or more, as HttpError (or NotKubernetes: a 404 that is no Status for
    the core group, which every API server serves)."""
    status: Any = None
    with contextlib.suppress(ValueError, RecursionError):
        status = decode.loads(body or b"")
    if code == 404 and core and not isinstance(status, dict):
        raise NotKubernetes(t("kube.not-api-server", status=code, content_type=content_type))
    message = status.get("message") if isinstance(status, dict) else None
    text = (body or b"")[:MAX_ERROR_BYTES].decode(errors="replace")
    raise HttpError(code, plain(str(message or text or reason or "")), waited)


async def read_answer(resp: Any, limit: int, progress: Progress | None = None) -> Fetched:
    """An aiohttp-shaped response read whole, as http_get.read_page reads one: its body at most
    `limit` bytes (None past it), a refusal's at most MAX_ERROR_BYTES; the response released."""
    headers = getattr(resp, "headers", {}) or {}
    status, reason, content_type = resp.status, resp.reason or "", resp.content_type or ""
    retry = str(headers.get("Retry-After") or "")
    if status >= 300:
        return Fetched(status, reason, content_type, await error_body(resp), retry)
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in resp.content.iter_any():
            chunks.append(chunk)
            size += len(chunk)
            if progress is not None:
                progress.got = size
            if size > limit:
                return Fetched(status, reason, content_type, None, retry)
    finally:
        resp.release()
    return Fetched(status, reason, content_type, b"".join(chunks), retry)


async def error_body(resp: Any) -> bytes:
    """At most MAX_ERROR_BYTES of a refusal's body; the response released."""
    chunks: list[bytes] = []
    try:
        async for chunk in resp.content.iter_any():
            chunks.append(chunk)
            if sum(map(len, chunks)) > MAX_ERROR_BYTES:
                break
    finally:
        resp.release()
    return b"".join(chunks)


async def paced(
    reading: Awaitable[T],
    progress: Progress,
    clock: Clock,
    every: float,
    slow: Callable[[Progress, float], None],
) -> T:
    """`reading`'s answer within progress.deadline seconds of `clock` (else SlowAnswer with
    the bytes come); `slow` is told every `every` seconds meanwhile."""
    task = asyncio.ensure_future(reading)
    started = clock.now()
    deadline = progress.deadline if progress.deadline is not None else float("inf")
    try:
        while True:
            elapsed = clock.now() - started
            if elapsed >= deadline:
                raise SlowAnswer(progress.got, deadline)
            timer = asyncio.ensure_future(clock.sleep(min(every, deadline - elapsed)))
            try:
                await asyncio.wait((task, timer), return_when=asyncio.FIRST_COMPLETED)
            finally:
                timer.cancel()
            if task.done():
                return task.result()
            slow(progress, clock.now() - started)
    finally:
        if not task.done():
            task.cancel()  # the transport's closers end the blocked read
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def refused_state(exc: HttpError, wait: float) -> tuple[Phase, Text | str, float]:
    """How a refusal other than 404 is shown, and the seconds to wait before asking again."""
    if exc.status == 403:  # the server's own words; "forbidden (RBAC)" is the phase's
        return "forbidden", str(exc), max(SLOW_WAIT_S, wait)
    if exc.status == 401:
        return "error", t("kube.unauthorized", message=str(exc)), max(5.0, wait)
    asked = retry_after(exc.retry_after) if exc.status == 429 or exc.status >= 500 else None
    if asked is not None:
        wait = max(wait, min(asked, RETRY_AFTER_MAX_S))
        words = t("wire.retry-after", status=exc.status, asked=f"{asked:.0f}", wait=f"{wait:.0f}")
        return "reconnecting", words, wait
    return "reconnecting", t("kube.http", status=exc.status, message=str(exc)), wait
