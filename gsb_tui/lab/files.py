"""Reading the learner's answer files: never raising, never writing, always saying what is wrong.

Every reader returns a result with a plain-words `problem` instead of raising, because a half-saved
file, a directory in the wrong place or a file in the wrong encoding is an everyday lab state,
not an error of the dashboard. The lab directory is only ever opened read-only.

This module gets a file's bytes to text (size cap, FIFOs, symlinks, encodings); what the text
says (key=value, JSON, YAML) is parse.py's, which never touches the file system.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from gsb_tui.words import Text, t

MAX_BYTES = 1 << 20  # 1 MiB: answer files are a few lines; a bigger one is a mistake, not read

ReadStatus = Literal[
    "ok",
    "missing",
    "empty",
    "directory",
    "not-regular",
    "loop",
    "denied",
    "too-large",
    "binary",
    "not-utf8",
    "error",
]


@dataclass(frozen=True)
class FileRead:
    """One answer file as read: its text (BOM dropped, line ends made LF) or what went wrong."""

    name: str
    path: Path
    status: ReadStatus
    text: str = ""
    problem: Text | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def missing(self) -> bool:
        return self.status == "missing"


def _fail(name: str, path: Path, status: ReadStatus, problem: Text) -> FileRead:
    return FileRead(name, path, status, "", problem)


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def decode(name: str, path: Path, data: bytes) -> FileRead:
    """Bytes to text: UTF-8 (with or without BOM); CRLF and lone CR become LF."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return _fail(name, path, "not-utf8", t("file.utf16", file=name))
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if b"\x00" in data:
        return _fail(name, path, "binary", t("file.binary", file=name))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _fail(
            name,
            path,
            "not-utf8",
            t(
                "file.not_utf8",
                file=name,
                byte=f"0x{data[exc.start]:02x}",
                line=_line_of(data, exc.start),
            ),
        )
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        return _fail(name, path, "empty", t("file.empty", file=name))
    return FileRead(name, path, "ok", text)


def read_file(path: Path, name: str | None = None, max_bytes: int = MAX_BYTES) -> FileRead:
    """Read one answer file; every failure becomes a FileRead with a problem, never an exception."""
    name = name or path.name
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            return _fail(name, path, "missing", t("file.dangling", file=name))
        return _fail(name, path, "missing", t("file.missing", file=name, path=str(path)))
    except NotADirectoryError:
        return _fail(name, path, "missing", t("file.missing", file=name, path=str(path)))
    except PermissionError:
        return _fail(name, path, "denied", t("file.denied", file=name))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return _loop(name, path)
        return _fail(name, path, "error", t("file.error", file=name, error=exc.strerror or exc))
    except ValueError:  # an embedded NUL in the path
        return _fail(name, path, "error", t("file.error", file=name, error="invalid path"))
    if stat.S_ISDIR(st.st_mode):
        return _fail(name, path, "directory", t("file.directory", file=name))
    if not stat.S_ISREG(st.st_mode):
        return _fail(name, path, "not-regular", t("file.not_regular", file=name))
    if st.st_size > max_bytes:
        return _too_large(name, path, st.st_size, max_bytes)
    try:
        data = _read_capped(path, max_bytes)
    except PermissionError:
        return _fail(name, path, "denied", t("file.denied", file=name))
    except _NotRegular:
        return _fail(name, path, "not-regular", t("file.not_regular", file=name))
    except FileNotFoundError:  # removed between stat and open
        return _fail(name, path, "missing", t("file.missing", file=name, path=str(path)))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return _loop(name, path)
        return _fail(name, path, "error", t("file.error", file=name, error=exc.strerror or exc))
    if len(data) > max_bytes:  # it grew after the stat
        return _too_large(name, path, len(data), max_bytes)
    if not data.strip():
        return _fail(name, path, "empty", t("file.empty", file=name))
    return decode(name, path, data)


def _loop(name: str, path: Path) -> FileRead:
    """ELOOP: the file is a symlink loop, or a directory on its way is (the lab dir itself)."""
    for parent in reversed(path.parents):  # from the top: the first one that loops is named
        try:
            os.stat(parent)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                return _fail(name, path, "loop", t("file.dir-loop", file=name, dir=str(parent)))
            break
        except ValueError:
            break
    return _fail(name, path, "loop", t("file.loop", file=name))


def _too_large(name: str, path: Path, size: int, max_bytes: int) -> FileRead:
    return _fail(
        name,
        path,
        "too-large",
        t("file.too_large", file=name, size=size, limit=f"{max_bytes // 1024} KiB"),
    )


class _NotRegular(OSError):
    pass


def _read_capped(path: Path, max_bytes: int) -> bytes:
    # O_NONBLOCK: a FIFO swapped in after the stat must not hang the dashboard.
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags | getattr(os, "O_NOCTTY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise _NotRegular(path)
        chunks: list[bytes] = []
        left = max_bytes + 1
        while left > 0:
            chunk = os.read(fd, min(left, 65536))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


# ---------------------------------------------------------------- the lab directory


class LabFiles:
    """Read-only access to the learner's lab directory (injectable for tests).

    Reads are cached per instance: build one LabFiles per evaluation so a file that changed
    since the last evaluation is read again.
    """

    def __init__(self, root: Path | str, max_bytes: int = MAX_BYTES) -> None:
        self.root = Path(root)
        self.max_bytes = max_bytes
        self._cache: dict[str, FileRead] = {}

    def path(self, name: str) -> Path:
        return self.root / name

    def read(self, name: str) -> FileRead:
        if name not in self._cache:
            self._cache[name] = read_file(self.path(name), name, self.max_bytes)
        return self._cache[name]

    def exists(self, name: str) -> bool:
        return not self.read(name).missing
