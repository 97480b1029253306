"""Korean particles chosen by the word they follow (gsb_tui/words/particles.py), and the catalog
writing every particle after a name as both forms, attached, so that choice can be made."""

from __future__ import annotations

import re

import pytest

from gsb_tui.words import CATALOG, t, text
from gsb_tui.words.particles import FORMS, attach, ending, particle, resolve
from tests.recorded import view


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("요청서", "vowel"),
        ("파드", "vowel"),
        ("장치", "vowel"),
        ("클래스", "vowel"),
        ("실습", "final"),
        ("틀", "rieul"),
        ("서울", "rieul"),
        ("gpu-1", "rieul"),  # 일
        ("gpu-7", "rieul"),  # 칠
        ("gpu-8", "rieul"),  # 팔
        ("gpu-2", "vowel"),  # 이
        ("gpu-3", "final"),  # 삼
        ("gpu-6", "final"),  # 육
        ("gpu-10", "final"),  # 십
        ("0", "final"),  # 영
        ("dra-big", "final"),  # 빅
        ("lab-node", "vowel"),  # 노드
        ("pool", "rieul"),  # 풀
        ("example", "rieul"),  # 이그잼플
        ("claim", "final"),  # 클레임
        ("name", "final"),  # 네임
        ("gpu.example.com", "final"),  # 닷컴
        ("GPU", "vowel"),  # 지피유
        ("URL", "rieul"),  # 유알엘
        ("JSON", "final"),  # 제이슨
        ("dra-2x", "vowel"),  # 엑스
        ("'Dra-Lab'", "final"),  # quotes are looked through
        ("dra-big (waiting)", "final"),  # so is a parenthesis
        ("…", None),
        ("", None),
    ],
)
def test_the_ending_of_a_word_as_read_aloud(word: str, expected: str | None) -> None:
    assert ending(word) == expected


def test_each_form_after_each_ending() -> None:
    # (after a vowel, after a final consonant, after ㄹ) for every both-forms particle
    cases = {
        "이(가)": ("가", "이", "이"),
        "은(는)": ("는", "은", "은"),
        "을(를)": ("를", "을", "을"),
        "와(과)": ("와", "과", "과"),
        "과(와)": ("와", "과", "과"),
        "(으)로": ("로", "으로", "로"),
    }
    assert set(cases) == set(FORMS)
    for form, (vowel, final, rieul) in cases.items():
        assert particle("파드", form) == vowel, form
        assert particle("실습", form) == final, form
        assert particle("틀", form) == rieul, form
        assert particle("?", form) == form, form  # not known: both forms, as written


def test_resolve_keeps_a_marker_that_follows_a_space() -> None:
    assert resolve("dra-1이(가) 틀(으)로") == "dra-1이 틀로"
    assert resolve("값 이(가) 없음") == "값 이(가) 없음"
    assert resolve("no markers (at all)") == "no markers (at all)"
    assert attach("dra-big", "은(는)") == "dra-big은"


def test_the_names_of_the_recorded_lab_take_their_particles() -> None:
    """The issue's "Pod dra-1 가" and "dra-big 는": names from the recording, particles by
    their last sound, in a sentence of the catalog."""
    lab = view("step-8")
    pods = {pod.name for pod in lab.pods.values()}
    assert {"dra-1", "dra-big"} <= pods
    for name in sorted(pods):
        said = text("ko", "pod.deleting", pod=name)
        assert f"Pod {attach(name, '이(가)')} 지워지는 중입니다" == said
        assert " 가 " not in said and "이(가)" not in said
    assert text("ko", "pod.deleting", pod="dra-1").startswith("Pod dra-1이 ")
    both = t("why.not-found", pod="dra-big")
    assert both.ko == "파드 dra-big이 없습니다"


MARKER = re.compile("|".join(re.escape(form) for form in FORMS))
# A placeholder, then a particle that varies with the word, written as one of its forms only
# (not after an escaped brace: "{{claims: …}}" is YAML the learner types).
FIXED_AFTER_NAME = re.compile(r"(?<!\})\}\s?(이|가|은|는|을|를|와|과|으로|로)(?=[\s,.:;)\"]|$)")


@pytest.mark.parametrize("key", sorted(CATALOG))
def test_the_catalog_writes_particles_after_names_as_both_forms(key: str) -> None:
    ko = CATALOG[key][1]
    assert not FIXED_AFTER_NAME.search(ko), f"{key}: a fixed particle after a name: {ko}"
    for found in MARKER.finditer(ko):
        before = ko[: found.start()]
        assert before and not before[-1].isspace(), f"{key}: a particle apart from its word"
