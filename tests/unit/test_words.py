"""The one text catalog: every key in both languages, the same placeholders in each, and the
language chosen in one place."""

from __future__ import annotations

import importlib
import pkgutil
import re
import string

import pytest

import gsb_tui.words
from gsb_tui.words import CATALOG, Text, choose_lang, localize, t, text

HANGUL = re.compile(r"[\uac00-\ud7a3]")


def _fields(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def test_the_catalog_is_every_part_and_no_key_twice() -> None:
    # Every catalog_* module's table (a new part is found, not listed here by hand).
    parts = []
    for info in pkgutil.iter_modules(gsb_tui.words.__path__):
        if info.name.startswith("catalog_"):
            module = importlib.import_module(f"gsb_tui.words.{info.name}")
            parts += [v for k, v in vars(module).items() if k.isupper() and isinstance(v, dict)]
    assert len(parts) >= 6
    assert len(CATALOG) == sum(len(p) for p in parts)
    assert set(CATALOG) == set().union(*parts)


@pytest.mark.parametrize("key", sorted(CATALOG))
def test_every_key_has_both_languages(key: str) -> None:
    en, ko = CATALOG[key]
    assert en.strip(), f"{key}: no English"
    assert ko.strip(), f"{key}: no Korean"
    assert _fields(en) == _fields(ko), f"{key}: placeholders differ"
    # Korean text is Korean; the only exceptions are commands the learner types as they are.
    assert HANGUL.search(ko) or (ko == en and en.startswith("kubectl ")), f"{key}: not Korean"


def test_t_and_text_agree() -> None:
    for key, (en, _) in CATALOG.items():
        values = {name: f"<{name}>" for name in _fields(en)}
        both = t(key, **values)
        assert isinstance(both, Text) and both.key == key
        assert str(both) == text("en", key, **values)
        assert both.lang("ko") == text("ko", key, **values)
        assert localize(both, "ko-KR") == both.ko


def test_nested_text_takes_the_outer_language() -> None:
    inner = t("file.empty", file="claim.yaml")
    outer = t("match.hint", hint=inner)
    assert outer.ko == text("ko", "match.hint", hint=inner.ko)
    assert str(outer) == text("en", "match.hint", hint=str(inner))


@pytest.mark.parametrize(
    ("flag", "environ", "chosen"),
    [
        ("ko", {"LANG": "en_US.UTF-8"}, "ko"),
        ("en", {"LC_ALL": "ko_KR.UTF-8"}, "en"),
        (None, {"LC_ALL": "ko_KR.UTF-8", "LANG": "en_US.UTF-8"}, "ko"),
        (None, {"LC_ALL": "C.UTF-8", "LANG": "ko_KR.UTF-8"}, "en"),  # the first one set decides
        (None, {"LC_MESSAGES": "ko_KR", "LANG": "C"}, "ko"),
        (None, {"LANG": "ko_KR.UTF-8"}, "ko"),
        (None, {}, "en"),
        (None, {"LC_ALL": "", "LANG": "ko"}, "ko"),  # empty is unset
    ],
)
def test_the_language_is_chosen_in_one_place(
    flag: str | None, environ: dict[str, str], chosen: str
) -> None:
    assert choose_lang(flag, environ) == chosen


def test_language_is_detected_only_in_words() -> None:
    """No other module decides "is this Korean" on its own."""
    from pathlib import Path

    import gsb_tui

    root = Path(gsb_tui.__file__).parent
    offenders = [
        str(p.relative_to(root))
        for p in root.rglob("*.py")
        if "words" not in p.parts and re.search(r"startswith\(\"ko\"\)", p.read_text("utf-8"))
    ]
    assert offenders == []
