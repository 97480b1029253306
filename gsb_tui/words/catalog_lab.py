# Over 400 lines: data only, one entry per checklist message.
"""The lab checklist's words (every reason and hint), in English and Korean (str.format templates).

Korean uses the lab's own words: 요청서 = ResourceClaim, 틀 = ResourceClaimTemplate.
Literal braces (kubectl jsonpath) are doubled.
"""

from __future__ import annotations

LAB: dict[str, tuple[str, str]] = {
    # ---------------------------------------------------------------- reading files
    "file.missing": (
        "{file} is not there yet ({path})",
        "{file} 파일이 아직 없습니다 ({path})",
    ),
    "file.dangling": (
        "{file} is a symlink to a file that does not exist",
        "{file}은(는) 없는 파일을 가리키는 심볼릭 링크입니다",
    ),
    "file.empty": ("{file} is empty", "{file} 파일이 비어 있습니다"),
    "file.directory": (
        "{file} is a directory, not a file",
        "{file}은(는) 파일이 아니라 디렉터리입니다",
    ),
    "file.not_regular": (
        "{file} is not a regular file (a pipe, socket or device is in its place)",
        "{file}은(는) 일반 파일이 아닙니다 (파이프·소켓·장치 파일이 그 자리에 있음)",
    ),
    "file.loop": (
        "{file} is a symlink loop (it points back at itself)",
        "{file}은(는) 자기 자신을 가리키는 심볼릭 링크 고리입니다",
    ),
    "file.denied": (
        "{file} cannot be read: permission denied",
        "{file}을(를) 읽을 수 없습니다: 권한이 없습니다",
    ),
    "file.error": ("{file} cannot be read: {error}", "{file}을(를) 읽을 수 없습니다: {error}"),
    "file.too_large": (
        "{file} is {size} bytes, over the {limit} limit: it was not read",
        "{file}이(가) {size} 바이트로 한도 {limit}을(를) 넘어 읽지 않았습니다",
    ),
    "file.utf16": (
        "{file} is saved as UTF-16; save it as UTF-8",
        "{file}이(가) UTF-16 으로 저장되어 있습니다. UTF-8 로 저장하세요",
    ),
    "file.binary": (
        "{file} is not a text file (it contains NUL bytes)",
        "{file}은(는) 텍스트 파일이 아닙니다 (NUL 바이트가 들어 있음)",
    ),
    "file.not_utf8": (
        "{file} is not UTF-8 text (byte {byte} on line {line})",
        "{file}이(가) UTF-8 텍스트가 아닙니다 ({line}번째 줄의 바이트 {byte})",
    ),
    # ---------------------------------------------------------------- key=value files
    "kv.bad_line": (
        "{file} line {line} is not key=value: '{text}'",
        "{file} {line}번째 줄이 key=value 꼴이 아닙니다: '{text}'",
    ),
    "kv.duplicate": (
        "{file} sets {key} more than once with different values (lines {lines})",
        "{file}에 {key}이(가) 서로 다른 값으로 여러 번 있습니다 ({lines}번째 줄)",
    ),
    "kv.missing": ("{file} has no {key}= line", "{file}에 {key}= 줄이 없습니다"),
    "kv.missing_close": (
        "{file} has no {key}= line (it has {found}=: a typo?)",
        "{file}에 {key}= 줄이 없습니다 ({found}= 은 있음: 오타인가요?)",
    ),
    "kv.empty_value": ("{key}= in {file} has no value", "{file}의 {key}= 에 값이 없습니다"),
    # ---------------------------------------------------------------- JSON files
    "json.syntax": (
        "{file} is not valid JSON: {error} at line {line}, column {col}",
        "{file}이(가) 올바른 JSON 이 아닙니다: {line}번째 줄 {col}번째 칸, {error}",
    ),
    "json.syntax_plain": (
        "{file} is not valid JSON: {error}",
        "{file}이(가) 올바른 JSON 이 아닙니다: {error}",
    ),
    "json.not_object": (
        "{file} must hold one JSON object {{...}}, not a {found}",
        "{file}에는 JSON 객체 {{...}} 하나가 있어야 합니다 ({found}이(가) 아니라)",
    ),
    "json.duplicate": (
        "{file} gives the key {key} twice",
        "{file}에 키 {key}이(가) 두 번 있습니다",
    ),
    "json.missing": ("{file} has no key {key}", "{file}에 키 {key}이(가) 없습니다"),
    "json.missing_close": (
        "{file} has no key {key} (it has {found}: a typo?)",
        "{file}에 키 {key}이(가) 없습니다 ({found}은(는) 있음: 오타인가요?)",
    ),
    "json.not_string": (
        "{key} in {file} must be a string, not a {found}",
        "{file}의 {key}은(는) {found}이(가) 아니라 문자열이어야 합니다",
    ),
    "json.empty_value": ("{key} in {file} is empty", "{file}의 {key}이(가) 비어 있습니다"),
    "json.not_number": (
        "{key} in {file} must be a number, not a {found}",
        "{file}의 {key}은(는) {found}이(가) 아니라 숫자여야 합니다",
    ),
    "json.number_as_string": (
        '{key} in {file} is the string "{value}": write the number {value} without quotes',
        '{file}의 {key}이(가) 문자열 "{value}" 입니다: 따옴표 없이 숫자 {value}(으)로 적으세요',
    ),
    "json.not_whole": (
        "{key} in {file} is {value}: a count is a whole number",
        "{file}의 {key}이(가) {value} 입니다: 개수는 정수입니다",
    ),
    "json.not_list": (
        "{key} in {file} must be a list, not a {found}",
        "{file}의 {key}은(는) {found}이(가) 아니라 목록이어야 합니다",
    ),
    # ---------------------------------------------------------------- YAML files
    "yaml.syntax": (
        "{file} is not valid YAML: {error} (line {line}, column {col})",
        "{file}이(가) 올바른 YAML 이 아닙니다: {error} ({line}번째 줄 {col}번째 칸)",
    ),
    "yaml.syntax_plain": (
        "{file} is not valid YAML: {error}",
        "{file}이(가) 올바른 YAML 이 아닙니다: {error}",
    ),
    "yaml.not_object": (
        "document {doc} of {file} (line {line}) is not a Kubernetes object",
        "{file}의 {doc}번째 문서({line}번째 줄)는 쿠버네티스 객체가 아닙니다",
    ),
    "yaml.no_kind": (
        "document {doc} of {file} (line {line}) has no apiVersion or kind",
        "{file}의 {doc}번째 문서({line}번째 줄)에 apiVersion 이나 kind 가 없습니다",
    ),
    "yaml.no_objects": (
        "{file} declares no objects",
        "{file}에 선언된 객체가 없습니다",
    ),
    "yaml.extra": (
        "{file} also declares {what} (document {doc}), which is not part of this step",
        "{file}에 이 단계와 상관없는 {what}도 있습니다 ({doc}번째 문서)",
    ),
    "yaml.not_declared": (
        "{file} declares no {kind} {name}",
        "{file}에 {kind} {name}이(가) 없습니다",
    ),
    "yaml.name_typo": (
        "{file} declares {kind} {found}, but the lab asks for {name}",
        "{file}의 {kind} 이름이 {found} 입니다. 실습은 {name}을(를) 요구합니다",
    ),
    "yaml.wrong_kind": (
        "{file} declares {name} as a {found}; the lab asks for a {kind}",
        "{file}에서 {name}이(가) {found}(으)로 선언되어 있습니다. 실습은 {kind}을(를) 요구합니다",
    ),
    "yaml.kind_case": (
        "{file} writes kind: {found}; kinds are case-sensitive: {kind}",
        "{file}에 kind: {found}(으)로 적혀 있습니다. kind 는 대소문자를 가립니다: {kind}",
    ),
    "yaml.api_version": (
        "{what} in {file} has apiVersion {found}; use {wanted}",
        "{file}의 {what} apiVersion 이 {found} 입니다. {wanted}을(를) 쓰세요",
    ),
    "yaml.namespace": (
        "{what} in {file} is in namespace {found}; the lab works in {lab}",
        "{file}의 {what} 네임스페이스가 {found} 입니다. 실습은 {lab}에서 합니다",
    ),
    "yaml.no_spec": ("{what} in {file} has no spec", "{file}의 {what}에 spec 이 없습니다"),
    "yaml.template_not_nested": (
        "{what} in {file} puts devices directly under spec; a template nests the claim's"
        " spec: spec.spec.devices",
        "{file}의 {what}은(는) spec 바로 아래에 devices 가 있습니다. 틀은 요청서의 spec 을 한 번"
        " 더 감쌉니다: spec.spec.devices",
    ),
    "yaml.no_requests": (
        "{what} in {file} has no devices.requests",
        "{file}의 {what}에 devices.requests 가 없습니다",
    ),
    "yaml.many_requests": (
        "{what} in {file} has {n} requests; the lab asks for one request",
        "{file}의 {what}에 요청이 {n}개 있습니다. 실습은 요청 하나를 요구합니다",
    ),
    "yaml.split_requests": (
        "{what} in {file} has {n} requests; the lab asks for one request with count: {count}",
        "{file}의 {what}에 요청이 {n}개 있습니다. 실습은 count: {count} 인 요청 하나를 요구합니다",
    ),
    "yaml.request_no_name": (
        "the request of {what} in {file} has no name",
        "{file}의 {what} 요청에 name 이 없습니다",
    ),
    "yaml.flat_request": (
        "{what} in {file} puts deviceClassName directly on the request; in resource.k8s.io/v1"
        " it goes under exactly: (requests[0].exactly.deviceClassName)",
        "{file}의 {what}은(는) 요청 바로 아래에 deviceClassName 이 있습니다. resource.k8s.io/v1"
        " 에서는 exactly: 아래에 적습니다 (requests[0].exactly.deviceClassName)",
    ),
    "yaml.first_available": (
        "{what} in {file} uses firstAvailable; the lab asks for an exactly: request",
        "{file}의 {what}이(가) firstAvailable 을 씁니다. 실습은 exactly: 요청을 요구합니다",
    ),
    "yaml.no_exactly": (
        "the request of {what} in {file} has no exactly: section",
        "{file}의 {what} 요청에 exactly: 가 없습니다",
    ),
    "yaml.no_class": (
        "the request of {what} in {file} names no deviceClassName",
        "{file}의 {what} 요청에 deviceClassName 이 없습니다",
    ),
    "yaml.wrong_class": (
        "{what} in {file} asks DeviceClass {found}; the lab uses {wanted}",
        "{file}의 {what}이(가) DeviceClass {found}을(를) 씁니다. 실습은 {wanted}을(를) 씁니다",
    ),
    "yaml.mode_all": (
        "{what} in {file} uses allocationMode: All (every matching device); ask for"
        " count: {count} with allocationMode: ExactCount",
        "{file}의 {what}이(가) allocationMode: All (맞는 장치 전부)을 씁니다."
        " allocationMode: ExactCount 와 count: {count}(으)로 요청하세요",
    ),
    "yaml.mode_invalid": (
        "{what} in {file} has allocationMode: {found}; it is ExactCount or All",
        "{file}의 {what} allocationMode 가 {found} 입니다. ExactCount 나 All 만 됩니다",
    ),
    "yaml.mode_missing": (
        "{what} in {file} does not write allocationMode: ExactCount under exactly",
        "{file}의 {what} exactly 아래에 allocationMode: ExactCount 가 없습니다",
    ),
    "yaml.count_missing": (
        "{what} in {file} does not write count: {count} under exactly",
        "{file}의 {what} exactly 아래에 count: {count}이(가) 없습니다",
    ),
    "yaml.count_type": (
        "count in {what} in {file} is {found} (a {kind}); write a plain number without quotes",
        "{file}의 {what} count 가 {found} ({kind}) 입니다. 따옴표 없는 숫자로 적으세요",
    ),
    "yaml.count_wrong": (
        "{what} in {file} asks for count: {found}; the lab asks for {count}",
        "{file}의 {what}이(가) count: {found} 입니다. 실습은 {count} 입니다",
    ),
    "yaml.selector_shape": (
        "a selector of {what} in {file} is not - cel: {{expression: ...}}",
        "{file}의 {what} 선택식이 - cel: {{expression: ...}} 꼴이 아닙니다",
    ),
    "yaml.no_selector": (
        "{what} in {file} has no CEL selector, so any device of the class will do",
        "{file}의 {what}에 CEL 선택식이 없어 클래스의 아무 장치나 받게 됩니다",
    ),
    "yaml.wrong_type": (
        "{field} of {what} in {file} is a {found}; it must be a {wanted}",
        "{file}의 {what} {field}이(가) {found} 입니다. {wanted} 여야 합니다",
    ),
    # ---------------------------------------------------------------- pods in files
    "pod.no_resource_claims": (
        "Pod {pod} in {file} has no spec.resourceClaims",
        "{file}의 Pod {pod}에 spec.resourceClaims 가 없습니다",
    ),
    "pod.claim_for_template": (
        "Pod {pod} in {file} names {name} as resourceClaimName, but {name} is a template:"
        " use resourceClaimTemplateName",
        "{file}의 Pod {pod}이(가) {name}을(를) resourceClaimName 으로 적었지만 {name}은(는)"
        " 틀입니다: resourceClaimTemplateName 을 쓰세요",
    ),
    "pod.template_for_claim": (
        "Pod {pod} in {file} uses {name} as a template (resourceClaimTemplateName), but the"
        " lab asks for the named claim {name}: use resourceClaimName (a template stamps a new"
        " claim per pod)",
        "{file}의 Pod {pod}이(가) {name}을(를) 틀(resourceClaimTemplateName)로 씁니다. 실습은"
        " 이름 있는 요청서 {name}을(를) 요구합니다: resourceClaimName 을 쓰세요 (틀은 파드마다"
        " 새 요청서를 찍어 냅니다)",
    ),
    "pod.ref_typo": (
        "Pod {pod} in {file} has {field}: {found}; the lab's name is {name}",
        "{file}의 Pod {pod}에 {field}: {found}(으)로 적혀 있습니다. 실습의 이름은 {name} 입니다",
    ),
    "pod.ref_missing": (
        "Pod {pod} in {file} does not use {name} ({field}); it uses {found}",
        "{file}의 Pod {pod}이(가) {name} ({field})을(를) 쓰지 않습니다. 쓰는 것: {found}",
    ),
    "pod.entry_no_name": (
        "the resourceClaims entry of Pod {pod} in {file} has no name",
        "{file}의 Pod {pod} resourceClaims 항목에 name 이 없습니다",
    ),
    "pod.no_containers": (
        "Pod {pod} in {file} has no containers",
        "{file}의 Pod {pod}에 컨테이너가 없습니다",
    ),
    "pod.container_unknown_claim": (
        "container {container} of Pod {pod} in {file} lists claim '{found}' in"
        " resources.claims, which is not an entry of spec.resourceClaims ({entries}); the API"
        " server refuses such a pod",
        "{file}의 Pod {pod} 컨테이너 {container}의 resources.claims 에 있는 '{found}' 는"
        " spec.resourceClaims 의 항목({entries})이 아닙니다. API 서버가 이 파드를 거절합니다",
    ),
    # ---------------------------------------------------------------- the two mistakes
    "mistake.no_container_claim": (
        "Pod {pod} lists claim '{entry}' in spec.resourceClaims but no container lists it in"
        " resources.claims: the claim is allocated but the device never reaches the container",
        "Pod {pod}이(가) spec.resourceClaims 에 '{entry}' 를 적었지만 어느 컨테이너의"
        " resources.claims 에도 없습니다: 요청서는 할당되지만 장치가 컨테이너에 들어가지"
        " 않습니다",
    ),
    "mistake.attr_no_domain": (
        "the selector reads {written}: attributes live under the driver's name, so write"
        " {fixed}; the API server rejects this expression when you apply it (CEL compilation"
        " failed), so the claim is never created",
        "선택식이 {written}(으)로 읽습니다. 속성은 드라이버 이름 아래에 있으니 {fixed}(으)로"
        " 적으세요. API 서버는 적용할 때 이 식을 거절하므로 (CEL compilation failed) 요청서가"
        " 만들어지지 않습니다",
    ),
    "mistake.rejected": (
        "{claim} is not on the cluster: the API server rejected its selector at admission"
        " (CEL compilation failed), so kubectl apply created no claim",
        "{claim}이(가) 클러스터에 없습니다: API 서버가 적용 단계에서 선택식을 거절해"
        " (CEL compilation failed) kubectl apply 가 요청서를 만들지 않았습니다",
    ),
    "cel.wrong_domain": (
        "the selector reads attributes under '{domain}', but the driver is {driver}: the"
        " scheduler fails with 'no such key'",
        "선택식이 '{domain}' 아래의 속성을 읽지만 드라이버는 {driver} 입니다: 스케줄러가"
        " 'no such key' 로 실패합니다",
    ),
    "cel.quoted_int": (
        "the selector compares a number in quotes: integers are compared without quotes"
        " (== 7, not == '7'); with quotes it matches no device",
        "선택식이 따옴표 안의 숫자와 비교합니다. 정수는 따옴표 없이 비교합니다"
        " (== '7' 이 아니라 == 7). 따옴표가 있으면 어떤 장치도 맞지 않습니다",
    ),
    "cel.no_attribute": (
        "the selector does not read the {attribute} attribute ({target})",
        "선택식이 {attribute} 속성({target})을 읽지 않습니다",
    ),
    "cel.not_value": (
        "the selector does not compare {attribute} with {value} ({target} == {value})",
        "선택식이 {attribute}을(를) {value}와(과) 비교하지 않습니다 ({target} == {value})",
    ),
    # what the selector admits, evaluated on the published devices (selectors.judge)
    "cel.rejected": (
        "the API server rejects this selector when you apply it ({error}), so the claim is"
        " never created",
        "API 서버는 적용할 때 이 선택식을 거절하므로 ({error}) 요청서가 만들어지지 않습니다",
    ),
    "cel.runtime_error": (
        "the selector fails on {n} of the {total} devices of class {cls}, first on {device}:"
        " {error}; the scheduler stops at such an error and allocates nothing",
        "선택식이 클래스 {cls}의 장치 {total}개 중 {n}개에서 오류를 냅니다 (처음은 {device}:"
        " {error}). 스케줄러는 이런 오류에서 멈추고 아무 장치도 할당하지 않습니다",
    ),
    "cel.picks_none": (
        "the selector admits none of the {total} devices of class {cls}; it should admit the"
        " device with {attribute} == {value}: {wanted}",
        "선택식이 클래스 {cls}의 장치 {total}개 중 어느 것도 고르지 않습니다."
        " {attribute} == {value} 인 장치를 골라야 합니다: {wanted}",
    ),
    "cel.picks_other": (
        "the selector admits {n} of the {total} devices of class {cls}: {devices}; it should"
        " admit only the device with {attribute} == {value}: {wanted}",
        "선택식이 클래스 {cls}의 장치 {total}개 중 {n}개를 고릅니다: {devices}."
        " {attribute} == {value} 인 장치만 골라야 합니다: {wanted}",
    ),
    "cel.more": ("{names} and {n} more", "{names} 외 {n}개"),
    # ---------------------------------------------------------------- the cluster
    "cluster.syncing": (
        "cannot judge yet: {kind} are still being listed from the cluster",
        "아직 판단할 수 없습니다: 클러스터에서 {kind}을(를) 읽어 오는 중입니다",
    ),
    "cluster.forbidden": (
        "cannot judge: reading {kind} is forbidden ({message})",
        "판단할 수 없습니다: {kind}을(를) 읽을 권한이 없습니다 ({message})",
    ),
    "cluster.not_served": (
        "cannot judge: the API server does not serve {kind} ({message})",
        "판단할 수 없습니다: API 서버가 {kind}을(를) 제공하지 않습니다 ({message})",
    ),
    "cluster.unreachable": (
        "cannot judge yet: the watch of {kind} is down ({message})",
        "아직 판단할 수 없습니다: {kind} 감시가 끊겼습니다 ({message})",
    ),
    "cluster.not_applied": (
        "{kind} {name} is not in namespace {lab} yet",
        "{kind} {name}이(가) 아직 {lab} 네임스페이스에 없습니다",
    ),
    "cluster.wrong_namespace": (
        "{kind} {name} is in namespace {ns}, not {lab}",
        "{kind} {name}이(가) {lab}이(가) 아니라 {ns} 네임스페이스에 있습니다",
    ),
    "cluster.pod_claim_for_template": (
        "Pod {pod} on the cluster names {name} as resourceClaimName, but {name} is a template",
        "클러스터의 Pod {pod}이(가) {name}을(를) resourceClaimName 으로 적었지만 {name}은(는)"
        " 틀입니다",
    ),
    "cluster.pod_template_for_claim": (
        "Pod {pod} on the cluster uses {name} as a template (resourceClaimTemplateName);"
        " the lab asks for the named claim {name} (resourceClaimName)",
        "클러스터의 Pod {pod}이(가) {name}을(를) 틀(resourceClaimTemplateName)로 씁니다."
        " 실습은 이름 있는 요청서 {name} (resourceClaimName) 을 요구합니다",
    ),
    "cluster.pod_uses_other": (
        "Pod {pod} on the cluster uses {used}, not {name} ({field})",
        "클러스터의 Pod {pod}은(는) {name} ({field}) 이 아니라 {used}을(를) 씁니다",
    ),
    "cluster.requests": (
        "{what} on the cluster has {n} requests; the lab asks for one",
        "클러스터의 {what}에 요청이 {n}개 있습니다. 실습은 하나를 요구합니다",
    ),
    "cluster.class": (
        "{what} on the cluster asks DeviceClass {found}; the lab uses {wanted}",
        "클러스터의 {what}이(가) DeviceClass {found}을(를) 씁니다. 실습은 {wanted}을(를) 씁니다",
    ),
    "cluster.count": (
        "{what} on the cluster asks for {found} device(s); the lab asks for {count}",
        "클러스터의 {what}이(가) 장치 {found}개를 요청합니다. 실습은 {count}개입니다",
    ),
    "pod.deleting": ("Pod {pod} is being deleted", "Pod {pod}이(가) 지워지는 중입니다"),
    "pod.ended": (
        "Pod {pod} has ended (phase {phase})",
        "Pod {pod}이(가) 끝났습니다 (phase {phase})",
    ),
    "pod.waiting_scheduler": (
        "Pod {pod} is Pending: waiting for the scheduler",
        "Pod {pod}이(가) Pending 입니다: 스케줄러를 기다리는 중",
    ),
    "pod.waiting_claim": (
        "Pod {pod} is Pending: its claim is not made yet",
        "Pod {pod}이(가) Pending 입니다: 요청서가 아직 만들어지지 않았습니다",
    ),
    "pod.pending_says": (
        "Pod {pod} is Pending for now; the scheduler says: {message}",
        "Pod {pod}이(가) 잠시 Pending 입니다. 스케줄러의 말: {message}",
    ),
    "pod.unschedulable": (
        "Pod {pod} is Pending; the scheduler says: {message}",
        "Pod {pod}이(가) Pending 입니다. 스케줄러의 말: {message}",
    ),
    "pod.prepare_failed": (
        "Pod {pod} is on {node} but its devices could not be prepared: {message}",
        "Pod {pod}이(가) {node}에 배치됐지만 장치를 준비하지 못했습니다: {message}",
    ),
    "pod.starting": (
        "Pod {pod} is scheduled on {node}; its containers are starting",
        "Pod {pod}이(가) {node}에 배치됐고 컨테이너가 시작하는 중입니다",
    ),
    "claim.deleting": (
        "claim {claim} is being deleted",
        "요청서 {claim}이(가) 지워지는 중입니다",
    ),
    "claim.pending": (
        "claim {claim} is not allocated yet (STATE pending)",
        "요청서 {claim}이(가) 아직 할당되지 않았습니다 (STATE pending)",
    ),
    "claim.not_reserved": (
        "claim {claim} is allocated but not reserved for Pod {pod} yet",
        "요청서 {claim}이(가) 할당됐지만 아직 Pod {pod}에 예약되지 않았습니다",
    ),
    "claim.not_made": (
        "the claim for Pod {pod} is not made yet",
        "Pod {pod}의 요청서가 아직 만들어지지 않았습니다",
    ),
    "claim.no_pod": ("waiting for the pod", "파드를 기다리는 중"),
    "claim.missing": (
        "claim {claim} is not on the cluster yet",
        "요청서 {claim}이(가) 아직 클러스터에 없습니다",
    ),
    "sub.waiting_file": ("waiting for {file}", "{file}을(를) 기다리는 중"),
    # ---------------------------------------------------------------- step 1
    "slices.none": (
        "no ResourceSlices yet: the driver has not published its devices",
        "아직 ResourceSlice 가 없습니다: 드라이버가 장치를 공개하지 않았습니다",
    ),
    "s1.driver": (
        "driver={value} is not a driver of the ResourceSlices",
        "driver={value}은(는) ResourceSlice 의 드라이버가 아닙니다",
    ),
    "s1.devices_not_number": (
        "devices={value} is not a number",
        "devices={value}은(는) 숫자가 아닙니다",
    ),
    "s1.devices": (
        "devices={value} is not the number of devices {driver} publishes ({slices} slice(s))",
        "devices={value}은(는) {driver}이(가) 공개한 장치 수가 아닙니다 (슬라이스 {slices}개)",
    ),
    "s1.node": (
        "node={value} is not the node of {driver}'s ResourceSlices",
        "node={value}은(는) {driver} ResourceSlice 의 노드가 아닙니다",
    ),
    "s1.node_is_slice": (
        "node={value} is a slice or pool name, not the node name",
        "node={value}은(는) 노드 이름이 아니라 슬라이스나 풀 이름입니다",
    ),
    "s1.model": (
        "model={value} is not the model attribute of {driver}'s devices",
        "model={value}은(는) {driver} 장치의 model 속성 값이 아닙니다",
    ),
    "s1.no_model": (
        "{driver}'s devices publish no model attribute",
        "{driver} 장치에 model 속성이 없습니다",
    ),
    # ---------------------------------------------------------------- step 2
    "s2.no_class": (
        "the driver's DeviceClass is not installed yet",
        "드라이버의 DeviceClass 가 아직 설치되지 않았습니다",
    ),
    "s2.other_class": (
        "deviceclass={value} is another DeviceClass; the lab asks about {wanted}",
        "deviceclass={value}은(는) 다른 DeviceClass 입니다. 실습은 {wanted}을(를) 묻습니다",
    ),
    "s2.no_such_class": (
        "there is no DeviceClass named {value}",
        "{value} 라는 DeviceClass 가 없습니다",
    ),
    "s2.no_selector_served": (
        "DeviceClass {cls} has no CEL selector on the cluster",
        "클러스터의 DeviceClass {cls}에 CEL 선택식이 없습니다",
    ),
    "s2.selector": (
        "selector={value} is not the CEL expression DeviceClass {cls} serves",
        "selector={value}은(는) DeviceClass {cls}의 CEL 식과 다릅니다",
    ),
    "s2.selector_prefix": (
        "selector={value} includes the YAML key; write only the expression itself",
        "selector={value}에 YAML 키가 들어 있습니다. 식만 적으세요",
    ),
    "s2.selector_spaces": (
        "the selector differs from the served expression only in spaces: copy it exactly",
        "선택식이 공백만 다릅니다: 그대로 복사하세요",
    ),
    # ---------------------------------------------------------------- step 4
    "s4.no_pod": (
        "Pod dra-1 is not in dra-lab yet",
        "Pod dra-1 이 아직 dra-lab 에 없습니다",
    ),
    "s4.waiting_claim": (
        "waiting for dra-1's claim to be allocated",
        "dra-1 의 요청서가 할당되기를 기다리는 중",
    ),
    "s4.claim_is_template": (
        "claim={value} is the template's name; the claim stamped from it has its own name",
        "claim={value}은(는) 틀의 이름입니다. 틀로 찍어 낸 요청서는 이름이 따로 있습니다",
    ),
    "s4.claim_other": (
        "claim {value} is a claim in dra-lab, but not the one made for dra-1",
        "요청서 {value}은(는) dra-lab 에 있지만 dra-1 을 위해 만들어진 것이 아닙니다",
    ),
    "s4.claim_unknown": (
        "there is no claim named {value} in dra-lab (a typo?)",
        "dra-lab 에 {value} 라는 요청서가 없습니다 (오타인가요?)",
    ),
    "s4.device": (
        "device {value} is not the device allocated to {claim}",
        "장치 {value}은(는) {claim}에 할당된 장치가 아닙니다",
    ),
    "s4.env_var": (
        "env_var {value} is not the variable the driver sets for the allocated device",
        "env_var {value}은(는) 드라이버가 할당된 장치에 넣는 변수 이름이 아닙니다",
    ),
    # ---------------------------------------------------------------- step 5
    "s5.no_index7": (
        "no device of {driver} has index 7",
        "{driver} 장치 중 index 가 7 인 것이 없습니다",
    ),
    "s5.wrong_device": (
        "{claim} was allocated {got}, not the device whose index is 7",
        "{claim}에 index 7 장치가 아니라 {got}이(가) 할당되었습니다",
    ),
    # ---------------------------------------------------------------- step 6
    "s6.devices": (
        "claim shared holds {n} devices; the lab asks for one",
        "요청서 shared 가 장치 {n}개를 가졌습니다. 실습은 하나입니다",
    ),
    "s6.waiting": (
        "waiting for claim shared and both pods",
        "요청서 shared 와 두 파드를 기다리는 중",
    ),
    # ---------------------------------------------------------------- step 7
    "s7.results": (
        "claim {claim} holds {n} distinct device(s); the lab asks for two",
        "요청서 {claim}이(가) 서로 다른 장치 {n}개를 가졌습니다. 실습은 둘입니다",
    ),
    # ---------------------------------------------------------------- step 8
    "s8.takes_all": (
        "dra-big asks with allocationMode: All; ask for a count",
        "dra-big 가 allocationMode: All 로 요청합니다. 개수(count)로 요청하세요",
    ),
    "s8.no_claims": (
        "dra-big has no spec.resourceClaims: it asks for no devices",
        "dra-big 에 spec.resourceClaims 가 없어 장치를 요청하지 않습니다",
    ),
    "s8.count_unknown": (
        "cannot see yet how many devices dra-big asks for (its template or claim is missing)",
        "dra-big 가 장치를 몇 개 요청하는지 아직 알 수 없습니다 (틀이나 요청서가 없음)",
    ),
    "s8.count": (
        "dra-big asks for {found} device(s); the lab asks for {n}",
        "dra-big 가 장치 {found}개를 요청합니다. 실습은 {n}개입니다",
    ),
    "s8.not_pending": (
        "dra-big is {phase}, not Pending: {n} devices were still free",
        "dra-big 가 Pending 이 아니라 {phase} 입니다: 장치가 {n}개 이상 남아 있었습니다",
    ),
    "s8.allocated": (
        "allocated_devices={value} does not match the distinct devices allocated now",
        "allocated_devices={value}이(가) 지금 할당된 서로 다른 장치 수와 다릅니다",
    ),
    "s8.free": (
        "free_devices={value} does not match the devices left free now",
        "free_devices={value}이(가) 지금 남은 장치 수와 다릅니다",
    ),
    "s8.counted_twice": (
        "{key}={value} counts the shared claim's device once per pod or claim result;"
        " a shared device counts once",
        "{key}={value}은(는) 함께 쓰는 장치를 여러 번 센 값입니다. 함께 쓰는 장치는 한 번만 셉니다",
    ),
    "s8.pending_string": (
        'pending_pods in {file} is a string; write a list: ["name", ...]',
        '{file}의 pending_pods 가 문자열입니다. 목록으로 적으세요: ["이름", ...]',
    ),
    "s8.pending_item": (
        "pending_pods holds a {found}; it lists pod names as strings",
        "pending_pods 에 {found}이(가) 있습니다. 파드 이름을 문자열로 적으세요",
    ),
    "s8.pending_dup": (
        "pending_pods lists {pod} twice",
        "pending_pods 에 {pod}이(가) 두 번 있습니다",
    ),
    "s8.pending_unknown": (
        "pending_pods lists {pod}, which is not a pod in {lab}",
        "pending_pods 의 {pod}은(는) {lab}의 파드가 아닙니다",
    ),
    "s8.pending_not": (
        "pending_pods lists {pod}, which is {phase}, not Pending",
        "pending_pods 의 {pod}은(는) Pending 이 아니라 {phase} 입니다",
    ),
    "s8.pending_missing": (
        "pending_pods leaves out {n} Pending pod(s) in {lab}",
        "pending_pods 에 {lab}의 Pending 파드 {n}개가 빠졌습니다",
    ),
    # ---------------------------------------------------------------- hints
    "hint.next": ("next: step {next}", "다음: {next}단계"),
    "hint.done": ("all eight steps are done", "여덟 단계를 모두 마쳤습니다"),
    "hint.write_file": ("write {path}", "{path}을(를) 작성하세요"),
    "hint.fix_file": (
        "replace it with a plain UTF-8 text file",
        "보통의 UTF-8 텍스트 파일로 바꾸세요",
    ),
    "hint.fix_json": ("fix {file} and save it again", "{file}을(를) 고쳐 다시 저장하세요"),
    "hint.fix_yaml": (
        "fix {file}, then kubectl apply -f {file}",
        "{file}을(를) 고친 뒤 kubectl apply -f {file}",
    ),
    "hint.extra": (
        "keep in {file} only the objects of this step",
        "{file}에는 이 단계의 객체만 두세요",
    ),
    "hint.kv_format": (
        "write one key=value per line: {keys}",
        "한 줄에 key=value 하나씩 적으세요: {keys}",
    ),
    "hint.kv_duplicate": ("keep one {key}= line", "{key}= 줄을 하나만 남기세요"),
    "hint.wait_driver": (
        "wait for the driver (first boot takes about 2 minutes): kubectl get resourceslices",
        "드라이버를 기다리세요 (처음에는 2분쯤 걸립니다): kubectl get resourceslices",
    ),
    "hint.s1_driver": (
        "spec.driver of the slices: kubectl get resourceslices",
        "슬라이스의 spec.driver: kubectl get resourceslices",
    ),
    "hint.s1_devices": (
        "count spec.devices over all of the driver's ResourceSlices:"
        " kubectl get resourceslices -o yaml",
        "드라이버의 모든 ResourceSlice 의 spec.devices 를 세세요:"
        " kubectl get resourceslices -o yaml",
    ),
    "hint.s1_node": (
        "spec.nodeName of the slice (the NODE column of kubectl get resourceslices)",
        "슬라이스의 spec.nodeName (kubectl get resourceslices 의 NODE 열)",
    ),
    "hint.s1_model": (
        "the device attribute model (attributes.model.string)",
        "장치 속성 model 의 값 (attributes.model.string)",
    ),
    "hint.s2_class": (
        "kubectl get deviceclasses lists the classes",
        "kubectl get deviceclasses 로 클래스를 보세요",
    ),
    "hint.s2_selector": (
        "copy spec.selectors[].cel.expression exactly: kubectl get deviceclass <name> -o yaml",
        "spec.selectors[].cel.expression 을 그대로 옮기세요: kubectl get deviceclass <이름> -o"
        " yaml",
    ),
    "hint.s2_allocatable": (
        "see for yourself that the node's allocatable lists no such device:"
        " kubectl get node {node} -o jsonpath='{{.status.allocatable}}'; then step {next}",
        "노드 allocatable 에 이 장치가 없다는 것을 직접 확인하세요:"
        " kubectl get node {node} -o jsonpath='{{.status.allocatable}}'. 그다음 {next}단계",
    ),
    "hint.apply": (
        "kubectl apply -n dra-lab -f {file}",
        "kubectl apply -n dra-lab -f {file}",
    ),
    "hint.wrong_namespace": (
        "kubectl delete {kind} {name} -n {ns}; put namespace: dra-lab in {file} (or apply"
        " with -n dra-lab)",
        "kubectl delete {kind} {name} -n {ns} 후 {file}에 namespace: dra-lab 를 적으세요"
        " (또는 -n dra-lab 으로 적용)",
    ),
    "hint.recreate_pod": (
        "a pod's claims cannot change: kubectl delete pod {pod} -n dra-lab, then"
        " kubectl apply -f {file}",
        "파드의 요청서는 바꿀 수 없습니다: kubectl delete pod {pod} -n dra-lab 후"
        " kubectl apply -f {file}",
    ),
    "hint.recreate_claim": (
        "a claim's spec cannot change: delete {claim} and its pod, fix {file}, apply again",
        "요청서 spec 은 바꿀 수 없습니다: {claim}와(과) 파드를 지우고 {file}을(를) 고쳐 다시"
        " 적용하세요",
    ),
    "hint.reapply": (
        "{what} cannot be changed in place: delete it, fix {file}, apply again",
        "{what}은(는) 그 자리에서 바꿀 수 없습니다: 지우고 {file}을(를) 고쳐 다시 적용하세요",
    ),
    "hint.add_container_claim": (
        "add resources: {{claims: [{{name: {entry}}}]}} to the container of {pod} in {file},"
        " delete the pod and apply again",
        "{file}의 {pod} 컨테이너에 resources: {{claims: [{{name: {entry}}}]}} 를 넣고 파드를"
        " 지운 뒤 다시 적용하세요",
    ),
    "hint.container_claim_live": (
        "add resources: {{claims: [{{name: {entry}}}]}} to the container of {pod}, then delete"
        " the pod and create it again (a pod's containers cannot change)",
        "{pod} 컨테이너에 resources: {{claims: [{{name: {entry}}}]}} 를 넣고"
        " 파드를 지운 뒤 다시 만드세요 (파드의 컨테이너는 바꿀 수 없습니다)",
    ),
    "hint.container_claims_file": (
        "in {file}, point the container at the pod's claim entry:"
        " resources: {{claims: [{{name: <entry name>}}]}}; then delete the pod and apply again",
        "{file}에서 컨테이너가 파드의 요청서 항목을 가리키게 하세요:"
        " resources: {{claims: [{{name: <항목 이름>}}]}}. 그다음 파드를 지우고 다시 적용하세요",
    ),
    "hint.claim_field": (
        "a template goes in resourceClaimTemplateName, a named claim in resourceClaimName;"
        " fix {file}, delete the pod and apply again",
        "틀은 resourceClaimTemplateName, 이름 있는 요청서는 resourceClaimName 에 적습니다."
        " {file}을(를) 고치고 파드를 지운 뒤 다시 적용하세요",
    ),
    "hint.keep_running": (
        "the container's command must keep running (for example sleep)",
        "컨테이너 명령이 계속 돌아야 합니다 (예: sleep)",
    ),
    "hint.no_device": (
        "no free device fits {pod}'s claim: check the request and how many devices are free"
        " (kubectl get resourceclaims -A)",
        "{pod}의 요청서에 맞는 남은 장치가 없습니다: 요청 내용과 남은 장치 수를 보세요"
        " (kubectl get resourceclaims -A)",
    ),
    "hint.claim_not_found": (
        "{pod} names a claim that does not exist: check the name (and that it was applied)",
        "{pod}이(가) 없는 요청서를 가리킵니다: 이름과 적용 여부를 확인하세요",
    ),
    "hint.describe_pod": (
        "kubectl describe pod {pod} -n {lab}",
        "kubectl describe pod {pod} -n {lab}",
    ),
    "hint.step_first": ("finish step {n} first", "먼저 {n}단계를 마치세요"),
    "hint.s4_claim": (
        "the pod's status.resourceClaimStatuses names it:"
        " kubectl get pod dra-1 -n dra-lab -o jsonpath='{{.status.resourceClaimStatuses}}'",
        "파드의 status.resourceClaimStatuses 에 있습니다:"
        " kubectl get pod dra-1 -n dra-lab -o jsonpath='{{.status.resourceClaimStatuses}}'",
    ),
    "hint.s4_device": (
        "status.allocation.devices.results of {claim}:"
        " kubectl get resourceclaim {claim} -n dra-lab -o yaml",
        "{claim}의 status.allocation.devices.results:"
        " kubectl get resourceclaim {claim} -n dra-lab -o yaml",
    ),
    "hint.s4_env": (
        "the driver sets GPU_DEVICE_<number> for device gpu-<number>",
        "드라이버는 장치 gpu-<번호> 에 GPU_DEVICE_<번호> 를 넣습니다",
    ),
    "hint.s5_selector": (
        "select by the attribute under the driver's name:"
        " device.attributes['{driver}'].index == 7 (an integer, no quotes)",
        "드라이버 이름 아래의 속성으로 고르세요:"
        " device.attributes['{driver}'].index == 7 (정수, 따옴표 없이)",
    ),
    "hint.s7_count": (
        "under exactly write allocationMode: ExactCount and count: 2",
        "exactly 아래에 allocationMode: ExactCount 와 count: 2 를 적으세요",
    ),
    "hint.s8_create": (
        "create Pod dra-big in dra-lab with a claim asking for count: {n} devices (any"
        " template name), then kubectl apply -f it",
        "dra-lab 에 장치 count: {n} 개를 요청하는 Pod dra-big 을 만들어 (틀 이름은 자유)"
        " kubectl apply -f 로 적용하세요",
    ),
    "hint.s8_big": (
        "give dra-big one claim asking for count: {n} (ExactCount)",
        "dra-big 에 count: {n} (ExactCount) 을 요청하는 요청서 하나를 주세요",
    ),
    "hint.s8_fewer": (
        "steps 3 to 7 should hold their devices first, so fewer are left than dra-big asks"
        " for: delete dra-big, finish those steps, apply it again",
        "3~7단계가 장치를 먼저 잡고 있어야 dra-big 요청보다 적게 남습니다: dra-big 을 지우고"
        " 그 단계들을 마친 뒤 다시 적용하세요",
    ),
    "hint.s8_ledger": (
        "count distinct devices in the claims' status.allocation (a shared device once,"
        " pending claims not at all); free = published - allocated",
        "요청서 status.allocation 의 서로 다른 장치를 세세요 (함께 쓰는 장치는 한 번, 할당"
        " 없는 요청서는 빼고). 남은 수 = 공개된 수 - 할당된 수",
    ),
    "hint.s8_pending": (
        "kubectl get pods -n {lab} --field-selector status.phase=Pending,spec.nodeName=",
        "kubectl get pods -n {lab} --field-selector status.phase=Pending,spec.nodeName=",
    ),
}
