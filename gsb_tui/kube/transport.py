"""HTTP to the API server for the reflectors: GET with a connect and a read timeout.

The common kubeconfigs (k3s: client certificates; practice cluster: a token; any CA or
insecure-skip-tls-verify) are handled here on aiohttp alone, which starts in milliseconds.
Exec plugins are run here too (kube/exec_plugin.py: a timeout, always reaped). Only legacy
auth providers go through kubernetes_asyncio, whose import alone takes about half a second,
so it is loaded only for them.
"""

from __future__ import annotations

import asyncio
import base64
import ipaddress
import re
import ssl
import time
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar
from urllib.parse import urlencode, urlsplit

from gsb_tui.bounded import MIB, Refused, read_capped
from gsb_tui.kube.answers import read_answer
from gsb_tui.kube.config import KubeconfigError, Resolved, make_api_client
from gsb_tui.kube.exec_plugin import ExecCredential, ExecPluginError, run_plugin
from gsb_tui.kube.http_get import (
    Address,
    Cancel,
    Fetched,
    Progress,
    client_context,
    load_client_cert,
    read_page,
)
from gsb_tui.kube.pages import Begun, ChildPages, in_daemon_thread
from gsb_tui.words import Text, t

T = TypeVar("T")
if TYPE_CHECKING:  # imported on the first watch: ~0.3 s that lists and `check` do without
    import aiohttp

Headers = dict[str, str]
MATERIAL_LIMIT = MIB  # a certificate, key or token file
EXEC_RETRY_S = 5.0  # a failed or refused plugin credential is not asked for again sooner
_SSL_WHERE = re.compile(r"\s*\(_ssl\.c:\d+\)")


class Transport(Protocol):
    async def get(
        self, path: str, query: Mapping[str, Any], connect: float, read: float
    ) -> aiohttp.ClientResponse: ...

    async def fetch(
        self,
        path: str,
        query: Mapping[str, Any],
        connect: float,
        read: float,
        limit: int,
        progress: Progress | None = None,
    ) -> Fetched:
        """A whole list page (every list reads its pages here), its body None past `limit`.
        `progress` bounds the whole read and counts its bytes (got -1: not known here)."""
        ...

    async def close(self) -> None: ...


def _material(section: Mapping[str, Any], key: str) -> bytes | None:
    """`<key>-data` (base64) or `<key>` (a file; config.py made its name absolute)."""
    data = section.get(f"{key}-data")
    if data:
        try:
            return base64.b64decode(data)
        except ValueError as exc:
            raise KubeconfigError(t("kube.bad-base64", field=f"{key}-data")) from exc
    name = section.get(key)
    if name:
        try:
            return read_capped(Path(name), MATERIAL_LIMIT)
        except Refused as exc:
            raise KubeconfigError(
                t("kube.material-refused", field=key, path=name, problem=exc.problem)
            ) from None
        except (OSError, ValueError) as exc:
            error = getattr(exc, "strerror", None) or type(exc).__name__
            raise KubeconfigError(
                t("kube.cannot-read-material", field=key, path=name, error=error)
            ) from None
    return None


def _ssl_reason(exc: BaseException) -> str:
    """An ssl error's reason in lower-case words ("no start line"), never an object repr."""
    reason = getattr(exc, "reason", None)
    if isinstance(reason, str) and reason:
        return reason.replace("_", " ").lower()
    if isinstance(exc, UnicodeDecodeError):
        return str(t("kube.not-pem-text"))
    words = getattr(exc, "strerror", None) or getattr(exc, "verify_message", None)
    words = _SSL_WHERE.sub("", str(words or type(exc).__name__))  # "(_ssl.c:4020)"
    return " ".join(words.split())


def _b64(blob: bytes | None) -> str | None:
    return base64.b64encode(blob).decode("ascii") if blob else None


