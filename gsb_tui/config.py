"""The user's config file, $XDG_CONFIG_HOME/gsb-tui/config.toml: [keymap], mapping a binding id
(`?` lists them) to the keys that run it, in Textual's syntax, and [layout] (`lab = false`
hides the Lab pane, for operators):

    [keymap]
    "gsb.yaml" = "Y"
    "gsb.quit" = "q,ctrl+q"

    [layout]
    lab = false

Pure (no Textual) and bounded: only a regular file of at most 64 KiB is read, and opening never
blocks (a FIFO in its place is refused before it is opened). Nothing here raises: each thing
wrong becomes one line in `problems` (a bilingual `Text` from the words catalog, `config.*`),
that entry keeps its default, and the valid ones apply. An entry giving a binding a key that
another binding holds where both work (`"gsb.quit" = "s"` while `s` opens the selector) is
refused the same way, so neither binding is lost; keys moved away by their own entry are free.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gsb_tui.bounded import Refused, read_capped
from gsb_tui.words import EMPTY, Text, t

CONFIG_LIMIT = 64 * 1024  # bytes; a keymap is a few hundred
EXAMPLE = '"q,ctrl+q"'
# A key is one character ("?", "Y") or Textual's name for it, with modifiers ("ctrl+shift+f1").
_KEY_NAME = re.compile(r"[A-Za-z0-9_]+(\+[A-Za-z0-9_]+)*")


@dataclass(frozen=True)
class UserConfig:
    """What the file asked for that is valid, and one line for each thing that was not."""

    keymap: dict[str, str] = field(default_factory=dict)
    problems: list[Text] = field(default_factory=list)
    lab_pane: bool = True  # [layout] lab: the Lab checklist shown


@dataclass(frozen=True)
class KeyHolder:
    """A binding as the keymap's clash check sees it: its default keys (as Textual names them)
    and where it works (two bindings clash when they share a context and a key)."""

    keys: tuple[str, ...]
    contexts: frozenset[str]


def config_path() -> Path:
    """$XDG_CONFIG_HOME/gsb-tui/config.toml (~/.config when unset or not absolute)."""
    base = os.environ.get("XDG_CONFIG_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".config"
    return root / "gsb-tui" / "config.toml"


def load_config(
    path: Path | None = None,
    known_ids: Collection[str] | None = None,
    holders: Mapping[str, KeyHolder] | None = None,
    normalize: Callable[[str], str] = str,
) -> UserConfig:
    """Read `path` (default config_path()). A missing file is no config and no problem.

    `known_ids`: the binding ids that exist; any other id is reported (None: not checked;
    `holders` given: its ids). `holders`: every binding's default keys and contexts, for
    refusing an entry that takes another binding's key; `normalize` names a key as the
    holders do ("?" -> "question_mark").
    """
    if holders is not None:
        config = load_config(path, holders.keys() if known_ids is None else known_ids)
        return refuse_clashes(config, path or config_path(), holders, normalize)
    path = config_path() if path is None else path
    data = _read_bounded(path)
    if isinstance(data, Text):
        return UserConfig(problems=[t("config.file", path=path, problem=data)])
    if data is None:
        return UserConfig()
    try:
        document = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        detail = t("config.file.not-utf8", byte=exc.start)
    except tomllib.TOMLDecodeError as exc:
        detail = t("config.file.not-toml", error=_one_line(str(exc)))
    except RecursionError:
        detail = t("config.file.too-deep")
    else:
        return _validate(path, document, known_ids)
    return UserConfig(problems=[t("config.file", path=path, problem=detail)])


def _read_bounded(path: Path) -> bytes | Text | None:
    """The file's bytes; None when there is no file; a Text saying why it cannot be used."""
    try:
        return read_capped(path, CONFIG_LIMIT)
    except FileNotFoundError:
        return None
    except Refused as exc:
        return exc.problem
    except OSError as exc:
        return _cannot_read(exc)


def _cannot_read(exc: OSError) -> Text:
    return t("config.file.cannot-read", error=exc.strerror or type(exc).__name__)


