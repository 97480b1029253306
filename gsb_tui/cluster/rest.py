"""A minimal synchronous REST client for the practice cluster only (seeding and readiness).

Kept apart from kube/ on purpose: kube/ is the dashboard's read-only I/O, this writes, and
only to the control plane `gsb-tui cluster up` started itself.
"""

from __future__ import annotations

import contextlib
import json
import ssl
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any


class RestError(RuntimeError):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"HTTP {status}: {message}")
        self.status = status


class Rest:
    def __init__(self, server: str, token: str, ca_file: Path | None) -> None:
        self.server = server.rstrip("/")
        self.token = token
        self.ctx = ssl.create_default_context(cafile=str(ca_file)) if ca_file else None
        if self.ctx is None:
            self.ctx = ssl.create_default_context()
            self.ctx.check_hostname = False
            self.ctx.verify_mode = ssl.CERT_NONE

    def request(
        self, method: str, path: str, body: Any = None, timeout: float = 10.0
    ) -> dict[str, Any]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.server + path, data=data, method=method)
        req.add_header("Authorization", f"Bearer {self.token}")
        req.add_header("Accept", "application/json")
        if data is not None:
            ctype = "application/merge-patch+json" if method == "PATCH" else "application/json"
            req.add_header("Content-Type", ctype)
        try:
            with urllib.request.urlopen(req, timeout=timeout, context=self.ctx) as resp:
                raw = resp.read()
        except urllib.error.HTTPError as exc:
            text = exc.read().decode(errors="replace")
            with contextlib.suppress(ValueError):
                text = json.loads(text).get("message", text)
            raise RestError(exc.code, text) from exc
        if not raw:
            return {}
        out = json.loads(raw)
        return out if isinstance(out, dict) else {"value": out}

    def get(self, path: str) -> dict[str, Any]:
        return self.request("GET", path)

    def create(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        return self.request("POST", path, body)

    def delete(self, path: str) -> dict[str, Any]:
        return self.request("DELETE", path)

    def ensure(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """Create, or return the existing object of that name."""
        try:
            return self.create(path, body)
        except RestError as exc:
            if exc.status != 409:
                raise
            return self.get(f"{path}/{body['metadata']['name']}")

    def watch(
        self, path: str, resource_version: str, timeout_s: int = 60
    ) -> Iterator[dict[str, Any]]:
        """The events of one watch of a collection from `resource_version`, until the server
        ends it (after about `timeout_s`); 410 Gone means: list again."""
        sep = "&" if "?" in path else "?"
        query = f"watch=1&resourceVersion={resource_version}&timeoutSeconds={timeout_s}"
        req = urllib.request.Request(f"{self.server}{path}{sep}{query}")
        req.add_header("Authorization", f"Bearer {self.token}")
        req.add_header("Accept", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=timeout_s + 15, context=self.ctx) as resp:
                for line in resp:
                    if line.strip():
                        event = json.loads(line)
                        if isinstance(event, dict):
                            yield event
        except urllib.error.HTTPError as exc:
            raise RestError(exc.code, exc.read().decode(errors="replace")) from exc

    def healthy(self, endpoint: str = "/readyz") -> bool:
        try:
            req = urllib.request.Request(self.server + endpoint)
            req.add_header("Authorization", f"Bearer {self.token}")
            with urllib.request.urlopen(req, timeout=2, context=self.ctx) as resp:
                return bool(resp.status == 200)
        except (OSError, urllib.error.URLError):
            return False
