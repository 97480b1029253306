"""docs/PERFORMANCE.md from one run's figures: targets, every figure, notes, hot spots.

The hand-written analysis between the ANALYSIS markers survives regeneration (it is read back
from the previous file), so the figures can be refreshed without losing the reasoning; its
heading says which run it was written against. So does the section between the SCALE markers
(figures of `bench/run.sh --scale`, which a default run does not measure).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness import Figures
from profiles import Hotspots

BEGIN = "<!-- ANALYSIS:BEGIN (kept when bench/run.sh rewrites this file) -->"
END = "<!-- ANALYSIS:END -->"
SCALE_BEGIN = "<!-- SCALE:BEGIN (kept when bench/run.sh rewrites this file) -->"
SCALE_END = "<!-- SCALE:END -->"


@dataclass(frozen=True)
class Target:
    label: str
    figure: str
    goal: str
    met: Callable[[Figures], bool | None]


def _num(figures: Figures, name: str) -> float | None:
    value = figures.get(name)
    return None if value is None or math.isnan(value) else value


def _le(name: str, limit: float) -> Callable[[Figures], bool | None]:
    def met(figures: Figures) -> bool | None:
        value = _num(figures, name)
        return None if value is None else value <= limit

    return met


def _latency_met(figures: Figures) -> bool | None:
    p95, ratio = _num(figures, "event_to_screen_p95_ms"), _num(figures, "event_to_screen_p95_ratio")
    if p95 is None or ratio is None:
        return None
    return p95 <= 100 and ratio <= 1.5


def _keeps_up(figures: Figures) -> bool | None:
    for fig in figures.items:
        if fig.name == "scale_keeps_up":
            return fig.value == "yes"
    return None


TARGETS = (
    Target(
        "event → screen p95", "event_to_screen_p95_ms", "≤ 100 ms and ≤ 1.5 × kubectl", _latency_met
    ),
    Target(
        "event → screen p95, one core busy",
        "busy_event_to_screen_p95_ratio",
        "≤ 1.5 × kubectl (issue 13)",
        _le("busy_event_to_screen_p95_ratio", 1.5),
    ),
    Target("startup to synced frame", "startup_s", "≤ 1.5 s", _le("startup_s", 1.5)),
    Target("scale first paint", "scale_first_paint_s", "≤ 3 s", _le("scale_first_paint_s", 3.0)),
    Target("scale: keeps up at 50 events/s", "scale_keeps_up", "yes", _keeps_up),
    Target("scale RSS", "scale_rss_mb", "≤ 300 MB", _le("scale_rss_mb", 300.0)),
    Target("idle CPU", "idle_cpu_pct", "≤ 2 % of a core", _le("idle_cpu_pct", 2.0)),
    Target("check mode", "check_s", "≤ 1 s", _le("check_s", 1.0)),
)


def _value(figures: Figures, name: str) -> str:
    for fig in figures.items:
        if fig.name == name:
            return f"{fig.line().split(' ', 1)[1]}"
    return "not measured"


def _kept_analysis(out: Path, begin: str = BEGIN, end: str = END) -> str:
    try:
        old = out.read_text(encoding="utf-8")
    except OSError:
        return ""
    if begin in old and end in old:
        return old.split(begin, 1)[1].split(end, 1)[0].strip("\n")
    return ""


def write_report(
    out: Path,
    figures: Figures,
    hot: list[Hotspots],
    *,
    command: str,
    machine: str,
    scale: Any,
) -> None:
    analysis = _kept_analysis(out) or "(no analysis written yet)"
    large = _kept_analysis(out, SCALE_BEGIN, SCALE_END)
    lines = [
        "# Performance",
        "",
        f"Measured {time.strftime('%Y-%m-%d %H:%M %Z')} with `{command}` "
        "(regenerate with the same command; `--quick` is the smaller run).",
        "",
        f"Machine: {machine}. Clusters: the practice control plane "
        "(kube-apiserver, kube-scheduler, kube-controller-manager v1.36.3, etcd, kwok) on "
        f"loopback; scale: {scale.nodes} kwok nodes × 8 devices, {scale.claims} claims, "
        f"{scale.pods} pods. kubectl is `.venv/bin/kubectl`, measured in the same run.",
        "",
        "## Targets (issue 6)",
        "",
        "| target | figure | measured | goal | met |",
        "|---|---|---|---|---|",
    ]
    for t in TARGETS:
        met = t.met(figures)
        verdict = "—" if met is None else ("yes" if met else "**no**")
        lines.append(
            f"| {t.label} | `{t.figure}` | {_value(figures, t.figure)} | {t.goal} | {verdict} |"
        )
    lines += [
        "",
        "## Analysis, hot spots and recommended fixes",
        "",
        BEGIN,
        analysis,
        END,
        "",
        *([SCALE_BEGIN, large, SCALE_END, ""] if large else []),
        "## Every figure",
        "",
        "| figure | value | unit | note |",
        "|---|---|---|---|",
    ]
    for fig in figures.items:
        value = fig.line().split(" ")[1]
        lines.append(f"| `{fig.name}` | {value} | {fig.unit} | {fig.note} |")
    lines += ["", "## What the run saw", ""]
    for section, notes in figures.notes.items():
        for note in notes:
            lines.append(f"- **{section}**: {note}")
    if hot:
        lines += [
            "",
            "## Profiles (pyinstrument, sampled separately from the timed runs)",
            "",
        ]
        for h in hot:
            if h.widgets:
                lines += [
                    f"### {h.title}",
                    "",
                    "Time inside Widget.render_lines / get_content_height, per repaint "
                    "(textual's methods timed from outside):",
                    "",
                    "| widget (pane/child/...) | method | ms per repaint | calls |",
                    "|---|---|---|---|",
                    *h.widgets,
                    "",
                ]
                continue
            lines += [
                f"### {h.title} ({h.seconds:.1f} s sampled)",
                "",
                "Self time by function, % of the sampled wall time (waiting shows as `epoll`):",
                "",
                "```",
                *h.flat,
                "```",
                "",
                "Call tree (library frames grouped, nodes under 2 % dropped):",
                "",
                "```",
                *h.tree,
                "```",
                "",
            ]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
