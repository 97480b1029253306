"""The API server's version (`GET /version`): which Kubernetes the answers are decided for."""

from __future__ import annotations

import asyncio
import json

from gsb_tui.kube.transport import Transport

MAX_VERSION_BYTES = 1 << 16


async def read_version(api: Transport, timeout: float = 3.0) -> str:
    """The server's gitVersion, or "" when it cannot be read in time or is not one."""
    try:
        got = await asyncio.wait_for(
            api.fetch("/version", {}, timeout, timeout, MAX_VERSION_BYTES), timeout
        )
        if got.status != 200 or got.body is None:
            return ""
        found = json.loads(got.body).get("gitVersion")
    except Exception:  # any trouble reading it (a gzip lie, a broken chunk …): not known
        return ""
    return found[:64] if isinstance(found, str) else ""
