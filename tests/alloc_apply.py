"""Put a generated shape (tests/alloc_shapes.py) on a live practice cluster, let its judged pods
go, read what kube-scheduler did, and take it all away again.

    applied = apply(rest, shape)         # namespaces, nodes, slices, classes, rules, claims,
                                         # bound pods, then the allocated claims' status
    ungate(rest, "ns/pod")               # spec.schedulingGates -> []
    outcome(rest, "ns/pod", timeout)     # ("placed", node) | ("refused", scheduler message)
    clean(rest, shape)                   # everything the shape made, nodes too; waits

Bound pods are created with spec.nodeName (the scheduler never sees them; kwok runs them,
their nodes carrying kwok's annotation) before the claims they hold get their status: the
status names the pod's uid in reservedFor, the way the scheduler writes it, and the
resourceclaim controller would drop a reservation for a pod it cannot find. The status is a
merge patch of the status subresource, as bench/placement.py writes it.
"""

from __future__ import annotations

import contextlib
import copy
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from gsb_tui.cluster.rest import Rest, RestError
from tests.alloc_shapes import RULES_API, Shape

RESOURCE = "/apis/resource.k8s.io/v1"
THREADS = 8
SETTLE_S = 1.0  # a refusal must stand this long (the scheduler may not have seen all yet)
# A pod the DynamicResources PreEnqueue keeps out of the queue (a claim it names does not
# exist) is never attempted: its PodScheduled condition stays "SchedulingGated" after the
# gates are gone. After this long without an attempt it counts as refused.
NEVER_ATTEMPTED_S = 3.0


@dataclass
class Applied:
    uids: dict[str, str] = field(default_factory=dict)  # "ns/pod" -> uid of a bound pod
    refused: list[tuple[str, str]] = field(default_factory=list)  # (object, API message)


def _claims(ns: str) -> str:
    return f"{RESOURCE}/namespaces/{ns}/resourceclaims"


def _pods(ns: str) -> str:
    return f"/api/v1/namespaces/{ns}/pods"


def path_of(obj: dict[str, Any]) -> str:
    """The collection an object is created in."""
    kind, meta = obj["kind"], obj["metadata"]
    if kind == "Namespace":
        return "/api/v1/namespaces"
    if kind == "Node":
        return "/api/v1/nodes"
    if kind == "ResourceSlice":
        return f"{RESOURCE}/resourceslices"
    if kind == "DeviceClass":
        return f"{RESOURCE}/deviceclasses"
    if kind == "DeviceTaintRule":  # at the version the shape names (alloc_shapes.on_release)
        return f"/apis/{obj.get('apiVersion') or RULES_API}/devicetaintrules"
    if kind == "ResourceClaim":
        return _claims(meta["namespace"])
    if kind == "Pod":
        return _pods(meta["namespace"])
    raise ValueError(f"unknown kind {kind}")


def label(obj: dict[str, Any]) -> str:
    meta = obj["metadata"]
    ns = f"{meta['namespace']}/" if meta.get("namespace") else ""
    return f"{obj['kind']} {ns}{meta['name']}"


def _each(work: Callable[[Any], Any], items: Iterable[Any]) -> list[Any]:
    items = list(items)
    if len(items) <= 1:
        return [work(i) for i in items]
    with ThreadPoolExecutor(min(THREADS, len(items))) as pool:
        return list(pool.map(work, items))


def apply(rest: Rest, shape: Shape, strict: bool = True) -> Applied:
    """Create the shape; `strict`: raise at the first refusal (else collect them all)."""
    applied = Applied()

    def create(obj: dict[str, Any]) -> dict[str, Any] | None:
        body = copy.deepcopy(obj)
        if obj["kind"] != "Node":
            body.pop("status", None)
        body["metadata"].pop("uid", None)
        try:
            return rest.create(path_of(obj), body)
        except RestError as exc:
            if strict:
                raise RestError(exc.status, f"{label(obj)}: {exc}") from exc
            applied.refused.append((label(obj), str(exc)))
            return None

    _each(create, shape.namespaces)
    for ns in shape.namespaces:  # the ServiceAccount admission wants one before any pod
        sa = {"metadata": {"name": "default"}}
        rest.ensure(f"/api/v1/namespaces/{ns['metadata']['name']}/serviceaccounts", sa)
    _each(create, shape.nodes)
    _each(create, [*shape.slices, *shape.classes, *shape.rules])
    _each(create, shape.claims)
    gated = [p for p in shape.pods if p["spec"].get("schedulingGates")]
    bound = [p for p in shape.pods if not p["spec"].get("schedulingGates")]
    for pod, made in zip(bound, _each(create, bound), strict=True):
        if made is not None:
            key = f"{pod['metadata']['namespace']}/{pod['metadata']['name']}"
            applied.uids[key] = made["metadata"]["uid"]
    generated = {
        f"{p['metadata']['namespace']}/{p['metadata']['name']}": p["metadata"].get("uid", "")
        for p in bound
    }
    real = {generated[k]: v for k, v in applied.uids.items()}

    def allocate(claim: dict[str, Any]) -> None:
        status = copy.deepcopy(claim["status"])
        for ref in status.get("reservedFor") or []:
            ref["uid"] = real.get(ref["uid"], ref["uid"])
        meta = claim["metadata"]
        path = f"{_claims(meta['namespace'])}/{meta['name']}/status"
        try:
            rest.request("PATCH", path, {"status": status})
        except RestError as exc:
            if strict:
                raise RestError(exc.status, f"{label(claim)} status: {exc}") from exc
            applied.refused.append((f"{label(claim)} status", str(exc)))

    _each(allocate, [c for c in shape.claims if c.get("status")])
    _each(create, gated)
    return applied


