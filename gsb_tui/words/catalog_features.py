"""Words for the DRA 1.36 features the panes draw beyond the lab's shape: partitionable devices
(shared counters), shared devices (consumable capacity), device taints and tolerations, binding
conditions, device status, extended resources and where a slice's devices are reachable; and
the node half, what a real kubelet says: device health, what holds a placed pod, a driver gone.

key -> (English, Korean). dra/availability.py, dra/health.py and dra/node_side.py decide; these
only say it. Counter, capacity and condition names, taints, field paths, health values, reasons
and the kubelet's messages stay as the driver or the kubelet wrote them.
"""

from __future__ import annotations

FEATURES: dict[str, tuple[str, str]] = {
    # ---------------------------------------------------------------- a cell's bottom word
    # (free / allocated / reserved / shared stay as today; these are dra/availability.py's)
    "feat.state.blocked": ("blocked", "막힘"),
    "feat.state.tainted": ("tainted", "테인트"),
    "feat.state.full": ("full", "꽉 참"),
    "feat.state.binding": ("binding", "바인딩 중"),
    "feat.state.binding-failed": ("binding failed", "바인딩 실패"),
    "feat.state.incomplete-pool": ("incomplete pool", "불완전한 풀"),
    "feat.state.invalid-pool": ("invalid pool", "잘못된 풀"),
    # ---------------------------------------------------------------- a cell's two lines
    "feat.cell.blocked-by": ("blocked by {device}", "{device} 때문에 막힘"),
    "feat.cell.blocked": ("blocked by counters", "카운터가 모자라 막힘"),
    "feat.cell.short": ("short of {counters}", "{counters} 모자람"),
    "feat.cell.toleration": ("needs a toleration", "톨러레이션이 있어야 씀"),
    "feat.cell.shares": ("{n} shares · {left} left", "몫 {n}개 · {left} 남음"),
    "feat.cell.shares.one": ("{n} share · {left} left", "몫 {n}개 · {left} 남음"),
    "feat.cell.shares.count": ("{n} shares", "몫 {n}개"),
    "feat.cell.shareable": ("shareable", "나눠 쓸 수 있음"),
    "feat.cell.waits": ("waits for {conditions}", "{conditions} 기다림"),
    "feat.cell.failed": ("failed: {conditions}", "실패: {conditions}"),
    # ---------------------------------------------------------------- the grid's groups and ledger
    "feat.group.counter": (
        "{counter} {used} used · {left} left",
        "{counter} 사용 {used} · 남음 {left}",
    ),
    "feat.where.all-nodes": ("all nodes", "모든 노드"),
    "feat.where.node-selector": ("node selector", "노드 선택식"),
    "feat.where.per-device": ("per device", "장치마다 다름"),
    "feat.ledger.blocked": ("{n} blocked", "막힘 {n}"),
    "feat.ledger.tainted": ("{n} tainted", "테인트 {n}"),
    "feat.ledger.incomplete-pool": ("{n} in incomplete pools", "불완전한 풀 {n}"),
    "feat.ledger.invalid-pool": ("{n} in invalid pools", "잘못된 풀 {n}"),
    "feat.ledger.unavailable": ("{n} cannot be allocated", "할당 못 함 {n}"),
    # ---------------------------------------------------------------- claim details and describe
    "feat.extended": (
        "made by the scheduler for an extended resource",
        "스케줄러가 파드의 확장 리소스(extended resource) 요청으로 만든 요청서",
    ),
    "feat.constraint": ("constraint {constraint}", "제약 {constraint}"),
    "feat.config": ("driver config (opaque): {n}", "드라이버 설정(opaque): {n}개"),
    "feat.chosen": (
        "firstAvailable chose {sub}, alternative {index} of {total} in {request}",
        "firstAvailable: {request}의 대안 {total}개 중 {index}번째 {sub}을(를) 고름",
    ),
    "feat.share": ("share {share}", "몫 {share}"),
    "feat.consumed": ("consumes {amounts}", "쓰는 양 {amounts}"),
    "feat.binding.pending": (
        "waiting for binding conditions {conditions}",
        "바인딩 조건 {conditions}을(를) 기다리는 중",
    ),
    "feat.binding.left": (
        "{left}s left before the scheduler gives up",
        "스케줄러가 포기하기까지 {left}초 남음",
    ),
    "feat.binding.expired": (
        "the scheduler's {timeout}s are up: it gives up and allocates again",
        "스케줄러가 기다리는 {timeout}초가 지남: 포기하고 다시 할당합니다",
    ),
    "feat.binding.failed": (
        "binding failed ({conditions}): the scheduler gives up and allocates again",
        "바인딩 실패 ({conditions}): 스케줄러가 포기하고 다시 할당합니다",
    ),
    "feat.binding.unbound": (
        "pod {pod}: bound to a node only once the binding conditions are met",
        "파드 {pod}: 바인딩 조건이 충족돼야 노드에 바인딩됨",
    ),
    "feat.binding.unbound-failed": (
        "pod {pod}: not bound to a node; it waits for the next allocation",
        "파드 {pod}: 노드에 바인딩되지 않음. 다음 할당을 기다림",
    ),
    "feat.why.binding-expired": (
        "{device} is allocated, waiting on binding conditions {conditions}; the scheduler's"
        " {timeout}s are up: it gives up and allocates again",
        "{device}은(는) 할당됐고 바인딩 조건 {conditions}을(를) 기다리는 중. 스케줄러가"
        " 기다리는 {timeout}초가 지남: 포기하고 다시 할당합니다",
    ),
    "feat.binding.met": ("binding conditions met: {conditions}", "바인딩 조건 충족: {conditions}"),
    "feat.tolerates": ("tolerates {tolerations}", "견디는 테인트: {tolerations}"),
    "feat.h.device-status": ("Device status", "장치 상태"),
    # ---------------------------------------------------------------- the Slices pane
    "feat.slice.counters": ("counter set {name}: {counters}", "카운터 묶음 {name}: {counters}"),
    "feat.slice.counter": (
        "{counter} {total} ({used} used · {left} left)",
        "{counter} {total} (사용 {used} · 남음 {left})",
    ),
    "feat.slice.counter-only": (
        "counters only: devices of pool {pool} consume them",
        "카운터만 있는 슬라이스: 풀 {pool}의 장치들이 나눠 씀",
    ),
    "rules.not-served": (
        "DeviceTaintRules not served (neither resource.k8s.io/v1 nor v1beta2): only slice"
        " taints count",
        "DeviceTaintRule 이 제공되지 않음 (resource.k8s.io/v1, v1beta2 모두 없음): 슬라이스의"
        " 테인트만 셈",
    ),
    "rules.count": ("{n} DeviceTaintRules", "DeviceTaintRule {n}개"),
    "rules.evicting": ("{n} evicting pods", "{n}개가 파드를 내보내는 중"),
    "pod.evicting": ("being evicted ({reason})", "내보내는 중 ({reason})"),
    # ------------------------------------------- the node half: what a real kubelet says
    # (dra/health.py, dra/node_side.py). Health values (Healthy, Unhealthy, Unknown), reasons
    # and the kubelet's messages stay as the kubelet wrote them.
    "feat.ledger.unhealthy": ("✚ {n} unhealthy", "✚ 비정상 {n}"),
    "feat.ledger.health-unknown": ("? {n} health unknown", "? 상태 모름 {n}"),
    "health.by": ("kubelet, for pod {pod}/{container}", "kubelet 보고: 파드 {pod}/{container}"),
    "health.unmatched": (
        "{resource} {health}: the kubelet's resourceID names no device of this claim's results"
        " (pod {pod}, container {container})",
        "{resource} {health}: kubelet 이 알린 resourceID 가 이 요청서의 할당 결과 중 어느"
        " 장치인지 알 수 없습니다 (파드 {pod}, 컨테이너 {container})",
    ),
    "kubelet.h.why": ("Why not running", "실행되지 않는 이유"),
    "kubelet.prepare-failed": (
        "pod {pod} is on node {node} but cannot start: the kubelet could not prepare its"
        " claims' devices",
        "파드 {pod}은(는) 노드 {node}에 배치됐지만 시작하지 못합니다: kubelet 이 요청서의"
        " 장치를 준비하지 못했습니다",
    ),
    "kubelet.image-pull": (
        "pod {pod} is on node {node} with its devices prepared, but container {container} cannot"
        " get its image ({reason})",
        "파드 {pod}은(는) 노드 {node}에 배치되어 장치도 준비됐지만, 컨테이너 {container}의"
        " 이미지를 받지 못합니다 ({reason})",
    ),
    "kubelet.waiting": (
        "pod {pod} is on node {node} but container {container} waits ({reason})",
        "파드 {pod}은(는) 노드 {node}에 배치됐지만 컨테이너 {container}이(가) 기다리는"
        " 중입니다 ({reason})",
    ),
    "kubelet.creating": (
        "pod {pod} is on node {node}; its containers are being created ({reason}) and the"
        " kubelet has reported no problem yet",
        "파드 {pod}은(는) 노드 {node}에 배치되어 컨테이너를 만드는 중이고 ({reason}), kubelet"
        " 은 아직 아무 문제도 알리지 않았습니다",
    ),
    "kubelet.said-container": (
        "the kubelet on container {container} ({reason}):",
        "컨테이너 {container}에 대한 kubelet 의 말 ({reason}):",
    ),
    "kubelet.hint.not-registered": (
        "no kubelet plugin of driver {driver} is registered on node {node}: start the driver"
        " there again; the kubelet retries with backoff, so the pod starts a little later",
        "노드 {node}에 드라이버 {driver}의 kubelet 플러그인이 등록되어 있지 않습니다: 그"
        " 노드에서 드라이버를 다시 띄우세요. kubelet 이 간격을 늘려 가며 다시 시도하므로 파드는"
        " 조금 뒤에 시작됩니다",
    ),
    "kubelet.hint.unreachable": (
        "the kubelet cannot reach the kubelet plugin of driver {driver} on node {node} (its"
        " socket does not answer): start the driver there again; the kubelet retries with"
        " backoff, so the pod starts a little later",
        "kubelet 이 노드 {node}에서 드라이버 {driver}의 kubelet 플러그인에 닿지 못합니다 (소켓이"
        " 응답하지 않음): 그 노드에서 드라이버를 다시 띄우세요. kubelet 이 간격을 늘려 가며 다시"
        " 시도하므로 파드는 조금 뒤에 시작됩니다",
    ),
    "kubelet.hint.image": (
        "the node cannot pull the image: put it on the node, or correct its name",
        "노드가 이미지를 받아 오지 못합니다: 이미지를 노드에 넣거나 이름을 바로잡으세요",
    ),
    "node.vanished": (
        "node {node}: driver {driver} publishes no ResourceSlice there any more, yet {n}"
        " claim(s) still hold its devices ({claims}); until the driver's kubelet plugin is back,"
        " no new pod can start with them",
        "노드 {node}: 드라이버 {driver}이(가) 이 노드의 ResourceSlice 를 더 이상 게시하지"
        " 않는데, 요청서 {n}개가 아직 그 장치를 할당받고 있습니다 ({claims}). 드라이버의 kubelet"
        " 플러그인이 돌아오기 전에는 이 장치로 새 파드를 시작할 수 없습니다",
    ),
    "node.vanished-pool": (
        "pool {pool}: driver {driver} publishes no ResourceSlice for it any more, yet {n}"
        " claim(s) still hold its devices ({claims})",
        "풀 {pool}: 드라이버 {driver}이(가) 이 풀의 ResourceSlice 를 더 이상 게시하지 않는데,"
        " 요청서 {n}개가 아직 그 장치를 할당받고 있습니다 ({claims})",
    ),
    "node.vanished-devices": (
        "devices no slice publishes now: {devices}",
        "지금 어느 슬라이스에도 없는 장치: {devices}",
    ),
    "node.vanished-pods": (
        "pods the kubelet has not started: {pods}",
        "kubelet 이 아직 시작하지 못한 파드: {pods}",
    ),
    "why.bound-blocked": (
        "{pod} is bound to {node} but not running:",
        "{pod}은(는) {node}에 배치됐지만 실행되지 않고 있습니다:",
    ),
    "why.kubelet": (
        "the kubelet said ({reason}{count}): {message}",
        "kubelet 의 말 ({reason}{count}): {message}",
    ),
    "why.kubelet-none": (
        "the kubelet has said nothing about it yet",
        "kubelet 은 아직 아무 말도 없습니다",
    ),
    "why.health": (
        "device {device}: {health} (kubelet, container {container}){message}",
        "장치 {device}: {health} (kubelet, 컨테이너 {container}){message}",
    ),
    "why.health-unmatched": (
        "{resource}: {health} (kubelet, container {container}); which device of claim {claim}"
        " it names cannot be told",
        "{resource}: {health} (kubelet, 컨테이너 {container}); 요청서 {claim}의 어느 장치인지"
        " 알 수 없습니다",
    ),
    "devices.summary.health": (
        "{unhealthy} unhealthy · {health_unknown} health unknown, as the kubelet reports them"
        " for the pods using them",
        "비정상 {unhealthy} · 상태 모름 {health_unknown} (장치를 쓰는 파드에 대해 kubelet 이"
        " 알린 대로)",
    ),
    "pod.health": (
        "container {container}: {name} → {resource} {health}",
        "컨테이너 {container}: {name} → {resource} {health}",
    ),
}
