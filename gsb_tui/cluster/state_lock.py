"""One `gsb-tui cluster up` or `down` at a time per state directory.

Each takes an exclusive flock on `<dir>/lock` for its whole run (entered again freely inside
the same process: `up` calls `down` to clean up after a failure). Another one waits up to
WAIT_S, saying once who holds it (the pid and command line the holder wrote into the lock
file), then gives up naming them, so two `up`s at once never start two etcds or stop each
other's components: the second finds the first's cluster running. The kernel drops a flock
with its holder, so a killed `up` leaves no lock behind, and the descriptor is close-on-exec
(Python's default), so no component started under the lock keeps holding it.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import inspect
import os
import shlex
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from gsb_tui.words import t

LOCK_NAME = "lock"
WAIT_S = 60.0  # a practice cluster starts in well under a minute once its binaries are built
POLL_S = 0.2

P = ParamSpec("P")
R = TypeVar("R")
Log = Callable[[str], None]

# (state dir, thread) -> (descriptor, depth): held by this thread. Another thread of the same
# process opens its own descriptor, and flock makes it wait like another process.
_held: dict[tuple[Path, int], tuple[int, int]] = {}


def holder(lock_file: Path) -> str:
    """Who holds the lock, as its holder wrote it ("pid 123: gsb-tui cluster up")."""
    with contextlib.suppress(OSError, ValueError):
        words = lock_file.read_text(encoding="utf-8", errors="replace").strip()
        pid, _, command = words.partition(" ")
        if pid.isdigit():
            return t("cluster.lock.holder", pid=pid, command=command or "?")
    return t("cluster.lock.unknown-holder")


@contextlib.contextmanager
def state_lock(
    directory: Path,
    log: Log = print,
    *,
    create: bool = True,
    wait_s: float | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Iterator[None]:
    """Hold the state directory's lock for the block; a ClusterError if another process
    keeps it past `wait_s` (default WAIT_S). A directory that does not exist is made when
    `create`, else there is nothing to lock (nothing can run from it): the block runs unlocked."""
    held = (directory.resolve(), threading.get_ident())
    if held in _held:
        fd, depth = _held[held]
        _held[held] = (fd, depth + 1)
        try:
            yield
        finally:
            _release(held)
        return
    directory = held[0]
    if not directory.is_dir():
        if not create:
            yield
            return
        directory.mkdir(parents=True, exist_ok=True)
    lock_file = directory / LOCK_NAME
    try:
        fd = os.open(lock_file, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o644)
    except OSError as exc:  # a symlink or a directory in its place, a read-only dir
        from gsb_tui.cluster.control_plane import ClusterError

        error = exc.strerror or type(exc).__name__
        raise ClusterError(t("cluster.lock.cannot", path=lock_file, error=error)) from None
    try:
        _acquire(fd, lock_file, log, WAIT_S if wait_s is None else wait_s, clock)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()} {_command()}\n".encode())
    except BaseException:
        os.close(fd)
        raise
    _held[held] = (fd, 1)
    try:
        yield
    finally:
        _release(held)


def _acquire(fd: int, lock_file: Path, log: Log, wait_s: float, clock: Callable[[], float]) -> None:
    deadline = clock() + wait_s
    said = False
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        who = holder(lock_file)
        if clock() >= deadline:
            from gsb_tui.cluster.control_plane import ClusterError  # it imports this module

            raise ClusterError(t("cluster.lock.busy", dir=lock_file.parent, holder=who))
        if not said:
            log(t("cluster.lock.waiting", dir=lock_file.parent, holder=who, seconds=f"{wait_s:g}"))
            said = True
        time.sleep(POLL_S)


def _release(held: tuple[Path, int]) -> None:
    fd, depth = _held[held]
    if depth > 1:
        _held[held] = (fd, depth - 1)
        return
    del _held[held]
    os.close(fd)  # the flock goes with the last descriptor


def _command() -> str:
    argv = [Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "gsb-tui", *sys.argv[1:]]
    return " ".join(shlex.quote(a) for a in argv).replace("\n", " ")[:300]


Method = Callable[Concatenate[Any, P], R]


def locked(*, create: bool) -> Callable[[Method[P, R]], Method[P, R]]:
    """A ControlPlane method run under its state directory's lock (its `log` says a wait)."""

    def wrap(method: Method[P, R]) -> Method[P, R]:
        signature = inspect.signature(method)

        def run(self: Any, /, *args: P.args, **kwargs: P.kwargs) -> R:
            log = signature.bind(self, *args, **kwargs).arguments.get("log", print)
            with state_lock(self.dir, log, create=create):
                return method(self, *args, **kwargs)

        functools.update_wrapper(run, method)
        return run

    return wrap
