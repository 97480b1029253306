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
    # ---------------------------------------------------------------- keys (footer and `?`)
    # key.<binding id>: the binding's description; key.<binding id>.tip: its tooltip. The
    # English is the binding's own (a test keeps them equal).
    "key.gsb.yaml": ("YAML", "YAML 보기"),
    "key.gsb.yaml.tip": ("Show the selected object's YAML", "고른 오브젝트의 YAML 을 봅니다"),
    "key.gsb.describe": ("Describe", "자세히"),
    "key.gsb.describe.tip": (
        "Describe the selected object, with its events",
        "고른 오브젝트를 이벤트와 함께 자세히 봅니다",
    ),
    "key.gsb.filter": ("Filter", "거르기"),
    "key.gsb.filter.tip": ("Filter the claims", "요청서를 거릅니다"),
    "key.gsb.selector": ("Try selector", "선택식 시험"),
    "key.gsb.selector.tip": (
        "Type a CEL selector and see which devices it matches",
        "CEL 선택식을 입력하고 어느 장치에 맞는지 봅니다",
    ),
    "key.gsb.help": ("Help", "도움말"),
    "key.gsb.help.tip": ("Show all keys", "모든 키를 봅니다"),
    "key.gsb.quit": ("Quit", "끝내기"),
    "key.gsb.quit.tip": ("Leave gsb-tui", "gsb-tui 를 끝냅니다"),
    "key.gsb.pane.next": ("Next pane", "다음 창"),
    "key.gsb.pane.previous": ("Previous pane", "이전 창"),
    "key.gsb.grid.left": ("Previous device", "이전 장치"),
    "key.gsb.grid.right": ("Next device", "다음 장치"),
    "key.gsb.grid.up": ("Device above", "위 장치"),
    "key.gsb.grid.down": ("Device below", "아래 장치"),
    "key.gsb.claims.up": ("Previous claim", "이전 요청서"),
    "key.gsb.claims.down": ("Next claim", "다음 요청서"),
    "key.gsb.claims.pageup": ("Page up", "앞 쪽"),
    "key.gsb.claims.pagedown": ("Page down", "뒤 쪽"),
    "key.gsb.claims.home": ("First claim", "첫 요청서"),
    "key.gsb.claims.end": ("Last claim", "마지막 요청서"),
    "key.gsb.claims.clear-filter": ("Clear filter", "거르기 지우기"),
    "key.gsb.lab.up": ("Previous step", "이전 단계"),
    "key.gsb.lab.down": ("Next step", "다음 단계"),
    "key.gsb.lab.example": ("Example", "예시"),
    "key.gsb.lab.example.tip": ("Show the step's example", "이 단계의 예시를 봅니다"),
    "key.gsb.lab.copy": ("Copy example", "예시 복사"),
    "key.gsb.lab.copy.tip": (
        "Send the example to the clipboard and save it to a file",
        "예시를 클립보드로 보내고 파일로도 저장합니다",
    ),
    "key.gsb.view.close": ("Close", "닫기"),
    "key.gsb.view.copy": ("Copy", "복사"),
    "key.gsb.view.copy.tip": (
        "Copy the text and save it to a file",
        "글을 복사하고 파일로도 저장합니다",
    ),
    "key.gsb.selector.close": ("Close", "닫기"),
    "key.gsb.selector.fix": ("Apply fix", "고침 적용"),
    "key.gsb.selector.fix.tip": (
        "Replace the expression with the suggested fix",
        "선택식을 제안한 고침으로 바꿉니다",
    ),
    "key.gsb.help.close": ("Close", "닫기"),
    "help.title": ("keys", "키"),
    "help.footer": ("Esc close · ctrl+p command palette", "Esc 닫기 · ctrl+p 명령 팔레트"),
    "help.key": ("KEY", "키"),
    "help.where": ("WHERE", "어디서"),
    "help.where-id": ("WHERE / ID", "어디서 / ID"),
    "help.what": ("WHAT", "무엇을"),
    "help.anywhere": ("anywhere", "어디서나"),
    "help.dashboard": ("dashboard", "대시보드"),
    "help.claims-filter": ("claims filter", "요청서 거르기"),
    "help.view": ("YAML / describe view", "YAML / 자세히 보기"),
    "help.selector": ("selector tool", "선택식 도구"),
    "help.this": ("this help", "이 도움말"),
}
