"""The command line's exit codes (`--help` and README list them), and standard output and
error that never raise.

Every command writes through `guarded_stdio()`: text the terminal's encoding cannot show (an
ASCII-only PYTHONIOENCODING, a lone surrogate read from a lab file) is written escaped
(backslashreplace); a reader that goes away (`| head -1`, `| true`) ends the output quietly;
a stdout that is closed or cannot be written (/dev/full) is said in one line on stderr. In each
case the descriptor is then pointed at /dev/null, as Python's documentation advises for SIGPIPE,
so nothing raises at exit either. Never a traceback.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO

from gsb_tui.words import text

EXIT_OK = 0
EXIT_NOT_YET = 1  # check: a step not green; match: no such expression or class; a file missing
EXIT_UNUSABLE = 2  # the cluster cannot be read: kubeconfig, network, credentials, not an API server
EXIT_USAGE = 64  # the command line is wrong (EX_USAGE of sysexits.h)
EXIT_INTERRUPTED = 130  # Ctrl-C (SIGINT)
# The dashboard stopped by a signal, the terminal restored: 128 + the signal's number, as a shell
# reports a process killed by it (gsb_tui/ui/run.py).
EXIT_HANGUP = 129  # SIGHUP: its terminal closed
EXIT_TERMINATED = 143  # SIGTERM
EXIT_CODES = frozenset(
    {
        EXIT_OK,
        EXIT_NOT_YET,
        EXIT_UNUSABLE,
        EXIT_USAGE,
        EXIT_HANGUP,
        EXIT_INTERRUPTED,
        EXIT_TERMINATED,
    }
)


class GuardedStream:
    """A text stream whose write and flush never raise; the first failure is kept."""

    def __init__(self, stream: TextIO | None, fd: int) -> None:
        self._stream = stream
        self._fd = fd
        self.failure: OSError | None = None
        if stream is not None:
            with contextlib.suppress(AttributeError, ValueError, OSError):
                stream.reconfigure(errors="backslashreplace")  # type: ignore[attr-defined]

    def write(self, data: str) -> int:
        if self._stream is None:
            if self.failure is None and data:
                self.failure = OSError(errno.EBADF, os.strerror(errno.EBADF))
            return len(data)
        try:
            return self._stream.write(data)
        except UnicodeEncodeError:  # a stream that could not be reconfigured
            encoding = getattr(self._stream, "encoding", None) or "ascii"
            escaped = data.encode(encoding, "backslashreplace").decode(encoding, "replace")
            try:
                self._stream.write(escaped)
            except (OSError, ValueError) as exc:
                self._fail(exc)
            return len(data)
        except (OSError, ValueError) as exc:  # ValueError: the stream was closed
            self._fail(exc)
            return len(data)

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except (OSError, ValueError) as exc:
            self._fail(exc)

    def _fail(self, exc: Exception) -> None:
        if self.failure is None:
            self.failure = (
                exc if isinstance(exc, OSError) else OSError(errno.EBADF, os.strerror(errno.EBADF))
            )
        stream, self._stream = self._stream, None
        # Later flushes of the same descriptor (at exit) go to /dev/null instead of raising.
        if any(stream is real for real in (sys.__stdout__, sys.__stderr__)):
            with contextlib.suppress(OSError):
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, self._fd)
                os.close(devnull)

    @property
    def broken_pipe(self) -> bool:
        return isinstance(self.failure, BrokenPipeError)

    def isatty(self) -> bool:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            return self._stream is not None and self._stream.isatty()
        return False

    def __getattr__(self, name: str) -> Any:  # encoding, fileno … of the real stream
        if self._stream is None:
            raise AttributeError(name)
        return getattr(self._stream, name)


@contextlib.contextmanager
def guarded_stdio() -> Iterator[tuple[GuardedStream, GuardedStream]]:
    """sys.stdout and sys.stderr guarded for the block; the originals put back after."""
    saved = sys.stdout, sys.stderr
    out = GuardedStream(sys.stdout, 1)
    err = GuardedStream(sys.stderr, 2)
    sys.stdout, sys.stderr = out, err
    try:
        yield out, err
    finally:
        out.flush()
        err.flush()
        sys.stdout, sys.stderr = saved


def finish(code: int, out: GuardedStream, lang: str) -> int:
    """The exit code once output is done: a stdout that failed (not a reader that left) is
    said on stderr and turns a success into 1."""
    out.flush()
    if out.failure is None or out.broken_pipe:
        return code
    error = out.failure.strerror or type(out.failure).__name__
    print(f"gsb-tui: {text(lang, 'cli.stdout-failed', error=error)}", file=sys.stderr)
    return code if code != EXIT_OK else EXIT_NOT_YET
