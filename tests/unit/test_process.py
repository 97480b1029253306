"""The cluster's process handling on real child processes (Linux /proc)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from gsb_tui.cluster import process
from gsb_tui.cluster.process import PidFile

SLEEP = [sys.executable, "-c", "import time; time.sleep(60)"]


def test_free_port_is_bindable_and_below_the_ephemeral_range() -> None:
    low, _ = process.ephemeral_range()
    for _ in range(20):
        port = process.free_port()
        assert 10000 <= port < max(low, 11001)
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", port))


def test_wait_port_free_returns_once_the_listener_closes() -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    started = time.monotonic()
    process.wait_port_free(port, timeout=0.3)  # busy: gives up quietly
    assert time.monotonic() - started >= 0.3
    listener.close()
    started = time.monotonic()
    process.wait_port_free(port, timeout=5)
    assert time.monotonic() - started < 1


def test_start_ticks_names_one_process() -> None:
    assert process.start_ticks(os.getpid()) == process.start_ticks(os.getpid())
    dead = subprocess.Popen(["true"])
    dead.wait()
    assert process.start_ticks(dead.pid) is None


def test_spawn_logs_and_gets_a_session_of_its_own(tmp_path: Path) -> None:
    log = tmp_path / "logs" / "echo.log"
    proc = process.spawn(
        [sys.executable, "-c", "import os; print(os.getsid(0) == os.getpid())"], log, tmp_path
    )
    assert proc.wait(timeout=30) == 0
    assert log.read_text().strip() == "True"
    assert process.log_tail(log) == "True"
    assert process.log_tail(tmp_path / "missing.log") == ""


def test_pid_file_alive_until_the_process_exits(tmp_path: Path) -> None:
    proc = process.spawn(SLEEP, tmp_path / "sleep.log", tmp_path)
    pid_file = PidFile(tmp_path / "sleep.pid")
    assert not pid_file.exists() and pid_file.alive() is None
    pid_file.write(proc.pid, process.wait_start_ticks(proc.pid), SLEEP)
    try:
        assert pid_file.alive() == proc.pid
        assert pid_file.read() == {
            "pid": proc.pid,
            "start": process.start_ticks(proc.pid),
            "exe": SLEEP[0],
            "args": SLEEP,
        }
        # The same pid with another start time is someone else's process.
        PidFile(tmp_path / "other.pid").write(proc.pid, 1, SLEEP)
        assert PidFile(tmp_path / "other.pid").alive() is None
        os.kill(proc.pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while not process.is_zombie(proc.pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert process.is_zombie(proc.pid)
        assert pid_file.alive() is None  # and reaped on the way
        assert process.start_ticks(proc.pid) is None
    finally:
        proc.kill()
        proc.wait()
    pid_file.remove()
    pid_file.remove()  # twice is fine
    assert not pid_file.exists() and pid_file.read() is None


def test_terminate_stops_and_reaps_a_child(tmp_path: Path) -> None:
    proc = process.spawn(SLEEP, tmp_path / "sleep.log", tmp_path)
    process.wait_start_ticks(proc.pid)
    process.terminate(proc.pid)
    assert process.start_ticks(proc.pid) is None


def test_terminate_falls_back_to_sigkill(tmp_path: Path) -> None:
    code = (
        "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
        "print(1, flush=True); time.sleep(60)"
    )
    log = tmp_path / "stubborn.log"
    proc = process.spawn([sys.executable, "-c", code], log, tmp_path)
    deadline = time.monotonic() + 30
    while not log.read_text() and time.monotonic() < deadline:  # SIGTERM handler in place
        time.sleep(0.01)
    started = time.monotonic()
    process.terminate(proc.pid, grace=0.3)
    assert time.monotonic() - started >= 0.3  # SIGTERM was given its grace period
    # SIGKILL sent; terminate does not wait for it, so the child may still be on its way out.
    proc.wait(timeout=10)
    assert process.start_ticks(proc.pid) is None


def test_signal_until_gone_leaves_no_zombie(tmp_path: Path) -> None:
    proc = process.spawn(SLEEP, tmp_path / "sleep.log", tmp_path)
    process.wait_start_ticks(proc.pid)
    process.signal_until_gone(proc.pid, signal.SIGKILL)
    assert process.start_ticks(proc.pid) is None
    assert not process.is_zombie(proc.pid)
