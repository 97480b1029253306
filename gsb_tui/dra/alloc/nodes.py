"""Which nodes a pod may use before DRA is asked, and which nodes a slice or device reaches.

Mirrors, for Kubernetes 1.36:
- `k8s.io/component-helpers/scheduling/corev1/nodeaffinity`: NodeSelector (terms ORed, the
  requirements of one term ANDed, a term with none matches nothing), the label operators
  In / NotIn / Exists / DoesNotExist / Gt / Lt, `matchFields` on metadata.name only;
  GetRequiredNodeAffinity (spec.nodeSelector AND required node affinity).
- `.../structured/internal/incubating` NodeMatches: nodeName, allNodes, nodeSelector.
- the scheduler's NodeUnschedulable and TaintToleration filters (FindMatchingUntoleratedTaint
  of `k8s.io/component-helpers/scheduling/corev1`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gsb_tui.dra.model.base import _d, _l, meta
from gsb_tui.snapshot import Obj

UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable"


class SelectorError(ValueError):
    """A node selector upstream refuses to parse (an unknown operator, a bad Gt value)."""


@dataclass(frozen=True)
class NodeFacts:
    """What the filters read of a Node."""

    name: str
    labels: Mapping[str, str]
    unschedulable: bool
    taints: tuple[tuple[str, str, str], ...]  # (key, value, effect)
    raw: Obj


def node_facts(obj: Obj) -> NodeFacts:
    spec = _d(obj.get("spec"))
    labels = {str(k): str(v) for k, v in _d(meta(obj).get("labels")).items()}
    return NodeFacts(
        name=str(meta(obj).get("name") or ""),
        labels=labels,
        unschedulable=bool(spec.get("unschedulable")),
        taints=tuple(
            (str(_d(t).get("key") or ""), str(_d(t).get("value") or ""), str(_d(t).get("effect")))
            for t in _l(spec.get("taints"))
        ),
        raw=obj,
    )


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError as exc:
        raise SelectorError(f"invalid value {text!r} for Gt/Lt") from exc


def _label_requirement(req: Mapping[str, Any], labels: Mapping[str, str]) -> bool:
    key = str(req.get("key") or "")
    op = str(req.get("operator") or "")
    values = [str(v) for v in _l(req.get("values"))]
    has = key in labels
    if op == "In":
        return has and labels[key] in values
    if op == "NotIn":
        return not has or labels[key] not in values
    if op == "Exists":
        return has
    if op == "DoesNotExist":
        return not has
    if op in ("Gt", "Lt"):
        if len(values) != 1:
            raise SelectorError(f"{op} needs exactly one value")
        bound = _int(values[0])
        if not has:
            return False
        try:
            mine = int(labels[key])
        except ValueError:
            return False
        return mine > bound if op == "Gt" else mine < bound
    raise SelectorError(f"{op!r} is not a valid node selector operator")


def _field_requirement(req: Mapping[str, Any], name: str) -> bool:
    key = str(req.get("key") or "")
    op = str(req.get("operator") or "")
    values = [str(v) for v in _l(req.get("values"))]
    if key != "metadata.name":
        raise SelectorError(f"{key!r} is not a supported field selector")
    if op == "In":
        return name in values
    if op == "NotIn":
        return name not in values
    raise SelectorError(f"{op!r} is not a valid field selector operator")


def selector_matches(selector: Mapping[str, Any], node: NodeFacts) -> bool:
    """nodeaffinity.NewNodeSelector(selector).Match(node)."""
    for term in _l(_d(selector).get("nodeSelectorTerms")):
        term = _d(term)
        exprs = _l(term.get("matchExpressions"))
        fields = _l(term.get("matchFields"))
        if not exprs and not fields:
            continue  # an empty term matches no objects
        if all(_label_requirement(_d(r), node.labels) for r in exprs) and all(
            _field_requirement(_d(r), node.name) for r in fields
        ):
            return True
    return False


def node_matches(
    node: NodeFacts | None, node_name: str, all_nodes: bool, selector: Mapping[str, Any] | None
) -> bool:
    """NodeMatches: whether a slice (or a device of a perDeviceNodeSelection slice) with
    these fields reaches the node."""
    if node_name:
        return node is not None and node.name == node_name
    if all_nodes:
        return True
    if selector is not None:
        return node is not None and selector_matches(selector, node)
    return False


# --- the pod's own filters -------------------------------------------------------------------


def _tolerates(tol: Mapping[str, Any], key: str, value: str, effect: str) -> bool:
    """v1.Toleration.ToleratesTaint."""
    tol_effect = str(tol.get("effect") or "")
    if tol_effect and tol_effect != effect:
        return False
    tol_key = str(tol.get("key") or "")
    if tol_key and tol_key != key:
        return False
    op = str(tol.get("operator") or "Equal")
    if op == "Exists":
        return True
    if op == "Equal":
        return str(tol.get("value") or "") == value
    return False


def untolerated_taint(
    taints: Sequence[tuple[str, str, str]], tolerations: Sequence[Any]
) -> tuple[str, str, str] | None:
    """FindMatchingUntoleratedTaint for NoSchedule and NoExecute (the TaintToleration filter)."""
    for key, value, effect in taints:
        if effect not in ("NoSchedule", "NoExecute"):
            continue
        if not any(_tolerates(_d(t), key, value, effect) for t in tolerations):
            return (key, value, effect)
    return None


def pod_tolerations(pod: Obj) -> list[Any]:
    return _l(_d(pod.get("spec")).get("tolerations"))


def required_affinity_matches(pod: Obj, node: NodeFacts) -> bool:
    """nodeaffinity.GetRequiredNodeAffinity(pod).Match(node)."""
    spec = _d(pod.get("spec"))
    for key, value in _d(spec.get("nodeSelector")).items():
        if node.labels.get(str(key)) != str(value):
            return False
    required = _d(_d(_d(spec.get("affinity")).get("nodeAffinity"))).get(
        "requiredDuringSchedulingIgnoredDuringExecution"
    )
    return not (required is not None and not selector_matches(_d(required), node))


def pod_node_stage(pod: Obj, node: NodeFacts) -> tuple[str, str]:
    """The first of the pod's own node filters that rules the node out, as (code, detail), or
    ("", "") when the node passes, in the default profile's order (NodeUnschedulable,
    TaintToleration, NodeAffinity: pkg/scheduler/apis/config/v1/default_plugins.go)."""
    tolerations = pod_tolerations(pod)
    if node.unschedulable and not any(
        _tolerates(_d(t), UNSCHEDULABLE_TAINT, "", "NoSchedule") for t in tolerations
    ):
        return ("node-unschedulable", "")
    taint = untolerated_taint(node.taints, tolerations)
    if taint is not None:
        key, value, effect = taint
        return ("node-taint", f"{key}={value}:{effect}" if value else f"{key}:{effect}")
    try:
        if not required_affinity_matches(pod, node):
            return ("node-selector", "")
    except SelectorError as exc:
        return ("node-selector", str(exc))
    return ("", "")
