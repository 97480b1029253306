"""Issue 26, never trust the wire: the dashboard's source (LiveSource, every kind, its first
pages begun early as the dashboard does) against a loopback API server that misbehaves one way
(tests/unit/local_server.py MODES), 30 s a mode, each in a fresh process: the requests the
server was asked, the source's peak RSS and CPU, and what the header said at the end; beside
what client-go's reflector would do by its documented figures.

The server runs in a process of its own, so that "sigstop" can stop it (SIGSTOP once every kind
is synced, SIGCONT at the end), as a stopped API server keeps its sockets open.

Run: .venv/bin/python bench/wire_modes.py [--seconds 30] [--write]   (--write: the table into
docs/RELIABILITY.md between its wire markers)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from tests.unit.local_server import token_kubeconfig  # noqa: E402  (after the path)

DOC = REPO / "docs" / "RELIABILITY.md"
BEGIN, END = "<!-- wire:begin -->", "<!-- wire:end -->"

# mode -> (issue 26's figure before, what client-go's reflector would do)
CLIENT_GO_CYCLES = "5-6 list+watch a kind (backoff 0.8 s doubling, jitter x1-2, cap 30 s)"
ROWS: dict[str, tuple[str, str]] = {
    "sane": ("8 watch requests in 30 s", "1 list + 1 watch a kind (watch 5-10 min)"),
    "clean-watch-end": (
        "4,783 watch requests, CPU 17.8 %, header synced",
        "VeryShortWatchError: re-list under the backoff, " + CLIENT_GO_CYCLES,
    ),
    "410-every-watch": ("3,502 full LISTs", "re-list under the backoff, " + CLIENT_GO_CYCLES),
    "watch-fails-after-list": (
        "450-740 LISTs (attempts reset at each list)",
        "backoff not reset by a list, " + CLIENT_GO_CYCLES,
    ),
    "retry-after-120": ("retried in 0.1-4 s", "rest client waits the 120 s: 1 request a kind"),
    "retry-after-120-503": ("retried in 0.1-4 s", "rest client waits the 120 s: 1 request a kind"),
    "endless-continue": (
        "RSS 37 -> 1,081 MB in 90 s, 48,532 requests, connecting, no reason",
        "the pager follows continue without a cap: memory unbounded",
    ),
    "slow-loris": (
        "every kind connecting after 90 s, no message",
        "no deadline by default: 1 request a kind, waits",
    ),
    "silent-watch": (
        "synced for ~5 minutes",
        "until the server ends the watch (5-10 min); HTTP/2: 30 s idle + 15 s ping",
    ),
    "sigstop": (
        "synced for the whole 30 s",
        "HTTP/2 (TLS) health check: dead after 30 s idle + 15 s ping, then re-list",
    ),
    "gzip-lie": ('"the API server closed the connection"', "decode error, " + CLIENT_GO_CYCLES),
    "bad-chunk": ('"HTTP 400: Invalid character in chunk size"', "error, " + CLIENT_GO_CYCLES),
    "wrong-type-metadata": ('"unexpected error…: AttributeError"', "decode error, backoff"),
    "403-everything": (
        '"forbidden (RBAC): forbidden (RBAC): …"; check exit 1',
        "forbidden, " + CLIENT_GO_CYCLES,
    ),
}


async def _watch(source: Any, seconds: float, server: subprocess.Popen[str], stop: bool) -> Any:
    from gsb_tui.kube.store import Store
    from gsb_tui.snapshot import REQUIRED_KINDS
    from gsb_tui.ui.panes.header import phase_text

    store = Store(source.kinds)
    task = asyncio.ensure_future(source.run(store.apply))
    started = time.monotonic()
    stopped_at: float | None = None
    first_change: float | None = None
    words: list[str] = []
    while time.monotonic() - started < seconds:
        await asyncio.sleep(0.25)
        snap = store.snapshot()
        words = [phase_text(snap.state(k)) for k in REQUIRED_KINDS]
        if stop and stopped_at is None and all(w == "synced" for w in words):
            os.kill(server.pid, signal.SIGSTOP)
            stopped_at = time.monotonic()
        if stopped_at is not None and first_change is None and words[0] != "synced":
            first_change = time.monotonic() - stopped_at
    snap = store.snapshot()
    reasons = [str(snap.state(k).message) for k in REQUIRED_KINDS if snap.state(k).message]
    task.cancel()
    with contextlib.suppress(BaseException):
        await task
    return words, reasons, first_change


def one(mode: str, seconds: float) -> dict[str, Any]:
    """In this process: one mode, `seconds` long."""
    from gsb_tui.kube.config import Target
    from gsb_tui.kube.live import LiveSource

    server_mode = "sane" if mode == "sigstop" else mode
    server = subprocess.Popen(
        [sys.executable, "-m", "tests.unit.local_server", server_mode, "60"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None
    url = server.stdout.readline().strip()
    cpu0, wall0 = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
    try:
        with tempfile.TemporaryDirectory() as folder:
            source = LiveSource(
                Target(kubeconfig=token_kubeconfig(Path(folder), url), namespace="lab")
            )
            source.begin_lists()
            words, reasons, first_change = asyncio.run(
                _watch(source, seconds, server, mode == "sigstop")
            )
    finally:
        os.kill(server.pid, signal.SIGCONT)
        server.terminate()
        out, _ = server.communicate(timeout=30)
    cpu1, wall = resource.getrusage(resource.RUSAGE_SELF), time.monotonic() - wall0
    used = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)
    counts = json.loads(out.strip().splitlines()[-1])
    return {
        "mode": mode,
        "seconds": seconds,
        "asked": counts["asked"],
        "rss_mib": cpu1.ru_maxrss / 1024,
        "cpu": 100 * used / wall,
        "header": dict(Counter(words)),
        "reason": reasons[0] if reasons else "",
        "noticed_after": first_change,
    }


def _row(got: dict[str, Any]) -> str:
    before, client_go = ROWS[got["mode"]]
    asked = Counter(got["asked"])
    requests = f"{sum(asked.values()):,} ({asked['list']:,} list, {asked['watch']:,} watch"
    requests += f", {asked['version']:,} /version)"
    header = "; ".join(f"{w} ×{n}" for w, n in got["header"].items())
    if got["noticed_after"] is not None:
        header += f" (said {got['noticed_after']:.0f} s after the stop)"
    reason = got["reason"].replace("|", "/")
    reason = f"<br>“{reason[:150]}”" if reason else ""
    mode = got["mode"] + (f" ({got['seconds']:.0f} s)" if got["seconds"] != 30 else "")
    return (
        f"| {mode} | {before} | {requests} | {got['rss_mib']:.0f} MiB | {got['cpu']:.1f} % "
        f"| {header}{reason} | {client_go} |"
    )


def figures() -> list[str]:
    """What the reflector does now, from its own constants."""
    from gsb_tui.kube import backoff, live, reflector, watch_loop

    return [
        "What the source does now (kube/backoff.py, kube/reflector.py, kube/watch_loop.py, "
        "kube/live.py), beside client-go's reflector:",
        "",
        f"- **Backoff** over consecutive failures of the list *or* the watch: "
        f"{backoff.BACKOFF_INIT_S} s doubling, jitter ×1–{1 + backoff.BACKOFF_JITTER}, cap "
        f"{backoff.BACKOFF_MAX_S:.0f} s (client-go: 0.8 s doubling, ×1–2, cap 30 s). A good "
        f"list does not reset it; a watch heard from {backoff.HEALTHY_S:.0f} s after it opened "
        "does (client-go: 2 min without a backoff). The cap is lower than client-go's so that "
        "a restarted API server is seen within seconds on a learner's cluster.",
        f"- **Watch restarts** no sooner than {watch_loop.WATCH_MIN_INTERVAL_S:.0f} s after the "
        f"last watch opened; one that ends within {watch_loop.SHORT_WATCH_S:.0f} s having said "
        "nothing is a failure (client-go's VeryShortWatchError) and is watched again from the "
        "same resourceVersion under the backoff. **410 Gone** re-lists under the same backoff.",
        f"- **Retry-After** honoured for 429 and 5xx, at most {backoff.RETRY_AFTER_MAX_S:.0f} s "
        "(client-go's rest client waits what it is told).",
        f"- **A page** has a deadline of {reflector.PAGE_DEADLINE_S:.0f} s whole, its slowness "
        f"said every {reflector.SLOW_REPORT_S:.0f} s (bytes come so far, from the page-reading "
        f"child too); **a list** at most {reflector.MAX_LIST_PAGES} pages and "
        f"{reflector.MAX_LIST_BYTES >> 20} MiB, else a worded error, retried after 10, 20, 40, "
        "then 60 s (client-go's pager follows `continue` without a cap).",
        f"- **A watch** with no event or bookmark for {watch_loop.STALL_S:.0f} s (the API server "
        "sends a bookmark about every minute) is stalled: the kind is shown `stale N s` and "
        "watched again. **A server not answering**: nothing heard from it for "
        f"{live.PROBE_QUIET_S:.0f} s, `/version` is asked; no answer within "
        f"{live.PROBE_TIMEOUT_S:.0f} s and every synced kind is shown `not answering (last "
        "heard HH:MM:SS)` (client-go relies on HTTP/2's health check, TLS only).",
        "- **Words** from the path that failed (http.client for lists, aiohttp for watches; "
        "no second read to word an error): a gzip lie, a broken chunk, an answer cut short, a "
        "wrong shape (where and which type), TLS, a refused connection; a 403 kept in the "
        "server's words, said once as `forbidden (RBAC, HTTP 403)`. Nothing readable is exit 2 "
        "for check, match, why, devices and record.",
        "- Held by tests/unit/test_wire_*.py: the same modes on a clock compressed 100 times, "
        "with counts as bounds (no timing asserted).",
        "",
    ]


def table(results: list[dict[str, Any]], took: float) -> str:
    lines = [
        "## The wire: misbehaving API servers (issue 26)",
        "",
        *figures(),
        f"Regenerated by `.venv/bin/python bench/wire_modes.py --write` on "
        f"{time.strftime('%Y-%m-%d')} ({took:.0f} s). Each mode runs 30 s (silent-watch also "
        "120 s, past the 90 s stall limit) against the dashboard's source (`LiveSource`, the 7 "
        "required kinds and 2 optional ones, first pages begun early), in a fresh process, "
        "with the loopback server of tests/unit/local_server.py in a process of its own; "
        '"sigstop" stops that server with SIGSTOP once every kind is synced. Requests are '
        "what the server was asked in the run; RSS is the source process's peak; the header "
        "is the words of the 7 required kinds at the end (×: how many kinds), then the first "
        "kind's reason. Before: the figures measured for issue 26. client-go: what its "
        "reflector (tools/cache/reflector.go, v0.36.5) would do by its documented figures, "
        "per kind.",
        "",
        "| mode | before | requests (after) | peak RSS | CPU | header at the end, reason | "
        "client-go |",
        "|---|---|---|---|---|---|---|",
    ]
    lines += [_row(r) for r in results]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--one", nargs=2, metavar=("MODE", "SECONDS"))
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--modes", default=",".join(ROWS))
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one[0], float(args.one[1]))))
        return
    started = time.monotonic()
    results = []
    runs = [(m, args.seconds) for m in args.modes.split(",")]
    if "silent-watch" in args.modes:
        runs.append(("silent-watch", 120.0))
    for mode, seconds in runs:
        proc = subprocess.run(
            [sys.executable, __file__, "--one", mode, str(seconds)],
            capture_output=True,
            text=True,
            timeout=seconds + 120,
            cwd=REPO,
        )
        if proc.returncode != 0:
            print(f"{mode}: failed\n{proc.stderr[-2000:]}", file=sys.stderr)
            continue
        results.append(json.loads(proc.stdout.strip().splitlines()[-1]))
        print(_row(results[-1]), flush=True)
    out = table(results, time.monotonic() - started)
    print("\n" + out)
    if args.write:
        doc = DOC.read_text()
        if BEGIN in doc:
            head, rest = doc.split(BEGIN, 1)
            tail = rest.split(END, 1)[1]
            doc = f"{head}{BEGIN}\n{out}\n{END}{tail}"
        else:
            doc = doc.rstrip("\n") + f"\n\n{BEGIN}\n{out}\n{END}\n"
        DOC.write_text(doc)


if __name__ == "__main__":
    main()
