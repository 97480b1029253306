"""Korean particles chosen by the word they follow: 이/가, 은/는, 을/를, 와/과, 으로/로.

The Korean catalog writes a particle that depends on the word before it as both forms, right
after the word: `{pod}이(가)`, `{name}은(는)`, `{file}을(를)`, `{value}와(과)`, `{path}(으)로`.
`resolve` (called by words.text/t on every Korean sentence once it is filled in) keeps the one
form the last sound of that word takes:

- a Hangul syllable: by its final consonant (받침); 으로/로 takes 로 after ㄹ too (서울로);
- digits, as Korean reads them aloud: 0 영, 1 일, 2 이, 3 삼, 4 사, 5 오, 6 육, 7 칠, 8 팔,
  9 구 by the last digit; a number ending in 0 by its last unit (10 십, 100 백, 1000 천,
  10000 만; a lone 0 영): each has a final consonant, none is ㄹ. So gpu-7이, gpu-7로,
  gpu-2가, gpu-2로, gpu-10이, gpu-10으로;
- Latin letters: a single letter or an upper-case acronym of up to five letters by the name
  of its last letter (엘 L, 알 R: ㄹ; 엠 M, 엔 N: a final consonant; every other letter's
  name ends in a vowel: API가, GPU가, URL이, JSON이); any other run of letters as the English
  word would be written in Hangul, by its ending: -l or -le: ㄹ (pool 풀, file 파일,
  example 이그잼플); -m, -n, -ng, -ck, and -b, -g, -k, -p after a vowel, or a vowel + -me/-ne
  (name 네임): a final consonant (claim, com, lab, big); everything else ends in a vowel
  (node 노드, pod 파드, driver 드라이버, slice 슬라이스, gpu 지피유). So dra-big이, dra-big은,
  lab-node가, gpu.example.com을;
- closing quotes and brackets are looked through (a particle after "name" or after
  "pod (waiting)" goes by name and by pod); anything else (a symbol, an empty value) keeps
  both forms as written, which is never wrong, only less natural.

Pure string work; no other module of words/ is needed here.
"""

from __future__ import annotations

import re
from typing import Literal

Ending = Literal["vowel", "final", "rieul"]  # no final consonant, one, or ㄹ

# The forms as the catalog writes them -> (after a final consonant, after a vowel); after ㄹ
# the vowel's form for 으로/로 and the consonant's for the others.
FORMS: dict[str, tuple[str, str]] = {
    "이(가)": ("이", "가"),
    "은(는)": ("은", "는"),
    "을(를)": ("을", "를"),
    "와(과)": ("과", "와"),
    "과(와)": ("과", "와"),
    "(으)로": ("으로", "로"),
}
_MARKER = re.compile("|".join(re.escape(form) for form in FORMS))
_HANGUL_FIRST, _HANGUL_LAST = 0xAC00, 0xD7A3
_RIEUL_FINAL = 8  # ㄹ's index among the 28 finals of a syllable (0: none)
_DIGIT: dict[str, Ending] = {
    "0": "final",  # 영
    "1": "rieul",  # 일
    "2": "vowel",  # 이
    "3": "final",  # 삼
    "4": "vowel",  # 사
    "5": "vowel",  # 오
    "6": "final",  # 육
    "7": "rieul",  # 칠
    "8": "rieul",  # 팔
    "9": "vowel",  # 구
}
_LETTER: dict[str, Ending] = {"L": "rieul", "R": "rieul", "M": "final", "N": "final"}
_CLOSERS = {")": "(", "]": "[", "}": "{", ">": "<"}
_QUOTES = "'\"`’”»"
_VOWELS = "aeiou"
ACRONYM_MAX = 5  # letters of an upper-case run read letter by letter (API, GPU, JSON)


def _letters_ending(word: str) -> Ending:
    """The last sound of a run of Latin letters (see the module's rule)."""
    if len(word) == 1 or (word.isupper() and len(word) <= ACRONYM_MAX):
        return _LETTER.get(word[-1].upper(), "vowel")
    low = word.lower()
    before = low[-2] if len(low) > 1 else ""
    last = low[-1]
    if last == "l" or (low.endswith("le") and len(low) > 2):
        return "rieul"  # pool, model; file, example, table
    if last in "mn" or low.endswith(("ng", "ck")):
        return "final"
    if last in "bgkp" and before in _VOWELS:
        return "final"
    if low.endswith(("me", "ne")) and len(low) > 2 and low[-3] in _VOWELS:
        return "final"  # name, line, time
    return "vowel"


def _number_ending(digits: str) -> Ending:
    if digits.strip("0") == "" or digits.endswith("0"):
        return "final"  # 영, or the last unit: 십 백 천 만
    return _DIGIT[digits[-1]]


def ending(word: str) -> Ending | None:
    """How `word` ends when read aloud in Korean; None when that cannot be told."""
    end = len(word)
    while end > 0:
        char = word[end - 1]
        if char.isspace() or char in _QUOTES:
            end -= 1
            continue
        if char in _CLOSERS:  # a parenthesis: the word before it takes the particle
            opener = word.rfind(_CLOSERS[char], 0, end - 1)
            if opener < 0:
                return None
            end = opener
            continue
        break
    if end == 0:
        return None
    last = word[end - 1]
    code = ord(last)
    if _HANGUL_FIRST <= code <= _HANGUL_LAST:
        final = (code - _HANGUL_FIRST) % 28
        return "vowel" if final == 0 else ("rieul" if final == _RIEUL_FINAL else "final")
    if last.isascii() and last.isdigit():
        start = end
        while start > 0 and word[start - 1].isascii() and word[start - 1].isdigit():
            start -= 1
        return _number_ending(word[start:end])
    if last.isascii() and last.isalpha():
        start = end
        while start > 0 and word[start - 1].isascii() and word[start - 1].isalpha():
            start -= 1
        return _letters_ending(word[start:end])
    return None


def particle(word: str, form: str) -> str:
    """The particle `form` ("이(가)", "(으)로", …) takes after `word`: e.g. ("dra-big", "은(는)")
    -> "은". Both forms, as given, when the word's ending cannot be told."""
    after_final, after_vowel = FORMS[form]
    found = ending(word)
    if found is None:
        return form
    if found == "vowel" or (found == "rieul" and form == "(으)로"):
        return after_vowel
    return after_final


def attach(word: str, form: str) -> str:
    """`word` with the particle it takes: attach("dra-1", "이(가)") -> "dra-1이"."""
    return word + particle(word, form)


def resolve(sentence: str) -> str:
    """Every both-forms particle in `sentence` replaced by the form the text before it takes.
    A marker after a space (nothing attached to) is left as written."""
    if "(" not in sentence:  # every marker has a parenthesis: most sentences have none
        return sentence
    out: list[str] = []
    done = 0
    for found in _MARKER.finditer(sentence):
        start = found.start()
        before = sentence[:start]
        out.append(sentence[done:start])
        if before and not before[-1].isspace():
            out.append(particle(before, found.group()))
        else:
            out.append(found.group())
        done = found.end()
    out.append(sentence[done:])
    return "".join(out)
