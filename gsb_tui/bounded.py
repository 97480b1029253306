"""Opening what gsb-tui reads from outside (kubeconfigs, the files they name, recordings,
the user's config.toml).

Only regular files are opened: a FIFO, a device (/dev/zero, /dev/urandom), a socket or a
directory is refused by stat before anything is read, and the open itself never blocks
(O_NONBLOCK, so a FIFO swapped in after the stat cannot hang us either). Whole-file reads
are capped.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from gsb_tui.words import Text, t

MIB = 1024 * 1024


class Refused(Exception):
    """The path is there but is not something gsb-tui reads; `problem` says why, in words."""

    def __init__(self, problem: Text) -> None:
        super().__init__(str(problem))
        self.problem = problem


def file_kind(mode: int) -> Text:
    """A directory, a FIFO, a socket, a device or a special file, in words."""
    if stat.S_ISDIR(mode):
        return t("config.kind.directory")
    if stat.S_ISFIFO(mode):
        return t("config.kind.fifo")
    if stat.S_ISSOCK(mode):
        return t("config.kind.socket")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return t("config.kind.device")
    return t("config.kind.special")


def open_regular(path: Path) -> int:
    """A read-only file descriptor on `path`, a regular file (symlinks followed).

    Raises Refused for anything else, OSError (FileNotFoundError, PermissionError …) when
    it cannot be opened, ValueError for a path with a NUL in it.
    """
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise Refused(t("config.file.not-regular", kind=file_kind(info.st_mode)))
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # replaced since the stat
            raise Refused(t("config.file.not-regular", kind=file_kind(info.st_mode)))
    except BaseException:
        os.close(fd)
        raise
    return fd


def size_text(limit: int) -> str:
    """64 KiB, 4 MiB: a limit as people read it."""
    if limit >= MIB and limit % MIB == 0:
        return f"{limit // MIB} MiB"
    if limit % 1024 == 0:
        return f"{limit // 1024} KiB"
    return f"{limit} bytes"


def read_capped(path: Path, limit: int) -> bytes:
    """The whole of a regular file of at most `limit` bytes (Refused when bigger)."""
    fd = open_regular(path)
    try:
        size = os.fstat(fd).st_size
        if size > limit:
            raise Refused(t("file.too-big", size=size, limit=size_text(limit)))
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(limit + 1 - total, MIB))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    finally:
        os.close(fd)
    if total > limit:  # grew since the stat
        raise Refused(t("file.over-limit", limit=size_text(limit)))
    return b"".join(chunks)
