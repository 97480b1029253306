"""Would the scheduler place this pod now, and where: the DynamicResources plugin's PreFilter
and Filter with the pod's own node filters before it.

Mirrors kube-scheduler 1.36.3 (pkg/scheduler/framework/plugins/dynamicresources):
podResourceClaims / foreachPodResourceClaim (resourceclaim.Name, IsForPod), PreFilter
(claims in use, classes that must exist, the allocated state, slices with taint rules, one
allocator per pod), Filter (an allocated claim's node selector, then Allocate on the node),
and before it NodeUnschedulable, TaintToleration and NodeAffinity (nodes.py). A CEL error
on any node stops the attempt (statusError): the pod fits nowhere then.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from gsb_tui.dra.alloc.extended import existing_claim, node_claim, pod_extended
from gsb_tui.dra.alloc.features import DEFAULT_FEATURES, Features
from gsb_tui.dra.alloc.gather import SliceIndex
from gsb_tui.dra.alloc.nodes import NodeFacts, node_facts, pod_node_stage, selector_matches
from gsb_tui.dra.alloc.pools import ReadSlice, read_slice
from gsb_tui.dra.alloc.requests import ClaimInput, claim_input
from gsb_tui.dra.alloc.results import (
    AllocatedState,
    AllocError,
    DeviceResult,
    NodeFailure,
    Undecided,
)
from gsb_tui.dra.alloc.search import Allocator
from gsb_tui.dra.alloc.state import allocated_state, rule_taints
from gsb_tui.dra.cel import CelSession
from gsb_tui.dra.model import TaintRule
from gsb_tui.dra.model.base import _d, _l
from gsb_tui.snapshot import Obj

BUDGET_S = 10.0  # the scheduler's default filter timeout (DRASchedulerFilterTimeout)
BINDING_TIMEOUT_S = 600  # the DynamicResources plugin's default bindingTimeout


@dataclass(frozen=True)
class NodeVerdict:
    node: str
    # "" fits; else the first stage that failed: node-unschedulable, node-taint,
    # node-selector, claim-node, allocate, invalid-pool, error, undecided
    stage: str
    detail: str = ""
    results: tuple[tuple[DeviceResult, ...], ...] = ()
    claims: tuple[str, ...] = ()  # "ns/name" of what was allocated here, as `results`
    made: tuple[ClaimInput, ...] = ()  # the claim made here for extended resources, if any


@dataclass
class Inputs:
    """Everything a judgement reads, prepared once for many pods (one snapshot)."""

    slices: list[ReadSlice]
    index: SliceIndex
    classes: Mapping[str, Obj]
    claims: Mapping[tuple[str, str], Obj]
    nodes: list[NodeFacts]
    state: AllocatedState
    features: Features = DEFAULT_FEATURES
    # whose compiled selectors and prepared devices the judgements use (the view builder's
    # for the dashboard; a fresh one keeps nothing)
    cel: CelSession = field(default_factory=CelSession)


def prepare(
    slices: Sequence[Obj],
    classes: Sequence[Obj],
    claims: Sequence[Obj],
    nodes: Sequence[Obj],
    rules: Sequence[TaintRule] = (),
    features: Features = DEFAULT_FEATURES,
    read: Sequence[ReadSlice] | None = None,
    cel: CelSession | None = None,
) -> Inputs:
    """The inputs of every judgement on one snapshot; `read`: the slices already read (in
    the order of `slices`), when the caller has them."""
    if read is None:
        taints = rule_taints(rules, slices)
        read = [read_slice(s, taints) for s in slices]
    read = list(read)
    return Inputs(
        slices=read,
        index=SliceIndex.of(read, counters_everywhere=not features.since_137),
        classes={str(_d(c.get("metadata")).get("name") or ""): c for c in classes},
        claims={
            (
                str(_d(c.get("metadata")).get("namespace") or ""),
                str(_d(c.get("metadata")).get("name") or ""),
            ): c
            for c in claims
        },
        nodes=sorted((node_facts(n) for n in nodes), key=lambda n: n.name),
        state=allocated_state(claims),
        features=features,
        cel=cel or CelSession(),
    )


@dataclass
class PodJudgement:
    pod: tuple[str, str]
    found: bool
    bound: str | None
    fits: bool | None  # None: not decided (the budget ran out)
    nodes: list[str] = field(default_factory=list)  # where it fits, by name
    per_node: dict[str, NodeVerdict] = field(default_factory=dict)
    pod_code: str = ""  # a reason no node can help (claim-missing, class-missing, …)
    pod_text: str = ""
    error: str = ""  # the first error that stopped the attempt
    error_code: str = ""
    claims: list[ClaimInput] = field(default_factory=list)  # the pod's claims, in its order
    to_allocate: list[ClaimInput] = field(default_factory=list)
    allocated: list[ClaimInput] = field(default_factory=list)
    extended: dict[str, int] = field(default_factory=dict)  # DRA-backed extended resources


def _owned_by(claim: Obj, pod: Obj) -> bool:
    uid = _d(pod.get("metadata")).get("uid")
    for ref in _l(_d(claim.get("metadata")).get("ownerReferences")):
        ref = _d(ref)
        if ref.get("controller") and ref.get("uid") == uid:
            return True
    return False


def pod_claims(pod: Obj, inputs: Inputs) -> tuple[list[ClaimInput], str, str]:
    """foreachPodResourceClaim: the pod's claims, or (…, code, text) of the first problem."""
    meta = _d(pod.get("metadata"))
    ns, name = str(meta.get("namespace") or ""), str(meta.get("name") or "")
    statuses = {
        str(_d(s).get("name") or ""): _d(s).get("resourceClaimName")
        for s in _l(_d(pod.get("status")).get("resourceClaimStatuses"))
    }
    out: list[ClaimInput] = []
    for entry in _l(_d(pod.get("spec")).get("resourceClaims")):
        entry = _d(entry)
        entry_name = str(entry.get("name") or "")
        must_check_owner = False
        if entry.get("resourceClaimName"):
            claim_name = str(entry["resourceClaimName"])
        elif entry.get("resourceClaimTemplateName"):
            if entry_name not in statuses:
                return out, "claim-missing", f'pod "{ns}/{name}": ResourceClaim not created yet'
            if statuses[entry_name] is None:
                continue  # intentionally not made
            claim_name = str(statuses[entry_name])
            must_check_owner = True
        else:
            text = (
                f'pod "{ns}/{name}", spec.resourceClaim "{entry_name}": '
                "none of the supported fields are set"
            )
            return out, "claim-missing", text
        claim = inputs.claims.get((ns, claim_name))
        if claim is None:
            return out, "claim-missing", f'resourceclaim.resource.k8s.io "{claim_name}" not found'
        if _d(claim.get("metadata")).get("deletionTimestamp"):
            return out, "claim-deleting", f'resourceclaim "{claim_name}" is being deleted'
        if must_check_owner and not _owned_by(claim, pod):
            text = (
                f"ResourceClaim {ns}/{claim_name} was not created for Pod {ns}/{name} "
                "(pod is not owner)"
            )
            return out, "claim-missing", text
        out.append(claim_input(claim))
    return out, "", ""


