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

from rich.cells import cell_len
from rich.text import Text

from gsb_tui.dra.alloc.explain import natural_key
from gsb_tui.dra.alloc.verdicts import PodVerdict, verdicts_of
from gsb_tui.dra.availability import Reason
from gsb_tui.dra.model import Claim, DeviceId, Request
from gsb_tui.dra.view import DraView
from gsb_tui.ui.features import binding_lines
from gsb_tui.words import localize, text

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
    # Per request: the devices it could not be given now and why (dra/availability.py).
    blockers: Mapping[str, Mapping[DeviceId, Reason]] = field(default_factory=dict)


def leaf_requests(claim: Claim) -> list[Request]:
    """The requests the allocator really evaluates: firstAvailable alternatives in order."""
    return [alt for r in claim.requests for alt in (r.alternatives or (r,))]


def claim_preview(view: DraView, claim: Claim, lang: str = "en") -> ClaimPreview:
    if not cel_ready():
        return ClaimPreview(note=text(lang, "preview.loading"))
    if cel_problem():
        return ClaimPreview(note=text(lang, "preview.none", problem=cel_problem()))
    from gsb_tui.dra.cel import PREVIEW_BUDGET as BUDGET
    from gsb_tui.dra.cel import explain_request

    previews: dict[str, RequestPreview] = {}
    blockers: dict[str, Mapping[DeviceId, Reason]] = {}
    for request in leaf_requests(claim):
        blocked = view.blockers(request)
        # "free" is what the request could be given now: not held, not blocked by counters,
        # not tainted against it, with capacity left for its share.
        free = [d for d in view.occupancy if d not in blocked]
        previews[request.name] = explain_request(  # on the UI thread: bounded in time
            view.devices, view.classes.get(request.device_class), request, free, budget=BUDGET
        )
        blockers[request.name] = blocked
    return ClaimPreview(previews, blockers=blockers)


# --- text ---------------------------------------------------------------------------------------


def wrap(line: str, width: int, first: str = "", rest: str = "") -> list[str]:
    """textwrap.wrap by terminal cells: textwrap counts characters, and a Korean character
    takes two cells. Text of one-cell characters goes to textwrap as before."""
    if cell_len(line) == len(line):
        return textwrap.wrap(
            line, width=width, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False
        )
    lines: list[str] = []
    current = ""
    for word in line.split():
        if current and cell_len(f"{current} {word}") <= width:
            current = f"{current} {word}"
            continue
        if current:
            lines.append(current)
        current = (rest if lines else first) + word  # a word wider than a line stays whole
    return [*lines, current] if current else lines


def wrapped(out: Text, line: str, indent: str, width: int, style: str = "", hang: int = 2) -> None:
    """Append `line` wrapped to `width`, continuation lines indented `hang` more."""
    lines = wrap(line, max(20, width), indent, indent + " " * hang) or [indent]
    for piece in lines:
        out.append(piece[: len(indent)])
        out.append(piece[len(indent) :], style=style)
        out.append("\n")


def _device_label(device: DeviceId, several_pools: bool) -> str:
    return f"{device.pool}/{device.device}" if several_pools else device.device


def _names(labels: Sequence[str], lang: str = "en") -> str:
    if len(labels) <= MAX_NAMES:
        return " ".join(labels)
    return " ".join(labels[:MAX_NAMES]) + " " + text(lang, "more", n=len(labels) - MAX_NAMES)


def _devices(lang: str, n: int) -> str:
    return text(lang, "device" if n == 1 else "devices", n=n)


def request_summary(preview: RequestPreview, lang: str = "en") -> str:
    """What a request's preview comes to, in `lang`: e.g. "class admits 8 devices, selectors
    admit 1, 1 of them free". A selector's compile error is the API server's words, as they are."""
    if preview.class_missing:
        return text(lang, "class-missing", name=preview.class_name)
    if preview.error:
        return localize(preview.error, lang).splitlines()[0]
    parts = [text(lang, "class-admits", devices=_devices(lang, len(preview.class_admits)))]
    if preview.has_selectors:
        parts.append(text(lang, "selectors-admit", n=len(preview.selector_admits)))
    parts.append(text(lang, "of-them-free", n=len(preview.free_matching)))
    summary = ", ".join(parts)
    errors = [o.error for o in preview.outcomes.values() if o.error]
    if errors:
        unchecked = text(lang, "unchecked", devices=_devices(lang, len(errors)), error=errors[0])
        summary += f"; {unchecked}"
    return summary


def request_shortfall(preview: RequestPreview, lang: str = "en") -> str:
    """Why the request cannot be met, in `lang`: e.g. "needs 4, 3 free: gpu-1, gpu-4, gpu-6",
    or "" when it can (cel.py decides which)."""
    if not preview.short:
        return ""
    free = len(preview.free_matching)
    if preview.needed is None:
        words = text(lang, "short-all", n=len(preview.selector_admits), free=free)
    else:
        words = text(lang, "short", needed=preview.needed, free=free)
    names = ", ".join(d.device for d in preview.free_matching)
    return f"{words}: {names}" if names else words


