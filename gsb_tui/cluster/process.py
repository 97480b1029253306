"""The practice cluster's child processes, as the operating system sees them (Linux only).

Ports, pid files, starting a child with its log, stopping one and making sure it is gone.
Nothing here knows which components a cluster has; control_plane.py holds that recipe.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# ---- ports ---------------------------------------------------------------------------------


def ephemeral_range() -> tuple[int, int]:
    """The kernel's range for outgoing source ports (its documented default if unreadable)."""
    try:
        low, high = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()
        return int(low), int(high)
    except (OSError, ValueError):
        return 32768, 60999


def free_port() -> int:
    """A free loopback port below the ephemeral range.

    A port from the ephemeral range can be taken while its server restarts: a client that keeps
    dialling it may get that very number as its own source port (a TCP self-connect), and the
    restarted server then fails with "address already in use". Seen in the restart tests.
    """
    low, _ = ephemeral_range()
    ceiling = max(low - 1, 11000)
    for _ in range(200):
        port = random.randint(10000, ceiling)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as sock:  # everything below the range busy: let the kernel choose
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_port_free(port: int, timeout: float = 10.0) -> None:
    """Wait (at most `timeout`, then give up quietly) until a loopback port can be bound.

    SO_REUSEADDR as servers use it, so a connection in TIME_WAIT does not count as busy.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                sock.bind(("127.0.0.1", port))
                return
            except OSError:
                time.sleep(0.05)


# ---- what /proc says about a pid -------------------------------------------------------------


def _stat_fields(pid: int) -> list[str] | None:
    """/proc/<pid>/stat from field 3 on, or None once the pid is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command name in field 2 may contain spaces and ')', so split after the last ')'.
    return stat.rsplit(")", 1)[1].split()


def start_ticks(pid: int) -> int | None:
    """When the process started (clock ticks since boot); None if there is no such process.

    Together with the pid it names one process: a pid alone may be reused after it exits.
    """
    fields = _stat_fields(pid)
    return None if fields is None else int(fields[19])  # field 22, starttime


def is_zombie(pid: int) -> bool:
    """Exited but not yet reaped by its parent."""
    fields = _stat_fields(pid)
    return fields is not None and fields[0] == "Z"


def reap(pid: int) -> None:
    """Collect the exit status if the process is our exited child; a no-op otherwise."""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


# ---- pid files -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PidFile:
    """A JSON file naming one started process by pid and start time, with how it was started.

    The start time is what lets `alive` tell our process from a later one given the same pid.
    """

    path: Path

    def exists(self) -> bool:
        return self.path.exists()

    def read(self) -> dict[str, Any] | None:
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def write(self, pid: int, start: int | None, args: list[str]) -> None:
        self.path.write_text(json.dumps({"pid": pid, "start": start, "exe": args[0], "args": args}))

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)

    def alive(self) -> int | None:
        """The pid if it is still the process recorded here, running (not a zombie)."""
        data = self.read()
        if not data:
            return None
        pid = int(data.get("pid", 0))
        if pid <= 0 or start_ticks(pid) != data.get("start"):
            return None
        if is_zombie(pid):  # exited; our child until reaped
            reap(pid)
            return None
        return pid


# ---- start -----------------------------------------------------------------------------------


def spawn(
    args: list[str], log_path: Path, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """Start a child whose stdout and stderr append to `log_path`.

    It gets a session (and process group) of its own, so it survives the `up` command and a
    Ctrl-C in that terminal; `down` stops it later by its pid file.
    """
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("ab") as log:  # the child keeps its own copy of the descriptor
        return subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            cwd=cwd,
            env=env,
        )


def wait_start_ticks(pid: int, tries: int = 50) -> int | None:
    """The start time of a just-started child, allowing /proc a moment to show it."""
    for _ in range(tries):
        start = start_ticks(pid)
        if start is not None:
            return start
        time.sleep(0.01)
    return None


def log_tail(log_path: Path, lines: int = 12) -> str:
    """The last lines of a child's log, for an error message ("" if unreadable)."""
    try:
        text = log_path.read_text(errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


# ---- stop ------------------------------------------------------------------------------------


def terminate(pid: int, grace: float = 10.0) -> None:
    """SIGTERM, up to `grace` seconds to exit, then SIGKILL; reap it if it is our child.

    Exiting as far as a zombie is enough here: the cluster is going down, no port is reused.
    """
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and start_ticks(pid) is not None:
        if is_zombie(pid):
            break
        time.sleep(0.05)
    if start_ticks(pid) is not None and not is_zombie(pid):
        os.kill(pid, signal.SIGKILL)
    reap(pid)


def signal_until_gone(pid: int, sig: int, timeout: float = 10.0) -> None:
    """Send `sig` and wait until the pid has left /proc entirely, not just turned zombie.

    A Go program's other threads can still hold its listening socket after the leader thread
    turned zombie, and a restart would then find the port in use. Our own children are reaped
    here; others are reaped by their parent. Returns after `timeout` whatever the state.
    """
    os.kill(pid, sig)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and start_ticks(pid) is not None:
        reap(pid)
        time.sleep(0.02)
