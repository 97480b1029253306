"""Which language the user reads: chosen here and nowhere else.

`--lang` wins; then the locale variables in POSIX order (LC_ALL, LC_MESSAGES, LANG), so a
Korean desktop gets Korean without a flag. Anything that is not Korean is English.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Literal

Lang = Literal["ko", "en"]
LANGS: tuple[Lang, ...] = ("ko", "en")


def is_korean(lang: str) -> bool:
    return lang.strip().lower().startswith("ko")


def choose_lang(flag: str | None = None, environ: Mapping[str, str] | None = None) -> Lang:
    """The language from `--lang` if given, else from the locale."""
    if flag:
        return "ko" if is_korean(flag) else "en"
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:  # the first one set decides, as POSIX does
            return "ko" if is_korean(value) else "en"
    return "en"
