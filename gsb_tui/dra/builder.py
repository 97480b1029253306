"""ViewBuilder: builds DraViews from snapshots, keeping what the last build derived.

Whoever builds views again and again (the App, `check --watch`) owns one builder, and with it
the parses and derived parts of its last build (derive.Memo): one change at 10,000 devices
redoes what reads the changed kind only. `build_view` is the one-shot form, a fresh builder
each time, for commands that build once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from gsb_tui.dra import derive, pod_claims
from gsb_tui.dra.availability import Availability, CounterLedger, compute_availability
from gsb_tui.dra.health import compute_health
from gsb_tui.dra.model import (
    Claim,
    DeviceId,
    Pod,
    parse_claim,
    parse_class,
    parse_event,
    parse_pod,
    parse_slice,
    parse_taint_rule,
    parse_template,
)
from gsb_tui.dra.pool_health import pool_problems
from gsb_tui.dra.view import DraView
from gsb_tui.snapshot import Kind, Snapshot


class ViewBuilder:
    """One watcher's builds; thread-safe (one build at a time)."""

    def __init__(self) -> None:
        self.memo = derive.Memo()

    def build(self, snapshot: Snapshot) -> DraView:
        with self.memo.lock:
            return _build(self.memo, snapshot)

    def parse_ahead(self, snapshot: Snapshot) -> None:
        """Parse the kinds listed so far, so the first build only assembles."""
        with self.memo.lock:
            self.memo.parses.parse_ahead(snapshot)


def build_view(snapshot: Snapshot) -> DraView:
    """A view of one snapshot, built afresh (nothing kept from or for another build)."""
    return ViewBuilder().build(snapshot)


def _build(memo: derive.Memo, snapshot: Snapshot) -> DraView:
    kept, keyed, parse_kind = memo.kept, derive.keyed, memo.parses.parse_kind
    slice_list = parse_kind(snapshot, Kind.SLICES, parse_slice)
    slices, stale, devices = kept("slices", (slice_list,), lambda: derive.devices_of(slice_list))
    class_list = parse_kind(snapshot, Kind.CLASSES, parse_class)
    classes = kept("classes", (class_list,), lambda: keyed(class_list, lambda c: c.name))
    claim_list = parse_kind(snapshot, Kind.CLAIMS, parse_claim)
    claims = derive.by_key(memo, Kind.CLAIMS, claim_list, lambda c: c.key)
    template_list = parse_kind(snapshot, Kind.TEMPLATES, parse_template)
    templates = derive.by_key(memo, Kind.TEMPLATES, template_list, lambda t: (t.namespace, t.name))
    pod_list = parse_kind(snapshot, Kind.PODS, parse_pod)
    pods = derive.by_key(memo, Kind.PODS, pod_list, lambda p: p.key)
    event_list = parse_kind(snapshot, Kind.EVENTS, parse_event)
    occupancy = derive.occupancy(memo, devices, claims, claim_list)
    rules = parse_kind(snapshot, Kind.TAINT_RULES, parse_taint_rule)
    rule_taints = kept("rule-taints", (rules, devices), lambda: derive.rule_taints(rules, devices))

    bad_pools = kept("pool-health", (slices,), lambda: pool_problems(slices))

    def features() -> tuple[Mapping[DeviceId, Availability], Mapping[Any, CounterLedger]]:
        found, counters = compute_availability(slices, devices, occupancy, rule_taints, bad_pools)
        return derive.frozen(found), derive.frozen(counters)

    availability, counters = kept(
        "availability", (slices, devices, occupancy, rule_taints, bad_pools), features
    )
    orphans = derive.orphans(memo, claim_list, claims, devices, occupancy)
    owner_index = kept("owners", (claims,), lambda: derive.owners(claims))
    by_claim = pod_claims.pods_by_claim(memo, pods, claims, owner_index, (pod_list, claim_list))
    by_object = kept("event-objects", (event_list,), lambda: derive.by_object(memo, event_list))

    def claim_of_entry(pod: Pod, name: str) -> Claim | None:
        for entry in pod.claims:
            if entry.name == name:
                found = pod_claims.resolve_claims(
                    replace(pod, claims=(entry,)), claims, owner_index
                )
                return found[0] if found else None
        return None

    # Only pods that report health are read again when a claim changes (at 25,000 pods the
    # walk over all of them was a twentieth of a repaint; most report nothing).
    reporting = kept("pods reporting health", (pod_list,), lambda: derive.reporting(pod_list))
    health = kept(
        "health",
        (reporting, claims, owner_index),
        lambda: compute_health(reporting, claim_of_entry),
    )
    events = kept("events", (event_list,), lambda: tuple(derive.by_time(memo, event_list)))

    return DraView(
        snapshot=snapshot,
        slices=slices,
        stale_slices=stale,
        devices=devices,
        classes=classes,
        claims=claims,
        templates=templates,
        pods=pods,
        events=events,
        occupancy=occupancy,
        orphan_results=orphans,
        availability=availability,
        counters=counters,
        taint_rules=rules,
        pool_problems=bad_pools,
        health=health,
        _claims_by_owner=owner_index,
        _pods_by_claim=by_claim,
        _events_by_object=by_object,
        _parsed={Kind.CLAIMS: claim_list, Kind.PODS: pod_list, Kind.TEMPLATES: template_list},
        memo=memo,
    )
