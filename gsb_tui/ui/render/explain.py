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
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text

from gsb_tui.dra.alloc.explain import natural_key
from gsb_tui.dra.alloc.scheduler import BUDGET_S
from gsb_tui.dra.alloc.verdicts import UI_BUDGET_S, AllocatorSession, PodVerdict
from gsb_tui.dra.availability import Reason
from gsb_tui.dra.model import Claim, DeviceId, Request
from gsb_tui.dra.view import DraView
from gsb_tui.ui.render.features import binding_lines
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
            view.devices,
            view.classes.get(request.device_class),
            request,
            free,
            budget=BUDGET,
            session=view.memo.cel,
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
    or "" when it can (the CEL preview of dra/cel decides which)."""
    if not preview.short:
        return ""
    free = len(preview.free_matching)
    if preview.needed is None:
        words = text(lang, "short-all", n=len(preview.selector_admits), free=free)
    else:
        words = text(lang, "short", needed=preview.needed, free=free)
    names = ", ".join(d.device for d in preview.free_matching)
    return f"{words}: {names}" if names else words


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


WORKER_BUDGET_S = BUDGET_S  # a worker deciding off the frame may take the scheduler's own time


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
    deciding: list[bool] | None = None,
    allocator: AllocatorSession | None = None,
) -> None:
    """The allocator's verdict for each pending pod of the claim (dra/alloc: per node, every
    claim of the pod together, as the scheduler decides), or for a pod that would use the
    claim alone when none does yet; then the binding conditions and the scheduler's own
    FailedScheduling words, quoted as it wrote them. `now` (default: the clock) times binding
    conditions against the scheduler's timeout. With `deciding` given, verdicts not decided
    yet are not waited for: "deciding" is said and True appended (a worker decides).
    `allocator`: the session whose verdicts to use (None: decided afresh, for this call)."""
    if preview is not None:
        for name, request_preview in preview.requests.items():
            if request_preview.class_missing or request_preview.error:
                summary = request_summary(request_preview, lang)
                wrapped(out, f"{name}: {summary}", "  ", width, "bold red")
    pending = [p for p in view.pods_of_claim(claim) if p.pending]
    budget = UI_BUDGET_S if deciding is None else WORKER_BUDGET_S
    session = allocator or AllocatorSession()
    judged = session.verdicts(view, budget, now).of_claim(claim, decide=deciding is None)
    binding = binding_lines(view, claim, lang, now)
    gates = {p.name: list(p.scheduling_gates) for p in pending}  # typed (dra/model/pods.py)
    for pod_name, verdict in judged:
        if gates.get(pod_name):  # the scheduler will not try it before its gates are gone
            gated = text(lang, "why.gated", gates=", ".join(gates[pod_name]))
            wrapped(out, f"{pod_name}: {gated}", "  ", width, "dim")
        if verdict is None:  # a worker decides; the pane is drawn again when it has
            if deciding is not None:
                deciding.append(True)
            words = text(lang, "why.deciding")
            wrapped(out, f"{pod_name}: {words}" if pod_name else words, "  ", width, "dim italic")
            continue
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
