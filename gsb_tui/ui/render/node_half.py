"""The node half of DRA in words, for the Claim details, describe and the Slices pane: the
health the kubelet reports for each device (dra/health.py), what stops a pod the scheduler
placed (dra/node_side.py: the kubelet's FailedPrepareDynamicResources, an image it cannot
pull, containers still being created) and a node whose driver went away while claims hold its
devices. Health values, reasons and the kubelet's messages are quoted as it wrote them.

Pure functions over a DraView (Rich Text out).
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from gsb_tui.dra.health import HealthReport
from gsb_tui.dra.model import AllocationResult, Claim, Pod
from gsb_tui.dra.node_side import (
    KubeletBlocker,
    kubelet_blocker,
    plugin_hint,
    vanished_pools,
    vanished_words,
)
from gsb_tui.dra.view import DraView
from gsb_tui.ui.render.explain import wrapped
from gsb_tui.words import text

UNHEALTHY_MARK = "✚"  # not ✗ (a selector's "not admitted") nor ⚠ (a warning)
UNKNOWN_MARK = "?"
HEALTH_STYLE = {"Unhealthy": "bold red", "Unknown": "bold yellow", "Healthy": "green"}


def health_badge(health: str | None) -> str:
    """What a device's cell title carries: "✚ Unhealthy", "? Unknown"; "" when Healthy or
    when no kubelet reported."""
    if health == "Unhealthy":
        return f"{UNHEALTHY_MARK} Unhealthy"
    if health == "Unknown":
        return f"{UNKNOWN_MARK} Unknown"
    return ""


def _report_line(out: Text, report: HealthReport, pad: str, width: int, lang: str) -> None:
    badge = health_badge(report.health) or report.health
    by = text(lang, "health.by", pod=report.pod[1], container=report.container)
    out.append(pad)
    out.append(badge, style=HEALTH_STYLE.get(report.health, ""))
    if cell_len(f"{pad}{badge}  {by}") <= max(20, width):
        out.append(f"  {by}\n", style="dim")
    else:  # too long for one line: who said it under the health
        out.append("\n")
        wrapped(out, by, pad + "  ", width, "dim")
    if report.message:
        style = "red" if report.health == "Unhealthy" else "yellow"
        wrapped(out, report.message, pad + "  ", width, style, hang=0)


def result_health_lines(
    out: Text, view: DraView, claim: Claim, result: AllocationResult, width: int, lang: str
) -> None:
    """Under a result: the health each pod's kubelet reports for its device via this claim."""
    found = view.health.devices.get(result.id)
    if found is None:
        return
    for report in found.reports:
        if report.claim == claim.key:
            _report_line(out, report, "    ", width, lang)


def unmatched_lines(out: Text, view: DraView, claim: Claim, width: int, lang: str) -> None:
    """Reports about the claim whose resourceID names none of its devices: said, not dropped."""
    for report in view.health.unmatched_of(claim.key):
        words = text(
            lang,
            "health.unmatched",
            resource=report.resource_id,
            health=report.health,
            pod=report.pod[1],
            container=report.container,
        )
        wrapped(out, words, "  ", width, HEALTH_STYLE.get(report.health, ""))
        if report.message:
            wrapped(out, report.message, "    ", width, "yellow", hang=0)


def blockers_of_claim(view: DraView, claim: Claim) -> list[tuple[Pod, KubeletBlocker]]:
    """The claim's pods that are placed but not running, with what the kubelet says."""
    out = []
    for pod in view.pods_of_claim(claim):
        found = kubelet_blocker(view, pod)
        if found is not None:
            out.append((pod, found))
    return out


def _clock(stamp: str) -> str:
    return stamp[11:19] if len(stamp) >= 19 else stamp


def blocker_lines(out: Text, view: DraView, blocker: KubeletBlocker, width: int, lang: str) -> None:
    """One placed pod's blocker: what it comes to, the kubelet's words, what to do."""
    pod = blocker.pod[1]
    values = {"pod": pod, "node": blocker.node, "reason": blocker.reason}
    if blocker.code == "prepare-failed":
        wrapped(out, text(lang, "kubelet.prepare-failed", **values), "  ", width, "bold yellow")
        count = f" ×{blocker.count}" if blocker.count > 1 else ""
        when = f", {_clock(blocker.last_seen)}" if blocker.last_seen else ""
        reason = f"{blocker.reason}{count}{when}"
        head = text(lang, "said", who=blocker.source, pod=pod, reason=reason)
        wrapped(out, head, "  ", width, "bold")
        wrapped(out, blocker.message, "    ", width, "yellow", hang=0)
        hint = plugin_hint(blocker, lang)
        if hint:
            wrapped(out, hint, "  ", width, "dim")
        return
    key = {"image-pull": "kubelet.image-pull", "waiting": "kubelet.waiting"}.get(
        blocker.code, "kubelet.creating"
    )
    style = "dim" if blocker.code == "creating" else "bold yellow"
    wrapped(out, text(lang, key, container=blocker.container, **values), "  ", width, style)
    if blocker.message:
        head = text(
            lang, "kubelet.said-container", container=blocker.container, reason=blocker.reason
        )
        wrapped(out, head, "  ", width, "bold")
        wrapped(out, blocker.message, "    ", width, "yellow", hang=0)
    if blocker.code == "image-pull":
        wrapped(out, text(lang, "kubelet.hint.image"), "  ", width, "dim")


def vanished_text(view: DraView, lang: str) -> Text | None:
    """The Slices pane's lines on pools whose driver went away (None: there are none)."""
    pools = vanished_pools(view)
    if not pools:
        return None
    out = Text(overflow="fold")
    for pool in pools:
        first, *rest = vanished_words(view, pool, lang)
        out.append(f"{first}\n", style="bold red")
        for line in rest:
            out.append(f"  {line}\n", style="red")
    return out  # its last newline: one blank line before the slices


def pod_health_lines(out: Text, view: DraView, pod: Pod, lang: str) -> None:
    """describe's allocatedResourcesStatus of a pod: each container's entries, as written."""
    for said in pod.resource_health:
        name = f"claim:{said.entry}" + (f"/{said.request}" if said.request else "")
        line = text(
            lang,
            "pod.health",
            container=said.container,
            name=name,
            resource=said.resource_id,
            health=said.health,
        )
        out.append(f"  {line}\n", style=HEALTH_STYLE.get(said.health, ""))
        if said.message:
            out.append(f"    {said.message}\n", style="yellow")