def on_this_machine(server: str) -> bool:
    """The server URL names a loopback address (or localhost)."""
    host = (urlsplit(server).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _header_value(value: str, field: str) -> str:
    if not value.isascii() or not value.isprintable():
        raise KubeconfigError(t("kube.bad-header-value", field=field))
    return value


class NativeTransport:
    """aiohttp with the kubeconfig's TLS material and credentials (token, basic, exec plugin)."""

    def __init__(self, resolved: Resolved) -> None:
        self.cluster = resolved.cluster_info
        user = resolved.user_info
        self.server = resolved.server.rstrip("/")
        self.base_path = urlsplit(self.server).path  # a server behind a path prefix
        self.headers = {"Accept": "application/json"}
        if on_this_machine(self.server):
            # No gzip over loopback (k3s beside the learner, the practice cluster): compressing
            # a 10,000-device list costs the API server CPU and us the inflating, and saves
            # nothing on a local socket. A remote server still compresses large lists.
            self.headers["Accept-Encoding"] = "identity"
        self.exec_spec: Mapping[str, Any] | None = user.get("exec") or None
        self.credential: ExecCredential | None = None
        self._credential_at = float("-inf")
        self._exec_failure: tuple[float, Text] | None = None
        self._lock: asyncio.Lock | None = None
        token = user.get("token")
        if not token and user.get("tokenFile"):
            raw = _material({"token": user["tokenFile"]}, "token")
            try:
                token = raw.decode("utf-8").strip() if raw else None
            except UnicodeDecodeError:
                raise KubeconfigError(t("kube.bad-header-value", field="tokenFile")) from None
        if token:
            self.headers["Authorization"] = f"Bearer {_header_value(token, 'token')}"
        elif user.get("username") and user.get("password"):
            basic = base64.b64encode(f"{user['username']}:{user['password']}".encode()).decode()
            self.headers["Authorization"] = f"Basic {basic}"
        cert = _material(user, "client-certificate")
        key = _material(user, "client-key")
        if bool(cert) != bool(key):
            raise KubeconfigError(t("kube.cert-without-key"))
        # Read once: every TLS context (an exec plugin's new certificate, the child's) needs it.
        self._ca = _material(self.cluster, "certificate-authority")
        self._insecure = bool(self.cluster.get("insecure-skip-tls-verify"))
        self._client_cert = (cert, key)
        self.ssl = self._ssl(cert, key)
        self.server_name = self.cluster.get("tls-server-name") or None
        self.session: aiohttp.ClientSession | None = None
        # GETs begun before the event loop existed (begin): in a child process, or threads
        self._early: ChildPages | Begun = Begun()

    @staticmethod
    def supports(resolved: Resolved) -> bool:
        return not resolved.user_info.get("auth-provider")

    def _ssl(self, cert: bytes | None, key: bytes | None) -> ssl.SSLContext:
        try:
            ctx = client_context(self._ca, self._insecure)
        except (ssl.SSLError, ValueError) as exc:  # not PEM (UnicodeDecodeError is a ValueError)
            raise KubeconfigError(t("kube.bad-ca", reason=_ssl_reason(exc))) from None
        if cert and key:
            try:
                load_client_cert(ctx, cert, key)
            except (ssl.SSLError, ValueError) as exc:
                raise KubeconfigError(t("kube.bad-client-cert", reason=_ssl_reason(exc))) from None
        return ctx

    async def start(self) -> None:
        """Run the exec plugin once (its error is the kubeconfig's, said at once)."""
        if self.exec_spec:
            await self._ensure_credential()

    async def _ensure_credential(self) -> None:
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:  # one plugin run for every reflector waiting on it
            if self.credential is not None and not self.credential.expired():
                return
            failure = self._exec_failure
            if failure is not None and time.monotonic() - failure[0] < EXEC_RETRY_S:
                raise ExecPluginError(failure[1])
            assert self.exec_spec is not None
            try:
                credential = await run_plugin(self.exec_spec)
                if credential.token:
                    _header_value(credential.token, "token")
                    ssl_ctx = self.ssl
                else:
                    ssl_ctx = self._ssl(credential.cert, credential.key)
            except KubeconfigError as exc:  # the plugin's, or its certificate's
                self._exec_failure = (time.monotonic(), exc.text)
                raise ExecPluginError(exc.text) from None
            self._exec_failure = None
            self.credential = credential
            self._credential_at = time.monotonic()
            self.ssl = ssl_ctx
            if credential.token:
                self.headers["Authorization"] = f"Bearer {credential.token}"
            else:
                self.headers.pop("Authorization", None)

    async def _fresh_credential(self) -> None:
        """Before a request: the exec plugin's credential, run again when missing or expired."""
        if self.exec_spec and (self.credential is None or self.credential.expired()):
            await self._ensure_credential()

    def _answered(self, status: int) -> None:
        """After a request: as kubectl, a refused exec credential is asked for again (not more
        often than EXEC_RETRY_S)."""
        refused = status == 401 and self.exec_spec
        if refused and time.monotonic() - self._credential_at >= EXEC_RETRY_S:
            self.credential = None

    async def get(
        self, path: str, query: Mapping[str, Any], connect: float, read: float
    ) -> aiohttp.ClientResponse:
        await self._fresh_credential()
        import aiohttp

        if self.session is None:
            self.session = aiohttp.ClientSession()
        timeout = aiohttp.ClientTimeout(connect=connect, sock_connect=connect, sock_read=read)
        resp = await self.session.get(
            self.server + path,
            params={k: str(v) for k, v in query.items()},
            headers=self.headers,
            ssl=self.ssl,
            timeout=timeout,
            server_hostname=self.server_name,
        )
        self._answered(resp.status)
        return resp

    def _target(self, path: str, query: Mapping[str, Any]) -> str:
        return f"{self.base_path}{path}?{urlencode({k: str(v) for k, v in query.items()})}"

    @property
    def address(self) -> Address:
        return Address(self.server, self.ssl, self.server_name)

    def begin(
        self,
        requests: Iterable[tuple[str, Mapping[str, Any]]],
        connect: float,
        read: float,
        limit: int,
        deadline: float | None = None,
    ) -> bool:
        """Start these GETs now, with no event loop yet: the first list pages are on their way
        while the rest of gsb-tui imports and Textual starts. They are read by a child process
        (pages.ChildPages), or by daemon threads of ours where none starts. fetch() of the same
        path and query takes the answer, once. Not with an exec plugin, whose credential is
        asked for in the event loop (start()): False, nothing begun."""
        if self.exec_spec:
            return False
        targets = [self._target(path, query) for path, query in requests]
        cert, key = self._client_cert
        request = {  # on the child's stdin, never its command line
            "ca": _b64(self._ca),
            "insecure": self._insecure,
            "cert": _b64(cert),
            "key": _b64(key),
            "server": self.server,
            "server_name": self.server_name,
            "headers": self.headers,
            "connect": connect,
            "read": read,
            "limit": limit,
            "deadline": deadline,
        }
        child = ChildPages.start(request, targets)
        if child is not None:
            self._early = child
            return True
        address, begun = self.address, Begun()  # no child process here: threads of ours
        for target in targets:
            headers = dict(self.headers)

            def work(cancel: Cancel, target: str = target, headers: Headers = headers) -> Any:
                bound = Progress(deadline=deadline)
                return read_page(address, target, headers, connect, read, limit, cancel, bound)

            begun.start(target, work)
        self._early = begun
        return True

    async def fetch(
        self,
        path: str,
        query: Mapping[str, Any],
        connect: float,
        read: float,
        limit: int,
        progress: Progress | None = None,
    ) -> Fetched:
        """A whole list page read in a thread of its own, or taken from what begin() started
        (kube/pages.py). Raises what read_page raises (kube/http_get.py); a body over `limit`
        comes back as None."""
        target = self._target(path, query)
        early = self._early.take(target, progress)  # tells progress how far the read got
        got = await early if early is not None else None
        if got is None:  # not begun early, or the child could not read it
            if progress is not None:
                progress.got = 0
            await self._fresh_credential()
            headers, address = dict(self.headers), self.address
            got = await in_daemon_thread(
                lambda cancel: read_page(
                    address, target, headers, connect, read, limit, cancel, progress
                )
            )
        self._answered(got.status)
        return got

    async def close(self) -> None:
        self._early.close()  # begun, never taken
        if self.session is not None:
            await self.session.close()


class ClientTransport:
    """kubernetes_asyncio's ApiClient, for legacy auth providers."""

    def __init__(self, api: Any) -> None:
        self.api = api

    async def fetch(
        self,
        path: str,
        query: Mapping[str, Any],
        connect: float,
        read: float,
        limit: int,
        progress: Progress | None = None,
    ) -> Fetched:
        """A list page read through the ApiClient (it carries the credentials), whole, as
        NativeTransport reads one in a thread."""
        return await read_answer(await self.get(path, query, connect, read), limit, progress)

    async def get(
        self, path: str, query: Mapping[str, Any], connect: float, read: float
    ) -> aiohttp.ClientResponse:
        resp: aiohttp.ClientResponse = await self.api.call_api(
            path,
            "GET",
            query_params=list(query.items()),
            header_params={"Accept": "application/json"},
            auth_settings=["BearerToken"],
            _preload_content=False,
            _request_timeout=(connect, read),
        )
        return resp

    async def close(self) -> None:
        await self.api.close()


async def make_transport(resolved: Resolved) -> Transport:
    if NativeTransport.supports(resolved):
        transport = NativeTransport(resolved)
        await transport.start()
        return transport
    return ClientTransport(await make_api_client(resolved))
