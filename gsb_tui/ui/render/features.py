"""The DRA 1.36 facts dra/ decides, as the words of the Claim details, describe and the Slices
pane: the firstAvailable alternative chosen, shares and consumed capacity, binding conditions
against the scheduler's timeout, tolerations, the driver's device status, shared counters and
their use, each device's 1.36 fields and where a slice without a node reaches.

Pure functions over a DraView (Rich Text out); `now` is taken by the caller, so dra stays pure.
"""

from __future__ import annotations

import time
from datetime import datetime
from fractions import Fraction

from rich.text import Text

from gsb_tui.dra.availability import BINDING_TIMEOUT_S, format_quantity
from gsb_tui.dra.availability import binding_seconds_left as left_for_binding
from gsb_tui.dra.model import AllocationResult, Claim, Device, Request, Slice
from gsb_tui.dra.model.features import Toleration
from gsb_tui.dra.view import DraView
from gsb_tui.words import text

BINDING_TIMEOUT = BINDING_TIMEOUT_S
STATUSES = ("free", "allocated", "reserved", "shared")  # occupancy's words, said as they are


def toleration_text(toleration: Toleration) -> str:
    """A toleration as kubectl describe prints one: key=value:Effect, key:Effect op=Exists."""
    effect = f":{toleration.effect}" if toleration.effect else ""
    if toleration.operator == "Exists":
        return f"{toleration.key}{effect} op=Exists".strip()
    return f"{toleration.key}={toleration.value}{effect}"


def binding_seconds_left(claim: Claim, now: datetime) -> int | None:
    """Seconds until the scheduler gives up on binding conditions (negative: it has)."""
    return left_for_binding(claim.allocated_at, now.timestamp())


def leaf_request(claim: Claim, name: str) -> tuple[Request | None, int, int]:
    """The request (or firstAvailable alternative) a result names, its place and how many
    alternatives there were (0, 0 for a plain request)."""
    for request in claim.requests:
        if request.name == name:
            return request, 0, 0
        for index, alt in enumerate(request.alternatives, 1):
            if alt.name == name:
                return alt, index, len(request.alternatives)
    return None, 0, 0


def result_facts(
    out: Text, view: DraView, claim: Claim, result: AllocationResult, now: datetime, lang: str
) -> None:
    """What a result says beyond its device: the alternative chosen, the share taken, binding
    conditions and the tolerations that let it onto a tainted device."""
    pad = "    "
    request, index, total = leaf_request(claim, result.request)
    if "/" in result.request:
        name, sub = result.request.split("/", 1)
        chosen = text(
            lang, "feat.chosen", sub=sub, index=index or "?", total=total or "?", request=name
        )
        out.append(f"{pad}{chosen}\n", style="cyan")
    if result.share_id or result.consumed:
        parts = []
        if result.share_id:
            parts.append(text(lang, "feat.share", share=result.share_id))
        if result.consumed:
            amounts = ", ".join(f"{k}={v}" for k, v in result.consumed.items())
            parts.append(text(lang, "feat.consumed", amounts=amounts))
        out.append(f"{pad}{' · '.join(parts)}\n", style="magenta")
    found = view.availability.get(result.id)
    if (result.binding_conditions or result.binding_failure_conditions) and found is not None:
        failed = [c for c in found.binding_failed if c in result.binding_failure_conditions]
        pending = [c for c in found.binding_pending if c in result.binding_conditions]
        if failed:
            words = text(lang, "feat.binding.failed", conditions=", ".join(failed))
            out.append(f"{pad}{words}\n", style="bold red")
        elif pending:
            out.append(pad)
            words = text(lang, "feat.binding.pending", conditions=", ".join(pending))
            out.append(words, style="yellow")
            left = binding_seconds_left(claim, now)
            if left is not None:
                out.append(" · ", style="dim")
                if left > 0:
                    out.append(text(lang, "feat.binding.left", left=left), style="yellow")
                else:
                    expired = text(lang, "feat.binding.expired", timeout=BINDING_TIMEOUT)
                    out.append(expired, style="red")
            out.append("\n")
        elif result.binding_conditions:
            conditions = ", ".join(result.binding_conditions)
            out.append(f"{pad}{text(lang, 'feat.binding.met', conditions=conditions)}\n", "green")
    tolerations = result.tolerations or (request.tolerations if request is not None else ())
    if tolerations:
        listed = ", ".join(toleration_text(t) for t in tolerations)
        out.append(f"{pad}{text(lang, 'feat.tolerates', tolerations=listed)}\n", style="dim")