def judge_pod(
    pod: Obj,
    inputs: Inputs,
    budget_s: float = BUDGET_S,
    extra: Sequence[ClaimInput] = (),
    now: float | None = None,
) -> PodJudgement:
    """PreFilter, then Filter on every node. `extra`: claims the scheduler would make for the
    pod (its DRA-backed extended resources), allocated with the pod's own; `now` (default:
    the clock) times binding conditions against the scheduler's binding timeout."""
    meta = _d(pod.get("metadata"))
    key = (str(meta.get("namespace") or ""), str(meta.get("name") or ""))
    bound = str(_d(pod.get("spec")).get("nodeName") or "") or None
    judgement = PodJudgement(key, True, bound, None)
    if bound:
        judgement.fits = True
        judgement.nodes = [bound]
        return judgement
    claims, code, text = pod_claims(pod, inputs)
    judgement.claims = claims
    if code:
        return _nowhere(judgement, code, text)
    for claim in claims:
        status = _d(claim.raw.get("status"))
        if status.get("allocation") is not None:
            # "resourceclaim in use" needs !CanBeReserved, which is always false in v0.36.3
            # (no limit on sharing): an allocated claim only ties the pod to its node.
            judgement.allocated.append(claim)
            continue
        judgement.to_allocate.append(claim)
        for request in claim.requests:
            alternatives = request.first_available or (
                (request.exactly,) if request.exactly else ()
            )
            for req in alternatives:
                name = f"{request.name}/{req.name}" if request.first_available else request.name
                if req.class_name and req.class_name not in inputs.classes:
                    text = f"request {name}: device class {req.class_name} does not exist"
                    return _nowhere(judgement, "class-missing", text)
    judgement.to_allocate.extend(extra)
    judgement.extended = pod_extended(pod, inputs.classes) if inputs.features.extended else {}
    if judgement.extended and existing_claim(pod, inputs.claims) is not None:
        # filterExtendedResources: a claim from an earlier attempt is deleted, then retried
        text = "cannot schedule extended resource claim"
        return _nowhere(judgement, "extended-claim", text)
    deadline = time.monotonic() + budget_s
    allocator = (
        Allocator(inputs.features, inputs.state, inputs.classes, inputs.index, deadline, inputs.cel)
        if judgement.to_allocate or judgement.extended
        else None
    )
    clock = time.time() if now is None else now
    not_bindable = [
        c.ref
        for c in judgement.allocated
        if inputs.features.device_binding_and_status and _binding_failed(c.raw, clock)
    ]
    for node in inputs.nodes:
        verdict = _filter(pod, node, judgement, allocator, not_bindable)
        judgement.per_node[node.name] = verdict
        if verdict.stage == "error":
            judgement.error = verdict.detail
            judgement.error_code = error_code(verdict.detail)
            judgement.fits = False
            judgement.nodes = []
            return judgement
        if verdict.stage == "undecided":
            judgement.fits = None
    judgement.nodes = [n for n, v in judgement.per_node.items() if not v.stage]
    if (
        judgement.fits is None
        and not judgement.nodes
        and any(v.stage == "undecided" for v in judgement.per_node.values())
    ):
        return judgement
    judgement.fits = bool(judgement.nodes)
    return judgement


