"""The writes and kubectl's arrival times, taken in processes of their own.

The latency bench used to write each claim from a thread of the process that runs the
dashboard, and to timestamp kubectl's lines in another thread of it: both then waited for the
dashboard's interpreter lock, so the dashboard's own work showed up in kubectl's figures and
the writer's TLS set-up in gsb-tui's. A learner writes with kubectl in another terminal, so
here the writer is a process of its own, and so is the reader of kubectl's output; both stamp
with CLOCK_MONOTONIC, which is one clock for every process on the machine.

    python bench/outside.py write SERVER PKI_DIR    (stdin: "ADDED|DELETED name")
    python bench/outside.py stamp -- kubectl ...               (stdout: "<monotonic> <line>")
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from harness import CLAIMS_PATH, KubectlWatch, claim_body, delete_quietly

from gsb_tui.cluster.control_plane import ControlPlane
from gsb_tui.cluster.pki import read_token
from gsb_tui.cluster.rest import Rest, RestError


def _write(server: str, pki: str) -> None:
    rest = Rest(server, read_token(Path(pki)), Path(pki) / "apiserver.crt")
    for line in sys.stdin:
        event, _, name = line.strip().partition(" ")
        written = time.monotonic()
        with contextlib.suppress(OSError, RestError):
            if event == "ADDED":
                rest.create(CLAIMS_PATH, claim_body(name))
            else:
                delete_quietly(rest, f"{CLAIMS_PATH}/{name}")
        print(f"{written:.6f} {name}", flush=True)


def _stamp(cmd: list[str]) -> None:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # so kubectl is stopped too
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
    assert proc.stdout is not None
    try:
        for raw in iter(proc.stdout.readline, b""):
            now = time.monotonic()
            sys.stdout.write(f"{now:.6f} {raw.decode(errors='replace')}")
            sys.stdout.flush()
    finally:
        proc.terminate()


class Writer:
    """The writer process, driven from the dashboard's event loop."""

    def __init__(self, server: str, pki: Path) -> None:
        self.args = [sys.executable, __file__, "write", server, str(pki)]
        self.proc: Any = None

    async def __aenter__(self) -> Writer:
        self.proc = await asyncio.create_subprocess_exec(
            *self.args, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE
        )
        return self

    async def write(self, event: str, name: str) -> float:
        """Create or delete the claim; the monotonic time just before the request went out."""
        assert self.proc is not None and self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(f"{event} {name}\n".encode())
        await self.proc.stdin.drain()
        line = await asyncio.wait_for(self.proc.stdout.readline(), 30)
        return float(line.split()[0])

    async def __aexit__(self, *exc: object) -> None:
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
            await self.proc.wait()


class StampedWatch(KubectlWatch):
    """KubectlWatch with its lines stamped by the stamp process: the reader thread here only
    copies the stamps it is given."""

    def __init__(self, cp: ControlPlane) -> None:
        super().__init__(cp)
        self.cmd = [sys.executable, __file__, "stamp", "--", *self.cmd]

    def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for raw in iter(self.proc.stdout.readline, b""):
            parts = raw.decode(errors="replace").split()
            if len(parts) >= 3:
                with self.lock:
                    self.seen.setdefault((parts[1], parts[2]), float(parts[0]))


if __name__ == "__main__":
    if sys.argv[1] == "write":
        _write(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "stamp":
        _stamp(sys.argv[3:])
