"""Text about one object, built from a DraView: the Claim details pane and the `d` describe view.

Pure functions (Rich Text in, nothing fetched): the panes render what the view already holds.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

import yaml
from rich.cells import cell_len
from rich.text import Text

from gsb_tui.dra.alloc.verdicts import AllocatorSession
from gsb_tui.dra.model import Claim, Event, Pod, Request
from gsb_tui.dra.view import DraView
from gsb_tui.dra.warnings import DraWarning
from gsb_tui.ui.render.explain import (
    DEFAULT_WIDTH,
    ClaimPreview,
    claim_preview,
    needs_why,
    why_pending,
    wrapped,
)
from gsb_tui.ui.render.features import (
    device_status_lines,
    result_facts,
)
from gsb_tui.ui.render.node_half import (
    blocker_lines,
    blockers_of_claim,
    pod_health_lines,
    result_health_lines,
    unmatched_lines,
)
from gsb_tui.ui.render.outcomes import preview_lines
from gsb_tui.words import localize, text

RECENT_EVENTS = 6
POD_WARNINGS = ("missing-claim", "missing-template")  # about a pod, not hung on any claim


def _plain(value: Any) -> Any:
    """Mappings (also read-only proxies) and sequences as plain dicts and lists for YAML."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def to_yaml(obj: Mapping[str, Any]) -> str:
    """The object as the server sent it, in kubectl's key order (as received)."""
    return yaml.safe_dump(_plain(obj), sort_keys=False, allow_unicode=True, width=100)


def _heading(out: Text, title: str) -> None:
    out.append(f"{title}\n", style="bold underline")


def _request_lines(out: Text, request: Request, indent: str = "  ", lang: str = "en") -> None:
    out.append(f"{indent}{request.name}", style="bold")
    out.append(f": {text(lang, 'req.class')} ", style="dim")
    out.append(request.device_class or "-")
    out.append(" · ", style="dim")
    all_ = request.allocation_mode == "All"
    out.append(text(lang, "req.all") if all_ else f"ExactCount {request.count}")
    if request.admin_access:
        out.append(" · adminAccess", style="magenta")
    out.append("\n")
    if request.capacity:  # a share of a device that allows multiple allocations
        out.append(f"{indent}  capacity.requests ", style="dim")
        out.append(", ".join(f"{k}={v}" for k, v in request.capacity.items()) + "\n")
    for selector in request.selectors:
        out.append(f"{indent}  {text(lang, 'req.selector')} ", style="dim")
        out.append(f"{selector}\n", style="cyan")
    for alt in request.alternatives:
        out.append(f"{indent}  firstAvailable ", style="dim")
        _request_lines(out, alt, indent="", lang=lang)


def _event_lines(
    out: Text, events: Sequence[Event], limit: int = RECENT_EVENTS, lang: str = "en"
) -> None:
    if not events:
        out.append(f"  {text(lang, 'none')}\n", style="dim")
        return
    for event in list(events)[-limit:]:
        stamp = event.last_seen[11:19] if len(event.last_seen) >= 19 else event.last_seen
        out.append(f"  {stamp} ", style="dim")
        out.append(event.type or "-", style="red" if event.type == "Warning" else "green")
        out.append(f" {event.reason}", style="bold")
        out.append(f" {event.object_kind.lower()}/{event.object_name}", style="dim")
        count = f" ×{event.count}" if event.count > 1 else ""
        out.append(f"{count}\n  {event.message}\n")


def about(events: Iterable[Event], uid: str) -> list[Event]:
    """The events about the object of this uid: an earlier object of the same name (a pod
    deleted and made again) had another uid. Events that carry no uid are kept."""
    return [e for e in events if not e.object_uid or not uid or e.object_uid == uid]


def claim_events(view: DraView, claim: Claim) -> list[Event]:
    """Events about the claim and the pods that use it (these very objects), oldest first."""
    events = about(view.events_for("ResourceClaim", claim.namespace, claim.name), claim.uid)
    for pod in view.pods_of_claim(claim):
        events.extend(about(view.events_for("Pod", pod.namespace, pod.name), pod.uid))
    return sorted(events, key=lambda e: e.last_seen)


def claim_warnings(
    claim: Claim, pods: Iterable[Pod], warnings: Iterable[DraWarning]
) -> list[DraWarning]:
    """The warnings about the claim or any of the pods that use it."""
    pod_keys = {p.key for p in pods}
    return [w for w in warnings if claim.key in w.claims or pod_keys.intersection(w.pods)]


