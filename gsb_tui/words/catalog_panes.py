"""The words of the operator's layout: the details pane's folded device lists, the checklist's
and details' scroll keys, the tab keys, the Lab pane switch, the demo's pause and the
scenario step it plays, the states shown worded, and the command palette's own commands:
key -> (English, Korean)."""

from __future__ import annotations

PANES: dict[str, tuple[str, str]] = {
    # the details pane: device lists folded to counts
    "details.more": ("+{n} more (e)", "외 {n}개 (e)"),
    "details.more-short": ("+{n}", "외 {n}개"),
    "details.list": ("(e lists them)", "(e: 목록 보기)"),
    "details.unfold": ("e: every device", "e: 장치 모두 보기"),
    "details.fold": ("e: fold device lists", "e: 장치 목록 접기"),
    "key.gsb.details.unfold": ("Device lists", "장치 목록"),
    "key.gsb.details.unfold.tip": (
        "List every device of each group, or fold the lists to counts",
        "묶음마다 장치를 모두 나열하거나 개수로 접기",
    ),
    "key.gsb.details.pageup": ("Page up", "앞 쪽"),
    "key.gsb.details.pagedown": ("Page down", "뒤 쪽"),
    "key.gsb.details.home": ("Top", "맨 위"),
    "key.gsb.details.end": ("Bottom", "맨 아래"),
    # the checklist
    "key.gsb.lab.pageup": ("Page up", "앞 쪽"),
    "key.gsb.lab.pagedown": ("Page down", "뒤 쪽"),
    "key.gsb.lab.home": ("Top", "맨 위"),
    "key.gsb.lab.end": ("Bottom", "맨 아래"),
    "checklist.keys.scroll": (
        "e example  c copy  PgUp/PgDn scroll",
        "e 예시  c 복사  PgUp/PgDn 넘기기",
    ),
    # tabs (80x24) and the Lab pane
    "key.gsb.tab.devices": ("Devices tab", "장치 탭"),
    "key.gsb.tab.slices": ("Slices tab", "슬라이스 탭"),
    "key.gsb.tab.claims": ("Claims tab", "요청서 탭"),
    "key.gsb.tab.lab": ("Lab tab", "실습 탭"),
    "key.gsb.lab.toggle": ("Lab pane", "실습 창"),
    "key.gsb.lab.toggle.tip": (
        "Show or hide the Lab checklist ([layout] lab = false in config.toml hides it at start)",
        "실습 체크리스트를 보이거나 숨기기 (config.toml 의 [layout] lab = false 로 처음부터 숨김)",
    ),
    "lab.hidden": (
        "Lab pane hidden (L shows it again)",
        "실습 창을 숨겼습니다 (L 을 누르면 다시 보임)",
    ),
    "lab.shown": ("Lab pane shown", "실습 창을 보입니다"),
    "tab.hidden": ("{tab}: hidden (L shows it)", "{tab}: 숨겨짐 (L 로 보이기)"),
    # config.toml's [layout]
    "config.layout-not-table": (
        "{path}: [layout] must be a table, not {type}; the default layout is used",
        "{path}: [layout] 은 테이블이어야 합니다 ({type}이(가) 아니라). 기본 배치를 씁니다",
    ),
    "config.layout-unknown": (
        "{path}: [layout] has no setting {name} (known: lab); ignored",
        "{path}: [layout] 에는 {name}이라는 설정이 없습니다 (있는 것: lab). 무시합니다",
    ),
    "config.layout-not-bool": (
        "{path}: [layout] lab must be true or false, not {type}; the Lab pane is shown",
        "{path}: [layout] lab 은 true 나 false 여야 합니다 ({type}이(가) 아니라)."
        " 실습 창을 보입니다",
    ),
    # the slices pane: a node's allocatable that cannot be shown
    "slices.node-forbidden": ("forbidden (RBAC)", "권한 없음 (RBAC)"),
    "slices.node-not-seen": ("node not seen", "노드를 아직 못 봄"),
    # the YAML / describe view
    "view.keys": ("c copy · Esc close", "c 복사 · Esc 닫기"),
    "view.keys-swap": (
        "s slice / device · c copy · Esc close",
        "s 슬라이스 / 장치 · c 복사 · Esc 닫기",
    ),
    "key.gsb.view.swap": ("Slice / device", "슬라이스 / 장치"),
    "key.gsb.view.swap.tip": (
        "Switch between the device and its whole slice",
        "장치와 그 장치가 든 슬라이스 전체를 오가며 보기",
    ),
    # the demo
    "key.gsb.demo.pause": ("Pause", "일시 정지"),
    "key.gsb.demo.pause.tip": (
        "Pause the demo replay, or play it on",
        "데모 재생을 멈추거나 이어서 재생",
    ),
    "demo.paused": ("paused", "일시 정지됨"),
    "demo.playing": ("playing", "재생 중"),
    "demo.at": ("scenario: {step}", "시나리오: {step}"),
    "demo.pause-live": (
        "p pauses a demo replay; a live cluster goes on",
        "p 는 데모 재생을 멈춥니다. 실제 클러스터는 계속 흐릅니다",
    ),
    # the recordings' marks (the scenario's steps), worded; step-N is "step-n"
    "mark.start": ("start", "시작"),
    "mark.cleanup": ("cleanup", "정리"),
    "mark.mistake-1": ("mistake 1", "실수 1"),
    "mark.mistake-2": ("mistake 2", "실수 2"),
    "mark.filled": ("filled", "가득 참"),
    "mark.binding-waiting": ("waiting on binding conditions", "바인딩 조건을 기다리는 중"),
    "mark.binding-failed": ("binding failed", "바인딩 실패"),
    "mark.given-back": ("device given back", "장치를 돌려줌"),
    "mark.bound": ("bound", "바인딩 끝"),
    "mark.extended-running": ("extended resource running", "확장 리소스로 실행 중"),
    "mark.fabric-allocated": ("fabric allocated", "패브릭 할당됨"),
    "mark.port-allocated": ("port allocated", "포트 할당됨"),
    "mark.full-held": ("whole device held", "장치 전체를 잡음"),
    "mark.partition-pending": ("partition pending", "파티션 대기 중"),
    "mark.partition-allocated": ("partition allocated", "파티션 할당됨"),
    "mark.one-share": ("one share taken", "몫 하나를 씀"),
    "mark.full": ("every share taken", "몫을 모두 씀"),
    "mark.share-pending": ("share pending", "몫 대기 중"),
    "mark.untolerated-pending": ("taint not tolerated: pending", "테인트를 견디지 못해 대기 중"),
    "mark.tolerated-allocated": ("taint tolerated: allocated", "테인트를 견뎌 할당됨"),
    "mark.evicted": ("evicted by a taint", "테인트로 쫓겨남"),
    "mark.group-running": ("pod group running", "파드 그룹 실행 중"),
    "mark.pods-gone": ("pods gone", "파드가 사라짐"),
    "mark.group-gone": ("pod group gone", "파드 그룹이 사라짐"),
    "mark.health-unhealthy": ("a device unhealthy", "장치가 비정상"),
    "mark.health-healthy": ("the device healthy again", "장치가 다시 정상"),
    "mark.prepare-failed": ("prepare failed (driver stopped)", "준비 실패 (드라이버 멈춤)"),
    "mark.driver-back": ("the driver back", "드라이버가 돌아옴"),
    "mark.image-missing": ("an image missing", "이미지가 없음"),
    # watch states as the header shows them (ui/panes/header.py); kinds stay as they are
    "phase.synced": ("synced", "동기화됨"),
    "phase.connecting": ("connecting", "연결 중"),
    "phase.reconnecting": ("reconnecting {n}", "다시 연결 중 {n}"),
    "phase.forbidden": ("forbidden", "권한 없음"),
    "phase.not-served": ("not served", "제공 안 됨"),
    "phase.error": ("error", "오류"),
    "phase.synced-every": ("synced ↻{n}s", "동기화됨 ↻{n}초"),
    "phase.synced-count": ("synced {n}/{total}", "동기화됨 {n}/{total}"),
    # the command palette: Textual's own commands, in the app's language
    "palette.go-to-pane": ("Go to pane: {pane}", "창으로 가기: {pane}"),
    "palette.key": ("{title} (key {key})", "{title} (키 {key})"),
    "palette.placeholder": ("Search for commands…", "명령 찾기…"),
    "palette.theme": ("Theme", "테마"),
    "palette.theme.tip": ("Change the current theme", "지금 테마를 바꿉니다"),
    "palette.quit": ("Quit", "끝내기"),
    "palette.quit.tip": ("Quit the application as soon as possible", "곧바로 끝냅니다"),
    "palette.keys-show": ("Keys", "키 도움말"),
    "palette.keys-show.tip": (
        "Show help for the focused widget and a summary of available keys",
        "포커스된 창의 도움말과 쓸 수 있는 키 요약을 옆에 보입니다",
    ),
    "palette.keys-hide": ("Keys", "키 도움말"),
    "palette.keys-hide.tip": ("Hide the keys and widget help panel", "키 도움말 패널을 숨깁니다"),
    "palette.maximize": ("Maximize", "최대화"),
    "palette.maximize.tip": ("Maximize the focused widget", "포커스된 창을 최대화합니다"),
    "palette.minimize": ("Minimize", "원래 크기로"),
    "palette.minimize.tip": (
        "Minimize the widget and restore to normal size",
        "최대화한 창을 원래 크기로 되돌립니다",
    ),
    "palette.screenshot": ("Screenshot", "스크린숏"),
    "palette.screenshot.tip": (
        "Save an SVG 'screenshot' of the current screen",
        "지금 화면을 SVG 스크린숏으로 저장합니다",
    ),
    "palette.label": ("palette", "명령"),
}