def device_status_lines(out: Text, claim: Claim, lang: str) -> None:
    """status.devices[]: the conditions, data and network the driver reports per device."""
    failures = {c for r in claim.results for c in r.binding_failure_conditions}
    for status in claim.device_status:
        out.append(f"  {status.id.device}", style="bold")
        where = text(lang, "result-where", driver=status.id.driver, pool=status.id.pool)
        out.append(f"  {where}", style="dim")
        if status.share_id:
            out.append(f"  {text(lang, 'feat.share', share=status.share_id)}", style="magenta")
        out.append("\n")
        for condition in status.conditions:
            true = condition.status == "True"
            style = ("red" if condition.type in failures else "green") if true else "yellow"
            out.append(f"    {condition.type}={condition.status}", style)
            if condition.reason:
                out.append(f" {condition.reason}", style="dim")
            if condition.message:
                out.append(f": {condition.message}")
            out.append("\n")
        if status.data:
            out.append("    data: ", style="dim")
            out.append(", ".join(str(k) for k in status.data) + "\n")
        network = status.network
        if network is not None:
            fields = [("interfaceName", network.interface), ("ips", ", ".join(network.ips))]
            fields.append(("hardwareAddress", network.hardware_address))
            out.append("    networkData: ", style="dim")
            out.append("  ".join(f"{k}={v}" for k, v in fields if v) + "\n")


def state_word(view: DraView, device: Device, lang: str) -> str:
    """What the grid's bottom border says of a device (stale: an older generation's)."""
    if device.id not in view.occupancy:
        return text(lang, "stale")
    state = view.state(device.id)
    if state in STATUSES:
        return state
    return text(lang, f"feat.state.{state}")


def slice_where(slice_: Slice, lang: str) -> str:
    """The slice's node, or where its devices are reachable when it has none."""
    where = slice_.where
    if where == "node":
        return slice_.node
    return text(lang, f"feat.where.{where}") if where else "-"


def counter_lines(view: DraView, slice_: Slice, lang: str) -> list[str]:
    """One line per shared counter set: each counter's total, and its use in the pool."""
    lines = []
    for shared in slice_.shared_counters:
        ledger = view.counters.get((slice_.driver, slice_.pool, shared.name))
        parts = []
        for counter, total in shared.counters.items():
            if ledger is None or counter not in ledger.total:
                parts.append(f"{counter} {total}")
                continue
            used = format_quantity(ledger.used.get(counter, Fraction(0)))
            left = format_quantity(ledger.left(counter))
            parts.append(
                text(lang, "feat.slice.counter", counter=counter, total=total, used=used, left=left)
            )
        joined = ", ".join(parts)
        lines.append(text(lang, "feat.slice.counters", name=shared.name, counters=joined))
    if slice_.shared_counters and not slice_.devices:
        lines.append(text(lang, "feat.slice.counter-only", pool=slice_.pool))
    return lines


def device_features(device: Device, per_device: bool = False) -> list[tuple[str, str]]:
    """A device's DRA 1.36 and 1.37 fields as (field, value), named as the driver published
    them (1.37: compatibilityGroups, nodeAllocatableResources)."""
    fields = []
    raw_uses = [u for u in device.raw.get("consumesCounters") or () if isinstance(u, dict)]
    for i, use in enumerate(device.consumes):
        amounts = " ".join(f"{k}={v}" for k, v in use.counters.items())
        groups = raw_uses[i].get("compatibilityGroups") if i < len(raw_uses) else None
        if isinstance(groups, list) and groups:
            amounts += " compatibilityGroups=" + ",".join(str(g) for g in groups)
        fields.append(("consumesCounters", f"{use.counter_set} {amounts}".strip()))
    node_resources = device.raw.get("nodeAllocatableResources")
    if isinstance(node_resources, dict) and node_resources:
        fields.append(("nodeAllocatableResources", ", ".join(sorted(map(str, node_resources)))))
    if device.multiple:
        fields.append(("allowMultipleAllocations", "true"))
    if device.taints:
        fields.append(("taints", ", ".join(str(t) for t in device.taints)))
    if device.binding_conditions:
        fields.append(("bindingConditions", ", ".join(device.binding_conditions)))
    if device.binding_failure_conditions:
        fields.append(("bindingFailureConditions", ", ".join(device.binding_failure_conditions)))
    if per_device:
        if device.all_nodes:
            fields.append(("allNodes", "true"))
        elif device.node_selector:
            fields.append(("nodeSelector", "…"))
        elif device.node:
            fields.append(("nodeName", device.node))
    return fields


def binding_time_left(allocated_at: str, now: float | None = None) -> int | None:
    """Seconds before the scheduler gives up on the binding conditions (never below 0); the
    Why line and the Results line of one frame count them the same way (dra decides)."""
    left = left_for_binding(allocated_at, time.time() if now is None else now)
    return None if left is None else max(0, left)


def binding_lines(
    view: DraView, claim: Claim, lang: str = "en", now: float | None = None
) -> list[str]:
    """An allocated claim whose devices wait on binding conditions (or failed them)."""
    lines = []
    for device in claim.devices:
        found = view.availability.get(device)
        if found is None:
            continue
        if found.binding_failed:
            lines.append(
                text(
                    lang,
                    "why.binding-failed",
                    device=device.device,
                    conditions=", ".join(found.binding_failed),
                )
            )
        elif found.binding_pending:
            left = binding_time_left(claim.allocated_at, now)
            # 0 left: the scheduler's time is up, as the Results line says; not "0s before".
            lines.append(
                text(
                    lang,
                    "feat.why.binding-expired" if left == 0 else "why.binding",
                    device=device.device,
                    conditions=", ".join(found.binding_pending),
                    left=left if left is not None else "?",
                    timeout=BINDING_TIMEOUT,
                )
            )
    return lines
