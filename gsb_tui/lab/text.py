"""Bilingual text for the lab checklist: every reason and hint is written in English and Korean.

A `Text` is the English string (so JSON, logs and tests read it as a plain str) that also carries
its Korean wording and the catalog key it came from. The Korean follows the lab's own words
(요청서 for ResourceClaim, 틀 for ResourceClaimTemplate); object names, kinds and field paths stay
as kubectl prints them in both languages.
"""

from __future__ import annotations

from typing import Any

from gsb_tui.lab.catalog import MESSAGES


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


def is_korean(lang: str) -> bool:
    return lang.lower().startswith("ko")


def localize(value: str, lang: str) -> str:
    return value.lang(lang) if isinstance(value, Text) else str(value)


def _fill(template: str, values: dict[str, Any], lang: str) -> str:
    # Nested Texts (a reason quoted inside another) are rendered in the same language.
    filled = {k: (v.lang(lang) if isinstance(v, Text) else v) for k, v in values.items()}
    return template.format(**filled)


def t(msg: str, /, **values: Any) -> Text:
    """The catalog message `msg`, filled in, in both languages."""
    en, ko = MESSAGES[msg]
    return Text(_fill(en, values, "en"), _fill(ko, values, "ko"), msg)
