"""The user's config file, $XDG_CONFIG_HOME/gsb-tui/config.toml: for now one table, [keymap],
mapping a binding id (`?` lists them) to the keys that run it, in Textual's syntax:

    [keymap]
    "gsb.yaml" = "Y"
    "gsb.quit" = "q,ctrl+q"

Pure (no Textual) and bounded: only a regular file of at most 64 KiB is read, and opening never
blocks (a FIFO in its place is refused before it is opened). Nothing here raises: each thing
wrong becomes one line in `problems`, that entry keeps its default, and the valid ones apply.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CONFIG_LIMIT = 64 * 1024  # bytes; a keymap is a few hundred
EXAMPLE = '"q,ctrl+q"'
# A key is one character ("?", "Y") or Textual's name for it, with modifiers ("ctrl+shift+f1").
_KEY_NAME = re.compile(r"[A-Za-z0-9_]+(\+[A-Za-z0-9_]+)*")


@dataclass(frozen=True)
class UserConfig:
    """What the file asked for that is valid, and one line for each thing that was not."""

    keymap: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def config_path() -> Path:
    """$XDG_CONFIG_HOME/gsb-tui/config.toml (~/.config when unset or not absolute)."""
    base = os.environ.get("XDG_CONFIG_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".config"
    return root / "gsb-tui" / "config.toml"


def load_config(path: Path | None = None, known_ids: Collection[str] | None = None) -> UserConfig:
    """Read `path` (default config_path()). A missing file is no config and no problem.

    `known_ids`: the binding ids that exist; any other id is reported (None: not checked).
    """
    path = config_path() if path is None else path
    data = _read_bounded(path)
    if isinstance(data, str):
        return UserConfig(problems=[f"{path}: {data}; using the default keys"])
    if data is None:
        return UserConfig()
    try:
        document = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        detail = f"not UTF-8 text (byte {exc.start})"
        return UserConfig(problems=[f"{path}: {detail}; using the default keys"])
    except tomllib.TOMLDecodeError as exc:
        detail = f"not valid TOML ({_one_line(str(exc))})"
        return UserConfig(problems=[f"{path}: {detail}; using the default keys"])
    except RecursionError:
        return UserConfig(problems=[f"{path}: nested too deeply; using the default keys"])
    return _validate(path, document, known_ids)


def _read_bounded(path: Path) -> bytes | str | None:
    """The file's bytes; None when there is no file; a str saying why it cannot be used."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot read it ({exc.strerror or type(exc).__name__})"
    if not stat.S_ISREG(info.st_mode):
        return f"is {_file_kind(info.st_mode)}, not a regular file"
    if info.st_size > CONFIG_LIMIT:
        return f"is {info.st_size} bytes, over the {CONFIG_LIMIT // 1024} KiB limit"
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None  # removed since the stat
    except OSError as exc:
        return f"cannot read it ({exc.strerror or type(exc).__name__})"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # replaced since the stat
            return f"is {_file_kind(info.st_mode)}, not a regular file"
        chunks: list[bytes] = []
        size = 0
        while size <= CONFIG_LIMIT:
            chunk = os.read(fd, CONFIG_LIMIT + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        return f"cannot read it ({exc.strerror or type(exc).__name__})"
    finally:
        os.close(fd)
    if size > CONFIG_LIMIT:  # grew since the stat
        return f"is over the {CONFIG_LIMIT // 1024} KiB limit"
    return b"".join(chunks)


def _validate(
    path: Path, document: dict[str, Any], known_ids: Collection[str] | None
) -> UserConfig:
    config = UserConfig()
    for name in document:
        if name != "keymap":
            config.problems.append(
                f"{path}: unknown setting {_shown(name)} (only [keymap] is read); ignored"
            )
    table = document.get("keymap")
    if table is None:
        return config
    if not isinstance(table, dict):
        config.problems.append(
            f"{path}: keymap must be a table ([keymap]), not {_toml_type(table)}; "
            "using the default keys"
        )
        return config
    for binding_id, value in table.items():
        where = f"{path}: [keymap] {_shown(binding_id)}"
        if known_ids is not None and binding_id not in known_ids:
            config.problems.append(
                f"{where} is not a binding id (? lists them); ignored, the default keys stay"
            )
        elif not isinstance(value, str):
            config.problems.append(
                f"{where} must be a string of keys like {EXAMPLE}, not {_toml_type(value)}; "
                "using its default key"
            )
        elif problem := _key_problem(value):
            config.problems.append(f"{where} {problem}; using its default key")
        else:
            config.keymap[binding_id] = ",".join(part.strip() for part in value.split(","))
    return config


def _key_problem(keys: str) -> str:
    """Why a key string cannot be used ("" when it can)."""
    if not keys.strip():
        return "is empty"
    for part in (p.strip() for p in keys.split(",")):
        if not part:
            return f"has an empty key in {_shown(keys)} (keys are separated by commas)"
        if len(part) == 1:
            if not part.isprintable():
                return f"has an unprintable key {_shown(part)}"
        elif not _KEY_NAME.fullmatch(part):
            return f"has {_shown(part)}, not a key (write keys like {EXAMPLE})"
    return ""


def _file_kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a special file"


def _toml_type(value: object) -> str:
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, str):
        return "a string"
    return "a date/time"


def _shown(value: str, limit: int = 60) -> str:
    """A user's string quoted for a one-line message (escaped, cut if long)."""
    return repr(value[:limit] + "…" if len(value) > limit else value)


def _one_line(message: str) -> str:
    return " ".join(message.split())
