"""Words for the DRA 1.36 features the panes draw beyond the lab's shape: partitionable devices
(shared counters), shared devices (consumable capacity), device taints and tolerations, binding
conditions, device status, extended resources and where a slice's devices are reachable.

key -> (English, Korean). dra/availability.py decides every state; these only say it. Counter,
capacity and condition names, taints and field paths stay as the driver published them.
"""

from __future__ import annotations

FEATURES: dict[str, tuple[str, str]] = {
    # ---------------------------------------------------------------- a cell's bottom word
    # (free / allocated / reserved / shared stay as today; these are dra/availability.py's)
    "feat.state.blocked": ("blocked", "막힘"),
    "feat.state.tainted": ("tainted", "테인트"),
    "feat.state.full": ("full", "꽉 참"),
    "feat.state.binding": ("binding", "바인딩 중"),
    "feat.state.binding-failed": ("binding-failed", "바인딩 실패"),
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
        "firstAvailable: {request} 의 대안 {total}개 중 {index}번째 {sub} 을(를) 고름",
    ),
    "feat.share": ("share {share}", "몫 {share}"),
    "feat.consumed": ("consumes {amounts}", "쓰는 양 {amounts}"),
    "feat.binding.pending": (
        "waiting for binding conditions {conditions}",
        "바인딩 조건 {conditions} 을(를) 기다리는 중",
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
        "{device} 은(는) 할당됐고 바인딩 조건 {conditions} 을(를) 기다리는 중. 스케줄러가"
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
        "카운터만 있는 슬라이스: 풀 {pool} 의 장치들이 나눠 씀",
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
}
