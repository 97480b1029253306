"""A plain-HTTP API server stand-in on loopback and a token kubeconfig for it (test helpers)."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from gsb_tui.kube.config import Target, resolve
from gsb_tui.kube.transport import NativeTransport


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """http://127.0.0.1:<port> answered by `handler` in threads, until the block ends."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()


def token_transport(tmp_path: Path, server: str) -> NativeTransport:
    """The transport a kubeconfig with a bearer token for `server` makes."""
    config = {
        "apiVersion": "v1",
        "clusters": [{"name": "c", "cluster": {"server": server}}],
        "contexts": [{"name": "x", "context": {"cluster": "c", "user": "u"}}],
        "users": [{"name": "u", "user": {"token": "t"}}],
        "current-context": "x",
    }
    path = tmp_path / "config"
    path.write_text(json.dumps(config))
    return NativeTransport(resolve(Target(kubeconfig=path)))