def ungate(rest: Rest, pod: str) -> None:
    ns, name = pod.split("/", 1)
    rest.request("PATCH", f"{_pods(ns)}/{name}", {"spec": {"schedulingGates": []}})


def _scheduled(obj: dict[str, Any]) -> dict[str, Any] | None:
    for cond in (obj.get("status") or {}).get("conditions") or []:
        if cond.get("type") == "PodScheduled":
            return dict(cond)
    return None


def outcome(
    rest: Rest, pod: str, timeout: float = 30.0, settle: float = SETTLE_S
) -> tuple[str, str]:
    """("placed", node) once the pod is bound; ("refused", message) once PodScheduled has
    been False (Unschedulable or SchedulerError) for `settle` seconds, or the scheduler has
    not tried the ungated pod at all for NEVER_ATTEMPTED_S; ("timeout", last condition)."""
    ns, name = pod.split("/", 1)
    started = time.monotonic()
    deadline = started + timeout
    refused_since: float | None = None
    message = ""
    while time.monotonic() < deadline:
        obj = rest.get(f"{_pods(ns)}/{name}")
        node = (obj.get("spec") or {}).get("nodeName")
        if node:
            return "placed", str(node)
        cond = _scheduled(obj)
        gated = (obj.get("spec") or {}).get("schedulingGates")
        if (
            not gated
            and (cond is None or cond.get("reason") == "SchedulingGated")
            and time.monotonic() - started >= NEVER_ATTEMPTED_S
        ):
            said = f"{cond.get('reason')}: {cond.get('message', '')}" if cond else "no condition"
            return "refused", f"never attempted ({said})"
        if (
            cond
            and cond.get("status") == "False"
            and cond.get("reason")
            in (
                "Unschedulable",
                "SchedulerError",
            )
        ):
            message = f"{cond.get('reason')}: {cond.get('message', '')}"
            refused_since = refused_since or time.monotonic()
            if time.monotonic() - refused_since >= settle:
                return "refused", message
        time.sleep(0.05)
    return "timeout", message


def _gone(rest: Rest, path: str) -> bool:
    try:
        rest.get(path)
    except RestError as exc:
        if exc.status == 404:
            return True
        raise
    return False


def _delete(rest: Rest, path: str) -> None:
    with contextlib.suppress(RestError):
        rest.delete(path)


def _drop_claim(rest: Rest, path: str) -> None:
    """A claim without its finalizer, then deleted (the scheduler's delete-protection would
    keep it until the resourceclaim controller deallocates it)."""
    with contextlib.suppress(RestError):
        rest.request("PATCH", path, {"metadata": {"finalizers": None}})
    _delete(rest, path)


def clean(
    rest: Rest, shape: Shape, timeout: float = 60.0, wait_namespaces: bool = True
) -> list[str]:
    """Delete what the shape made (pods first, claims without their finalizer), and wait
    until every object is gone. The namespace controller takes about 5 s for a namespace,
    however empty: with `wait_namespaces=False` the namespaces are left terminating and
    their paths returned, for `wait_gone` later."""
    pods = [f"{path_of(p)}/{p['metadata']['name']}" for p in shape.pods]
    _each(lambda p: _delete(rest, f"{p}?gracePeriodSeconds=0"), pods)
    claims = [f"{path_of(c)}/{c['metadata']['name']}" for c in shape.claims]
    _each(lambda p: _drop_claim(rest, p), claims)
    others = [
        f"{path_of(o)}/{o['metadata']['name']}"
        for o in (*shape.rules, *shape.classes, *shape.slices, *shape.nodes)
    ]
    _each(lambda p: _delete(rest, p), others)
    spaces = [f"/api/v1/namespaces/{n['metadata']['name']}" for n in shape.namespaces]
    _each(lambda p: _delete(rest, p), spaces)
    wait_gone(rest, [*pods, *claims, *others, *(spaces if wait_namespaces else [])], timeout)
    return [] if wait_namespaces else spaces


def wait_gone(rest: Rest, paths: list[str], timeout: float = 60.0) -> None:
    """Wait until none of `paths` is there (claims given a finalizer again lose it)."""
    deadline = time.monotonic() + timeout
    waiting = list(paths)
    while waiting:
        waiting = [
            p
            for p, gone in zip(waiting, _each(lambda p: _gone(rest, p), waiting), strict=True)
            if not gone
        ]
        if not waiting:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"still there after {timeout:.0f} s: {waiting[:5]}")
        for path in waiting:  # a claim the controller gave a finalizer again
            if "/resourceclaims/" in path:
                _drop_claim(rest, path)
        time.sleep(0.2)
