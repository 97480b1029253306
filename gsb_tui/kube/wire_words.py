"""A failure reading the API server, worded for what happened on the path that failed.

List pages are read by http.client (kube/http_get.py), watches by aiohttp; each raises its own
exceptions for the same trouble, and each is worded here from what that path saw: a gzip lie,
a broken chunk, an answer that ended early, a slow one, TLS, a refused connection. Never a
repr, never a status the server did not send (aiohttp calls a parse error "400"). aiohttp is
imported only when the exception is one of its own: lists and `check` never need it.
"""

from __future__ import annotations

import errno
import http.client
import os
import re
import ssl
import sys
import zlib
from typing import Any
from urllib.parse import urlsplit

from gsb_tui.kube.http_get import SlowAnswer, Unreadable
from gsb_tui.words import Text, t

_REPR = re.compile(r"<[^<>]*\bobject at 0x[0-9a-fA-F]+>")
_SSL_WHERE = re.compile(r"\s*\(_ssl\.c:\d+\)")


def plain(text: str, limit: int = 300) -> str:
    """One line, no Python object reprs, at most `limit` characters."""
    return " ".join(_REPR.sub("", text).split())[:limit]


def type_name(value: Any) -> Text:
    """ "a string", "a list" … for the wrong-shape words."""
    if value is None:
        return t("kube.type.null")
    for kind, key in ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string")):
        if isinstance(value, kind):
            return t(f"kube.type.{key}")
    if isinstance(value, list):
        return t("kube.type.list")
    return t("kube.type.mapping") if isinstance(value, dict) else t("kube.type.other")


def wrong_shape(where: str, value: Any, want: str) -> Text:
    return t("wire.wrong-shape", where=where, got=type_name(value), want=t(f"kube.type.{want}"))


# Whole seconds elapsed, rounded down: a report that wakes late on a busy machine (5.6 s)
# still says the 5 s it has certainly waited.
def slow(got: int, seconds: float) -> Text:
    return t("wire.slow", got=f"{got:,}", seconds=str(int(seconds)))


def waiting(seconds: float) -> Text:
    return t("wire.waiting", seconds=str(int(seconds)))


def os_reason(error: BaseException | None) -> str:
    if not isinstance(error, OSError):
        return plain(str(error or ""))
    if isinstance(error.errno, int) and error.errno in errno.errorcode:
        return os.strerror(error.errno)
    return plain(str(error.strerror or error))


def ssl_words(error: BaseException | None) -> str:
    reason = getattr(error, "reason", None)
    if isinstance(reason, str) and reason:
        return reason.replace("_", " ").lower()
    words = str(getattr(error, "strerror", None) or error or "")
    return plain(_SSL_WHERE.sub("", words)) or "TLS"


def _where(server: str) -> str:
    url = urlsplit(server)
    return url.netloc or server or "?"


def describe(exc: BaseException, server: str = "") -> Text | None:
    """The failure in one plain sentence, or None when it is no failure of the wire (a bug)."""
    if type(exc).__module__.startswith("aiohttp") and "aiohttp" in sys.modules:
        return _aiohttp_words(exc)
    if isinstance(exc, SlowAnswer):
        return slow(exc.got, exc.seconds) if exc.got >= 0 else waiting(exc.seconds)
    if isinstance(exc, Unreadable | zlib.error):
        if getattr(exc, "what", "gzip") == "chunk":
            return t("wire.chunk")
        return t("wire.gzip", detail=plain(getattr(exc, "detail", "") or str(exc)))
    if isinstance(exc, ssl.SSLCertVerificationError):
        reason = getattr(exc, "verify_message", None) or ssl_words(exc)
        return t("kube.cert-untrusted", reason=plain(str(reason)))
    if isinstance(exc, ssl.SSLError):
        return t("kube.tls", reason=ssl_words(exc))
    if isinstance(exc, TimeoutError):
        return t("kube.timeout")
    if isinstance(exc, http.client.RemoteDisconnected):
        return t("wire.closed-unanswered")
    if isinstance(exc, http.client.IncompleteRead):
        return t("wire.short", got=len(exc.partial), missing=exc.expected or "?")
    if isinstance(exc, http.client.HTTPException):
        detail = plain(str(exc)) or type(exc).__name__
        return t("wire.not-http", detail=detail)
    if isinstance(exc, ConnectionRefusedError | ConnectionAbortedError):
        return t("kube.cannot-connect", where=_where(server), reason=os_reason(exc))
    if isinstance(exc, ConnectionResetError | BrokenPipeError):
        return t("kube.disconnected")
    if isinstance(exc, OSError):
        return t("kube.network", reason=os_reason(exc) or type(exc).__name__)
    return None


def _aiohttp_words(exc: BaseException) -> Text | None:
    import aiohttp
    from aiohttp import http_exceptions

    if isinstance(exc, aiohttp.ClientConnectorCertificateError):
        cert_error = exc.certificate_error
        reason = getattr(cert_error, "verify_message", None) or ssl_words(cert_error)
        return t("kube.cert-untrusted", reason=plain(str(reason)))
    if isinstance(exc, aiohttp.ClientConnectorSSLError):
        return t("kube.tls", reason=ssl_words(exc.os_error))
    if isinstance(exc, aiohttp.ClientConnectorError):
        where = f"{exc.host}:{exc.port}"
        return t("kube.cannot-connect", where=where, reason=os_reason(exc.os_error))
    if isinstance(exc, TimeoutError):
        return t("kube.timeout")
    if isinstance(exc, aiohttp.ServerDisconnectedError):
        return t("kube.disconnected")
    if isinstance(exc, aiohttp.ClientPayloadError):
        cause = exc.__cause__
        if isinstance(cause, http_exceptions.ContentEncodingError):
            return t("wire.gzip", detail=plain(str(cause.message)))
        if isinstance(cause, http_exceptions.TransferEncodingError):
            return t("wire.chunk")
        if isinstance(cause, http_exceptions.ContentLengthError):
            return t("wire.short", got="?", missing="?")
        return t("kube.disconnected")
    if isinstance(exc, aiohttp.InvalidURL):
        return t("kube.bad-url", url=plain(str(exc.url)))
    if isinstance(exc, aiohttp.ClientResponseError):
        # Our requests never raise for a status: this is an answer aiohttp could not parse,
        # which it calls "400" though the server sent no such thing.
        message = plain(str(exc.message))
        if "chunk" in message.lower():
            return t("wire.chunk")
        return t("wire.not-http", detail=message or type(exc).__name__)
    if isinstance(exc, aiohttp.ClientError):
        return t("kube.network", reason=plain(str(exc)) or type(exc).__name__)
    return None
