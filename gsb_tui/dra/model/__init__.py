"""Typed, read-only views over the raw objects the API server sent.

Every view keeps its raw dict (`raw`) so the YAML view can show the server's truth. Parsing is
forgiving: a missing or odd field becomes an empty value, never an exception, because the
dashboard must keep drawing whatever a half-written object looks like; a field of the wrong
type is also said, in the view's `problems` (model/fields.py, model/malformed.py).

A package because the views grow with DRA: base.py (DeviceId, meta, the dict readers),
devices.py (slices, devices, classes), claims.py (claims, requests, results, templates),
pods.py (pods, events) and kubelet.py (what a real node's kubelet writes into a pod's status);
fields.py reads every field, typed, and malformed.py says which objects had one of the wrong type.
Callers import from `gsb_tui.dra.model` only.
"""

from __future__ import annotations

from gsb_tui.dra.model.base import DeviceId, meta
from gsb_tui.dra.model.claims import (
    AllocationResult,
    Claim,
    Constraint,
    ConsumerRef,
    Request,
    Template,
    parse_claim,
    parse_requests,
    parse_template,
)
from gsb_tui.dra.model.devices import (
    AttrValue,
    Device,
    DeviceClass,
    Slice,
    attr_value,
    parse_class,
    parse_slice,
)
from gsb_tui.dra.model.fields import FieldProblem
from gsb_tui.dra.model.kubelet import ContainerWaiting, ResourceHealth
from gsb_tui.dra.model.malformed import Malformed
from gsb_tui.dra.model.pods import Event, Pod, PodClaim, parse_event, parse_pod
from gsb_tui.dra.model.rules import TaintRule, parse_taint_rule

__all__ = [
    "AllocationResult",
    "AttrValue",
    "Claim",
    "Constraint",
    "ConsumerRef",
    "ContainerWaiting",
    "Device",
    "DeviceClass",
    "DeviceId",
    "Event",
    "FieldProblem",
    "Malformed",
    "Pod",
    "PodClaim",
    "Request",
    "ResourceHealth",
    "Slice",
    "TaintRule",
    "Template",
    "attr_value",
    "meta",
    "parse_claim",
    "parse_class",
    "parse_event",
    "parse_pod",
    "parse_requests",
    "parse_slice",
    "parse_taint_rule",
    "parse_template",
]
