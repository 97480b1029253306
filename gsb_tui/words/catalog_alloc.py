"""Words for the allocator's answers: why a pod cannot get its devices (`gsb-tui why`, the
details pane) and a device's state (`gsb-tui devices`). Codes stay as they are in every
language; `{nodes}` is a count, `{where}` a node list or "this node"."""

from __future__ import annotations

ALLOC: dict[str, tuple[str, str]] = {
    "blocker.claim-missing": (
        "the pod's claim is missing: {detail}",
        "파드의 요청서가 없습니다: {detail}",
    ),
    "blocker.claim-deleting": (
        "the pod's claim is being deleted: {detail}",
        "파드의 요청서가 지워지는 중입니다: {detail}",
    ),
    "blocker.class-missing": (
        "{detail}: create the DeviceClass or fix deviceClassName",
        "{detail}: DeviceClass 를 만들거나 deviceClassName 을 고치세요",
    ),
    "blocker.extended-claim": (
        "the claim made for the pod's extended resources in an earlier attempt is being deleted;"
        " the scheduler tries again without it ({detail})",
        "이전 시도에서 파드의 확장 리소스용으로 만든 요청서를 지우는 중입니다; 스케줄러는 그"
        " 요청서 없이 다시 시도합니다 ({detail})",
    ),
    "blocker.node-resources": (
        "{nodes} node(s) cannot fit an extended resource the pod asks for ({detail}): {where}",
        "노드 {nodes}개가 파드가 요청한 확장 리소스를 줄 수 없습니다 ({detail}): {where}",
    ),
    "blocker.cel-error": (
        "a selector fails at runtime, which stops the scheduler for this pod: {detail}",
        "선택식이 실행 중 오류를 내서 스케줄러가 이 파드를 멈췄습니다: {detail}",
    ),
    "blocker.error": (
        "the scheduler stops at an error: {detail}",
        "스케줄러가 오류에서 멈춥니다: {detail}",
    ),
    "blocker.node-unschedulable": (
        "{nodes} node(s) cordoned (spec.unschedulable): {where}",
        "노드 {nodes}개가 cordon 되어 있습니다 (spec.unschedulable): {where}",
    ),
    "blocker.node-taint": (
        "{nodes} node(s) have a taint the pod does not tolerate ({detail}): {where}",
        "노드 {nodes}개에 파드가 견디지 못하는 taint 가 있습니다 ({detail}): {where}",
    ),
    "blocker.node-selector": (
        "{nodes} node(s) do not match the pod's nodeSelector or node affinity: {where}",
        "노드 {nodes}개가 파드의 nodeSelector 나 node affinity 와 맞지 않습니다: {where}",
    ),
    "blocker.claim-node": (
        "claim {claim} is already allocated on another node; {nodes} node(s) ruled out: {where}",
        "요청서 {claim}은(는) 이미 다른 노드에 할당되어 있어 노드 {nodes}개가 빠집니다: {where}",
    ),
    "blocker.no-node": (
        "there is no node the pod could use",
        "파드가 쓸 수 있는 노드가 없습니다",
    ),
    "blocker.held": (
        "{request} needs {need}, {have} free on {where}{free}: {devices} held by {holders}",
        "{request}은(는) {need}개가 필요한데 {where}에서 {have}개만 비어 있습니다{free}:"
        " {devices}은(는) {holders}이(가) 쓰고 있습니다",
    ),
    "blocker.counters": (
        "{request} needs {need}, {have} free on {where}{free}: {devices} blocked, their counters"
        " ({detail}) used by {holders}",
        "{request}은(는) {need}개가 필요한데 {where}에서 {have}개만 비어 있습니다{free}:"
        " {devices}은(는) 카운터 ({detail}) 를 {holders}이(가) 써서 막혔습니다",
    ),
    "blocker.counters-joint": (
        "{request}: the devices that match consume the same counters ({detail}); together they"
        " cannot all be given on {where}",
        "{request}: 맞는 장치들이 같은 카운터 ({detail}) 를 써서 {where}에서 한꺼번에 줄 수"
        " 없습니다",
    ),
    "blocker.capacity": (
        "{request} needs {need}, {have} free on {where}{free}: {devices} have too little capacity"
        " left{detail}",
        "{request}은(는) {need}개가 필요한데 {where}에서 {have}개만 비어 있습니다{free}:"
        " {devices}의 남은 용량이 모자랍니다{detail}",
    ),
    "blocker.tainted": (
        "{request} needs {need}, {have} free on {where}{free}: {devices} tainted ({detail}) and the"
        " request does not tolerate it",
        "{request}은(는) {need}개가 필요한데 {where}에서 {have}개만 비어 있습니다{free}:"
        " {devices}에 taint ({detail}) 가 있고 요청이 견디지 못합니다",
    ),
    "blocker.binding": (
        "claim {claim} waits for its devices' binding conditions, which failed or timed out",
        "요청서 {claim}은(는) 장치의 binding 조건을 기다리는데 실패했거나 시간이 지났습니다",
    ),
    "blocker.selector": (
        "{request} needs {need}: no device on {where} matches its class and selectors",
        "{request}은(는) {need}개가 필요한데 {where}에는 클래스와 선택식에 맞는 장치가 없습니다",
    ),
    "blocker.count": (
        "{request} needs {need}, {have} match on {where}{free}",
        "{request}은(는) {need}개가 필요한데 {where}에서 맞는 장치는 {have}개입니다{free}",
    ),
    "blocker.count-joint": (
        "the pod's requests together need {need} devices; {have} distinct devices match them"
        " on {where}",
        "파드의 요청을 모두 합치면 장치 {need}개가 필요한데 {where}에서 맞는 장치는 서로 다른"
        " 것으로 {have}개입니다",
    ),
    "blocker.constraint": (
        "claim {claim}: {detail} cannot be met on {where} (each request alone has devices)",
        "요청서 {claim}: {where}에서 {detail}을(를) 맞출 수 없습니다 (요청마다 장치는 따로"
        " 있습니다)",
    ),
    "blocker.incomplete-pool": (
        "pool {detail} is incomplete (not all of its resourceSliceCount slices are published):"
        " the scheduler allocates nothing from it",
        "풀 {detail}이(가) 불완전합니다 (resourceSliceCount 만큼의 슬라이스가 다 올라오지"
        " 않았습니다): 스케줄러는 이 풀에서 아무것도 할당하지 않습니다",
    ),
    "blocker.invalid-pool": (
        "pool {detail} is invalid ({holders}): the scheduler allocates nothing from it",
        "풀 {detail}이(가) 올바르지 않습니다 ({holders}): 스케줄러는 이 풀에서 아무것도"
        " 할당하지 않습니다",
    ),
    "blocker.undecided": (
        "not decided yet: {detail}",
        "아직 판단하지 못했습니다: {detail}",
    ),
    "why.fits": (
        "{pod} would get every device now, on {nodes} node(s): {where}",
        "{pod}은(는) 지금 모든 장치를 받을 수 있습니다. 노드 {nodes}개: {where}",
    ),
    "why.bound": (
        "{pod} is already bound to {node}",
        "{pod}은(는) 이미 {node}에 배치되었습니다",
    ),
    "why.not-found": ("no pod {pod}", "파드 {pod}이(가) 없습니다"),
    "why.no-fit": (
        "{pod} would not get its devices now:",
        "{pod}은(는) 지금 장치를 받을 수 없습니다:",
    ),
    "why.undecided": (
        "{pod}: not decided within the time budget (the search is not finished)",
        "{pod}: 정해진 시간 안에 판단하지 못했습니다 (탐색이 끝나지 않았습니다)",
    ),
    "why.allocation": ("  {claim} {request} gets {device}", "  {claim} {request}에 장치 {device}"),
    "why.scheduler": ("the scheduler said: {message}", "스케줄러의 말: {message}"),
    "why.scheduler-none": ("the scheduler said nothing yet", "스케줄러는 아직 아무 말도 없습니다"),
    "why.disagree": (
        "gsb-tui and the scheduler disagree: the scheduler refused it, gsb-tui finds an"
        " allocation (the cluster may have changed since, or a known allocator bug of this"
        " version)",
        "gsb-tui 와 스케줄러의 판단이 다릅니다: 스케줄러는 거절했지만 gsb-tui 는 할당을"
        " 찾았습니다 (그 뒤로 클러스터가 바뀌었거나 이 버전의 알려진 할당기 버그일 수"
        " 있습니다)",
    ),
    "why.deciding": (
        "deciding as the scheduler would, node by node…",
        "스케줄러처럼 노드마다 판단하는 중…",
    ),
    "why.gated": (
        "held by scheduling gates ({gates}): the scheduler has not tried it yet",
        "scheduling gate ({gates}) 에 묶여 있어 스케줄러가 아직 시도하지 않았습니다",
    ),
    "devices.no-node": (
        "no device is published for node {node}",
        "노드 {node}에 올라온 장치가 없습니다",
    ),
    "devices.summary": (
        "{devices} devices · {in_use} in use · {free} free · {blocked} blocked · {tainted}"
        " tainted · {full} full · {binding} binding · {incomplete_pool} in incomplete pools ·"
        " {invalid_pool} in invalid pools · {pending_pods} pending pods",
        "장치 {devices} · 사용 중 {in_use} · 빈 것 {free} · 막힘 {blocked} · 테인트 {tainted} ·"
        " 꽉 참 {full} · 바인딩 {binding} · 불완전한 풀 {incomplete_pool} · 잘못된 풀"
        " {invalid_pool} · 대기 파드 {pending_pods}",
    ),
    "devices.state.free": ("free", "비어 있음"),
    "devices.state.allocated": ("allocated, no pod yet", "할당됨, 아직 파드 없음"),
    "devices.state.reserved": ("reserved by one pod", "파드 하나가 예약함"),
    "devices.state.group": (
        "reserved by PodGroup {group} for its pods",
        "PodGroup {group}이(가) 소속 파드들을 위해 예약함",
    ),
    "devices.state.shared": ("shared", "함께 씀"),
    "devices.state.blocked": ("blocked by counters", "카운터 부족으로 막힘"),
    "devices.state.tainted": ("tainted", "테인트"),
    "devices.state.full": ("shared, no capacity left", "함께 쓰는 중, 남은 용량 없음"),
    "devices.state.binding": ("waiting on binding conditions", "바인딩 조건 기다리는 중"),
    "devices.state.binding-failed": ("binding failed", "바인딩 실패"),
    "devices.state.incomplete-pool": ("in an incomplete pool", "불완전한 풀에 있음"),
    "devices.state.invalid-pool": ("in an invalid pool", "잘못된 풀에 있음"),
    "why.pod-fits": (
        "pod {pod}: every device it needs is free on {n} node(s) ({where}); waiting for the"
        " scheduler",
        "파드 {pod}: 필요한 장치가 노드 {n}개 ({where}) 에 모두 비어 있습니다; 스케줄러를"
        " 기다리는 중",
    ),
    "why.claim-fits": (
        "no pod uses this claim yet; a pod using it would get its devices on {n} node(s)"
        " ({where}){pod}",
        "이 요청서를 쓰는 파드가 아직 없습니다; 이 요청서를 쓰는 파드는 노드 {n}개 ({where})"
        " 에서 장치를 받을 수 있습니다{pod}",
    ),
    "why.pod-no-fit": (
        "pod {pod} cannot get its devices now:",
        "파드 {pod}은(는) 지금 장치를 받을 수 없습니다:",
    ),
    "why.claim-no-fit": (
        "no pod uses this claim yet, and a pod using it could not get its devices now:{pod}",
        "이 요청서를 쓰는 파드가 아직 없고, 쓰더라도 지금은 장치를 받을 수 없습니다:{pod}",
    ),
    "why.pod-undecided": (
        "pod {pod}: not decided yet (the search did not finish in this repaint's time)",
        "파드 {pod}: 아직 판단하지 못했습니다 (이번 화면 갱신 시간 안에 탐색이 끝나지 않음)",
    ),
    "why.pod-allocated": (
        "pod {pod}: its claims are allocated and usable on {n} node(s) ({where}); the"
        " scheduler has yet to bind it",
        "파드 {pod}: 요청서가 할당되어 노드 {n}개 ({where}) 에서 쓸 수 있습니다; 스케줄러가"
        " 아직 배치하지 않았습니다",
    ),
    "why.scheduler-timeout": (
        "the scheduler's own search timed out (its filter gives each node 10 s) and it will try"
        " again; gsb-tui's search finished: no node can give this pod its devices",
        "스케줄러의 탐색은 시간이 다 됐고 (필터는 노드마다 10초) 다시 시도합니다; gsb-tui 의"
        " 탐색은 끝났습니다: 어느 노드도 이 파드에 장치를 줄 수 없습니다",
    ),
    "why.scheduler-timeout-fits": (
        "the scheduler's own search timed out (its filter gives each node 10 s) and it will try"
        " again; gsb-tui's search found an allocation, which the scheduler may not reach in time",
        "스케줄러의 탐색은 시간이 다 됐고 (필터는 노드마다 10초) 다시 시도합니다; gsb-tui 는"
        " 할당을 찾았지만 스케줄러가 시간 안에 찾지 못할 수 있습니다",
    ),
    "match.free-unknown": (
        "{matched} match; which of them can be allocated now is not known ({why})",
        "{matched}개가 맞음. 그중 지금 할당할 수 있는 것은 알 수 없음 ({why})",
    ),
    "why.other-version": (
        "this API server runs Kubernetes {server}; gsb-tui decides as kube-scheduler {mirrored}"
        " does, so where that release changed the allocator the answers may part",
        "이 API 서버는 Kubernetes {server} 입니다; gsb-tui 는 kube-scheduler {mirrored}처럼"
        " 판단하므로, 그 릴리스에서 할당기가 바뀐 곳에서는 답이 다를 수 있습니다",
    ),
}
