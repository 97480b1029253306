"""The words of the grid at scale: each group's summary, the compact grid (a line per node),
the node filter and the list behind each ledger count: key -> (English, Korean). Korean puts
the count after the word ("사용 3"), as the ledger line does, so no particle follows a name."""

from __future__ import annotations

GRID: dict[str, tuple[str, str]] = {
    # a group's summary line (blocked, tainted, unhealthy: the ledger's own feat.ledger.* words)
    "grid.sum.in-use": ("{n} in use", "사용 {n}"),
    "grid.sum.free": ("{n} free", "남음 {n}"),
    "grid.sum.model": ("model {model}", "모델 {model}"),
    "grid.sum.models": ("{n} models: {models}", "모델 {n}종: {models}"),
    "grid.sum.no-model": ("no model published", "게시된 모델 없음"),
    # the compact grid: a line per model on top, then the columns, then a line per node
    "grid.head.model": ("model {model}", "모델 {model}"),
    "grid.head.no-model": ("devices with no model", "모델 없는 장치"),
    "grid.head.devices": ("{n} devices", "장치 {n}개"),
    "grid.head.more-models": ("… {n} more models", "… 모델 {n}종 더"),
    "grid.col.node": ("NODE", "노드"),
    "grid.col.devices": ("DEV", "장치"),
    "grid.col.in-use": ("USED", "사용"),
    "grid.col.free": ("FREE", "남음"),
    "grid.col.model": ("MODEL", "모델"),
    "grid.col.strip": ("DEVICES", "장치별"),
    # the strip's legend: one mark per device, coloured as its cell
    "grid.mark.free": ("free", "남음"),
    "grid.mark.in-use": ("in use", "사용"),
    "grid.mark.shared": ("shared", "공유"),
    "grid.mark.full": ("full", "꽉 참"),
    "grid.mark.blocked": ("blocked", "막힘"),
    "grid.mark.tainted": ("tainted", "테인트"),
    "grid.mark.binding": ("binding", "바인딩"),
    "grid.mark.pool": ("pool problem", "풀 문제"),
    "grid.mark.unhealthy": ("unhealthy", "비정상"),
    # the pane's title
    "grid.title.compact": ("{title} · a line per node", "{title} · 노드별 한 줄"),
    "grid.title.filter": (
        "{title} · node ~ {filter} ({shown} of {total})",
        "{title} · 노드 ~ {filter} ({total}개 중 {shown}개)",
    ),
    # the node filter
    "grid.filter.placeholder": (
        "part of a node's name (Enter keeps it, Esc clears it)",
        "노드 이름의 일부 (Enter 유지, Esc 지움)",
    ),
    "grid.filter.none": ("no node's name contains {filter}", "이름에 {filter} 든 노드 없음"),
    "grid.filter.cleared": (
        "node filter cleared to show {device}",
        "{device} 보이도록 노드 거르기를 지웠습니다",
    ),
    # the list behind a ledger count
    "ledger-list.title": ("{what}: {n} devices", "{what}: 장치 {n}개"),
    "ledger-list.footer": (
        "Enter go to the device · ←→ another count · Esc close",
        "Enter 장치로 이동 · ←→ 다른 개수 · Esc 닫기",
    ),
    "ledger-list.empty": ("no device is {what} now", "지금 {what} 장치 없음"),
    "ledger-list.col.node": ("NODE", "노드"),
    "ledger-list.col.pool": ("POOL", "풀"),
    "ledger-list.col.device": ("DEVICE", "장치"),
    "ledger-list.col.why": ("WHY", "이유"),
    "ledger-list.no-node": ("(no node)", "(노드 없음)"),
    "ledger-list.what.in-use": ("in use", "사용 중"),
    "ledger-list.what.free": ("free", "남음"),
    "ledger-list.what.blocked": ("blocked", "막힘"),
    "ledger-list.what.tainted": ("tainted", "테인트"),
    "ledger-list.what.incomplete-pool": ("in incomplete pools", "불완전한 풀"),
    "ledger-list.what.invalid-pool": ("in invalid pools", "잘못된 풀"),
    "ledger-list.what.unavailable": ("cannot be allocated", "할당 못 함"),
    "ledger-list.what.unhealthy": ("unhealthy", "비정상"),
    "ledger-list.what.health-unknown": ("health unknown", "상태 모름"),
    "ledger-list.why.taints": (
        "taint {taints} (no toleration)",
        "테인트 {taints} (톨러레이션 없음)",
    ),
    "ledger-list.why.counters": (
        "counters {counters} used by {devices}",
        "카운터 {counters}: {devices}에서 씀",
    ),
    "ledger-list.why.counters-only": ("short of {counters}", "{counters} 모자람"),
    "ledger-list.why.pool": ("pool {state}: {reason}", "풀 {state}: {reason}"),
    "ledger-list.why.health": (
        "{health}: {message} (said by {by})",
        "{health}: {message} (보고: {by})",
    ),
    "ledger-list.why.held": ("claim {claims}", "요청서 {claims}"),
    "ledger-list.why.free": ("can be allocated now", "지금 할당할 수 있음"),
    # keys (footer and `?`): key.<binding id>, key.<binding id>.tip
    "key.gsb.grid.compact": ("Compact", "한 줄 보기"),
    "key.gsb.grid.compact.tip": (
        "A line per node with a mark per device, or the cells (boxes)",
        "노드마다 한 줄에 장치마다 표시 하나, 또는 칸(상자)으로 봅니다",
    ),
    "key.gsb.grid.filter": ("Nodes", "노드 거르기"),
    "key.gsb.grid.filter.tip": (
        "Show only the nodes whose name contains what you type",
        "입력한 글자가 이름에 든 노드만 봅니다",
    ),
    "key.gsb.grid.open": ("Open node", "노드 펼치기"),
    "key.gsb.grid.open.tip": (
        "Compact: show the node's devices as cells (again: a line again)",
        "한 줄 보기에서 노드의 장치를 칸으로 펼칩니다 (다시 누르면 접기)",
    ),
    "key.gsb.grid.list": ("List", "목록"),
    "key.gsb.grid.list.tip": (
        "The devices behind the ledger's counts (blocked, tainted, …) and why",
        "장부가 센 장치(막힘, 테인트 …)를 이유와 함께 봅니다",
    ),
    "key.gsb.grid.pageup": ("Page up", "앞 쪽"),
    "key.gsb.grid.pagedown": ("Page down", "뒤 쪽"),
    "key.gsb.grid.home": ("First device", "첫 장치"),
    "key.gsb.grid.end": ("Last device", "마지막 장치"),
    "key.gsb.grid.filter-close": ("Keep filter", "거르기 유지"),
    "key.gsb.grid.filter-clear": ("Clear filter", "거르기 지우기"),
    "key.gsb.ledger-list.close": ("Close", "닫기"),
    "key.gsb.ledger-list.next": ("Next count", "다음 개수"),
    "key.gsb.ledger-list.previous": ("Previous count", "이전 개수"),
    "key.gsb.ledger-list.home": ("First device", "첫 장치"),
    "key.gsb.ledger-list.end": ("Last device", "마지막 장치"),
    "help.grid-filter": ("grid node filter", "장치 노드 거르기"),
    "help.ledger-list": ("ledger list", "장부 목록"),
}
