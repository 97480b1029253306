"""List pages read whole in threads of their own (or, the first ones, by a child process:
`ChildPages`), and their answers awaited in the event loop.

asyncio's TLS reads the API server's ~4 KiB records one by one in Python (0.47 s of CPU for
19 MB of pods, measured); http.client reads them in C without the GIL (0.11 s). The threads are
daemons: a blocked read never holds up the exit, as the default executor's threads would.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import fcntl
import json
import os
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import orjson

from gsb_tui.kube import page_reader
from gsb_tui.kube.http_get import Cancel, Fetched, Progress, SlowAnswer

T = TypeVar("T")


def _in_thread(
    work: Callable[[Cancel], T],
) -> tuple[concurrent.futures.Future[T], Cancel]:
    """Start work in a daemon thread; its answer, and what ends its blocked read."""
    answer: concurrent.futures.Future[T] = concurrent.futures.Future()
    closers = Cancel()

    def run() -> None:
        # A cancelled answer refuses both: nobody waits for it any more.
        with contextlib.suppress(concurrent.futures.InvalidStateError):
            try:
                got = work(closers)
            except BaseException as exc:  # handed to whoever awaits it, who raises it
                answer.set_exception(exc)
            else:
                answer.set_result(got)

    threading.Thread(target=run, name="gsb-tui list", daemon=True).start()
    return answer, closers


async def _awaited(answer: concurrent.futures.Future[T], closers: Cancel) -> T:
    try:
        return await asyncio.wrap_future(answer)
    except asyncio.CancelledError:  # the caller gave up: end the read
        closers.cancel()
        raise


async def in_daemon_thread(work: Callable[[Cancel], T]) -> T:
    """Run work in a daemon thread; cancelling the caller runs the closers work registered."""
    return await _awaited(*_in_thread(work))


class Begun:
    """Reads started before there is an event loop (LiveSource.begin_lists), each in a daemon
    thread; `take` hands one out once, as an awaitable."""

    def __init__(self) -> None:
        self._answers: dict[str, tuple[concurrent.futures.Future[Any], Cancel]] = {}

    def start(self, key: str, work: Callable[[Cancel], Any]) -> None:
        if key not in self._answers:
            self._answers[key] = _in_thread(work)

    def take(self, key: str, progress: Progress | None = None) -> Awaitable[Any] | None:
        begun = self._answers.pop(key, None)
        if begun is not None and progress is not None:
            progress.got = -1  # read by a thread begun before: its bytes are not seen here
        return None if begun is None else _awaited(*begun)

    def close(self) -> None:
        """End the reads nobody took."""
        for _answer, closers in self._answers.values():
            closers.cancel()
        self._answers.clear()


class ChildPages:
    """Reads started before there is an event loop in a child process (kube/page_reader.py),
    with `Begun`'s `take` and `close`. A page the child could not read is taken as None: the
    caller reads it itself, and says what went wrong in its own words."""

    def __init__(self, proc: subprocess.Popen[bytes], targets: list[str]) -> None:
        self._proc = proc
        self._by_index = [concurrent.futures.Future[Fetched | None]() for _ in targets]
        self._answers = dict(zip(targets, self._by_index, strict=True))
        self._index = {target: i for i, target in enumerate(targets)}
        self._got: dict[int, int] = {}  # bytes come so far, as the child says (page_reader)
        self._progress: dict[int, Progress] = {}  # whoever took the answer, told of them
        threading.Thread(target=self._read, name="gsb-tui pages", daemon=True).start()

    @classmethod
    def start(cls, request: dict[str, Any], targets: list[str]) -> ChildPages | None:
        """The child started with `request` (page_reader's, without the targets), or None."""
        root = str(Path(__file__).resolve().parents[2])
        site = str(Path(orjson.__file__).resolve().parents[1])
        try:
            proc = subprocess.Popen(
                [sys.executable, "-I", "-S", "-c", page_reader.BOOT, root, site],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError:
            return None
        assert proc.stdin is not None and proc.stdout is not None
        with contextlib.suppress(OSError):  # a larger pipe: fewer reads, fewer lock waits
            fcntl.fcntl(proc.stdout.fileno(), F_SETPIPE_SZ, PIPE_BYTES)
        try:
            proc.stdin.write(json.dumps({**request, "targets": targets}).encode())
            proc.stdin.close()
        except OSError:
            _end(proc)
            return None
        return cls(proc, targets)

    def _read(self) -> None:
        """Each answer off the pipe into its future; at the end, None for the unanswered."""
        assert self._proc.stdout is not None
        fd, pending = self._proc.stdout.fileno(), bytearray()
        try:
            while True:
                line, pending = _line(fd, pending)
                if line is None:
                    break
                head = json.loads(line)
                index = int(head["i"])
                answer = self._by_index[index]
                if "got" in head and "error" not in head:
                    self._got[index] = int(head["got"])
                    if index in self._progress:
                        self._progress[index].got = self._got[index]
                    continue
                if head.get("error") == "timeout":
                    _settle(answer, exc=TimeoutError("timed out"))
                    continue
                if head.get("error") == "slow":
                    _settle(answer, exc=SlowAnswer(int(head["got"]), float(head["seconds"])))
                    continue
                if "status" not in head:
                    _settle(answer, None)
                    continue
                size = int(head["size"])
                body, pending = _body(fd, pending, size) if size >= 0 else (None, pending)
                status, reason, kind = int(head["status"]), str(head["reason"]), str(head["type"])
                fetched = Fetched(status, reason, kind, body, str(head.get("retry") or ""))
                _settle(answer, fetched)
        except (OSError, ValueError, KeyError, IndexError, TypeError):
            pass
        finally:
            for answer in self._by_index:
                _settle(answer, None)
            # Each answer is held by whoever takes it, not here: 10,000 devices' bodies are
            # ~25 MB, which would stay for as long as the transport does.
            self._by_index = []
            self._progress.clear()
            _end(self._proc)
            with contextlib.suppress(OSError):
                self._proc.stdout.close()

    def take(self, key: str, progress: Progress | None = None) -> Awaitable[Fetched | None] | None:
        answer = self._answers.pop(key, None)
        if answer is not None and progress is not None:
            index = self._index[key]
            self._progress[index] = progress
            progress.got = self._got.get(index, 0)
        return None if answer is None else asyncio.wrap_future(answer)

    def close(self) -> None:
        """End the child: the reads nobody took are not wanted any more."""
        self._answers.clear()
        _end(self._proc)


F_SETPIPE_SZ = 1031  # fcntl.F_SETPIPE_SZ, named there from Python 3.10 on Linux only
PIPE_BYTES = 1 << 20  # Linux's default limit for an unprivileged pipe
HEAD_LIMIT = 1 << 16


def _line(fd: int, pending: bytearray) -> tuple[bytes | None, bytearray]:
    """One header line off the pipe (None at its end)."""
    while b"\n" not in pending:
        if len(pending) > HEAD_LIMIT:
            raise ValueError("no header line")
        chunk = os.read(fd, PIPE_BYTES)
        if not chunk:
            return None, pending
        pending += chunk
    line, _, rest = pending.partition(b"\n")
    return bytes(line), rest


def _body(fd: int, pending: bytearray, size: int) -> tuple[bytes, bytearray]:
    """`size` bytes: what was read ahead, then the rest straight into place."""
    body = bytearray(size)
    got = min(size, len(pending))
    body[:got] = pending[:got]
    view = memoryview(body)
    while got < size:
        n = os.readv(fd, [view[got:]])
        if n == 0:
            raise ValueError("the pipe ended inside a body")
        got += n
    return bytes(body), pending[size:]


def _settle(
    answer: concurrent.futures.Future[Fetched | None],
    result: Fetched | None = None,
    exc: BaseException | None = None,
) -> None:
    with contextlib.suppress(concurrent.futures.InvalidStateError):  # settled, or cancelled
        if exc is not None:
            answer.set_exception(exc)
        else:
            answer.set_result(result)


def _end(proc: subprocess.Popen[bytes]) -> None:
    """Kill the child if it still runs, and reap it (a killed child ends at once). Its stdout
    is closed by the thread reading it, which then sees the end of the pipe."""
    if proc.poll() is None:
        with contextlib.suppress(OSError):
            proc.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(5)
