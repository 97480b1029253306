"""HTTP to the API server for the reflectors: GET with a connect and a read timeout.

The common kubeconfigs (k3s: client certificates; practice cluster: a token; any CA or
insecure-skip-tls-verify) are handled here on plain aiohttp, which starts in milliseconds.
Exec plugins and auth providers go through kubernetes_asyncio, whose import alone takes
about half a second, so it is loaded only for them.
"""

from __future__ import annotations

import base64
import os
import ssl
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

import aiohttp

from gsb_tui.kube.config import KubeconfigError, Resolved, make_api_client


class Transport(Protocol):
    async def get(
        self, path: str, query: Mapping[str, Any], connect: float, read: float
    ) -> aiohttp.ClientResponse: ...

    async def close(self) -> None: ...


def _named(items: Any, name: str) -> dict[str, Any]:
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and item.get("name") == name:
            return item
    return {}


def _material(section: Mapping[str, Any], key: str, base: Path) -> bytes | None:
    """`<key>-data` (base64) or `<key>` (a path, relative to the kubeconfig's folder)."""
    data = section.get(f"{key}-data")
    if data:
        try:
            return base64.b64decode(data)
        except ValueError as exc:
            raise KubeconfigError(f"{key}-data in the kubeconfig is not valid base64") from exc
    path = section.get(key)
    if path:
        file = Path(path) if Path(path).is_absolute() else base / path
        try:
            return file.read_bytes()
        except OSError as exc:
            raise KubeconfigError(f"cannot read {key} {file}: {exc.strerror}") from exc
    return None


class NativeTransport:
    """aiohttp with the kubeconfig's TLS material and bearer token."""

    def __init__(self, resolved: Resolved) -> None:
        config = resolved.config
        context = _named(config.get("contexts"), resolved.context).get("context") or {}
        cluster = _named(config.get("clusters"), context.get("cluster", "")).get("cluster") or {}
        user = _named(config.get("users"), context.get("user", "")).get("user") or {}
        base = resolved.path.parent
        self.server = str(cluster.get("server", "")).rstrip("/")
        self.headers = {"Accept": "application/json"}
        token = user.get("token")
        if not token and user.get("tokenFile"):
            raw = _material({"token": user["tokenFile"]}, "token", base)
            token = raw.decode().strip() if raw else None
        if token:
            self.headers["Authorization"] = f"Bearer {token}"
        elif user.get("username") and user.get("password"):
            basic = base64.b64encode(f"{user['username']}:{user['password']}".encode()).decode()
            self.headers["Authorization"] = f"Basic {basic}"
        self.ssl = self._ssl(cluster, user, base)
        self.server_name = cluster.get("tls-server-name") or None
        self.session: aiohttp.ClientSession | None = None

    @staticmethod
    def supports(resolved: Resolved) -> bool:
        config = resolved.config
        context = _named(config.get("contexts"), resolved.context).get("context") or {}
        user = _named(config.get("users"), context.get("user", "")).get("user") or {}
        return not (user.get("exec") or user.get("auth-provider"))

    @staticmethod
    def _ssl(cluster: Mapping[str, Any], user: Mapping[str, Any], base: Path) -> ssl.SSLContext:
        ca = _material(cluster, "certificate-authority", base)
        ctx = ssl.create_default_context(cadata=ca.decode() if ca else None)
        if cluster.get("insecure-skip-tls-verify"):
            ctx.check_hostname = False
            ctx.verify_mode = ssl.CERT_NONE
        cert = _material(user, "client-certificate", base)
        key = _material(user, "client-key", base)
        if cert and key:
            # load_cert_chain wants files: a private temporary folder, removed at once.
            with tempfile.TemporaryDirectory(prefix="gsb-tui-") as tmp:
                cert_file, key_file = Path(tmp) / "c.pem", Path(tmp) / "k.pem"
                for path, blob in ((cert_file, cert), (key_file, key)):
                    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
                    with os.fdopen(fd, "wb") as fh:
                        fh.write(blob)
                try:
                    ctx.load_cert_chain(cert_file, key_file)
                except ssl.SSLError as exc:
                    raise KubeconfigError(f"the kubeconfig's client certificate: {exc}") from exc
        return ctx

    async def get(
        self, path: str, query: Mapping[str, Any], connect: float, read: float
    ) -> aiohttp.ClientResponse:
        if self.session is None:
            self.session = aiohttp.ClientSession(headers=self.headers)
        timeout = aiohttp.ClientTimeout(connect=connect, sock_connect=connect, sock_read=read)
        return await self.session.get(
            self.server + path,
            params={k: str(v) for k, v in query.items()},
            ssl=self.ssl,
            timeout=timeout,
            server_hostname=self.server_name,
        )

    async def close(self) -> None:
        if self.session is not None:
            await self.session.close()


class ClientTransport:
    """kubernetes_asyncio's ApiClient, for exec plugins and auth providers."""

    def __init__(self, api: Any) -> None:
        self.api = api

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
        return NativeTransport(resolved)
    return ClientTransport(await make_api_client(resolved))
