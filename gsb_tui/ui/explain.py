"""Why the scheduler chose (or could not choose): the CEL preview of a claim's requests and the
shortfall of a pending claim, as Rich Text for the Claim details and the describe view.

Pure apart from one thing: the CEL library costs ~0.3 s to import, so it is loaded once in a
worker thread (`warm_up`) after the first frame; until then `claim_preview` says it is loading
and the App repaints the details when it is ready. Previews are computed here, in the UI layer,
only for the claim on screen; gsb_tui.dra.cel caches results per device and expression.
"""

from __future__ import annotations

import textwrap
import threading
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.text import Text

from gsb_tui.dra.model import Claim, DeviceId, Event, Pod, Request
from gsb_tui.dra.view import DraView

if TYPE_CHECKING:
    from gsb_tui.dra.cel import RequestPreview

DEFAULT_WIDTH = 72
MAX_NAMES = 24  # device names per outcome group before "+N more"

_ready = threading.Event()
_problem: list[str] = []  # why the CEL library could not be loaded (empty: it could)


def warm_up() -> None:
    """Load and exercise the CEL library once (call it in a worker thread)."""
    try:
        from gsb_tui.dra.cel import compile_selector

        compile_selector("true")
    except Exception as exc:  # a broken install: the preview says so, the dashboard goes on
        _problem[:] = [f"{type(exc).__name__}: {exc}"]
    finally:
        _ready.set()


def cel_ready() -> bool:
    return _ready.is_set()


def cel_problem() -> str:
    return _problem[0] if _problem else ""


def free_devices(view: DraView) -> frozenset[DeviceId]:
    """Devices no claim holds (occupancy status "free")."""
    return frozenset(d for d, occ in view.occupancy.items() if occ.status == "free")


@dataclass(frozen=True)
class ClaimPreview:
    """The preview of every request of one claim (firstAvailable: one per alternative)."""

    requests: Mapping[str, RequestPreview] = field(default_factory=dict)  # by request name
    note: str = ""  # why there is no preview (the CEL library is loading or missing)


LOADING = "checking selectors (loading the CEL library)…"


def leaf_requests(claim: Claim) -> list[Request]:
    """The requests the allocator really evaluates: firstAvailable alternatives in order."""
    return [alt for r in claim.requests for alt in (r.alternatives or (r,))]


def claim_preview(view: DraView, claim: Claim) -> ClaimPreview:
    if not cel_ready():
        return ClaimPreview(note=LOADING)
    if cel_problem():
        return ClaimPreview(note=f"no selector preview: {cel_problem()}")
    from gsb_tui.dra.cel import explain_request

    free = free_devices(view)
    previews = {
        request.name: explain_request(
            view.devices, view.classes.get(request.device_class), request, free
        )
        for request in leaf_requests(claim)
    }
    return ClaimPreview(previews)


# --- text ---------------------------------------------------------------------------------------


def wrapped(out: Text, line: str, indent: str, width: int, style: str = "", hang: int = 2) -> None:
    """Append `line` wrapped to `width`, continuation lines indented `hang` more."""
    lines = textwrap.wrap(
        line,
        width=max(20, width),
        initial_indent=indent,
        subsequent_indent=indent + " " * hang,
        break_on_hyphens=False,
    ) or [indent]
    for text in lines:
        out.append(text[: len(indent)])
        out.append(text[len(indent) :], style=style)
        out.append("\n")


def _device_label(device: DeviceId, several_pools: bool) -> str:
    return f"{device.pool}/{device.device}" if several_pools else device.device


def _names(labels: Sequence[str]) -> str:
    if len(labels) <= MAX_NAMES:
        return " ".join(labels)
    return " ".join(labels[:MAX_NAMES]) + f" +{len(labels) - MAX_NAMES} more"


@dataclass
class Group:
    """Devices a request treats the same way."""

    mark: str  # ✓ or ✗
    label: str  # free, in use, class, selectors, error
    style: str
    devices: list[str] = field(default_factory=list)
    error: str = ""  # the runtime error they share (label "error")


