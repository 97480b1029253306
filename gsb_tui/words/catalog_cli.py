"""Words of the command line (`gsb-tui`, `check`, `match`, `record`) and the help on keys."""

from __future__ import annotations

CLI: dict[str, tuple[str, str]] = {
    "cli.no-demo": (
        "the demo recording (lab.jsonl) is missing from this installation",
        "이 설치본에 데모 녹화 파일(lab.jsonl)이 없습니다",
    ),
    "cli.no-recording": ("no recording at {path}", "{path} 에 녹화 파일이 없습니다"),
    "cli.recording": (
        "recording {server} into {path}; Ctrl-C stops",
        "{server} 를 {path} 에 녹화합니다. Ctrl-C 로 멈춥니다",
    ),
    "cli.saved": ("saved {path}", "{path} 에 저장했습니다"),
    "cli.cannot-write": ("cannot write {path}: {error}", "{path} 에 쓸 수 없습니다: {error}"),
    "match.no-compile": (
        "the expression does not compile: {message}",
        "선택식이 컴파일되지 않습니다: {message}",
    ),
    "match.hint": ("hint: {hint}", "힌트: {hint}"),
    "match.try": ("try: {fix}", "이렇게 써 보세요: {fix}"),
    "match.cannot-read": (
        "cannot read {kind}: {message}",
        "{kind} 을(를) 읽을 수 없습니다: {message}",
    ),
    "match.no-class": (
        "no DeviceClass {name!r} (classes: {known})",
        "DeviceClass {name!r} 가 없습니다 (있는 것: {known})",
    ),
    "match.none": ("none", "없음"),
    "match.no-devices": (
        "no devices are published (no ResourceSlices yet)",
        "게시된 장치가 없습니다 (아직 ResourceSlice 가 없음)",
    ),
    "keys.config-problem": (
        "{path}: {problem}; the default key is used for it",
        "{path}: {problem}. 해당 키는 기본값을 씁니다",
    ),
}
