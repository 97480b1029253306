"""Words of the command line (`gsb-tui`, `check`, `match`, `record`, `cluster`), of the user's
config.toml and of the help on keys."""

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
    "match.summary": (
        "{matched} match; {free} of them can be allocated now",
        "{matched}개가 맞음. 그중 지금 할당할 수 있는 것 {free}개",
    ),
    "match.no-devices": (
        "no devices are published (no ResourceSlices yet)",
        "게시된 장치가 없습니다 (아직 ResourceSlice 가 없음)",
    ),
    # ---------------------------------------------------------------- config.toml ([keymap])
    # A whole file that cannot be used: {problem} is one of the config.file.* below.
    "config.file": (
        "{path}: {problem}; using the default keys",
        "{path}: {problem}. 기본 키를 씁니다",
    ),
    "config.file.cannot-read": ("cannot read it ({error})", "읽을 수 없습니다 ({error})"),
    "config.file.not-regular": (
        "is {kind}, not a regular file",
        "일반 파일이 아니라 {kind}입니다",
    ),
    "config.file.too-big": (
        "is {size} bytes, over the {limit} KiB limit",
        "{size} 바이트로 {limit} KiB 한도를 넘습니다",
    ),
    "config.file.over-limit": ("is over the {limit} KiB limit", "{limit} KiB 한도를 넘습니다"),
    "config.file.not-utf8": (
        "not UTF-8 text (byte {byte})",
        "UTF-8 텍스트가 아닙니다 (바이트 {byte})",
    ),
    "config.file.not-toml": ("not valid TOML ({error})", "올바른 TOML 이 아닙니다 ({error})"),
    "config.file.too-deep": ("nested too deeply", "너무 깊이 중첩되어 있습니다"),
    "config.kind.directory": ("a directory", "디렉터리"),
    "config.kind.fifo": ("a FIFO", "FIFO(이름 있는 파이프)"),
    "config.kind.socket": ("a socket", "소켓"),
    "config.kind.device": ("a device", "장치 파일"),
    "config.kind.special": ("a special file", "특수 파일"),
    "config.unknown-setting": (
        "{path}: unknown setting {name} (only [keymap] is read); ignored",
        "{path}: 알 수 없는 설정 {name} 입니다 ([keymap] 만 읽습니다). 무시합니다",
    ),
    "config.keymap-not-table": (
        "{path}: keymap must be a table ([keymap]), not {type}; using the default keys",
        "{path}: keymap 은 테이블([keymap])이어야 합니다 (지금은 {type}). 기본 키를 씁니다",
    ),
    "config.not-a-binding": (
        "{path}: [keymap] {id} is not a binding id (? lists them); ignored, the default keys stay",
        "{path}: [keymap] {id} 는 바인딩 id 가 아닙니다 (? 에서 목록을 봅니다). "
        "무시하고 기본 키를 그대로 둡니다",
    ),
    "config.not-a-string": (
        "{path}: [keymap] {id} must be a string of keys like {example}, not {type}; "
        "using its default key",
        "{path}: [keymap] {id} 는 {example} 같은 키 문자열이어야 합니다 (지금은 {type}). "
        "이 항목은 기본 키를 씁니다",
    ),
    # {problem} is one of the config.keys.* below.
    "config.bad-keys": (
        "{path}: [keymap] {id} {problem}; using its default key",
        "{path}: [keymap] {id}: {problem}. 이 항목은 기본 키를 씁니다",
    ),
    "config.keys.empty": ("is empty", "값이 비어 있습니다"),
    "config.keys.empty-key": (
        "has an empty key in {keys} (keys are separated by commas)",
        "{keys} 에 빈 키가 있습니다 (키는 쉼표로 나눕니다)",
    ),
    "config.keys.unprintable": (
        "has an unprintable key {key}",
        "화면에 찍을 수 없는 키 {key} 가 있습니다",
    ),
    "config.keys.not-a-key": (
        "has {key}, not a key (write keys like {example})",
        "{key} 는 키가 아닙니다 ({example} 처럼 씁니다)",
    ),
    "config.type.boolean": ("a boolean", "참/거짓 값"),
    "config.type.integer": ("an integer", "정수"),
    "config.type.number": ("a number", "실수"),
    "config.type.array": ("an array", "배열"),
    "config.type.table": ("a table", "테이블"),
    "config.type.string": ("a string", "문자열"),
    "config.type.datetime": ("a date/time", "날짜/시각"),
    "config.more": ("(and {count} more)", "(그 밖에 {count} 개 더)"),
    # ---------------------------------------------------------------- gsb-tui cluster
    "cluster.bad-sizes": (
        "--nodes must be >= 1 and --devices 1..128 (one slice holds at most 128)",
        "--nodes 는 1 이상, --devices 는 1..128 이어야 합니다 (슬라이스 하나에 최대 128 개)",
    ),
    # A shell comment after `export KUBECONFIG=...` (stdout, so it must stay one line).
    "cluster.then": (
        "# then: kubectl get resourceslices,deviceclasses; gsb-tui --kubeconfig {kubeconfig}",
        "# 다음으로: kubectl get resourceslices,deviceclasses; gsb-tui --kubeconfig {kubeconfig}",
    ),
    "cluster.no-cluster": (
        "no practice cluster in {dir}: run `gsb-tui cluster up` first",
        "{dir} 에 연습 클러스터가 없습니다. 먼저 `gsb-tui cluster up` 을 실행하세요",
    ),
    "cluster.refused": (
        "the API server refused a request: {error}",
        "API 서버가 요청을 거부했습니다: {error}",
    ),
    "cluster.interrupted": (
        "interrupted; run `gsb-tui cluster down` to stop what started",
        "중단했습니다. 시작된 것은 `gsb-tui cluster down` 으로 멈추세요",
    ),
    "cluster.status.running": ("running (pid {pid})", "실행 중 (pid {pid})"),
    "cluster.status.stopped": ("stopped", "멈춤"),
    "cluster.status.api-server": ("api server", "API 서버"),
    "cluster.status.ready": ("ready", "준비됨"),
    "cluster.status.not-ready": ("not ready", "준비 안 됨"),
    "cluster.status.server": ("server", "서버"),
    # The progress of `up`, `down` and `build` (each line printed after "[cluster] ").
    "cluster.already-running": (
        "already running ({dir}); nothing to do",
        "이미 실행 중입니다 ({dir}). 할 일이 없습니다",
    ),
    "cluster.stopping-partial": (
        "stopping a partial cluster left from before: {names}",
        "전에 일부만 남은 클러스터를 멈춥니다: {names}",
    ),
    "cluster.starting": ("starting {component} on {url}", "{component} 를 {url} 에서 시작합니다"),
    "cluster.starting-rest": (
        "starting kube-controller-manager, kube-scheduler, kwok",
        "kube-controller-manager, kube-scheduler, kwok 를 시작합니다",
    ),
    "cluster.seeding": (
        "seeding: {nodes} node(s) x {devices} devices of {driver}, namespace {namespace}",
        "실습 오브젝트를 만듭니다: 노드 {nodes} 개 x {driver} 장치 {devices} 개, "
        "네임스페이스 {namespace}",
    ),
    "cluster.ready": ("ready in {seconds} s: {server}", "{seconds} 초 만에 준비됐습니다: {server}"),
    "cluster.stale-pid": (
        "removed a stale pid file for {name} (its process is gone)",
        "{name} 의 낡은 pid 파일을 지웠습니다 (그 프로세스는 이미 없습니다)",
    ),
    "cluster.nothing-running": (
        "nothing is running (no pid files in {dir})",
        "실행 중인 것이 없습니다 ({dir} 에 pid 파일이 없음)",
    ),
    "cluster.not-running": (
        "{name}: not running (stale pid file removed)",
        "{name}: 실행 중이 아닙니다 (낡은 pid 파일을 지웠습니다)",
    ),
    "cluster.stopped": ("stopped {name} (pid {pid})", "{name} 을(를) 멈췄습니다 (pid {pid})"),
    "cluster.building-k8s": (
        "building kube-apiserver, kube-scheduler, kube-controller-manager {version} "
        "(first time only; about 5 min on 2 cores, 2.3 GB of memory; log: {log})",
        "kube-apiserver, kube-scheduler, kube-controller-manager {version} 를 빌드합니다 "
        "(처음 한 번만; 2 코어에서 약 5 분, 메모리 2.3 GB; 로그: {log})",
    ),
    "cluster.building-etcd": (
        "building etcd {version} (log: {log})",
        "etcd {version} 를 빌드합니다 (로그: {log})",
    ),
    "cluster.built": (
        "control plane built in {seconds} s -> {dir}",
        "컨트롤 플레인을 {seconds} 초 만에 빌드했습니다 -> {dir}",
    ),
    "cluster.building-kwok": (
        "building kwok {version} (first time only; log: {log})",
        "kwok {version} 를 빌드합니다 (처음 한 번만; 로그: {log})",
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
