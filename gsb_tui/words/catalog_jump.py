"""The words of `:` (the jump box), the namespace switch, the claim <-> device <-> pod keys and
the claims table's sorting: key -> (English, Korean). Korean avoids particles after a name
(a name's last syllable decides them): "{name}: …" instead."""

from __future__ import annotations

JUMP: dict[str, tuple[str, str]] = {
    # the jump box
    "jump.title": ("Jump to", "바로 가기"),
    "jump.placeholder": (
        "a node, pool, device, claim, pod, namespace or pane; 'pod x' looks at pods only",
        "노드, 풀, 장치, 요청서, 파드, 네임스페이스, 창; 'pod x'는 파드에서만 찾기",
    ),
    "jump.footer": ("↑↓ choose · Enter go · Esc close", "↑↓ 고르기 · Enter 이동 · Esc 닫기"),
    "jump.count": ("{shown} of {n}", "{n}개 중 {shown}개"),
    "jump.none": ("{query!r}: nothing matches", "{query!r}: 맞는 것이 없음"),
    "jump.all-namespaces": ("all namespaces", "모든 네임스페이스"),
    "jump.hint.claims": ("claims: {n}", "요청서 {n}개"),
    "jump.hint.devices": ("devices: {n}", "장치 {n}개"),
    "jump.kind.pane": ("pane", "창"),
    "jump.kind.namespace": ("ns", "네임스페이스"),
    "jump.kind.node": ("node", "노드"),
    "jump.kind.pool": ("pool", "풀"),
    "jump.kind.device": ("device", "장치"),
    "jump.kind.claim": ("claim", "요청서"),
    "jump.kind.pod": ("pod", "파드"),
    "jump.gone": ("{name}: no longer there", "{name}: 이제 없음"),
    "jump.no-devices": ("{name}: publishes no devices", "{name}: 게시한 장치가 없음"),
    "jump.all-shown": (
        "showing all namespaces again, for {name}",
        "{name} 보이기: 모든 네임스페이스를 다시 보여 줌",
    ),
    "jump.pods-title": ("Pods of {claim}", "{claim}의 파드"),
    "palette.search-all": ("Search everything…", "모두 검색…"),
    "palette.search-all.tip": (
        "Nodes, pools, devices, claims, pods, namespaces and panes, by name",
        "노드, 풀, 장치, 요청서, 파드, 네임스페이스, 창을 이름으로 찾기",
    ),
    # the namespace switch
    "ns.only": ("claims of namespace {ns} only", "{ns} 네임스페이스의 요청서만"),
    "ns.all": ("claims of all namespaces", "모든 네임스페이스의 요청서"),
    "ns.empty": ("no ResourceClaims in namespace {ns}", "{ns} 네임스페이스에 ResourceClaim이 없음"),
    # claim <-> device <-> pod
    "go.pending": ("{claim}: no device allocated yet", "{claim}: 아직 할당된 장치가 없음"),
    "go.free": ("{device}: free, no claim holds it", "{device}: 비어 있음, 잡은 요청서가 없음"),
    "go.no-device": ("no device under the cursor", "커서 아래 장치가 없음"),
    "go.no-pods": ("{claim}: no pod uses it", "{claim}: 쓰는 파드가 없음"),
    # bindings (footer and ?)
    "key.gsb.jump": ("Jump", "바로 가기"),
    "key.gsb.jump.tip": (
        "Go to a node, pool, device, claim, pod, namespace or pane by name",
        "노드, 풀, 장치, 요청서, 파드, 네임스페이스, 창으로 이름을 쳐서 가기",
    ),
    "key.gsb.namespace": ("Namespace", "네임스페이스"),
    "key.gsb.namespace.tip": (
        "Show the claims of one namespace, or of all",
        "한 네임스페이스의 요청서만, 또는 모두 보기",
    ),
    "key.gsb.go.device": ("Go to device", "장치로"),
    "key.gsb.go.device.tip": (
        "The selected claim's devices in the grid (again: the next one)",
        "고른 요청서의 장치를 그리드에서 보기 (다시 누르면 다음 장치)",
    ),
    "key.gsb.go.claim": ("Go to claim", "요청서로"),
    "key.gsb.go.claim.tip": (
        "The claim holding the device under the grid's cursor",
        "그리드 커서 아래 장치를 잡은 요청서로 가기",
    ),
    "key.gsb.go.pods": ("Pods", "파드"),
    "key.gsb.go.pods.tip": (
        "The pods using the selected claim (describe one)",
        "고른 요청서를 쓰는 파드 보기 (하나를 자세히)",
    ),
    "key.gsb.jump.close": ("Close", "닫기"),
    "key.gsb.jump.down": ("Next match", "다음 항목"),
    "key.gsb.jump.up": ("Previous match", "이전 항목"),
    "key.gsb.jump.pagedown": ("Page down", "뒤 쪽"),
    "key.gsb.jump.pageup": ("Page up", "앞 쪽"),
    "key.gsb.claims.sort.name": ("Sort by name", "이름순 정렬"),
    "key.gsb.claims.sort.name.tip": (
        "Sort the claims by namespace/name (again: reversed)",
        "요청서를 네임스페이스/이름순으로 (다시 누르면 거꾸로)",
    ),
    "key.gsb.claims.sort.state": ("Sort by state", "상태순 정렬"),
    "key.gsb.claims.sort.state.tip": (
        "Sort the claims by STATE (again: reversed)",
        "요청서를 STATE순으로 (다시 누르면 거꾸로)",
    ),
    "key.gsb.claims.sort.age": ("Sort by age", "나이순 정렬"),
    "key.gsb.claims.sort.age.tip": (
        "Sort the claims by age, newest first (again: oldest first)",
        "요청서를 나이순으로, 새것부터 (다시 누르면 오래된 것부터)",
    ),
    "key.gsb.claims.sort.devices": ("Sort by devices", "장치 수 정렬"),
    "key.gsb.claims.sort.devices.tip": (
        "Sort the claims by how many devices they hold (again: reversed)",
        "요청서를 잡은 장치 수로 (다시 누르면 거꾸로)",
    ),
    "key.gsb.claims.sort.consumers": ("Sort by consumers", "사용자순 정렬"),
    "key.gsb.claims.sort.consumers.tip": (
        "Sort the claims by the pods using them (again: reversed)",
        "요청서를 쓰는 파드 이름순으로 (다시 누르면 거꾸로)",
    ),
    "help.jump": ("Jump box", "바로 가기 상자"),
}