def outcome_groups(
    view: DraView, preview: RequestPreview, held: Collection[DeviceId] = ()
) -> list[Group]:
    """Devices grouped by what the request makes of them: free match, match held by this claim,
    match in use elsewhere, rejected by the class, rejected by the request's selectors, error
    (one group per error text)."""
    free = set(preview.free_matching)
    class_ok = set(preview.class_admits)
    groups: dict[str, Group] = {
        "free": Group("✓", "free", "bold green"),
        "held": Group("✓", "this claim", "bold cyan"),
        "used": Group("✓", "in use", "cyan"),
        "class": Group("✗", "class", "dim"),
        "selectors": Group("✗", "selectors", "dim"),
    }
    several_pools = len({d.id.pool for d in view.devices}) > 1  # once, not once per device
    for device in view.devices:
        outcome = preview.outcomes.get(device.id)
        if outcome is None:
            continue
        if outcome.matched:
            key = "free" if device.id in free else "held" if device.id in held else "used"
        elif outcome.error:
            key = f"error:{outcome.error}"
            groups.setdefault(key, Group("✗", "error", "red", error=outcome.error))
        else:
            key = "selectors" if device.id in class_ok else "class"
        groups[key].devices.append(_device_label(device.id, several_pools))
    return [g for g in groups.values() if g.devices]


def preview_lines(
    out: Text,
    view: DraView,
    preview: RequestPreview,
    indent: str,
    width: int,
    held: Collection[DeviceId] = (),
) -> None:
    """Summary, then the per-device ✓/✗ groups, under one request."""
    bad = preview.class_missing or bool(preview.error)
    wrapped(out, preview.summary(), indent, width, "red" if bad else "")
    if preview.hint:
        wrapped(out, f"hint: {preview.hint}", indent, width, "yellow")
    pad = indent + " " * 14
    for group in outcome_groups(view, preview, held):
        body = _names(group.devices) + (f": {group.error}" if group.error else "")
        lines = textwrap.wrap(body, width=max(20, width - len(pad)), break_on_hyphens=False)
        out.append(indent)
        out.append(f"{group.mark} {group.label}".ljust(13), style=group.style)
        out.append(" ")
        for i, line in enumerate(lines or [""]):
            if i:
                out.append(pad)
            out.append(line, style="red" if group.error else "")
            out.append("\n")


def failed_scheduling(view: DraView, pod: Pod) -> Event | None:
    """The newest FailedScheduling event about the pod: the scheduler's own words."""
    events = view.events_for("Pod", pod.namespace, pod.name)
    found = [e for e in events if e.reason == "FailedScheduling"]
    return found[-1] if found else None


def _clock(stamp: str) -> str:
    return stamp[11:19] if len(stamp) >= 19 else stamp


def needs_why(view: DraView, claim: Claim) -> bool:
    """A claim the scheduler has not allocated, or one a pending pod is waiting on."""
    if not claim.allocated and not claim.deleting:
        return True
    return any(p.pending for p in view.pods_of_claim(claim))


def why_pending(
    out: Text, view: DraView, claim: Claim, preview: ClaimPreview | None, width: int
) -> None:
    """The shortfall per request next to the scheduler's FailedScheduling message."""
    if not claim.allocated and preview is not None:
        for name, request_preview in preview.requests.items():
            shortfall = request_preview.shortfall()
            if request_preview.class_missing or request_preview.error:
                wrapped(out, f"{name}: {request_preview.summary()}", "  ", width, "bold red")
            elif shortfall:
                wrapped(out, f"{name}: {shortfall}", "  ", width, "bold yellow")
            else:
                have = len(request_preview.free_matching)
                wanted = request_preview.needed
                need = "all matching" if wanted is None else str(wanted)
                wrapped(
                    out,
                    f"{name}: needs {need}, {have} free: enough; waiting for the scheduler",
                    "  ",
                    width,
                    "green",
                )
    for pod in view.pods_of_claim(claim):
        if not pod.pending:
            continue
        event = failed_scheduling(view, pod)
        if event is not None:
            count = f" ×{event.count}" if event.count > 1 else ""
            who = "scheduler" if event.source in ("", "default-scheduler") else event.source
            when = f", {_clock(event.last_seen)}" if event.last_seen else ""
            head = f"{who} on pod {pod.name} ({event.reason}{count}{when}):"
            wrapped(out, head, "  ", width, "bold")
            wrapped(out, event.message, "    ", width, "yellow", hang=0)
        elif pod.unschedulable_message:
            wrapped(out, f"scheduler on pod {pod.name} (PodScheduled=False):", "  ", width, "bold")
            wrapped(out, pod.unschedulable_message, "    ", width, "yellow", hang=0)
        else:
            wrapped(out, f"pod {pod.name}: not scheduled yet", "  ", width, "dim")