@dataclass
class Group:
    """Devices a request treats the same way."""

    mark: str  # ✓ or ✗
    label: str  # free, in use, class, selectors, error (in the pane's language)
    style: str
    devices: list[str] = field(default_factory=list)
    error: str = ""  # the runtime error they share (label "error")


# The last groups per request preview: the details pane draws them again on every repaint
# while the preview is kept (dra/ reuses what did not change), and at 10,000 devices grouping
# them was most of the pane's repaint. (inputs, groups); inputs compared by identity.
_GROUPS: dict[int, tuple[tuple[object, ...], tuple[object, ...], list[Group]]] = {}
GROUPS_KEPT = 16


def outcome_groups(
    view: DraView,
    preview: RequestPreview,
    held: Collection[DeviceId] = (),
    lang: str = "en",
    blockers: Mapping[DeviceId, Reason] | None = None,
) -> list[Group]:
    """Devices grouped by what the request makes of them: free match, match held by this claim,
    match in use elsewhere, rejected by the class, rejected by the request's selectors, error
    (one group per error text)."""
    same = (view.devices, preview, blockers)  # compared by identity
    equal = (tuple(held), lang)  # compared by value
    found = _GROUPS.get(id(preview))
    if (
        found is not None
        and found[1] == equal
        and all(a is b for a, b in zip(found[0], same, strict=True))
    ):
        return found[2]
    groups = _outcome_groups(view, preview, held, lang, blockers)
    if len(_GROUPS) >= GROUPS_KEPT:
        _GROUPS.clear()
    _GROUPS[id(preview)] = (same, equal, groups)  # holds the preview: its id is not reused
    return groups


def _outcome_groups(
    view: DraView,
    preview: RequestPreview,
    held: Collection[DeviceId],
    lang: str,
    blockers: Mapping[DeviceId, Reason] | None,
) -> list[Group]:
    """outcome_groups, made afresh."""
    free = set(preview.free_matching)
    class_ok = set(preview.class_admits)
    groups: dict[str, Group] = {
        "free": Group("✓", text(lang, "group.free"), "bold green"),
        "held": Group("✓", text(lang, "group.held"), "bold cyan"),
        "used": Group("✓", text(lang, "group.used"), "cyan"),
        "counters": Group("✓", text(lang, "group.counters"), "red"),
        "tainted": Group("✓", text(lang, "group.tainted"), "red"),
        "capacity": Group("✓", text(lang, "group.capacity"), "magenta"),
        "class": Group("✗", text(lang, "group.class"), "dim"),
        "selectors": Group("✗", text(lang, "group.selectors"), "dim"),
    }
    several_pools = view.several_pools()  # once, not once per device
    for device in view.devices:
        outcome = preview.outcomes.get(device.id)
        if outcome is None:
            continue
        if outcome.matched:
            reason = (blockers or {}).get(device.id)
            if device.id in free:
                key = "free"
            elif device.id in held:
                key = "held"
            elif reason in ("counters", "tainted", "capacity"):
                key = str(reason)
            else:
                key = "used"
        elif outcome.error:
            key = f"error:{outcome.error}"
            label = text(lang, "group.error")
            groups.setdefault(key, Group("✗", label, "red", error=outcome.error))
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
    lang: str = "en",
    blockers: Mapping[DeviceId, Reason] | None = None,
) -> None:
    """Summary, then the per-device ✓/✗ groups, under one request."""
    bad = preview.class_missing or bool(preview.error)
    wrapped(out, request_summary(preview, lang), indent, width, "red" if bad else "")
    if preview.hint:
        wrapped(out, text(lang, "hint", hint=localize(preview.hint, lang)), indent, width, "yellow")
    pad = indent + " " * 14
    for group in outcome_groups(view, preview, held, lang, blockers):
        body = _names(group.devices, lang) + (f": {group.error}" if group.error else "")
        # The room left after the label, however little: a wider floor ran past the pane.
        lines = wrap(body, max(8, width - len(pad)))
        out.append(indent)
        label = f"{group.mark} {group.label}"
        out.append(label + " " * (13 - cell_len(label)), style=group.style)
        out.append(" ")
        for i, line in enumerate(lines or [""]):
            if i:
                out.append(pad)
            out.append(line, style="red" if group.error else "")
            out.append("\n")


def blocker_lines(
    view: DraView,
    preview: RequestPreview,
    blockers: Mapping[DeviceId, Reason] | None,
    lang: str = "en",
) -> list[str]:
    """Why the matching devices that are not free cannot be given (held ones are listed "in
    use" already): blocked by counters (naming who used them), tainted, capacity used up."""
    if not blockers:
        return []
    return [
        text(
            lang,
            f"why.{group.reason}",
            n=len(group.devices),
            devices=", ".join(d.device for d in group.devices[:MAX_NAMES]),
            detail=", ".join(group.cause),
        )
        for group in view.blocker_groups(preview.selector_admits, blockers)
    ]


