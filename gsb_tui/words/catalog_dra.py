"""Words for what dra/ finds: warnings (long and short) and the grid's own words.

Korean uses the lab's words (요청서 = ResourceClaim, 틀 = ResourceClaimTemplate); kinds, field
paths and object names stay as kubectl prints them.
"""

from __future__ import annotations

DRA: dict[str, tuple[str, str]] = {
    # ---------------------------------------------------------------- warnings, spelled out
    "warning.leak": (
        "claim {claim} is allocated ({devices}) but reserved by no one: the devices stay taken"
        " while no pod uses them. Start a pod that uses the claim, or delete the claim to free"
        " them.",
        "요청서 {claim}은(는) 장치를 할당받았지만 ({devices}) 아무도 예약하지 않았습니다:"
        " 쓰는 파드가 없는데도 장치가 묶여 있습니다. 이 요청서를 쓰는 파드를 띄우거나,"
        " 요청서를 지워 장치를 풀어 주세요.",
    ),
    "warning.ghost-consumer": (
        "claim {claim} is reserved for pod {pod}, which no longer exists: the device stays held"
        " until the claim controller drops that entry. If it does not, delete the claim (or the"
        " pod's leftovers).",
        "요청서 {claim}은(는) 이미 없는 파드 {pod}에게 예약되어 있습니다: 요청서 컨트롤러가"
        " 그 항목을 지울 때까지 장치가 묶여 있습니다. 지워지지 않으면 요청서(또는 파드의"
        " 남은 것)를 지우세요.",
    ),
    "warning.missing-claim": (
        "pod {pod} uses {kind} {name}, which does not exist in {namespace}: the pod cannot be"
        " scheduled. Create the claim or fix resourceClaimName.",
        "파드 {pod}은(는) {namespace}에 없는 {kind} {name}을(를) 씁니다: 파드를 배치할 수"
        " 없습니다. 요청서를 만들거나 resourceClaimName 을 고치세요.",
    ),
    "warning.missing-template": (
        "pod {pod} uses {kind} {name}, which does not exist in {namespace}: no claim can be made"
        " for it. Create the template or fix resourceClaimTemplateName.",
        "파드 {pod}은(는) {namespace}에 없는 {kind} {name}을(를) 씁니다: 요청서를 만들어 줄"
        " 수 없습니다. 틀을 만들거나 resourceClaimTemplateName 을 고치세요.",
    ),
    "warning.claim-not-in-container": (
        "pod {pod} lists {entries} in spec.resourceClaims but no container ({containers}) lists"
        " it under resources.claims: the claim gets allocated but the device never reaches the"
        " container (on a real node it gets none of the driver's variables, such as"
        " GPU_DEVICE_<n>, and the kubelet reports no device health for it). Add"
        " `resources: {{claims: [{{name: {entry}}}]}}` to the container.",
        "파드 {pod}은(는) spec.resourceClaims 에 {entries}을(를) 적었지만 어느 컨테이너"
        " ({containers}) 도 resources.claims 에 적지 않았습니다: 요청서는 할당되지만 장치가"
        " 컨테이너에 닿지 않습니다 (실제 노드에서는 GPU_DEVICE_<n> 같은 드라이버의 변수가 하나도"
        " 없고, kubelet 도 장치 상태를 알리지 않습니다). 컨테이너에"
        " `resources: {{claims: [{{name: {entry}}}]}}` 를"
        " 넣으세요.",
    ),
    "warning.stale-slice": (
        "slice {slice} belongs to pool {pool} ({driver}) generation {generation}, but generation"
        " {newest} is published: its devices are ignored. The driver should delete it soon;"
        " nothing to do unless it stays.",
        "슬라이스 {slice}은(는) 풀 {pool} ({driver}) 의 세대 {generation} 것인데, 지금 게시된"
        " 세대는 {newest} 입니다: 그 장치들은 세지 않습니다. 드라이버가 곧 지울 것이니, 계속"
        " 남아 있지 않는 한 할 일은 없습니다.",
    ),
    "warning.orphan-result": (
        "claim {claim} is allocated device {device}, which no current slice publishes: the"
        " driver may have restarted or removed it. Check the driver's slices; recreating the"
        " claim's pod gets a fresh allocation.",
        "요청서 {claim}은(는) 지금 어느 슬라이스도 게시하지 않는 장치 {device}을(를)"
        " 할당받았습니다: 드라이버가 재시작했거나 장치를 뺐을 수 있습니다. 드라이버의 슬라이스를"
        " 확인하고, 요청서의 파드를 다시 만들면 새로 할당받습니다.",
    ),
    # ---------------------------------------------------------------- warnings, in a few words
    "warning.short.leak": ("leak", "새는 할당"),
    "warning.short.ghost-consumer": ("ghost pod", "없는 파드"),
    "warning.short.missing-claim": ("missing claim", "없는 요청서"),
    "warning.short.missing-template": ("missing template", "없는 틀"),
    "warning.short.claim-not-in-container": ("not in container", "컨테이너에 없음"),
    "warning.short.orphan-result": ("unpublished device", "게시 안 된 장치"),
    "warning.short.stale-slice": ("stale slice", "지난 세대 슬라이스"),
    # ---------------------------------------------------------------- malformed objects
    # (dra/model/fields.py: a field of the wrong type, read as absent; the object is kept)
    "malformed.object": (
        "{kind} {name} is malformed: {fields}",
        "{kind} {name}의 형식이 잘못되었습니다: {fields}",
    ),
    "malformed.device": ("malformed: {fields}", "형식 오류: {fields}"),
    "malformed.field": (
        "{path}: expected {expected}, found {found}",
        "{path}: {expected} 자리에 {found}이(가) 있습니다",
    ),
    "malformed.more": ("and {n} more", "그 밖에 {n}개"),
    "malformed.count": ("{n} malformed object(s)", "형식이 잘못된 객체 {n}개"),
    "malformed.read-as": (
        "each such field is read as absent; the rest of the object is shown and counted",
        "그런 필드는 없는 것으로 읽고, 객체의 나머지는 그대로 보여 주고 셉니다",
    ),
    "malformed.hint": (
        "the API server does not accept such an object: it was edited by hand or recorded"
        " wrong, or the server is not a Kubernetes API server. Fix the object (or record it"
        " again).",
        "API 서버는 이런 객체를 받아 주지 않습니다: 손으로 고쳤거나 잘못 녹화되었거나, 서버가"
        " Kubernetes API 서버가 아닙니다. 객체를 고치세요 (또는 다시 녹화하세요).",
    ),
    "malformed.expected.integer": ("an integer", "정수"),
    "malformed.expected.string": ("a string", "문자열"),
    "malformed.expected.boolean": ("true or false", "참/거짓 값"),
    "malformed.expected.list": ("a list", "목록"),
    "malformed.expected.map": ("a map", "맵"),
    "malformed.expected.quantity": ("a quantity (such as 80Gi)", "수량 (80Gi 같은)"),
    "malformed.expected.attribute": (
        "one of int, bool, string or version",
        "int, bool, string, version 중 하나",
    ),
    "malformed.found.string": ("the string {sample}", "문자열 {sample}"),
    "malformed.found.integer": ("the integer {sample}", "정수 {sample}"),
    "malformed.found.out-of-range": ("{sample}, past int64", "int64 범위를 넘는 {sample}"),
    "malformed.found.huge": (
        "an integer of {sample} digits, past int64",
        "int64 범위를 넘는 {sample}자리 정수",
    ),
    "malformed.found.number": ("the number {sample}", "숫자 {sample}"),
    "malformed.found.nan": ("NaN", "NaN (숫자 아님)"),
    "malformed.found.infinity": ("infinity", "무한대"),
    "malformed.found.-infinity": ("minus infinity", "음의 무한대"),
    "malformed.found.boolean": ("the boolean {sample}", "참/거짓 값 {sample}"),
    "malformed.found.surrogate": (
        "a lone surrogate in {sample}",
        "짝 없는 서로게이트 문자가 든 {sample}",
    ),
    "malformed.found.list": ("a list", "목록"),
    "malformed.found.map": ("a map", "맵"),
    "malformed.found.other": ("a {sample}", "{sample} 값"),
    # ---------------------------------------------------------------- the device grid
    "cell.free": ("free", "빈 장치"),
    "cell.admin": ("admin: {claim}", "관리: {claim}"),
    "cell.claim": ("claim ", "요청서 "),
    "cell.pod": ("pod ", "파드 "),
    "cell.no-pod": ("no pod yet", "아직 파드 없음"),
    "grid.group-count": ("{n} devices", "장치 {n}개"),
    "ledger.wants": ("{claim} wants {n}", "{claim}이(가) {n}개 원함"),
    "ledger.pod-warning": ("pod {pod}: {short}", "파드 {pod}: {short}"),
    "strip.pod": ("pod {pod}", "파드 {pod}"),
    "strip.missing": (
        "uses {kind} {name}, which does not exist in {namespace}",
        "{namespace}에 없는 {kind} {name}을(를) 씁니다",
    ),
    # ---------------------------------------------------------------- CEL: hints and limits
    # (The API server's own messages are quoted in English, as kubectl shows them.)
    "cel.hint.domain": (
        "Attributes and capacities live under the driver's name (their domain), not directly"
        " under device.attributes / device.capacity: write {fixed}",
        "속성과 용량은 device.attributes / device.capacity 바로 아래가 아니라 드라이버 이름(도메인)"
        " 아래에 있습니다: {fixed}처럼 쓰세요",
    ),
    "cel.hint.quantity": (
        "Quantities are compared with methods, e.g."
        " device.capacity['{domain}'].memory.compareTo(quantity('4Gi')) >= 0",
        "수량(Quantity)은 메서드로 비교합니다. 예:"
        " device.capacity['{domain}'].memory.compareTo(quantity('4Gi')) >= 0",
    ),
    "cel.hint.fields": (
        "device has driver, attributes, capacity and allowMultipleAllocations.",
        "device 에는 driver, attributes, capacity, allowMultipleAllocations 가 있습니다.",
    ),
    "cel.hint.variable": (
        "Selectors read the device through the variable device, e.g. device.driver.",
        "선택식은 device 변수로 장치를 읽습니다. 예: device.driver",
    ),
    "cel.hint.bool": (
        "A selector is a condition that is true or false for each device: compare the value,"
        " e.g. `... == 7`.",
        "선택식은 장치마다 참이나 거짓이 되는 조건입니다: 값을 비교하세요. 예: `... == 7`",
    ),
    "cel.cannot-evaluate": (
        "gsb-tui cannot evaluate this selector: {detail}",
        "gsb-tui 는 이 선택식을 계산할 수 없습니다: {detail}",
    ),
    "cel.cannot-read": (
        "gsb-tui cannot read this selector ({detail} at offset {pos})",
        "gsb-tui 는 이 선택식을 읽을 수 없습니다 ({pos}번째 글자: {detail})",
    ),
    "cel.too-deep": (
        "gsb-tui cannot evaluate this selector: it nests deeper than its evaluator allows (the"
        " API server may accept it)",
        "gsb-tui 는 이 선택식을 계산할 수 없습니다: 계산기가 허용하는 것보다 깊게 중첩되어 있습니다"
        " (API 서버는 받아들일 수 있음)",
    ),
    "cel.timeout": (
        "not evaluated: gsb-tui's time budget for this view ran out first",
        "계산하지 못함: 이 화면에 쓸 gsb-tui 의 시간 예산이 먼저 끝났습니다",
    ),
    "cel.hint.too-long": (
        "A selector may have at most {limit} bytes; this one has {size}. Shorten it, or split the"
        " condition over several selectors (they must all be true).",
        "선택식은 최대 {limit} 바이트입니다. 이 선택식은 {size} 바이트입니다. 줄이거나 조건을 여러"
        " 선택식으로 나누세요 (모두 참이어야 합니다).",
    ),
    "cel.hint.depth": (
        "The API server's CEL parser stops at {limit} nested levels: use fewer parentheses,"
        " brackets or chained operators, or split the condition over several selectors.",
        "API 서버의 CEL 파서는 {limit} 단계 중첩에서 멈춥니다: 괄호, 대괄호, 이어진 연산자를"
        " 줄이거나 조건을 여러 선택식으로 나누세요.",
    ),
    "cel.hint.cost": (
        "The API server estimates the worst case over any device (up to 32 attributes per"
        " domain, values of up to 64 characters): this selector's estimate is {cost}, the limit"
        " {limit}. Nest fewer loops (all, exists, map, filter), or read the attribute by name"
        " instead of looping over them.",
        "API 서버는 어떤 장치에서든 최악의 경우를 추정합니다 (도메인마다 속성 최대 32개, 값은"
        " 최대 64 글자): 이 선택식의 추정치는 {cost}, 한도는 {limit} 입니다. 반복(all, exists,"
        " map, filter) 중첩을 줄이거나, 속성을 반복하지 말고 이름으로 읽으세요.",
    ),
    "cel.unported": (
        "gsb-tui cannot evaluate {names} (the API server accepts it); this selector is not"
        " previewed",
        "gsb-tui 는 {names}을(를) 계산할 수 없습니다 (API 서버는 받아들임). 이 선택식은 미리"
        " 보지 않습니다",
    ),
    # ---------------------------------------------------------- ResourcePoolStatusRequests
    # dra/pool_status.py: what the controller counted per pool beside gsb-tui's own count.
    # {n} a count, {devices} device names, {detail} a generation, a pool's problem or the
    # controller's own words (quoted as it wrote them).
    "poolstatus.heading": (
        "ResourcePoolStatusRequests: {n} ({pending} not answered); the controller's counts beside"
        " gsb-tui's, as slices/total/allocated/available/unavailable (gsb-tui's available: free)",
        "ResourcePoolStatusRequest {n}개 (응답 없음 {pending}개); 컨트롤러가 센 수와 gsb-tui 가 센"
        " 수, 슬라이스/전체/할당/사용 가능/사용 불가 순 (gsb-tui 의 사용 가능은 비어 있는 장치)",
    ),
    "poolstatus.pool": (
        "{request}: {pool} generation {generation}: upstream {upstream} · gsb-tui {own}",
        "{request}: {pool} 세대 {generation}: upstream {upstream} · gsb-tui {own}",
    ),
    "poolstatus.pane": (
        "ResourcePoolStatusRequest {request}: upstream {upstream} · gsb-tui {own}"
        " (slices/total/allocated/available/unavailable)",
        "ResourcePoolStatusRequest {request}: upstream {upstream} · gsb-tui {own}"
        " (슬라이스/전체/할당/사용 가능/사용 불가)",
    ),
    "poolstatus.older": (
        "{n} older answer(s) about these pools not shown (gsb-tui devices --json lists them all)",
        "이 풀들에 대한 예전 응답 {n}개는 보이지 않습니다 (gsb-tui devices --json 에 다 나옵니다)",
    ),
    "poolstatus.pending": (
        "{name}: not answered yet (the controller writes a request's status once)",
        "{name}: 아직 응답이 없습니다 (컨트롤러는 요청마다 상태를 한 번만 씁니다)",
    ),
    "poolstatus.pending-incomplete": (
        "{name}: not answered: {pools} is incomplete, and the controller writes nothing while a"
        " pool it counts is (it retries {retries} times, then gives up). Create the request again"
        " once the pool is complete.",
        "{name}: 응답이 없습니다: {pools} 풀이 불완전한데, 컨트롤러는 세는 풀 중 하나라도"
        " 불완전하면 아무것도 쓰지 않습니다 ({retries}번 다시 해 보고 포기함). 풀이 다 올라온 뒤"
        " 요청을 다시 만드세요.",
    ),
    "poolstatus.failed": ("{name}: failed: {message}", "{name}: 실패: {message}"),
    "poolstatus.truncated": (
        "{name}: {listed} of {count} pools listed (spec.limit {limit})",
        "{name}: 풀 {count}개 중 {listed}개만 실렸습니다 (spec.limit {limit})",
    ),
    "poolstatus.reason.orphan-results": (
        "{n} result(s) name a device the pool no longer publishes ({devices}): upstream counts it"
        " allocated, gsb-tui does not count it",
        "결과 {n}개가 풀이 더는 올리지 않는 장치를 가리킵니다 ({devices}): upstream 은 할당으로"
        " 세고, gsb-tui 는 세지 않습니다",
    ),
    "poolstatus.reason.tainted-held": (
        "{n} allocated device(s) also carry a NoSchedule or NoExecute taint ({devices}): upstream"
        " counts them allocated and unavailable both, so its available is lower",
        "할당된 장치 {n}개에 NoSchedule 이나 NoExecute 테인트도 있습니다 ({devices}): upstream 은"
        " 할당과 사용 불가 양쪽에 세므로 사용 가능이 그만큼 적습니다",
    ),
    "poolstatus.reason.counters": (
        "{n} device(s) cannot be allocated, the counters they need being used up ({devices}):"
        " upstream counts them available, gsb-tui unavailable",
        "장치 {n}개는 필요한 카운터가 다 쓰여서 할당할 수 없습니다 ({devices}): upstream 은 사용"
        " 가능으로, gsb-tui 는 사용 불가로 셉니다",
    ),
    "poolstatus.reason.pool-problem": (
        "{n} device(s) are in a pool the scheduler allocates nothing from ({detail}; {devices}):"
        " upstream counts them available",
        "장치 {n}개가 스케줄러가 아무것도 할당하지 않는 풀에 있습니다 ({detail}; {devices}):"
        " upstream 은 사용 가능으로 셉니다",
    ),
    "poolstatus.reason.capacity": (
        "{n} device(s) have too little capacity for a request that asks for none ({devices}):"
        " upstream counts them available",
        "장치 {n}개는 용량을 따로 묻지 않는 요청에도 용량이 모자랍니다 ({devices}): upstream 은"
        " 사용 가능으로 셉니다",
    ),
    "poolstatus.reason.taints-uncounted": (
        "{n} unallocated device(s) carry a NoSchedule or NoExecute taint ({devices}): this"
        " release's controller counts no taint (unavailableDevices is always 0 before 1.37)",
        "할당되지 않은 장치 {n}개에 NoSchedule 이나 NoExecute 테인트가 있습니다 ({devices}): 이"
        " 릴리스의 컨트롤러는 테인트를 세지 않습니다 (1.37 전에는 unavailableDevices 가 늘 0)",
    ),
    "poolstatus.reason.other": (
        "{n} device(s) gsb-tui counts unavailable for another reason ({devices}): upstream counts"
        " them available",
        "장치 {n}개는 gsb-tui 가 다른 이유로 사용 불가로 셉니다 ({devices}): upstream 은 사용"
        " 가능으로 셉니다",
    ),
    "poolstatus.reason.shared-room": (
        "{n} shared device(s) in use still have capacity left ({devices}): gsb-tui counts them"
        " allocated and free, upstream allocated only",
        "쓰는 중인 공유 장치 {n}개에 아직 용량이 남아 있습니다 ({devices}): gsb-tui 는 할당과"
        " 비어 있음 양쪽에, upstream 은 할당에만 셉니다",
    ),
    "poolstatus.reason.duplicates": (
        "{n} device name(s) published twice in the pool ({devices}): upstream counts every copy,"
        " gsb-tui each name once",
        "풀에 같은 이름으로 두 번 올라온 장치가 {n}개 있습니다 ({devices}): upstream 은 사본마다"
        " 세고, gsb-tui 는 이름마다 한 번 셉니다",
    ),
    "poolstatus.reason.clipped": (
        "allocated plus unavailable exceed the total by {n}: upstream writes available 0, never"
        " less",
        "할당과 사용 불가를 더하면 전체보다 {n} 많습니다: upstream 은 사용 가능을 0 으로 쓰고 그"
        " 아래로는 쓰지 않습니다",
    ),
    "poolstatus.reason.admin-results": (
        "{n} adminAccess result(s) ({devices}): this release's controller counts each as an"
        " allocated device; gsb-tui (and the 1.37 controller) count none",
        "adminAccess 결과 {n}개 ({devices}): 이 릴리스의 컨트롤러는 하나하나를 할당된 장치로"
        " 셉니다; gsb-tui 와 1.37 컨트롤러는 세지 않습니다",
    ),
    "poolstatus.reason.share-results": (
        "{n} more share(s) of a device that allows multiple allocations ({devices}): this"
        " release's controller counts every share as a device; gsb-tui (and the 1.37"
        " controller) count the device once",
        "여러 번 할당할 수 있는 장치의 몫이 {n}개 더 있습니다 ({devices}): 이 릴리스의 컨트롤러는"
        " 몫마다 장치 하나로 셉니다; gsb-tui 와 1.37 컨트롤러는 장치를 한 번만 셉니다",
    ),
    "poolstatus.reason.generation": (
        "the status is older than the pool's slices (generation {detail})",
        "상태가 풀의 슬라이스보다 오래됐습니다 (세대 {detail})",
    ),
    "poolstatus.reason.since": (
        "the status is written once: claims or DeviceTaintRules changed after it",
        "상태는 한 번만 쓰입니다: 그 뒤에 요청서나 DeviceTaintRule 이 바뀌었습니다",
    ),
    "poolstatus.reason.gone": (
        "the pool publishes no slice now",
        "지금 이 풀에 올라온 슬라이스가 없습니다",
    ),
    "poolstatus.reason.incomplete-now": (
        "the pool is incomplete now ({detail}): the controller would not answer a new request",
        "지금 풀이 불완전합니다 ({detail}): 새 요청에는 컨트롤러가 응답하지 않습니다",
    ),
    "poolstatus.reason.validation-error": (
        "the controller says: {detail}",
        "컨트롤러가 남긴 말: {detail}",
    ),
    "poolstatus.reason.unexplained": (
        "gsb-tui cannot say why the rest differs",
        "나머지 차이는 gsb-tui 가 설명하지 못합니다",
    ),
    "poolstatus.note.admin-access": (
        "{n} device(s) watched by adminAccess claims ({devices}): neither counts them allocated",
        "adminAccess 요청서가 지켜보는 장치 {n}개 ({devices}): 양쪽 다 할당으로 세지 않습니다",
    ),
    "poolstatus.note.taint-none": (
        "{n} device(s) tainted with effect None only ({devices}): both count them available",
        "효과가 None 인 테인트만 있는 장치 {n}개 ({devices}): 양쪽 다 사용 가능으로 셉니다",
    ),
    "poolstatus.note.shares": (
        "{n} device(s) shared by several claims ({devices}): both count each once",
        "여러 요청서가 함께 쓰는 장치 {n}개 ({devices}): 양쪽 다 한 번씩만 셉니다",
    ),
}
