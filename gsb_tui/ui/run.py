"""The CLI's entry into the dashboard: run it, return an exit code, never show a traceback
(an unhandled error is one line on stderr, its traceback goes to the crash log).

SIGTERM, SIGHUP and SIGINT (`kill`, a closed terminal window; Ctrl-C itself is a key to the
dashboard) end it as `q` does, so the terminal is given back as it was (the alternate screen
left, mouse reporting off, the cursor shown), and the exit code is 128 + the signal's number:
143, 129, 130 (gsb_tui/cli_io.py, `gsb-tui --help`). A second signal while it stops, or a stop
that takes longer than STOP_GRACE_S (a hung-up terminal can wedge Textual's writer thread, whose
queue then never drains; EXIT_GRACE_S after a hangup, which left no terminal to restore),
leaves at once with the same code, the terminal restored by hand; so does a thread still
holding the exit EXIT_GRACE_S after the stop. A signal ignored when gsb-tui started (nohup)
stays ignored.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import termios
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any

from gsb_tui.kube.source import ChangeSource
from gsb_tui.ui import ask_frame_rate

if TYPE_CHECKING:
    from gsb_tui.ui.app import GsbApp

STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
STOP_GRACE_S = 5.0  # a stop takes ~0.1 s; past this the process leaves by hand
EXIT_GRACE_S = 1.0  # after a stop by signal, the most a thread may hold the process's exit
# What Textual's driver turns on, turned off: the alternate screen, every mouse mode, bracketed
# paste, focus events, the Kitty keyboard protocol; the cursor shown, line wrap back on.
RESTORE = (
    "\x1b[<u\x1b[?1049l\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"
    "\x1b[?2004l\x1b[?1004l\x1b[?7h\x1b[?25h"
)


def signal_code(signum: int) -> int:
    """The exit code for a stop by this signal: 128 + its number, as a shell reports it."""
    return 128 + signum


def make_app(
    source: ChangeSource,
    lab_dir: Path,
    lang: str,
    first_frame: Callable[[], None] | None = None,
) -> GsbApp:
    """The App with the user's config, Textual asked for gsb-tui's frame rate first."""
    ask_frame_rate()
    from gsb_tui.config import config_path
    from gsb_tui.ui.app import GsbApp

    return GsbApp(source, lab_dir, lang, config_file=config_path(), first_frame=first_frame)


def run_dashboard(
    source: ChangeSource,
    lab_dir: Path,
    lang: str,
    scope: str | None = None,
    first_frame: Callable[[], None] | None = None,
) -> int:
    """Run the dashboard until the user quits. 0 on a normal exit, 1 if it could not run,
    signal_code(n) when a signal stopped it. `scope`: the namespace whose claims it opens on
    (None: every namespace). `first_frame`: told when the first complete frame is drawn."""
    try:
        app = make_app(source, lab_dir, lang, first_frame)
        app.dashboard.start_scope = scope
    except Exception as exc:  # e.g. the stylesheet missing from a broken install
        print(f"gsb-tui: cannot start the dashboard: {exc}", file=sys.stderr)
        return 1
    stopped: list[int] = []  # the code of the signal that asked the dashboard to stop
    try:
        with stop_on_signals(lambda code: app.exit(None, code), stopped):
            result = app.run()
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        if stopped:  # e.g. the terminal hung up while it was being restored
            return stopped[0]
        print(f"gsb-tui: the dashboard stopped: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    finally:
        from gsb_tui.kube.exec_plugin import reap_all

        reap_all()  # q, Ctrl-C, a signal or a crash: no credential plugin is left running
        if stopped:
            leave_when_held(stopped[0])
    if app.crash_line:
        print(app.crash_line, file=sys.stderr)
    if stopped:
        return stopped[0]
    if app.return_code not in (None, 0):
        return int(app.return_code or 1)
    return int(result or 0)


@contextlib.contextmanager
def stop_on_signals(stop: Callable[[int], Any], stopped: list[int]) -> Iterator[None]:
    """While the block runs, SIGTERM/SIGHUP/SIGINT call `stop(code)` in the running event loop
    (and append the code to `stopped`); a second one, or STOP_GRACE_S without the block
    ending, restores the terminal and exits at once. Before the loop runs, nothing is on screen
    yet: the signal ends the block (SystemExit)."""
    timers: list[threading.Timer] = []

    def handler(signum: int, _frame: FrameType | None) -> None:
        code = signal_code(signum)
        if stopped:  # asked again while stopping: leave now
            leave(stopped[0])
        stopped.append(code)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            raise SystemExit(code) from None
        # A hangup leaves no terminal to give back: no reason to wait as long for the stop.
        grace = EXIT_GRACE_S if signum == signal.SIGHUP else STOP_GRACE_S
        timers.append(leave_after(grace, code))
        loop.call_soon_threadsafe(stop, code)

    previous: dict[signal.Signals, Any] = {}
    for signum in STOP_SIGNALS:
        if signal.getsignal(signum) is not signal.SIG_IGN:
            previous[signum] = signal.signal(signum, handler)
    try:
        yield
    finally:
        for timer in timers:
            timer.cancel()
        for stopper, old in previous.items():
            signal.signal(stopper, old)


def leave_when_held(code: int) -> None:
    """The process ends within EXIT_GRACE_S even if a thread would hold its exit. On a
    terminal that hung up, Textual can leave its input thread polling the dead terminal for
    good (its stop wrote to the terminal first and gave up): 6 of 18 starts closed by tmux
    kill-server at 10,000 devices went on at 50-85 % of a core with no terminal, for minutes."""
    leave_after(EXIT_GRACE_S, code)


def leave_after(seconds: float, code: int) -> threading.Timer:
    """`leave(code)` in `seconds` unless cancelled; a daemon: a process that ends by itself
    ends the timer with it."""
    timer = threading.Timer(seconds, leave, (code,))
    timer.daemon = True
    timer.start()
    return timer


def leave(code: int) -> None:
    """Exit now, from any thread, after giving the terminal back by hand (in a thread of its
    own, waited for a second: a terminal that no longer reads must not hold the exit)."""
    writer = threading.Thread(target=restore_terminal, daemon=True)
    writer.start()
    writer.join(1.0)
    os._exit(code)


def restore_terminal() -> None:
    """Give the terminal back by hand (the driver could not): escapes off, echo and lines on."""
    for stream in (sys.__stderr__, sys.__stdout__):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            fd = stream.fileno()  # type: ignore[union-attr]
            if os.isatty(fd):
                os.write(fd, RESTORE.encode())
                break
    with contextlib.suppress(AttributeError, OSError, ValueError, termios.error):
        fd = sys.__stdin__.fileno()  # type: ignore[union-attr]
        attrs = termios.tcgetattr(fd)
        attrs[3] |= termios.ECHO | termios.ICANON | termios.ISIG | termios.IEXTEN
        attrs[0] |= termios.ICRNL
        attrs[1] |= termios.OPOST
        termios.tcsetattr(fd, termios.TCSANOW, attrs)