def claim_details(
    view: DraView,
    claim: Claim,
    warnings: Iterable[DraWarning] = (),
    event_limit: int = RECENT_EVENTS,
    *,
    preview: ClaimPreview | None = None,
    width: int = DEFAULT_WIDTH,
    lang: str = "en",
    now: datetime | None = None,
    unfolded: bool = False,
    folded: list[bool] | None = None,
    deciding: list[bool] | None = None,
    allocator: AllocatorSession | None = None,
) -> Text:
    """What the Claim details pane shows for one claim, the answer first: why it waits (the
    allocator's verdict and blockers) or why its pod does not start, then what it holds and
    for whom, then its requests. `preview` adds which devices each request's selectors admit,
    each group's names listed (`unfolded`) or one line each; `folded`, when given, gets True
    appended if some names were not shown; `deciding`, when given, gets True appended if a
    verdict was not decided yet (and is not waited for: see why_pending); `allocator`: whose
    verdicts (None: decided afresh). Wrapped to `width`
    columns; `now` (default: the clock) times binding conditions against the scheduler's
    timeout."""
    warnings = list(warnings)
    now = now if now is not None else datetime.now(UTC)
    out = Text()
    out.append(f"{claim.namespace}/{claim.name}", style="bold")
    out.append("  STATE ", style="dim")
    out.append(f"{claim.state}\n", style="bold green" if claim.reserved_for else "bold yellow")
    if claim.owner_pod:
        out.append(f"{text(lang, 'owner-pod')} ", style="dim")
        out.append(f"{claim.owner_pod}", style="bold")
        out.append(f"  {text(lang, 'from-template')}\n", style="dim")
    if claim.extended:
        out.append(f"{text(lang, 'feat.extended')}\n", style="dim")
    if needs_why(view, claim):
        _heading(out, text(lang, "h.why"))
        why_pending(out, view, claim, preview, width, lang, now.timestamp(), deciding, allocator)
    not_started = blockers_of_claim(view, claim)  # placed; the kubelet does not start them
    if not_started:
        _heading(out, text(lang, "kubelet.h.why"))
        for _pod, blocker in not_started:
            blocker_lines(out, view, blocker, width, lang)
    _result_lines(out, view, claim, width, lang, now)
    if claim.device_status:  # what the driver says of the devices it holds
        _heading(out, text(lang, "feat.h.device-status"))
        device_status_lines(out, claim, lang)
    _consumer_lines(out, view, claim, lang)
    pods = view.pods_of_claim(claim)
    found = claim_warnings(claim, pods, warnings)
    if found:
        _heading(out, text(lang, "h.warnings"))
        for warning in found:
            _warning_lines(out, warning, width, lang)
    elsewhere = [w for w in warnings if w.code in POD_WARNINGS and w not in found]
    if elsewhere:
        _heading(out, text(lang, "h.other-pods"))
        for warning in elsewhere:
            _warning_lines(out, warning, width, lang)
    _heading(out, text(lang, "h.requests"))
    for request in claim.requests:
        _request_lines(out, request, lang=lang)
        if preview is None:
            continue
        for leaf in request.alternatives or (request,):
            found_preview = preview.requests.get(leaf.name)
            if found_preview is None:
                continue
            if request.alternatives:
                out.append(f"    {leaf.name}\n", style="dim")
            blocked = preview.blockers.get(leaf.name)
            some_folded = preview_lines(
                out,
                view,
                found_preview,
                "    ",
                width,
                claim.devices,
                lang,
                blocked,
                unfolded=unfolded,
            )
            if some_folded and folded is not None:
                folded.append(True)
    if not claim.requests:
        out.append(f"  {text(lang, 'none')}\n", style="dim")
    elif preview is not None and preview.note:
        wrapped(out, preview.note, "    ", width, "dim italic")
    for constraint in claim.constraints:
        out.append(f"  {text(lang, 'feat.constraint', constraint=constraint)}\n", style="dim")
    if claim.config_count:
        out.append(f"  {text(lang, 'feat.config', n=claim.config_count)}\n", style="dim")
    recent = event_limit <= RECENT_EVENTS
    _heading(out, text(lang, "h.recent-events" if recent else "h.events"))
    _event_lines(out, claim_events(view, claim), limit=event_limit, lang=lang)
    return out


def _result_lines(
    out: Text, view: DraView, claim: Claim, width: int, lang: str, now: datetime
) -> None:
    """What the claim holds: each result's device, where, and its health."""
    _heading(out, text(lang, "h.results"))
    for result in claim.results:
        out.append(f"  {result.request} ", style="dim")
        out.append("→ ")
        out.append(result.id.device, style="bold")
        where = text(lang, "result-where", driver=result.id.driver, pool=result.id.pool)
        out.append(f"  {where}", style="dim")
        if result.admin_access:
            out.append(" adminAccess", style="magenta")
        out.append("\n")
        result_facts(out, view, claim, result, now, lang)
        result_health_lines(out, view, claim, result, width, lang)
    unmatched_lines(out, view, claim, width, lang)
    if not claim.results:
        out.append(f"  {text(lang, 'not-allocated')}", style="yellow")
        out.append(f" {text(lang, 'holds-nothing')}\n", style="dim")
    if claim.allocated_node:
        out.append(f"  {text(lang, 'node')} ", style="dim")
        out.append(f"{claim.allocated_node}\n")


