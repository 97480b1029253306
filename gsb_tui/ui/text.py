"""The dashboard's words in English and Korean.

Object names, kinds and STATE values stay as kubectl prints them in both languages, so what the
learner reads here matches what they type; only the prose around them is translated.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

_EN: Mapping[str, str] = MappingProxyType(
    {
        "grid": "Devices",
        "claims": "Claims",
        "details": "Claim details",
        "slices": "Slices",
        "checklist": "Lab checklist",
        "tab.devices": "Devices",
        "tab.claims": "Claims",
        "tab.slices": "Slices",
        "tab.lab": "Lab",
        "connecting": "connecting to {server}",
        "forbidden": "forbidden (RBAC): {message}",
        "not-served": "API not served: {message}",
        "unreachable": "cannot reach {server}: {message} (retrying, attempt {attempts})",
        "error": "error: {message}",
        "no-slices": "waiting for a DRA driver to publish devices",
        "no-claims": "no ResourceClaims yet",
        "no-match": "no claim matches {filter!r}",
        "no-selection": "select a claim in the Claims pane or a device in the grid",
        "checklist-loading": "checklist loading",
        "step-green": "Step {step} is green: {title}",
        "source-failed": "the change source stopped: {message} (retrying in {delay}s)",
        "replay-done": "replay finished",
        "filter": "filter claims (name, state, device, pod); Enter keeps, Esc clears",
        "nothing-selected": "nothing selected",
        "allocatable-note": "no DRA devices here",
        "slices-compact": "{count} slices, one line each (y on a device shows its slice)",
        "ledger": "{total} devices · {used} in use · {free} free",
        "pending": "pending pods: {pods}",
    }
)

_KO: Mapping[str, str] = MappingProxyType(
    {
        "grid": "장치",
        "claims": "클레임",
        "details": "클레임 상세",
        "slices": "슬라이스",
        "checklist": "실습 체크리스트",
        "tab.devices": "장치",
        "tab.claims": "클레임",
        "tab.slices": "슬라이스",
        "tab.lab": "실습",
        "connecting": "{server}에 연결하는 중",
        "forbidden": "권한 없음 forbidden (RBAC): {message}",
        "not-served": "API가 제공되지 않음: {message}",
        "unreachable": "{server}에 연결할 수 없음: {message} (재시도 {attempts}회째)",
        "error": "오류: {message}",
        "no-slices": "DRA 드라이버가 장치를 게시하기를 기다리는 중",
        "no-claims": "아직 ResourceClaim이 없음",
        "no-match": "{filter!r}와 맞는 클레임이 없음",
        "no-selection": "클레임 창에서 클레임을, 또는 그리드에서 장치를 고르세요",
        "checklist-loading": "체크리스트 불러오는 중",
        "step-green": "{step}단계 통과: {title}",
        "source-failed": "변경 소스가 멈춤: {message} ({delay}초 뒤 재시도)",
        "replay-done": "재생 끝",
        "filter": "클레임 거르기 (이름, 상태, 장치, 파드); Enter 유지, Esc 지우기",
        "nothing-selected": "선택한 것이 없음",
        "allocatable-note": "DRA 장치는 여기 없음",
        "slices-compact": "슬라이스 {count}개, 한 줄씩 (장치에서 y를 누르면 그 슬라이스를 봄)",
        "ledger": "장치 {total}개 · 사용 {used} · 남음 {free}",
        "pending": "대기 중인 파드: {pods}",
    }
)


def text(lang: str, key: str, **values: object) -> str:
    """The string for `key` in `lang` (Korean for "ko", English otherwise), filled in."""
    catalog = _KO if lang.lower().startswith("ko") else _EN
    template = catalog.get(key) or _EN.get(key) or key
    return template.format(**values) if values else template
