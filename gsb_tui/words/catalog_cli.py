# Over 400 lines: one catalog of sentences (data, no logic): the command line's and kube/'s.
"""Words of the command line (`gsb-tui`, `check`, `match`, `record`, `cluster`), of the user's
config.toml and of the help on keys."""

from __future__ import annotations

CLI: dict[str, tuple[str, str]] = {
    "cli.no-demo": (
        "the demo recording (lab.jsonl) is missing from this installation",
        "이 설치본에 데모 녹화 파일(lab.jsonl)이 없습니다",
    ),
    "cli.no-recording": ("no recording at {path}", "{path}에 녹화 파일이 없습니다"),
    "cli.unknown-demo": (
        "{name!r} is neither a recording file nor a demo name ({names})",
        "{name!r}은(는) 녹화 파일도 데모 이름({names})도 아닙니다",
    ),
    "cli.recording": (
        "recording {server} into {path}; Ctrl-C stops",
        "{server}을(를) {path}에 녹화합니다. Ctrl-C 로 멈춥니다",
    ),
    "cli.saved": ("saved {path}", "{path}에 저장했습니다"),
    "cli.cannot-write": ("cannot write {path}: {error}", "{path}에 쓸 수 없습니다: {error}"),
    "match.no-compile": (
        "the expression does not compile: {message}",
        "선택식이 컴파일되지 않습니다: {message}",
    ),
    "match.hint": ("hint: {hint}", "힌트: {hint}"),
    "match.try": ("try: {fix}", "이렇게 써 보세요: {fix}"),
    "match.cannot-read": (
        "cannot read {kind}: {message}",
        "{kind}을(를) 읽을 수 없습니다: {message}",
    ),
    "match.no-class": (
        "no DeviceClass {name!r} (classes: {known})",
        "DeviceClass {name!r}이(가) 없습니다 (있는 것: {known})",
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
    "cli.usage-error": ("{prog}: error: {message}", "{prog}: 오류: {message}"),
    "cli.bad-speed": (
        "{value} is not a speed: give a number from 0 (instant) to {max}",
        "{value}은(는) 속도가 아닙니다: 0(즉시)부터 {max} 사이의 수를 주세요",
    ),
    "cli.not-a-directory": ("{path} is not a directory", "{path}은(는) 디렉터리가 아닙니다"),
    # lab/files.py: an answer file that cannot be reached because --lab-dir itself loops.
    "file.dir-loop": (
        "{file} cannot be read: the lab directory {dir} is a symlink loop "
        "(it points back at itself)",
        "{file}을(를) 읽을 수 없습니다: 실습 디렉터리 {dir}이(가) 자기 자신을 가리키는 "
        "심볼릭 링크 고리입니다",
    ),
    "cli.empty-name": ("must not be empty", "비어 있으면 안 됩니다"),
    "cli.bad-namespace": (
        "{value} is not a namespace name: lowercase letters, digits and '-', at most 63, "
        "starting and ending with a letter or digit (e.g. dra-lab)",
        "{value}은(는) 네임스페이스 이름이 아닙니다: 영문 소문자, 숫자, '-' 로 63자까지, "
        "처음과 끝은 영문자나 숫자여야 합니다 (예: dra-lab)",
    ),
    "cli.no-terminal.stdin": (
        "the dashboard needs a terminal, and standard input is not one; run it in a terminal "
        "(check, why, devices, match and record work without one)",
        "대시보드는 터미널이 있어야 하는데 표준 입력이 터미널이 아닙니다. 터미널에서 실행하세요 "
        "(check, why, devices, match, record 는 터미널 없이도 됩니다)",
    ),
    "cli.no-terminal.stderr": (
        "the dashboard needs a terminal, and standard error (where it draws) is not one; "
        "run it without redirecting 2> (check, why, devices, match and record work without one)",
        "대시보드는 터미널이 있어야 하는데 화면을 그리는 표준 오류가 터미널이 아닙니다. "
        "2> 로 리디렉션하지 말고 실행하세요 "
        "(check, why, devices, match, record 는 터미널 없이도 됩니다)",
    ),
    "cli.stdout-failed": (
        "cannot write to standard output: {error}",
        "표준 출력에 쓸 수 없습니다: {error}",
    ),
    # The epilog of `gsb-tui --help` (kept as written: one code a line).
    "cli.exit-codes": (
        "exit codes:\n"
        "  0    done: every step green (check), the selector evaluated (match),\n"
        "       the recording saved (record)\n"
        "  1    not yet or no match: a step is not green, the expression does not compile\n"
        "       or names no DeviceClass, a recording is missing, or output could not be written\n"
        "  2    the cluster cannot be used: no kubeconfig or a broken one, unreachable,\n"
        "       credentials refused, not a Kubernetes API server, `record` never synced\n"
        "  64   usage error: an unknown or invalid argument; `record` would overwrite FILE\n"
        "       without --force; the dashboard started without a terminal\n"
        "  129  the dashboard was stopped by SIGHUP (its terminal closed); the terminal restored\n"
        "  130  interrupted (Ctrl-C, SIGINT)\n"
        "  143  the dashboard was stopped by SIGTERM (kill); the terminal restored",
        "종료 코드:\n"
        "  0    완료: 모든 단계 통과(check), 선택식 평가 끝(match), 녹화 저장(record)\n"
        "  1    아직 아님 또는 맞는 것 없음: 통과하지 못한 단계가 있음, 선택식이 컴파일되지\n"
        "       않거나 없는 DeviceClass 를 가리킴, 녹화 파일이 없음, 출력을 쓸 수 없음\n"
        "  2    클러스터를 쓸 수 없음: kubeconfig 가 없거나 잘못됨, 연결 안 됨, 자격 증명\n"
        "       거부, Kubernetes API 서버가 아님, `record` 가 한 번도 동기화하지 못함\n"
        "  64   사용법 오류: 모르는 인자나 잘못된 값, --force 없이 `record` 가 FILE 을\n"
        "       덮어쓰려 함, 터미널 없이 대시보드를 시작함\n"
        "  129  SIGHUP 으로 대시보드가 멈춤 (터미널이 닫힘). 터미널은 원래대로 되돌림\n"
        "  130  중단됨 (Ctrl-C, SIGINT)\n"
        "  143  SIGTERM 으로 대시보드가 멈춤 (kill). 터미널은 원래대로 되돌림",
    ),
    # ---------------------------------------------------------------- gsb-tui record
    "record.exists": (
        "{path} already exists; pass --force to overwrite it",
        "{path}이(가) 이미 있습니다. 덮어쓰려면 --force 를 주세요",
    ),
    "record.no-folder": ("its folder does not exist", "그 폴더가 없습니다"),
    "record.not-regular": (
        "{path} is {kind}, not a regular file",
        "{path}은(는) 일반 파일이 아니라 {kind}입니다",
    ),
    "record.unusable": (
        "nothing recorded: cannot use the cluster at {server}: {reason}",
        "아무것도 녹화하지 못했습니다: {server}의 클러스터를 쓸 수 없습니다: {reason}",
    ),
    "record.not-synced": (
        "nothing recorded: the cluster at {server} never answered ({reason})",
        "아무것도 녹화하지 못했습니다: {server}의 클러스터가 끝내 답하지 않았습니다 ({reason})",
    ),
    # ---------------------------------------------------------------- recordings (--demo)
    "recording.refused": ("recording {path} {problem}", "녹화 파일 {path}: {problem}"),
    "recording.cannot-open": (
        "cannot open recording {path}: {error}",
        "녹화 파일 {path}을(를) 열 수 없습니다: {error}",
    ),
    "recording.no-mark": (
        "{path}: no mark {mark!r} (marks: {marks})",
        "{path}: 표시 {mark!r}이(가) 없습니다 (있는 표시: {marks})",
    ),
    "recording.empty": (
        "the recording {path} is empty: it has no recorded changes",
        "녹화 파일 {path}이(가) 비어 있습니다: 기록된 변화가 없습니다",
    ),
    "recording.nothing-valid": (
        "the recording {path} has no recorded changes ({bad} line(s) that are not changes "
        "were skipped)",
        "녹화 파일 {path}에 기록된 변화가 없습니다 (변화가 아닌 줄 {bad} 개를 건너뛰었습니다)",
    ),
    "recording.skipped": (
        "{path}: skipped {count} line(s) that are not recorded changes (the first at line {line})",
        "{path}: 기록된 변화가 아닌 줄 {count} 개를 건너뛰었습니다 (첫 줄: {line} 번째)",
    ),
    # ---------------------------------------------------------------- kubeconfig (kube/config.py)
    "file.too-big": (
        "is {size} bytes, over the {limit} limit",
        "{size} 바이트로 {limit} 한도를 넘습니다",
    ),
    "file.over-limit": ("is over the {limit} limit", "{limit} 한도를 넘습니다"),
    # {problem}: config.file.not-regular or kube.file.* ("is a FIFO, not a regular file").
    "kube.refused": (
        "kubeconfig {path} ({origin}) {problem}",
        "kubeconfig 파일 {path} ({origin}): {problem}",
    ),
    "kube.denied": (
        "cannot read kubeconfig {path} ({origin}): permission denied",
        "kubeconfig {path} ({origin}) 를 읽을 수 없습니다: 권한이 없습니다",
    ),
    "kube.denied-k3s": (
        "cannot read kubeconfig {path} ({origin}): permission denied. k3s writes it mode 600 "
        "for root: run as root, copy it to ~/.kube/config, or start k3s with "
        "--write-kubeconfig-mode 644.",
        "kubeconfig {path} ({origin}) 를 읽을 수 없습니다: 권한이 없습니다. k3s 는 이 파일을 "
        "root 전용(모드 600)으로 씁니다. root 로 실행하거나, ~/.kube/config 로 복사하거나, "
        "k3s 를 --write-kubeconfig-mode 644 로 시작하세요.",
    ),
    "kube.cannot-read": (
        "cannot read kubeconfig {path} ({origin}): {error}",
        "kubeconfig {path} ({origin}) 를 읽을 수 없습니다: {error}",
    ),
    "kube.bad-path": (
        "the kubeconfig path {path} ({origin}) is not a valid file name",
        "kubeconfig 경로 {path} ({origin}) 는 올바른 파일 이름이 아닙니다",
    ),
    "kube.not-utf8": (
        "kubeconfig {path} is not UTF-8 text (byte {byte})",
        "kubeconfig {path}이(가) UTF-8 텍스트가 아닙니다 (바이트 {byte})",
    ),
    "kube.not-yaml-at": (
        "kubeconfig {path} is not valid YAML at line {line}",
        "kubeconfig {path}은(는) 올바른 YAML 이 아닙니다 ({line} 번째 줄)",
    ),
    "kube.not-yaml": (
        "kubeconfig {path} is not valid YAML",
        "kubeconfig {path}은(는) 올바른 YAML 이 아닙니다",
    ),
    "kube.too-deep": (
        "kubeconfig {path} is nested too deeply to be a kubeconfig",
        "kubeconfig {path}은(는) 너무 깊이 중첩되어 있어 kubeconfig 로 읽을 수 없습니다",
    ),
    "kube.no-clusters": (
        "kubeconfig {path} has no clusters: is it really a kubeconfig?",
        "kubeconfig {path}에 clusters 가 없습니다: 정말 kubeconfig 인가요?",
    ),
    "kube.wrong-type": (
        "kubeconfig {path}: {field} must be {expected}, not {actual}",
        "kubeconfig {path}: {field}은(는) {expected}이어야 합니다 (지금은 {actual})",
    ),
    "kube.type.string": ("a string", "문자열"),
    "kube.type.boolean": ("a boolean", "참/거짓 값"),
    "kube.type.integer": ("an integer", "정수"),
    "kube.type.number": ("a number", "실수"),
    "kube.type.list": ("a list", "목록"),
    "kube.type.mapping": ("a mapping", "매핑"),
    "kube.type.null": ("null", "null 값"),
    "kube.type.other": ("another kind of value", "다른 종류의 값"),
    "kube.none": ("none", "없음"),
    "kube.no-context": (
        "context {context!r} is not in {path}; contexts there: {contexts}",
        "컨텍스트 {context!r}이(가) {path}에 없습니다. 있는 컨텍스트: {contexts}",
    ),
    "kube.no-current-context": (
        "{path} sets no current-context; pass --context (one of: {contexts})",
        "{path}에 current-context 가 없습니다. --context 로 고르세요 (있는 것: {contexts})",
    ),
    "kube.no-server": (
        "context {context!r} in {path} names no cluster with a server URL",
        "{path}의 컨텍스트 {context!r}이(가) 가리키는 클러스터에 server URL 이 없습니다",
    ),
    "kube.no-user": (
        "context {context!r} in {path} names user {user!r}, which is not in the kubeconfig",
        "{path}의 컨텍스트 {context!r}이(가) 가리키는 사용자 {user!r}이(가) kubeconfig 에 없습니다",
    ),
    "kube.bad-server": (
        "context {context!r} in {path}: the server {server!r} is not an http:// or https:// URL",
        "{path}의 컨텍스트 {context!r}: server {server!r}은(는) http:// 나 https:// URL 이"
        " 아닙니다",
    ),
    "kube.tried-missing": ("{path} ({origin}): not found", "{path} ({origin}): 없음"),
    "kube.none-found": (
        "no kubeconfig found. Tried: {tried}. Pass --kubeconfig FILE, set KUBECONFIG, or try "
        "`gsb-tui --demo` (no cluster needed) or `gsb-tui cluster up` (a local practice cluster).",
        "kubeconfig 를 찾지 못했습니다. 찾아본 곳: {tried}. --kubeconfig FILE 을 주거나 "
        "KUBECONFIG 를 설정하세요. 클러스터 없이 `gsb-tui --demo` 를 쓰거나 "
        "`gsb-tui cluster up` 으로 연습 클러스터를 띄울 수도 있습니다.",
    ),
    "kube.loader": (
        "kubeconfig {path}, context {context!r}: {error}",
        "kubeconfig {path}, 컨텍스트 {context!r}: {error}",
    ),
    # ---------------------------------------------------------------- TLS and credentials
    "kube.bad-base64": (
        "{field} in the kubeconfig is not valid base64",
        "kubeconfig 의 {field}이(가) 올바른 base64 가 아닙니다",
    ),
    "kube.material-refused": (
        "the kubeconfig's {field} {path} {problem}",
        "kubeconfig 의 {field} {path}: {problem}",
    ),
    "kube.cannot-read-material": (
        "cannot read {field} {path}: {error}",
        "{field} {path}을(를) 읽을 수 없습니다: {error}",
    ),
    "kube.not-pem-text": ("not PEM text", "PEM 텍스트가 아님"),
    "kube.bad-ca": (
        "the kubeconfig's certificate authority is not a PEM certificate ({reason})",
        "kubeconfig 의 인증 기관(certificate authority)이 PEM 인증서가 아닙니다 ({reason})",
    ),
    "kube.bad-client-cert": (
        "the kubeconfig's client certificate and key cannot be used ({reason})",
        "kubeconfig 의 클라이언트 인증서와 키를 쓸 수 없습니다 ({reason})",
    ),
    "kube.cert-without-key": (
        "the kubeconfig gives a client certificate without its key, or a key without its "
        "certificate",
        "kubeconfig 에 클라이언트 인증서와 키 중 하나만 있습니다",
    ),
    "kube.bad-header-value": (
        "the kubeconfig's {field} has characters an HTTP header cannot carry",
        "kubeconfig 의 {field}에 HTTP 헤더에 넣을 수 없는 문자가 있습니다",
    ),
    # ---------------------------------------------------------------- exec credential plugins
    "kube.exec.waiting": (
        "waiting for the credential plugin {command}",
        "자격 증명 플러그인 {command}을(를) 기다리는 중",
    ),
    "kube.exec.no-command": (
        "the kubeconfig's exec plugin names no command",
        "kubeconfig 의 exec 플러그인에 command 가 없습니다",
    ),
    "kube.exec.not-found": (
        "the credential plugin {command} is not installed (not found)",
        "자격 증명 플러그인 {command}이(가) 설치되어 있지 않습니다 (찾을 수 없음)",
    ),
    "kube.exec.not-found-hint": (
        "the credential plugin {command} is not installed (not found): {hint}",
        "자격 증명 플러그인 {command}이(가) 설치되어 있지 않습니다 (찾을 수 없음): {hint}",
    ),
    "kube.exec.cannot-run": (
        "cannot run the credential plugin {command}: {error}",
        "자격 증명 플러그인 {command}을(를) 실행할 수 없습니다: {error}",
    ),
    "kube.exec.timeout": (
        "the credential plugin {command} gave no credential within {seconds} s; it was stopped",
        "자격 증명 플러그인 {command}이(가) {seconds} 초 안에 자격 증명을 주지 않아 멈췄습니다",
    ),
    "kube.exec.too-much": (
        "the credential plugin {command} printed more than {limit} KiB",
        "자격 증명 플러그인 {command}이(가) {limit} KiB 넘게 출력했습니다",
    ),
    "kube.exec.killed": (
        "the credential plugin {command} was stopped by signal {signal}",
        "자격 증명 플러그인 {command}이(가) 시그널 {signal}(으)로 멈췄습니다",
    ),
    "kube.exec.failed-said": (
        "the credential plugin {command} failed (exit {code}): {stderr}",
        "자격 증명 플러그인 {command}이(가) 실패했습니다 (종료 코드 {code}): {stderr}",
    ),
    "kube.exec.failed": (
        "the credential plugin {command} failed (exit {code})",
        "자격 증명 플러그인 {command}이(가) 실패했습니다 (종료 코드 {code})",
    ),
    "kube.exec.not-json": (
        "the credential plugin {command} did not print JSON",
        "자격 증명 플러그인 {command}이(가) JSON 을 출력하지 않았습니다",
    ),
    "kube.exec.not-credential": (
        "the credential plugin {command} did not print an ExecCredential",
        "자격 증명 플러그인 {command}이(가) ExecCredential 을 출력하지 않았습니다",
    ),
    "kube.exec.wrong-api": (
        "the credential plugin {command} answered in {got}, not {want}",
        "자격 증명 플러그인 {command}이(가) {want}이(가) 아니라 {got}(으)로 답했습니다",
    ),
    "kube.exec.no-credential": (
        "the credential plugin {command} gave neither a token nor a client certificate and key",
        "자격 증명 플러그인 {command}이(가) 토큰도, 클라이언트 인증서와 키도 주지 않았습니다",
    ),
    "kube.exec.bad-expiry": (
        "the credential plugin {command} gave an expirationTimestamp that is not a time: {value}",
        "자격 증명 플러그인 {command}이(가) 준 expirationTimestamp 가 시각이 아닙니다: {value}",
    ),
    # ---------------------------------------------------------------- the API server's answers
    "kube.forbidden": ("forbidden (RBAC): {message}", "거부됨 (RBAC): {message}"),
    "kube.not-served": (
        "{api} {kind} is not served by this API server",
        "이 API 서버는 {api} {kind}을(를) 제공하지 않습니다",
    ),
    "kube.unauthorized": (
        "the API server rejected the credentials (401): {message}",
        "API 서버가 자격 증명을 거부했습니다 (401): {message}",
    ),
    "kube.http": ("HTTP {status}: {message}", "HTTP {status} 응답: {message}"),
    "kube.not-api-server": (
        "the server does not answer as a Kubernetes API server (HTTP {status}, {content_type})",
        "서버가 Kubernetes API 서버처럼 답하지 않습니다 (HTTP {status}, {content_type})",
    ),
    "kube.bad-body": (
        "the server's answer is not a Kubernetes API object ({content_type})",
        "서버의 응답이 Kubernetes API 오브젝트가 아닙니다 ({content_type})",
    ),
    "kube.watch-error": ("watch error", "watch 오류"),
    "kube.unexpected": (
        "unexpected error reading the API server: {error}",
        "API 서버를 읽다가 예기치 않은 오류가 났습니다: {error}",
    ),
    "kube.cert-untrusted": (
        "TLS: the API server's certificate is not trusted by the kubeconfig's certificate "
        "authority ({reason})",
        "TLS: kubeconfig 의 인증 기관이 API 서버의 인증서(certificate)를 신뢰하지 않습니다 "
        "({reason})",
    ),
    "kube.tls": (
        "TLS problem talking to the API server: {reason}",
        "API 서버와 TLS 로 통신하는 데 문제가 있습니다: {reason}",
    ),
    "kube.cannot-connect": (
        "cannot connect to the API server at {where}: {reason}",
        "API 서버 {where}에 연결할 수 없습니다: {reason}",
    ),
    "kube.timeout": (
        "no answer from the API server (timeout)",
        "API 서버가 답하지 않습니다 (시간 초과)",
    ),
    "kube.disconnected": ("the API server closed the connection", "API 서버가 연결을 끊었습니다"),
    "kube.bad-url": (
        "the server URL {url} is not valid",
        "server URL {url}이(가) 올바르지 않습니다",
    ),
    "kube.network": (
        "network problem talking to the API server: {reason}",
        "API 서버와 통신하는 데 네트워크 문제가 있습니다: {reason}",
    ),
    "kube.no-answer": ("no answer", "응답 없음"),
    "kube.unreachable": (
        "cannot read the cluster at {server} within {seconds} s: {reason}",
        "{seconds} 초 안에 {server}의 클러스터를 읽지 못했습니다: {reason}",
    ),
    "kube.unusable": (
        "cannot use the cluster at {server}: {reason}",
        "{server}의 클러스터를 쓸 수 없습니다: {reason}",
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
        "{path}: unknown setting {name} (only [keymap] and [layout] are read); ignored",
        "{path}: 알 수 없는 설정 {name} 입니다 ([keymap] 과 [layout] 만 읽습니다). 무시합니다",
    ),
    "config.keymap-not-table": (
        "{path}: keymap must be a table ([keymap]), not {type}; using the default keys",
        "{path}: keymap 은 테이블([keymap])이어야 합니다 (지금은 {type}). 기본 키를 씁니다",
    ),
    "config.not-a-binding": (
        "{path}: [keymap] {id} is not a binding id (? lists them); ignored, the default keys stay",
        "{path}: [keymap] {id}은(는) 바인딩 id 가 아닙니다 (? 에서 목록을 봅니다). "
        "무시하고 기본 키를 그대로 둡니다",
    ),
    "config.not-a-string": (
        "{path}: [keymap] {id} must be a string of keys like {example}, not {type}; "
        "using its default key",
        "{path}: [keymap] {id}은(는) {example} 같은 키 문자열이어야 합니다 (지금은 {type}). "
        "이 항목은 기본 키를 씁니다",
    ),
    # {problem} is one of the config.keys.* below.
    "config.bad-keys": (
        "{path}: [keymap] {id} {problem}; using its default key",
        "{path}: [keymap] {id}: {problem}. 이 항목은 기본 키를 씁니다",
    ),
    "config.keys.empty": ("is empty", "값이 비어 있습니다"),
    "config.key-taken": (
        "{path}: [keymap] {id} asks for {key}, which {other} already uses where both work; "
        "ignored, both keep their keys (to move {key}, give {other} another key too)",
        "{path}: [keymap] {id}이(가) {key}을(를) 달라고 하지만 둘 다 쓰이는 곳에서 그 키는 이미 "
        "{other}이(가) 씁니다. 무시하고 둘 다 원래 키를 그대로 둡니다 "
        "({key}을(를) 옮기려면 {other}에도 다른 키를 주세요)",
    ),
    "config.keys.empty-key": (
        "has an empty key in {keys} (keys are separated by commas)",
        "{keys}에 빈 키가 있습니다 (키는 쉼표로 나눕니다)",
    ),
    "config.keys.unprintable": (
        "has an unprintable key {key}",
        "화면에 찍을 수 없는 키 {key}이(가) 있습니다",
    ),
    "config.keys.not-a-key": (
        "has {key}, not a key (write keys like {example})",
        "{key}은(는) 키가 아닙니다 ({example}처럼 씁니다)",
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
        "--nodes must be >= 1 (>= 0 with --real-node) and --devices 1..128 "
        "(one slice holds at most 128)",
        "--nodes 는 1 이상(--real-node 와 함께면 0 이상), --devices 는 1..128 이어야 합니다 "
        "(슬라이스 하나에 최대 128 개)",
    ),
    # A shell comment after `export KUBECONFIG=...` (stdout, so it must stay one line).
    "cluster.then": (
        "# then: kubectl get resourceslices,deviceclasses; gsb-tui --kubeconfig {kubeconfig}",
        "# 다음으로: kubectl get resourceslices,deviceclasses; gsb-tui --kubeconfig {kubeconfig}",
    ),
    "cluster.no-cluster": (
        "no practice cluster in {dir}: run `gsb-tui cluster up` first",
        "{dir}에 연습 클러스터가 없습니다. 먼저 `gsb-tui cluster up` 을 실행하세요",
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
    "cluster.starting": ("starting {component} on {url}", "{component}을(를) {url}에서 시작합니다"),
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
    "cluster.lock.holder": ("pid {pid} ({command})", "프로세스 {pid} ({command})"),
    "cluster.lock.unknown-holder": (
        "a process that did not say who it is",
        "누군지 밝히지 않은 프로세스",
    ),
    "cluster.lock.waiting": (
        "{dir} is in use by {holder}; waiting up to {seconds} s for it to finish",
        "{dir}을(를) {holder}이(가) 쓰고 있습니다. 끝날 때까지 최대 {seconds}초 기다립니다",
    ),
    "cluster.lock.busy": (
        "{dir} is still in use by {holder}; try again when it has finished",
        "{dir}을(를) 아직 {holder}이(가) 쓰고 있습니다. 그것이 끝난 뒤 다시 해 보세요",
    ),
    "cluster.lock.cannot": (
        "cannot lock the state directory with {path}: {error}",
        "{path}(으)로 상태 디렉터리를 잠글 수 없습니다: {error}",
    ),
    "cluster.stale-pid": (
        "removed a stale pid file for {name} (its process is gone)",
        "{name}의 낡은 pid 파일을 지웠습니다 (그 프로세스는 이미 없습니다)",
    ),
    "cluster.nothing-running": (
        "nothing is running (no pid files in {dir})",
        "실행 중인 것이 없습니다 ({dir}에 pid 파일이 없음)",
    ),
    "cluster.not-running": (
        "{name}: not running (stale pid file removed)",
        "{name}: 실행 중이 아닙니다 (낡은 pid 파일을 지웠습니다)",
    ),
    "cluster.stopped": ("stopped {name} (pid {pid})", "{name}을(를) 멈췄습니다 (pid {pid})"),
    "cluster.building-k8s": (
        "building kube-apiserver, kube-scheduler, kube-controller-manager {version} "
        "(first time only; about 5 min on 2 cores, 2.3 GB of memory; log: {log})",
        "kube-apiserver, kube-scheduler, kube-controller-manager {version}을(를) 빌드합니다 "
        "(처음 한 번만; 2 코어에서 약 5 분, 메모리 2.3 GB; 로그: {log})",
    ),
    "cluster.building-etcd": (
        "building etcd {version} (log: {log})",
        "etcd {version}을(를) 빌드합니다 (로그: {log})",
    ),
    "cluster.built": (
        "control plane built in {seconds} s -> {dir}",
        "컨트롤 플레인을 {seconds} 초 만에 빌드했습니다 -> {dir}",
    ),
    "cluster.building-kwok": (
        "building kwok {version} (first time only; log: {log})",
        "kwok {version}을(를) 빌드합니다 (처음 한 번만; 로그: {log})",
    ),
    "cluster.building-oracle": (
        "building the allocation oracle (tests only; seconds after the control plane's build, "
        "about 2 min from an empty Go build cache; log: {log})",
        "할당 오라클을 빌드합니다 (테스트용; 컨트롤 플레인 빌드 뒤에는 몇 초, "
        "빈 Go 빌드 캐시에서는 약 2 분; 로그: {log})",
    ),
    "cluster.building-node": (
        "building {what} for the real node (first time only; log: {log})",
        "실제 노드용 {what}을(를) 빌드합니다 (처음 한 번만; 로그: {log})",
    ),
    "cluster.built-node": (
        "the real node's programs built in {seconds} s",
        "실제 노드의 프로그램을 {seconds} 초 만에 빌드했습니다",
    ),
    "cluster.starting-node": (
        "starting {component} on the real node ({log})",
        "실제 노드에서 {component}을(를) 시작합니다 ({log})",
    ),
    "cluster.node-leftovers": (
        "the real node left something that could not be removed: {what}",
        "실제 노드가 남긴 것 중 지우지 못한 것이 있습니다: {what}",
    ),
    "cluster.no-real-node": (
        "this cluster has no real node: start one with `gsb-tui cluster up --real-node`",
        "이 클러스터에는 실제 노드가 없습니다: `gsb-tui cluster up --real-node` 로 시작하세요",
    ),
    "cluster.health-unknown-device": (
        "{device} is not a device of the real node {node} (gpu-0, gpu-1, …)",
        "{device}은(는) 실제 노드 {node}의 장치가 아닙니다 (gpu-0, gpu-1, …)",
    ),
    "cluster.health-set": (
        "{device} on {node}: {state} (annotation health.example.com/{device} on the Node; the "
        "practice driver reports it to the kubelet within seconds)",
        "{node}의 {device}: {state} (Node 의 주석 health.example.com/{device}; 연습용 드라이버가 "
        "몇 초 안에 kubelet 에 알립니다)",
    ),
    "cluster.built-oracle": (
        "allocation oracle built in {seconds} s -> {path}",
        "할당 오라클을 {seconds} 초 만에 빌드했습니다 -> {path}",
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
    "cluster.profiles": ("profiles {profiles}: {flags}", "프로필 {profiles}: {flags}"),
    "cluster.binding-driver": (
        "starting the practice binding driver (log: {log})",
        "연습용 바인딩 드라이버를 띄웁니다 (로그: {log})",
    ),
    "cluster.none-in": ("no practice cluster in {dir}", "{dir}에 연습 클러스터가 없습니다"),
    "cluster.not-practice": (
        "{server} is not a practice cluster",
        "{server}은(는) 연습 클러스터가 아닙니다",
    ),
}