def _consumer_lines(out: Text, view: DraView, claim: Claim, lang: str) -> None:
    """Who the claim is for: reservedFor, then its pods and how each stands."""
    _heading(out, "reservedFor")  # the field's name, in both languages
    for consumer in claim.reserved_for:
        out.append(f"  {consumer.resource}/{consumer.name}\n")
    if not claim.reserved_for:
        out.append(f"  {text(lang, 'no-consumer')}\n", style="dim")
    pods = view.pods_of_claim(claim)
    if not pods:
        return
    _heading(out, text(lang, "h.pods"))
    for pod in pods:
        out.append(f"  {pod.name} ", style="bold")
        out.append(pod.phase or "-", style="green" if pod.phase == "Running" else "yellow")
        if pod.node:
            out.append(f" {text(lang, 'on-node', node=pod.node)}", style="dim")
        waits = [w.reason for w in pod.waiting if w.reason] if pod.phase == "Pending" else []
        if waits:  # the kubelet's reason a placed container has not started
            out.append(f" {waits[0]}", style="yellow")
        if pod.disruption:  # e.g. a NoExecute device taint evicting it
            out.append(f" {text(lang, 'pod.evicting', reason=pod.disruption)}", style="bold red")
        out.append("\n")
        # a pending pod's scheduler message is under "Why pending"


def _warning_lines(out: Text, warning: DraWarning, width: int, lang: str) -> None:
    head = f"  ⚠ {warning.code}:"
    lines = textwrap.wrap(
        f"{head} {localize(warning.message, lang)}",
        width=max(20, width),
        subsequent_indent="    ",
        break_on_hyphens=False,
    )
    for i, line in enumerate(lines):
        if i == 0:
            out.append(head, style="bold red")
            line = line[len(head) :]
        out.append(f"{line}\n")


def pod_warnings_text(
    warnings: Iterable[DraWarning], width: int = DEFAULT_WIDTH, lang: str = "en"
) -> Text:
    """What the details pane shows when no claim can be selected but pods have problems."""
    out = Text()
    _heading(out, text(lang, "h.pod-problems"))
    for warning in warnings:
        _warning_lines(out, warning, width, lang)
    return out


def _fields(out: Text, rows: Sequence[tuple[str, str]]) -> None:
    """kubectl-describe style "Label:  value" lines, values lined up in terminal cells (a
    Korean label is two cells a character)."""
    column = max(cell_len(label) for label, _ in rows) + 2
    for label, value in rows:
        out.append(label + " " * (column - cell_len(label)), style="bold")
        out.append(f"{value}\n")


def describe_claim(
    view: DraView,
    claim: Claim,
    warnings: Iterable[DraWarning] = (),
    lang: str = "en",
    allocator: AllocatorSession | None = None,
) -> Text:
    out = Text()
    _fields(
        out,
        [
            (text(lang, "f.name"), claim.name),
            (text(lang, "f.namespace"), claim.namespace),
            ("UID:", claim.uid),
            (text(lang, "f.created"), claim.created),
            (text(lang, "f.state"), claim.state),
        ],
    )
    out.append("\n")
    details = claim_details(
        view,
        claim,
        warnings,
        event_limit=100,
        preview=claim_preview(view, claim, lang),
        width=100,
        lang=lang,
        unfolded=True,  # describe lists every device
        allocator=allocator,
    )
    out.append_text(details)
    for pod in view.pods_of_claim(claim):
        out.append("\n")
        out.append_text(describe_pod(view, pod, lang))
    return out


def describe_pod(view: DraView, pod: Pod, lang: str = "en") -> Text:
    """A pod as DRA sees it: its resourceClaims entries, which containers use them, events."""
    out = Text()
    out.append("Pod ", style="bold")
    out.append(f"{pod.namespace}/{pod.name}  ", style="bold")
    out.append(f"{pod.phase}\n")
    out.append(f"{text(lang, 'node')} ", style="dim")
    out.append(f"{pod.node or text(lang, 'not-scheduled')}\n")
    if pod.unschedulable_message:
        out.append(f"{pod.unschedulable_message}\n", style="yellow")
    _heading(out, "resourceClaims")
    for entry in pod.claims:
        source = entry.claim_name or text(lang, "pod.template", name=entry.template_name)
        claim = text(lang, "pod.claim", name=entry.resolved_claim or text(lang, "not-yet"))
        out.append(f"  {entry.name} → {source}  {claim}\n")
    for container, claims in pod.container_claims.items():
        used = ", ".join(claims) or text(lang, "none")
        out.append(f"  {text(lang, 'pod.container', container=container, claims=used)}\n")
    if pod.resource_health:
        _heading(out, "allocatedResourcesStatus")  # the field's name, in both languages
        pod_health_lines(out, view, pod, lang)
    # a placed pod the kubelet does not start: its claim's details say why (above it)
    _heading(out, text(lang, "h.events"))
    events = about(view.events_for("Pod", pod.namespace, pod.name), pod.uid)
    _event_lines(out, events, limit=20, lang=lang)
    return out
