"""How the dashboard is stopped by SIGTERM, SIGHUP and SIGINT (gsb_tui/ui/run.py), without a
terminal: the stop asked for in the running loop with the signal's code, a signal before the
loop is an exit with that code, nohup's ignored SIGHUP stays ignored, a second signal leaves at
once, and the handlers are put back after. (tests/ui/test_edges_terminal.py: the same in tmux.)"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from gsb_tui.ui.run import RESTORE, STOP_SIGNALS, restore_terminal, stop_on_signals

BOUND_S = 60


@pytest.mark.parametrize(
    ("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)]
)
def test_a_signal_asks_the_running_loop_to_stop(signum: int, code: int) -> None:
    asked: list[int] = []
    stopped: list[int] = []

    async def run() -> None:
        done = asyncio.Event()

        def stop(code: int) -> None:
            asked.append(code)
            done.set()

        with stop_on_signals(stop, stopped):
            os.kill(os.getpid(), signum)
            await asyncio.wait_for(done.wait(), BOUND_S)

    before = {s: signal.getsignal(s) for s in STOP_SIGNALS}
    asyncio.run(run())
    assert asked == [code] and stopped == [code]
    assert {s: signal.getsignal(s) for s in STOP_SIGNALS} == before  # put back


def test_before_the_loop_a_signal_is_an_exit_with_its_code() -> None:
    with pytest.raises(SystemExit) as exc, stop_on_signals(lambda _code: None, []):
        os.kill(os.getpid(), signal.SIGHUP)
    assert exc.value.code == 129


def test_an_ignored_sighup_stays_ignored() -> None:
    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        stopped: list[int] = []
        with stop_on_signals(lambda _code: None, stopped):
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            os.kill(os.getpid(), signal.SIGHUP)
        assert stopped == []
    finally:
        signal.signal(signal.SIGHUP, previous)


def test_a_second_signal_leaves_at_once_with_the_first_code() -> None:
    """An app that does not stop (here: a stop that does nothing) is left by the next signal."""
    script = textwrap.dedent(
        """
        import asyncio, os, signal
        from gsb_tui.ui.run import stop_on_signals

        async def main():
            with stop_on_signals(lambda code: None, []):
                os.kill(os.getpid(), signal.SIGTERM)
                os.kill(os.getpid(), signal.SIGHUP)
                await asyncio.sleep(600)

        asyncio.run(main())
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, timeout=BOUND_S, check=False
    )
    assert proc.returncode == 143
    assert proc.stderr == b""  # not a terminal: nothing written to restore


def test_restoring_by_hand_writes_only_to_a_terminal(capfd: pytest.CaptureFixture[str]) -> None:
    restore_terminal()  # stdout and stderr are pipes here: nothing written, nothing raised
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    for mode in ("?1049l", "?1000l", "?1003l", "?1006l", "?25h", "?2004l"):
        assert f"\x1b[{mode}" in RESTORE


@pytest.mark.parametrize(
    ("signame", "code", "grace"),
    [("SIGTERM", 143, "STOP_GRACE_S"), ("SIGHUP", 129, "EXIT_GRACE_S")],
)
def test_a_stop_that_never_ends_is_left_with_the_signals_code(
    signame: str, code: int, grace: str
) -> None:
    """A hung-up terminal can wedge Textual's writer thread mid-shutdown (seen under tmux
    kill-server): past STOP_GRACE_S the process leaves by itself, with the same code; after a
    hangup (no terminal left to restore) past EXIT_GRACE_S, the other grace kept long."""
    script = textwrap.dedent(
        f"""
        import asyncio, os, signal
        from gsb_tui.ui import run

        run.STOP_GRACE_S = run.EXIT_GRACE_S = 600.0
        run.{grace} = 0.2

        async def main():
            with run.stop_on_signals(lambda code: None, []):
                os.kill(os.getpid(), signal.{signame})
                await asyncio.sleep(600)

        asyncio.run(main())
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, timeout=BOUND_S, check=False
    )
    assert proc.returncode == code


def test_the_grace_timer_goes_with_the_block() -> None:
    """A stop that ended in time leaves no timer behind to end the process later."""
    import threading

    async def run() -> None:
        with stop_on_signals(lambda _code: None, []):
            os.kill(os.getpid(), signal.SIGTERM)
            await asyncio.sleep(0)

    asyncio.run(run())
    timers = [t for t in threading.enumerate() if isinstance(t, threading.Timer)]
    assert all(t.finished.is_set() for t in timers)  # cancelled: it will never fire


def test_a_thread_left_holding_the_exit_after_a_signal_does_not_keep_the_process() -> None:
    """After a stop by signal, a thread that never ends (Textual's input thread left polling a
    terminal that hung up) holds the exit at most EXIT_GRACE_S; the code is the signal's."""
    script = textwrap.dedent(
        """
        import threading, time
        from gsb_tui.ui import run

        run.EXIT_GRACE_S = 0.2
        threading.Thread(target=time.sleep, args=(600,)).start()  # not a daemon
        run.leave_when_held(129)
        raise SystemExit(129)
        """
    )
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, timeout=BOUND_S, check=False
    )
    assert proc.returncode == 129
    assert proc.stderr == b""
