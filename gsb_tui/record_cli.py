"""`gsb-tui record FILE [--force]`: the live watch stream into a recording, until Ctrl-C.

The file is created only once the cluster answers (the first kind synced): a closed port, a
kubeconfig that cannot be used or a cluster that lists nothing leaves no file behind and exits 2,
said as `check` says it. An existing FILE is kept unless --force (exit 64).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import stat
import sys
import time
from pathlib import Path
from typing import IO

from gsb_tui.bounded import file_kind
from gsb_tui.cli_io import EXIT_NOT_YET, EXIT_OK, EXIT_UNUSABLE, EXIT_USAGE
from gsb_tui.kube.config import Target
from gsb_tui.kube.live import LiveSource
from gsb_tui.kube.oneshot import Progress
from gsb_tui.kube.recording import Recorder
from gsb_tui.kube.store import Change, Store
from gsb_tui.words import Text, localize, t, text

SYNC_TIMEOUT_S = 8.0  # as `check`: a cluster that has not answered by then is not there


def _say(lang: str, words: str) -> None:
    print(f"gsb-tui record: {localize(words, lang)}", file=sys.stderr)


def _refusal(out: Path, force: bool) -> Text | None:
    """Why `out` cannot be recorded into, before anything is started (or None)."""
    try:
        info = os.stat(out)
    except FileNotFoundError:
        if not out.parent.is_dir():
            return t("cli.cannot-write", path=out, error=t("record.no-folder"))
        return None
    except (OSError, ValueError) as exc:
        return t("cli.cannot-write", path=out, error=getattr(exc, "strerror", None) or exc)
    if not stat.S_ISREG(info.st_mode):
        return t("record.not-regular", path=out, kind=file_kind(info.st_mode))
    if not force:
        return t("record.exists", path=out)
    return None


class Session:
    """What the stream has shown so far; the file is opened at the first sync."""

    def __init__(self, source: LiveSource, out: Path, force: bool) -> None:
        self.source = source
        self.out = out
        self.force = force
        self.start = time.monotonic()
        self.store = Store(source.kinds)
        self.progress = Progress(source.kinds)
        self.pending: list[tuple[float, Change]] = []  # until the first sync: a few states
        self.fh: IO[str] | None = None
        self.recorder: Recorder | None = None
        self.problem: Text | None = None  # why it stopped (never synced, cannot write)
        self.exit = EXIT_OK
        self.stop = asyncio.Event()

    def _end(self, problem: Text, code: int) -> None:
        if not self.stop.is_set():
            self.problem, self.exit = problem, code
            self.stop.set()

    def never_synced(self, hopeless: bool = True) -> None:
        reason = self.source.config_error or self.progress.reason(self.store.snapshot())
        key = "record.unusable" if hopeless else "record.not-synced"
        self._end(t(key, server=self.source.info.server, reason=reason), EXIT_UNUSABLE)

    def emit(self, change: Change) -> None:
        if self.stop.is_set():
            return
        now = time.monotonic()
        self.store.apply(change)
        if self.recorder is None:
            self.pending.append((now, change))
            if change.type == "SYNCED":
                self._open()
            elif self.source.config_error or self.progress.judge(self.store.snapshot()) != "wait":
                self.never_synced()
            return
        self._write(change, now)

    def _open(self) -> None:
        try:
            self.fh = self.out.open("w" if self.force else "x", encoding="utf-8")
        except FileExistsError:
            self._end(t("record.exists", path=self.out), EXIT_USAGE)
            return
        except OSError as exc:
            error = exc.strerror or type(exc).__name__
            self._end(t("cli.cannot-write", path=self.out, error=error), EXIT_NOT_YET)
            return
        self.recorder = Recorder(self.fh, start=self.start)
        pending, self.pending = self.pending, []
        for at, change in pending:
            self._write(change, at)

    def _write(self, change: Change, at: float) -> None:
        assert self.recorder is not None
        try:
            self.recorder.write(change, at)
        except OSError as exc:
            error = exc.strerror or type(exc).__name__
            self._end(t("cli.cannot-write", path=self.out, error=error), EXIT_NOT_YET)

    def close(self) -> None:
        if self.fh is not None:
            with contextlib.suppress(OSError):
                self.fh.close()


async def _record(session: Session) -> None:
    # SIGTERM (`timeout 60 gsb-tui record F`, a supervisor stopping it) ends the recording as
    # Ctrl-C does: what was recorded is kept, exit 0. A shell's background job starts with
    # SIGINT ignored, so SIGTERM is how scripts stop it.
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, session.stop.set)
    task = asyncio.create_task(session.source.run(session.emit))
    task.add_done_callback(lambda _task: session.stop.set())
    try:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(session.stop.wait(), SYNC_TIMEOUT_S)
        if session.recorder is None and not session.stop.is_set():
            session.never_synced(hopeless=False)
        await session.stop.wait()  # recording: until Ctrl-C or a write that fails
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task


def run_record(args: argparse.Namespace, target: Target, lang: str) -> int:
    out: Path = args.out
    refusal = _refusal(out, args.force)
    if refusal is not None:
        _say(lang, refusal)
        return EXIT_USAGE
    source = LiveSource(target)
    if source.config_error:
        _say(lang, source.config_error)
        return EXIT_UNUSABLE
    print(text(lang, "cli.recording", server=source.info.server, path=out), file=sys.stderr)
    session = Session(source, out, args.force)
    try:
        asyncio.run(_record(session))
    except KeyboardInterrupt:
        if session.recorder is None and session.problem is None:
            session.never_synced(hopeless=False)
    finally:
        session.close()
    if session.problem is not None:
        _say(lang, session.problem)
        return session.exit
    print(text(lang, "cli.saved", path=out), file=sys.stderr)
    return EXIT_OK