def error_code(message: str) -> str:
    """The blocker code of an error that stops the attempt, from upstream's wording."""
    for words, code in (
        ("CEL ", "cel-error"),
        ("is currently invalid", "invalid-pool"),
        ("is currently being updated", "incomplete-pool"),
        ("claim constraint would not be satisfied", "constraint"),
        ("exceeds the claim limit", "count"),
    ):
        if words in message:
            return code
    return "error"


def _nowhere(judgement: PodJudgement, code: str, text: str) -> PodJudgement:
    judgement.fits = False
    judgement.pod_code = code
    judgement.pod_text = text
    return judgement


def _filter(
    pod: Obj,
    node: NodeFacts,
    judgement: PodJudgement,
    allocator: Allocator | None,
    not_bindable: Sequence[str] = (),
) -> NodeVerdict:
    code, detail = pod_node_stage(pod, node)
    if code:
        return NodeVerdict(node.name, code, detail)
    # Filter: allocated claims whose node selector rules the node out are only marked; the
    # allocation runs first and its error or refusal is what the node reports.
    unavailable = [
        claim.ref
        for claim in judgement.allocated
        if isinstance(
            selector := _d(_d(claim.raw.get("status")).get("allocation")).get("nodeSelector"),
            Mapping,
        )
        and not _safe_match(selector, node)
    ]
    claims = list(judgement.to_allocate)
    if judgement.extended:
        made, unfit = node_claim(
            pod, judgement.extended, node, allocator.classes if allocator else {}
        )
        if unfit:
            return NodeVerdict(node.name, "node-resources", unfit)
        if made is not None:
            claims.append(made)
    results: list[list[DeviceResult]] | None = []
    if allocator is not None and claims:
        try:
            results = allocator.allocate(node, claims)
        except NodeFailure as exc:
            here = tuple(claims[len(judgement.to_allocate) :])
            return NodeVerdict(node.name, "invalid-pool", str(exc), made=here)
        except AllocError as exc:
            return NodeVerdict(node.name, "error", str(exc))
        except Undecided as exc:
            return NodeVerdict(node.name, "undecided", str(exc))
        if results is None or len(results) != len(claims):
            here = tuple(claims[len(judgement.to_allocate) :])
            return NodeVerdict(node.name, "allocate", "cannot allocate all claims", made=here)
    if unavailable:
        return NodeVerdict(node.name, "claim-node", unavailable[0])
    if not_bindable:
        return NodeVerdict(node.name, "binding", not_bindable[0])
    refs = tuple(c.ref for c in claims)
    return NodeVerdict(node.name, "", "", tuple(tuple(r) for r in results or ()), refs)


def _binding_failed(claim: Obj, now: float) -> bool:
    """isClaimReadyForBinding gave an error (a failure condition is True) or, not ready yet,
    isClaimTimeout: the claim is "not available on the node" on every node."""
    allocation = _d(_d(claim.get("status")).get("allocation"))
    statuses = _l(_d(claim.get("status")).get("devices"))
    ready = True
    timed = False
    for result in _l(_d(allocation.get("devices")).get("results")):
        result = _d(result)
        conditions = _l(result.get("bindingConditions"))
        if not conditions:
            continue
        timed = timed or _timed_out(str(allocation.get("allocationTimestamp") or ""), now)
        found = next(
            (
                _d(st)
                for st in statuses
                if all(_d(st).get(k) == result.get(k) for k in ("driver", "pool", "device"))
                and _d(st).get("shareID") == result.get("shareID")
            ),
            None,
        )
        if found is None:
            ready = False
            continue
        true = {
            str(_d(c).get("type"))
            for c in _l(found.get("conditions"))
            if _d(c).get("status") == "True"
        }
        if any(str(c) in true for c in _l(result.get("bindingFailureConditions"))):
            return True
        if not all(str(c) in true for c in conditions):
            ready = False
    return not ready and timed


def _timed_out(stamp: str, now: float) -> bool:
    from datetime import datetime

    try:
        started = datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return False
    return started + BINDING_TIMEOUT_S < now


def _safe_match(selector: Mapping[str, Any], node: NodeFacts) -> bool:
    try:
        return selector_matches(selector, node)
    except ValueError:
        return False