def verdict_lines(
    out: Text, verdict: PodVerdict, pod: str, width: int, lang: str, within: str = ""
) -> None:
    """One pod's verdict: where it fits, or each blocker grouped over nodes."""
    judgement = verdict.judgement
    if judgement.fits:
        nodes = sorted(judgement.nodes, key=natural_key)
        where = ", ".join(nodes[:6]) + (f", +{len(nodes) - 6}" if len(nodes) > 6 else "")
        key = "why.pod-fits" if pod else "why.claim-fits"
        if pod and not judgement.to_allocate:
            key = "why.pod-allocated"  # nothing left to allocate: binding is what it waits for
        wrapped(out, text(lang, key, pod=pod, n=len(nodes), where=where), "  ", width, "green")
        return
    if judgement.fits is None:
        wrapped(out, text(lang, "why.pod-undecided", pod=pod or "-"), "  ", width, "dim")
        return
    head = "why.pod-no-fit" if pod else "why.claim-no-fit"
    wrapped(out, text(lang, head, pod=pod), "  ", width, "bold yellow")
    for blocker in verdict.blockers:
        words = text(lang, f"blocker.{blocker.key}", **blocker.values(within))
        wrapped(out, words, "    ", width, "yellow")


def _clock(stamp: str) -> str:
    return stamp[11:19] if len(stamp) >= 19 else stamp


def needs_why(view: DraView, claim: Claim) -> bool:
    """A claim the scheduler has not allocated, or one a pending pod is waiting on."""
    if not claim.allocated and not claim.deleting:
        return True
    return any(p.pending for p in view.pods_of_claim(claim))


def why_pending(
    out: Text,
    view: DraView,
    claim: Claim,
    preview: ClaimPreview | None,
    width: int,
    lang: str = "en",
    now: float | None = None,
) -> None:
    """The allocator's verdict for each pending pod of the claim (dra/alloc: per node, every
    claim of the pod together, as the scheduler decides), or for a pod that would use the
    claim alone when none does yet; then the binding conditions and the scheduler's own
    FailedScheduling words, quoted as it wrote them. `now` (default: the clock) times binding
    conditions against the scheduler's timeout."""
    if preview is not None:
        for name, request_preview in preview.requests.items():
            if request_preview.class_missing or request_preview.error:
                summary = request_summary(request_preview, lang)
                wrapped(out, f"{name}: {summary}", "  ", width, "bold red")
    verdicts = verdicts_of(view, now=now)
    pending = [p for p in view.pods_of_claim(claim) if p.pending]
    judged = [(p.name, verdicts.pod(p)) for p in pending]
    if not pending and not claim.allocated and not claim.deleting:
        judged = [("", verdicts.claim_alone(claim))]
    binding = binding_lines(view, claim, lang, now)
    gates = {p.name: list(p.scheduling_gates) for p in pending}  # typed (dra/model/pods.py)
    for pod_name, verdict in judged:
        if gates.get(pod_name):  # the scheduler will not try it before its gates are gone
            gated = text(lang, "why.gated", gates=", ".join(gates[pod_name]))
            wrapped(out, f"{pod_name}: {gated}", "  ", width, "dim")
        if binding and verdict.blockers and all(b.code == "binding" for b in verdict.blockers):
            continue  # the binding lines below say it, with the conditions
        if binding and verdict.fits and not verdict.judgement.to_allocate:
            continue  # allocated, waiting on its binding conditions: said below
        verdict_lines(out, verdict, pod_name, width, lang, within=f"{claim.namespace}/{claim.name}")
    for line in binding:
        wrapped(out, line, "  ", width, "bold yellow")
    scheduler = text(lang, "scheduler")
    for pod in view.pods_of_claim(claim):
        if not pod.pending:
            continue
        said = view.scheduler_said(pod)
        if said is not None:
            count = f" ×{said.count}" if said.count > 1 else ""
            who = scheduler if said.source in ("", "default-scheduler") else said.source
            when = f", {_clock(said.last_seen)}" if said.last_seen else ""
            reason = f"{said.reason}{count}{when}"
            head = text(lang, "said", who=who, pod=pod.name, reason=reason)
            wrapped(out, head, "  ", width, "bold")
            wrapped(out, said.message, "    ", width, "yellow", hang=0)
        elif binding:  # the scheduler chose the node; it binds once the conditions are met
            failed = any(
                (found := view.availability.get(d)) is not None and found.binding_failed
                for d in claim.devices
            )
            key = "feat.binding.unbound-failed" if failed else "feat.binding.unbound"
            wrapped(out, text(lang, key, pod=pod.name), "  ", width, "dim")
        else:
            wrapped(out, text(lang, "unscheduled", pod=pod.name), "  ", width, "dim")
