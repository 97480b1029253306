"""Exec credential plugins (a kubeconfig user's `exec:`), run bounded and always reaped.

The plugin is started in its own session (so its own process group) with stdin closed and
KUBERNETES_EXEC_INFO set, as kubectl does; it gets EXEC_TIMEOUT_S to print its ExecCredential.
On a timeout, on cancellation (gsb-tui quits, `check` gives up) and on an error the whole group
is killed, so nothing it started outlives gsb-tui; `reap_all()` kills any group still running
(the CLI and the dashboard call it on the way out). Its output is read up to a cap.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from gsb_tui.kube.config import KubeconfigError
from gsb_tui.words import t

EXEC_TIMEOUT_S = 20.0
OUTPUT_LIMIT = 1024 * 1024  # an ExecCredential is a few KiB
STDERR_KEPT = 4096  # what is kept of the plugin's stderr for the message
EXPIRY_MARGIN_S = 10.0  # refresh a little before the credential expires
DEFAULT_API = "client.authentication.k8s.io/v1"

_RUNNING: set[int] = set()  # process groups of plugins running now


class ExecPluginError(KubeconfigError):
    """The plugin could not give a credential; the message says why, once."""


@dataclass(frozen=True)
class ExecCredential:
    token: str = ""
    cert: bytes = b""
    key: bytes = b""
    expires: float | None = None  # time.time() at which it expires

    def expired(self, now: float | None = None) -> bool:
        if self.expires is None:
            return False
        return (time.time() if now is None else now) >= self.expires - EXPIRY_MARGIN_S


def running() -> frozenset[int]:
    """Process groups of the plugins running now (for tests)."""
    return frozenset(_RUNNING)


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
    _RUNNING.discard(pgid)


def reap_all() -> None:
    """Kill every plugin group still running (gsb-tui is quitting)."""
    for pgid in list(_RUNNING):
        _kill_group(pgid)


def _close(proc: asyncio.subprocess.Process) -> None:
    """Close its transport while the loop runs (left to the garbage collector, it would
    complain about a closed loop at exit)."""
    transport = getattr(proc, "_transport", None)
    if transport is not None:
        with contextlib.suppress(Exception):
            transport.close()


def _one_line(data: bytes) -> str:
    text = data.decode("utf-8", "replace")
    return " ".join(text.split())[:300]


async def _read(stream: asyncio.StreamReader | None, limit: int, keep_all: bool) -> bytes:
    """Up to `limit` bytes, then either stop (keep_all: over the cap) or drain the rest."""
    if stream is None:
        return b""
    kept = bytearray()
    while chunk := await stream.read(65536):
        if len(kept) < limit + 1:
            kept += chunk[: limit + 1 - len(kept)]
        if keep_all and len(kept) > limit:
            break
    return bytes(kept)


async def _communicate(proc: asyncio.subprocess.Process, command: str) -> tuple[bytes, bytes, int]:
    """Its stdout (capped), the start of its stderr, and its exit code."""
    reads = (
        asyncio.create_task(_read(proc.stdout, OUTPUT_LIMIT, keep_all=True)),
        asyncio.create_task(_read(proc.stderr, STDERR_KEPT, keep_all=False)),
    )
    try:
        out = await reads[0]
        if len(out) > OUTPUT_LIMIT:
            raise ExecPluginError(
                t("kube.exec.too-much", command=command, limit=OUTPUT_LIMIT // 1024)
            )
        err = await reads[1]
        return out, err, await proc.wait()
    finally:
        for read in reads:
            read.cancel()
        await asyncio.gather(*reads, return_exceptions=True)  # retrieved: nothing logged


async def run_plugin(spec: Mapping[str, Any], timeout: float = EXEC_TIMEOUT_S) -> ExecCredential:
    """Run the plugin `spec` (a checked users[].user.exec) and return its credential."""
    command = str(spec.get("command") or "")
    if not command:
        raise ExecPluginError(t("kube.exec.no-command"))
    api = str(spec.get("apiVersion") or DEFAULT_API)
    env = dict(os.environ)
    env.update({str(e["name"]): str(e["value"]) for e in spec.get("env") or []})
    env["KUBERNETES_EXEC_INFO"] = json.dumps(
        {"apiVersion": api, "kind": "ExecCredential", "spec": {"interactive": False}}
    )
    try:
        proc = await asyncio.create_subprocess_exec(
            command,
            *[str(a) for a in spec.get("args") or []],
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
            start_new_session=True,  # its own process group, killed as a whole
        )
    except FileNotFoundError:
        hint = " ".join(str(spec.get("installHint") or "").split())
        if hint:
            raise ExecPluginError(
                t("kube.exec.not-found-hint", command=command, hint=hint)
            ) from None
        raise ExecPluginError(t("kube.exec.not-found", command=command)) from None
    except (OSError, ValueError) as exc:
        error = getattr(exc, "strerror", None) or type(exc).__name__
        raise ExecPluginError(t("kube.exec.cannot-run", command=command, error=error)) from None
    _RUNNING.add(proc.pid)
    try:
        out, err, code = await asyncio.wait_for(_communicate(proc, command), timeout)
    except TimeoutError:
        _kill_group(proc.pid)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(proc.wait(), 2.0)
        raise ExecPluginError(
            t("kube.exec.timeout", command=command, seconds=f"{timeout:g}")
        ) from None
    except BaseException:  # cancelled (gsb-tui quits) or an error above: no orphan left
        _kill_group(proc.pid)
        raise
    finally:
        _close(proc)
    _kill_group(proc.pid)  # whatever it left behind in its group goes with it
    if code != 0:
        detail = _one_line(err)
        if code < 0:
            raise ExecPluginError(t("kube.exec.killed", command=command, signal=-code))
        if detail:
            raise ExecPluginError(
                t("kube.exec.failed-said", command=command, code=code, stderr=detail)
            )
        raise ExecPluginError(t("kube.exec.failed", command=command, code=code))
    return _credential(out, command, api)


def _credential(out: bytes, command: str, api: str) -> ExecCredential:
    try:
        data = json.loads(out)
    except (ValueError, RecursionError):
        raise ExecPluginError(t("kube.exec.not-json", command=command)) from None
    status = data.get("status") if isinstance(data, dict) else None
    if not isinstance(status, dict) or data.get("kind") != "ExecCredential":
        raise ExecPluginError(t("kube.exec.not-credential", command=command))
    if data.get("apiVersion") != api:
        raise ExecPluginError(
            t("kube.exec.wrong-api", command=command, got=str(data.get("apiVersion")), want=api)
        )
    token = status.get("token")
    cert = status.get("clientCertificateData")
    key = status.get("clientKeyData")
    expires = _expiry(status.get("expirationTimestamp"), command)
    if isinstance(token, str) and token:
        return ExecCredential(token=token, expires=expires)
    if isinstance(cert, str) and isinstance(key, str) and cert and key:
        return ExecCredential(cert=cert.encode(), key=key.encode(), expires=expires)
    raise ExecPluginError(t("kube.exec.no-credential", command=command))


def _expiry(value: Any, command: str) -> float | None:
    if value in (None, ""):
        return None
    try:
        return datetime.fromisoformat(str(value)).timestamp()
    except (ValueError, OverflowError, OSError):
        raise ExecPluginError(
            t("kube.exec.bad-expiry", command=command, value=str(value)[:64])
        ) from None