def _validate(
    path: Path, document: dict[str, Any], known_ids: Collection[str] | None
) -> UserConfig:
    problems: list[Text] = []
    lab_pane = _layout(path, document.get("layout", {}), problems)
    config = UserConfig(problems=problems, lab_pane=lab_pane)
    for name in document:
        if name not in ("keymap", "layout"):
            config.problems.append(t("config.unknown-setting", path=path, name=_shown(name)))
    table = document.get("keymap")
    if table is None:
        return config
    if not isinstance(table, dict):
        config.problems.append(t("config.keymap-not-table", path=path, type=_toml_type(table)))
        return config
    for binding_id, value in table.items():
        shown = _shown(binding_id)
        if known_ids is not None and binding_id not in known_ids:
            config.problems.append(t("config.not-a-binding", path=path, id=shown))
        elif not isinstance(value, str):
            config.problems.append(
                t(
                    "config.not-a-string",
                    path=path,
                    id=shown,
                    example=EXAMPLE,
                    type=_toml_type(value),
                )
            )
        elif problem := _key_problem(value):
            config.problems.append(t("config.bad-keys", path=path, id=shown, problem=problem))
        else:
            config.keymap[binding_id] = ",".join(part.strip() for part in value.split(","))
    return config


def _layout(path: Path, table: object, problems: list[Text]) -> bool:
    """[layout]'s `lab` (True when absent or wrong; each thing wrong said in `problems`)."""
    if not isinstance(table, dict):
        problems.append(t("config.layout-not-table", path=path, type=_toml_type(table)))
        return True
    for name in table:
        if name != "lab":
            problems.append(t("config.layout-unknown", path=path, name=_shown(name)))
    lab = table.get("lab", True)
    if not isinstance(lab, bool):
        problems.append(t("config.layout-not-bool", path=path, type=_toml_type(lab)))
        return True
    return lab


def refuse_clashes(
    config: UserConfig,
    path: Path,
    holders: Mapping[str, KeyHolder],
    normalize: Callable[[str], str] = str,
) -> UserConfig:
    """`config` without the entries that give their binding a key another binding holds in a
    context they share (each reported); refused until none is left, since a refused entry
    gives its binding its default keys back."""
    keymap = dict(config.keymap)
    problems = list(config.problems)
    while clash := _first_clash(keymap, holders, normalize):
        binding_id, key, other = clash
        del keymap[binding_id]
        problems.append(
            t("config.key-taken", path=path, id=_shown(binding_id), key=_shown(key), other=other)
        )
    return UserConfig(keymap, problems, config.lab_pane)


def _first_clash(
    keymap: Mapping[str, str], holders: Mapping[str, KeyHolder], normalize: Callable[[str], str]
) -> tuple[str, str, str] | None:
    def keys_of(binding_id: str) -> set[str]:
        if binding_id in keymap:
            return {normalize(key) for key in keymap[binding_id].split(",")}
        return set(holders[binding_id].keys)

    for binding_id, keys in keymap.items():
        holder = holders.get(binding_id)
        if holder is None:
            continue
        for key in keys.split(","):
            if normalize(key) in holder.keys:
                continue  # its own default key: whatever shares it did so before
            for other, other_holder in holders.items():
                if (
                    other != binding_id
                    and holder.contexts & other_holder.contexts
                    and normalize(key) in keys_of(other)
                ):
                    return binding_id, key, other
    return None


def _key_problem(keys: str) -> Text:
    """Why a key string cannot be used (EMPTY, which is false, when it can)."""
    if not keys.strip():
        return t("config.keys.empty")
    for part in (p.strip() for p in keys.split(",")):
        if not part:
            return t("config.keys.empty-key", keys=_shown(keys))
        if len(part) == 1:
            if not part.isprintable():
                return t("config.keys.unprintable", key=_shown(part))
        elif not _KEY_NAME.fullmatch(part):
            return t("config.keys.not-a-key", key=_shown(part), example=EXAMPLE)
    return EMPTY


def _toml_type(value: object) -> Text:
    if isinstance(value, bool):
        return t("config.type.boolean")
    if isinstance(value, int):
        return t("config.type.integer")
    if isinstance(value, float):
        return t("config.type.number")
    if isinstance(value, list):
        return t("config.type.array")
    if isinstance(value, dict):
        return t("config.type.table")
    if isinstance(value, str):
        return t("config.type.string")
    return t("config.type.datetime")


def _shown(value: str, limit: int = 60) -> str:
    """A user's string quoted for a one-line message (escaped, cut if long)."""
    return repr(value[:limit] + "…" if len(value) > limit else value)


def _one_line(message: str) -> str:
    return " ".join(message.split())
