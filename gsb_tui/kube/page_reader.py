"""The first list pages read by a child process, so that the UI's start cannot starve them.

A thread of ours reading a page needs the interpreter lock back after every TLS record
(~16 KiB) while the main thread imports Textual, decodes and parses: 18.9 MB of pods took 1.3 s
to come in during gsb-tui's start against 0.3 s alone, and not within 30 s while the main
thread decoded (bench/early_pages.py; docs/PERFORMANCE.md, "Sixth round"). A child process has
a lock of its own; ours then takes each body from a pipe in reads of up to 1 MiB.

Run as `python -I -S -c BOOT ROOT ORJSON_DIR` (pages.ChildPages): the standard library and
orjson, which drops each item's managedFields here, on the other core. It reads one
JSON request from stdin (where to, TLS material, headers, targets, timeouts, the size limit),
reads every target at once, and writes each answer to stdout as a JSON line, followed by the
body's bytes when there is one:
    {"i": 3, "status": 200, "reason": "OK", "type": "application/json", "size": 18875951}
    {"i": 4, "error": "timeout"}       the read timed out (said as a TimeoutError)
    {"i": 6, "error": "slow", "got": 412, "seconds": 60}   not whole by its deadline
    {"i": 7, "got": 412}               a read under way: the bytes come so far (each TICK_S)
    {"i": 5, "error": "other"}         anything else: the parent reads that page itself
It exits when every target is answered, or when stdout is gone.
"""

from __future__ import annotations

import base64
import gc
import http.client
import json
import sys
import threading
from typing import Any, BinaryIO

try:  # the parent passes where it found orjson; without it, bodies go as they came
    import orjson
except ImportError:  # pragma: no cover - orjson is a dependency
    orjson = None  # type: ignore[assignment]

from gsb_tui.kube.http_get import (
    Address,
    Cancel,
    Progress,
    SlowAnswer,
    client_context,
    load_client_cert,
    read_page,
)

BOOT = "import sys; sys.path[:0] = sys.argv[1:]; from gsb_tui.kube.page_reader import main; main()"
REQUEST_LIMIT = 1 << 20  # the request: a few targets, a token and PEM material
TICK_S = 1.0  # how often a read under way says how far it got


def _bytes(value: Any) -> bytes | None:
    return base64.b64decode(value) if value else None


def without_managed_fields(body: bytes) -> bytes:
    """The list with every item's metadata.managedFields dropped, as the parent would drop
    them (kube/reflector._clean): the parent then decodes and cleans a much smaller body.
    Anything but a JSON list, or JSON
    orjson refuses, goes as it came."""
    if orjson is None:
        return body
    try:
        doc = orjson.loads(body)
    except orjson.JSONDecodeError:
        return body
    items = doc.get("items") if isinstance(doc, dict) else None
    if not isinstance(items, list):
        return body
    for item in items:
        meta = item.get("metadata") if isinstance(item, dict) else None
        if isinstance(meta, dict):
            meta.pop("managedFields", None)
    return orjson.dumps(doc)


def answer(request: dict[str, Any], out: BinaryIO) -> None:
    """Read every target of `request`, writing each answer to `out` as it comes."""
    ctx = client_context(_bytes(request.get("ca")), bool(request.get("insecure")))
    cert, key = _bytes(request.get("cert")), _bytes(request.get("key"))
    if cert and key:
        load_client_cert(ctx, cert, key)
    address = Address(str(request["server"]), ctx, request.get("server_name") or None)
    lock = threading.Lock()
    deadline = request.get("deadline")
    reading = {
        i: Progress(deadline=float(deadline) if deadline else None)
        for i, _ in enumerate(request["targets"])
    }
    done = threading.Event()

    def tick() -> None:
        said: dict[int, int] = {}
        while not done.wait(TICK_S):
            with lock:
                for i, progress in list(reading.items()):
                    if progress.got != said.get(i, 0):
                        said[i] = progress.got
                        out.write(json.dumps({"i": i, "got": progress.got}).encode() + b"\n")
                out.flush()

    def one(i: int, target: str) -> None:
        body = b""
        progress = reading[i]
        try:
            got = read_page(
                address,
                target,
                dict(request["headers"]),
                float(request["connect"]),
                float(request["read"]),
                int(request["limit"]),
                Cancel(),
                progress,
            )
        except SlowAnswer as exc:
            head: dict[str, Any] = {"i": i, "error": "slow", "got": exc.got, "seconds": exc.seconds}
        except TimeoutError:
            head = {"i": i, "error": "timeout"}
        except (OSError, http.client.HTTPException, ValueError):
            head = {"i": i, "error": "other"}
        else:
            body = got.body or b""
            if got.status == 200 and got.content_type == "application/json":
                body = without_managed_fields(body)
            size = -1 if got.body is None else len(body)
            head = {
                "i": i,
                "status": got.status,
                "reason": got.reason,
                "type": got.content_type,
                "size": size,
                "retry": got.retry_after,
            }
        with lock:
            reading.pop(i, None)
            out.write(json.dumps(head).encode() + b"\n")
            out.write(body)
            out.flush()

    threads = [
        threading.Thread(target=one, args=(i, target), daemon=True)
        for i, target in enumerate(request["targets"])
    ]
    ticker = threading.Thread(target=tick, daemon=True)
    for thread in [*threads, ticker]:
        thread.start()
    for thread in threads:
        thread.join()
    done.set()
    ticker.join()


def main() -> None:
    gc.disable()  # a short life: reference counting frees the decoded lists
    try:
        request = json.loads(sys.stdin.buffer.read(REQUEST_LIMIT))
        answer(request, sys.stdout.buffer)
    except (OSError, ValueError, KeyError, TypeError):
        pass  # the parent reads the pages nobody answered itself
