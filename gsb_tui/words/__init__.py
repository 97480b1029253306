"""Every sentence a user reads, in English and Korean, from one catalog.

`t(key, **values)` gives a `Text`: the English string (so JSON, logs and tests read it as a plain
str) that also carries its Korean wording and its key. `text(lang, key, **values)` gives the
string in one language directly. Korean follows the lab's own words (요청서 = ResourceClaim,
틀 = ResourceClaimTemplate, 선택식 = selector); object names, kinds, field paths and quoted API
server or scheduler messages stay as kubectl prints them in both languages.

Pure data and str.format: no Textual, no cluster; every layer may use it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from gsb_tui.words.catalog_alloc import ALLOC
from gsb_tui.words.catalog_cli import CLI
from gsb_tui.words.catalog_dra import DRA
from gsb_tui.words.catalog_features import FEATURES
from gsb_tui.words.catalog_grid import GRID
from gsb_tui.words.catalog_jump import JUMP
from gsb_tui.words.catalog_lab import LAB
from gsb_tui.words.catalog_panes import PANES
from gsb_tui.words.catalog_ui import UI
from gsb_tui.words.lang import LANGS, Lang, choose_lang, is_korean
from gsb_tui.words.particles import resolve

__all__ = [
    "CATALOG",
    "EMPTY",
    "LANGS",
    "Lang",
    "Text",
    "choose_lang",
    "is_korean",
    "localize",
    "t",
    "text",
]


def _merge(*parts: Mapping[str, tuple[str, str]]) -> Mapping[str, tuple[str, str]]:
    merged: dict[str, tuple[str, str]] = {}
    for part in parts:
        for key, pair in part.items():
            if key in merged:  # one key, one meaning: a clash is a bug in the catalogs
                raise ValueError(f"catalog key {key!r} is defined twice")
            merged[key] = pair
    return MappingProxyType(merged)


CATALOG: Mapping[str, tuple[str, str]] = _merge(
    UI, LAB, DRA, CLI, FEATURES, ALLOC, JUMP, PANES, GRID
)


class Text(str):
    """English text that also knows its Korean wording and its catalog key."""

    ko: str
    key: str

    def __new__(cls, en: str = "", ko: str | None = None, key: str = "") -> Text:
        obj = super().__new__(cls, en)
        obj.ko = en if ko is None else ko
        obj.key = key
        return obj

    def lang(self, lang: str) -> str:
        """The wording for `lang` ("ko…" picks Korean, anything else English)."""
        return self.ko if is_korean(lang) else str(self)


EMPTY = Text("")


def localize(value: str, lang: str) -> str:
    """A Text in `lang`; any other string as it is (names, quoted messages)."""
    return value.lang(lang) if isinstance(value, Text) else str(value)


def _fill(template: str, values: Mapping[str, Any], lang: str) -> str:
    # Nested Texts (a reason quoted inside another) are rendered in the same language.
    filled = {k: (v.lang(lang) if isinstance(v, Text) else v) for k, v in values.items()}
    out = template.format(**filled) if filled else template
    # Korean particles written as both forms ("{pod}이(가)") take the one the name before
    # them needs, now that the name is known (words/particles.py).
    return resolve(out) if is_korean(lang) else out


def t(key: str, /, **values: Any) -> Text:
    """The catalog message `key`, filled in, in both languages."""
    en, ko = CATALOG[key]
    return Text(_fill(en, values, "en"), _fill(ko, values, "ko"), key)


def text(lang: str, key: str, /, **values: Any) -> str:
    """The catalog message `key` in one language, filled in."""
    en, ko = CATALOG[key]
    return _fill(ko if is_korean(lang) else en, values, lang)
