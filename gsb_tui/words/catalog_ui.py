"""The dashboard's words (panes, describe, the selector tool): key -> (English, Korean).

Object names, kinds and STATE values stay as kubectl prints them in both languages, so what the
learner reads here matches what they type; only the prose around them is translated.
"""

from __future__ import annotations

UI: dict[str, tuple[str, str]] = {
    "grid": ("Devices", "장치"),
    "claims": ("Claims", "요청서"),
    "details": ("Claim details", "요청서 상세"),
    "slices": ("Slices", "슬라이스"),
    "checklist": ("Lab checklist", "실습 체크리스트"),
    "tab.devices": ("Devices", "장치"),
    "tab.claims": ("Claims", "요청서"),
    "tab.slices": ("Slices", "슬라이스"),
    "tab.lab": ("Lab", "실습"),
    "connecting": ("connecting to {server}", "{server}에 연결하는 중"),
    "forbidden": ("forbidden (RBAC): {message}", "권한 없음 forbidden (RBAC): {message}"),
    "not-served": ("API not served: {message}", "API가 제공되지 않음: {message}"),
    "unreachable": (
        "cannot reach {server}: {message} (retrying, attempt {attempts})",
        "{server}에 연결할 수 없음: {message} (재시도 {attempts}회째)",
    ),
    "error": ("error: {message}", "오류: {message}"),
    "no-slices": (
        "waiting for a DRA driver to publish devices",
        "DRA 드라이버가 장치를 게시하기를 기다리는 중",
    ),
    "no-claims": ("no ResourceClaims yet", "아직 ResourceClaim이 없음"),
    "no-match": ("no claim matches {filter!r}", "{filter!r}와(과) 맞는 요청서가 없음"),
    "no-selection": (
        "select a claim in the Claims pane or a device in the grid",
        "요청서 창에서 요청서를, 또는 그리드에서 장치를 고르세요",
    ),
    "checklist-loading": ("checklist loading", "체크리스트 불러오는 중"),
    "step-green": ("Step {step} is green: {title}", "{step}단계 통과: {title}"),
    "source-failed": (
        "the change source stopped: {message} (retrying in {delay}s)",
        "변경 소스가 멈춤: {message} ({delay}초 뒤 재시도)",
    ),
    "replay-done": ("replay finished", "재생 끝"),
    "filter": (
        "filter claims (name, state, device, pod); Enter keeps, Esc clears",
        "요청서 거르기 (이름, 상태, 장치, 파드); Enter 유지, Esc 지우기",
    ),
    "nothing-selected": ("nothing selected", "선택한 것이 없음"),
    "allocatable-note": ("no DRA devices here", "DRA 장치는 여기 없음"),
    "slices-compact": (
        "{count} slices, one line each (y on a device shows its slice)",
        "슬라이스 {count}개, 한 줄씩 (장치에서 y를 누르면 그 슬라이스를 봄)",
    ),
    "ledger": (
        "{total} devices · {used} in use · {free} free",
        "장치 {total}개 · 사용 {used} · 남음 {free}",
    ),
    "pending": ("pending pods: {pods}", "대기 중인 파드: {pods}"),
    # Claim details and describe (kinds, field paths and STATE stay as kubectl prints them)
    "none": ("(none)", "(없음)"),
    "req.class": ("class", "클래스"),
    "req.all": ("all", "전부"),
    "req.selector": ("selector", "선택식"),
    "owner-pod": ("owner pod", "소유 파드"),
    "from-template": ("(made from a template)", "(틀로 만든 요청서)"),
    "h.requests": ("Requests", "요청"),
    "h.why": ("Why pending", "대기 이유"),
    "h.results": ("Results", "할당 결과"),
    "h.pods": ("Pods", "파드"),
    "h.warnings": ("Warnings", "경고"),
    "h.other-pods": ("Other pods", "다른 파드"),
    "h.recent-events": ("Recent events", "최근 이벤트"),
    "h.events": ("Events", "이벤트"),
    "h.pod-problems": ("Pods with problems", "문제가 있는 파드"),
    "h.devices": ("Devices", "장치"),
    "result-where": ("({driver}, pool {pool})", "({driver}, 풀 {pool})"),
    "not-allocated": ("not allocated", "할당되지 않음"),
    "holds-nothing": ("(a pending claim holds no device)", "(pending 요청서는 장치를 갖지 않음)"),
    "node": ("node", "노드"),
    "no-consumer": ("(no consumer)", "(쓰는 파드 없음)"),
    "on-node": ("on {node}", "노드 {node}"),
    "f.name": ("Name:", "이름:"),
    "f.namespace": ("Namespace:", "네임스페이스:"),
    "f.created": ("Created:", "만든 시각:"),
    "f.state": ("State:", "상태:"),
    "not-scheduled": ("(not scheduled)", "(아직 배치되지 않음)"),
    "pod.template": ("template {name}", "틀 {name}"),
    "pod.claim": ("claim {name}", "요청서 {name}"),
    "not-yet": ("(not yet)", "(아직 없음)"),
    "pod.container": (
        "container {container} uses {claims}",
        "컨테이너 {container}이(가) 씀: {claims}",
    ),
    "slice.where": (
        "driver {driver}  node {node}  pool {pool}  generation {generation}"
        "  slices in pool {count}",
        "드라이버 {driver}  노드 {node}  풀 {pool}  generation {generation}"
        "  풀의 슬라이스 {count}개",
    ),
    "stale": ("stale generation", "지난 generation"),
    # the selector preview and why a claim is pending (cel.py's summary words)
    "preview.loading": (
        "checking selectors (loading the CEL library)…",
        "선택식 확인 중 (CEL 라이브러리를 불러오는 중)…",
    ),
    "preview.none": ("no selector preview: {problem}", "선택식 미리보기 없음: {problem}"),
    "group.free": ("free", "남음"),
    "group.held": ("this claim", "이 요청서"),
    "group.used": ("in use", "사용 중"),
    "group.class": ("class", "클래스"),
    "group.selectors": ("selectors", "선택식"),
    "group.error": ("error", "오류"),
    "more": ("+{n} more", "외 {n}개"),
    "hint": ("hint: {hint}", "힌트: {hint}"),
    "device": ("{n} device", "장치 {n}개"),
    "devices": ("{n} devices", "장치 {n}개"),
    "class-missing": ("device class {name} does not exist", "DeviceClass {name}이(가) 없음"),
    "class-admits": ("class admits {devices}", "클래스가 {devices} 허용"),
    "selectors-admit": ("selectors admit {n}", "선택식이 {n}개 허용"),
    "of-them-free": ("{n} of them free", "그중 {n}개 남음"),
    "unchecked": (
        "{devices} could not be checked: {error}",
        "{devices}은(는) 확인할 수 없음: {error}",
    ),
    "short": ("needs {needed}, {free} free", "{needed}개 필요, 남은 것 {free}개"),
    "short-all": (
        "needs all {n} matching devices, {free} free",
        "맞는 장치 {n}개 전부 필요, 남은 것 {free}개",
    ),
    "need-all": ("all matching", "맞는 장치 전부"),
    "need-n": ("{n}", "{n}개"),
    "enough": (
        "needs {need}, {free} free: enough; waiting for the scheduler",
        "{need} 필요, 남은 것 {free}개: 충분함, 스케줄러를 기다리는 중",
    ),
    "scheduler": ("scheduler", "스케줄러"),
    "said": ("{who} on pod {pod} ({reason}):", "파드 {pod}에 대한 {who}의 말 ({reason}):"),
    "unscheduled": ("pod {pod}: not scheduled yet", "파드 {pod}: 아직 배치되지 않음"),
    # the selector tool (`s`)
    "sel.title": ("Try a selector", "선택식 시험"),
    "sel.keys": ("Esc close · ctrl+f apply fix", "Esc 닫기 · ctrl+f 고친 식 넣기"),
    "sel.no-class": ("(none: the selector alone)", "(없음: 선택식만)"),
    "sel.no-view": ("no cluster view yet", "아직 클러스터 정보가 없음"),
    "sel.loading": ("loading the CEL library…", "CEL 라이브러리를 불러오는 중…"),
    "sel.vocabulary": ("what a selector can read", "선택식이 읽을 수 있는 것"),
    "sel.match": ("match", "맞음"),
    "sel.no-match": ("no match", "안 맞음"),
    "sel.not-in-class": ("not in class {name}", "클래스 {name}에 들지 않음"),
    "sel.hint": ("hint", "힌트"),
    "sel.fix": ("fix", "고침"),
    "sel.fix-note": ("(ctrl+f puts it in)", "(ctrl+f 로 넣기)"),
    "sel.rejected": (
        "the API server would reject this selector:",
        "API 서버가 이 선택식을 거절합니다:",
    ),
    "sel.class-gone": (
        "DeviceClass {name} does not exist (any more)",
        "DeviceClass {name}이(가) (더는) 없음",
    ),
    "sel.type": (
        "type a CEL expression, e.g. device.driver == '…'",
        "CEL 식을 입력하세요. 예: device.driver == '…'",
    ),
    "sel.matches.one": (
        "{matched} of {total} device match",
        "장치 {total}개 중 {matched}개가 맞음",
    ),
    "sel.matches": ("{matched} of {total} devices match", "장치 {total}개 중 {matched}개가 맞음"),
    "sel.class-admits": ("(the class admits {n})", "(클래스가 {n}개 허용)"),
    "sel.unchecked": ("{n} could not be checked", "{n}개는 확인할 수 없음"),
    "sel.more": (
        "… {n} more devices not listed ({matched} of them match); the count above is of all",
        "… 장치 {n}개는 목록에 없음 (그중 {matched}개가 맞음); 위의 수는 전체를 센 것",
    ),
    "sel.from-step": (
        "the selector of lab step {step}, from {source}",
        "실습 {step}단계의 선택식 ({source}에서)",
    ),
    "sel.from-cluster": ("the cluster", "클러스터"),
    # the checklist pane
    "step-n": ("step {step}", "{step}단계"),
    "status.green": ("green", "완료"),
    "status.broken": ("broken", "틀림"),
    "status.in-progress": ("in progress", "진행 중"),
    "status.not-started": ("not started", "시작 전"),
    "status.cannot-judge": ("cannot judge", "판단 불가"),
    "checklist.keys": ("e example  c copy", "e 예시  c 복사"),
    "no-example": ("no example for step {step}", "{step}단계에는 예시가 없습니다"),
    "example-title": ("step {step} example", "{step}단계 예시"),
    # the header
    "header.demo": ("demo replay", "데모 재생"),
    "header.last-event": ("last event", "마지막 이벤트"),
    "header.no-events": ("no events yet", "아직 이벤트 없음"),
    "header.stopped": ("source stopped", "감시가 멈춤"),
    "header.judged-as": ("(judged as {release})", "({release} 기준으로 판단)"),
    # how a kind's watch stands, when it is not simply synced (ui/panes/header.py)
    "header.stale": ("stale {n} s", "{n}초째 소식 없음"),
    "header.not-answering": (
        "not answering (last heard {clock})",
        "응답 없음 (마지막 응답 {clock})",
    ),
    "header.connecting-why": ("connecting: {reason}", "연결 중: {reason}"),
    # the wire: what the API server's answers did wrong (kube/wire_words.py, kube/reflector.py)
    "wire.slow": (
        "slow response ({got} bytes in {seconds} s)",
        "응답이 느립니다 ({seconds}초 동안 {got}바이트)",
    ),
    "wire.waiting": (
        "no whole answer within {seconds} s",
        "{seconds}초 안에 응답을 다 받지 못했습니다",
    ),
    "wire.gzip": (
        "the API server said its answer was gzip-compressed, but it is not ({detail})",
        "API 서버가 응답을 gzip 으로 압축했다고 했지만 압축되어 있지 않습니다 ({detail})",
    ),
    "wire.chunk": (
        "the API server's answer is broken: a chunk size that is not a number"
        " (chunked transfer encoding)",
        "API 서버의 응답이 깨졌습니다: 청크 크기가 숫자가 아닙니다 (chunked 전송 인코딩)",
    ),
    "wire.short": (
        "the API server's answer ended early ({got} bytes, {missing} fewer than announced)",
        "API 서버의 응답이 일찍 끊겼습니다 ({got}바이트, 알린 것보다 {missing}바이트 모자람)",
    ),
    "wire.closed-unanswered": (
        "the API server closed the connection without answering",
        "API 서버가 답하지 않고 연결을 끊었습니다",
    ),
    "wire.not-http": (
        "the answer is not HTTP as an API server speaks it ({detail})",
        "응답이 API 서버가 쓰는 HTTP 형식이 아닙니다 ({detail})",
    ),
    "wire.wrong-shape": (
        "the API server sent {where} as {got}, not as {want}",
        "API 서버가 {where}을(를) {want}이(가) 아니라 {got}(으)로 보냈습니다",
    ),
    "wire.endless-list": (
        "the list of {kind} does not end: {pages} pages ({mib} MiB) and the server still names"
        " a next one (metadata.continue)",
        "{kind} 목록이 끝나지 않습니다: {pages}쪽 ({mib} MiB) 을 읽었는데 서버가 아직 다음 쪽을"
        " 가리킵니다 (metadata.continue)",
    ),
    "wire.retry-after": (
        "the API server asked to wait (HTTP {status}, Retry-After {asked} s): asking again in"
        " {wait} s",
        "API 서버가 기다려 달라고 했습니다 (HTTP {status}, Retry-After {asked}초): {wait}초 뒤에"
        " 다시 묻습니다",
    ),
    "wire.watch-ended": (
        "the API server ends the watch as soon as it opens ({n} in a row)",
        "API 서버가 watch 를 열자마자 끝냅니다 (연달아 {n}번)",
    ),
    "wire.gone": (
        "the watch's resourceVersion is too old (410 Gone), {n} in a row: listing again",
        "watch 의 resourceVersion 이 너무 오래됐습니다 (410 Gone, 연달아 {n}번): 목록을 다시"
        " 읽습니다",
    ),
    "wire.stalled": (
        "the watch said nothing for {seconds} s (an API server sends a bookmark about every"
        " minute): watching again",
        "watch 가 {seconds}초 동안 아무 말이 없습니다 (API 서버는 약 1분마다 bookmark 를"
        " 보냅니다): 다시 watch 합니다",
    ),
    "wire.forbidden": (
        "forbidden (RBAC, HTTP 403): {message}",
        "거부됨 (RBAC, HTTP 403): {message}",
    ),
    "age.now": ("just now", "방금"),
    "age.s": ("{n}s ago", "{n}초 전"),
    "age.m": ("{n}m ago", "{n}분 전"),
    "age.h": ("{n}h ago", "{n}시간 전"),
    "last-known": ("{kind}: {phase} (last known)", "{kind}: {phase} (마지막으로 안 것)"),
    "waiting-pod": ("{pod} (waiting)", "{pod} (기다리는 중)"),
    # why a matching device cannot be given now (dra/availability.py decides)
    "group.counters": ("blocked", "카운터 부족"),
    "group.tainted": ("tainted", "테인트"),
    "group.capacity": ("capacity full", "용량 부족"),
    "why.counters": (
        "{n} blocked by counters ({devices}): the shared counters they need are used by {detail}",
        "{n}개는 카운터가 모자라 막힘 ({devices}): 필요한 공유 카운터를 {detail}이(가) 쓰고 있음",
    ),
    "why.tainted": (
        "{n} tainted and not tolerated ({devices}): {detail}",
        "{n}개는 테인트가 있는데 요청이 견디지 않음 ({devices}): {detail}",
    ),
    "why.capacity": (
        "{n} without enough capacity left under their policy: {devices}",
        "{n}개는 정책상 남은 용량이 모자람: {devices}",
    ),
    "why.pool": (
        "{n} in a pool the scheduler does not allocate from ({devices}): {detail}",
        "{n}개는 스케줄러가 할당하지 않는 풀에 있음 ({devices}): {detail}",
    ),
    "why.binding": (
        "{device} is allocated, waiting on binding conditions {conditions} ({left}s before the"
        " scheduler gives up)",
        "{device}은(는) 할당됐고 바인딩 조건 {conditions}을(를) 기다리는 중"
        " (스케줄러가 포기하기까지 {left}초)",
    ),
    "why.binding-failed": (
        "{device}: binding failed ({conditions}); the scheduler will allocate again",
        "{device}: 바인딩 실패 ({conditions}). 스케줄러가 다시 할당합니다",
    ),
    "why.match-attribute": (
        "matchAttribute {attribute} over {requests} cannot be met: no single value of it has"
        " enough free devices for every request it binds",
        "matchAttribute {attribute} ({requests}) 를 만족할 수 없음: 묶인 요청 모두에 줄 만큼 빈"
        " 장치를 가진 값이 하나도 없음",
    ),
}
