"""Startup: the real `gsb-tui` process, from exec to the first frame with every kind synced,
beside the wall time of `kubectl get resourceslices,deviceclasses,resourceclaims,pods`; plus
what imports cost (each in a fresh interpreter)."""

from __future__ import annotations

import re
import subprocess
import time

from harness import (
    PYTHON,
    Figures,
    TmuxApp,
    all_synced,
    gsb_tui_args,
    kubectl_args,
    log,
    median,
    wall_time,
)

from gsb_tui.cluster.control_plane import ControlPlane

IMPORTS = {
    "python_bare": "pass",
    "import_cli": "import gsb_tui.cli",
    "import_textual_app": "import textual.app",
    "import_kube_live": "import gsb_tui.kube.live, kubernetes_asyncio.client",
    "import_dra_view": "import gsb_tui.dra.view",
    "import_ui_app": "import gsb_tui.ui.app",
}


def startup_s(cp: ControlPlane, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        with TmuxApp(gsb_tui_args(cp)) as app:
            took = app.wait_for(all_synced, 30)
        if took is not None:
            times.append(took)
        time.sleep(0.3)
    return times


def import_ms(code: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.monotonic()
        subprocess.run([str(PYTHON), "-c", code], check=True)
        times.append(1000 * (time.monotonic() - started))
    return median(times)


def import_top(module: str, count: int = 8) -> list[tuple[str, float]]:
    """Packages by their outermost import's cumulative time (so textual includes the rich it
    pulls in) under `python -X importtime -c 'import module'`; the module's own package left out."""
    proc = subprocess.run(
        [str(PYTHON), "-X", "importtime", "-c", f"import {module}"],
        capture_output=True,
        text=True,
        check=True,
    )
    own = module.split(".")[0]
    totals: dict[str, float] = {}
    for line in proc.stderr.splitlines():
        m = re.match(r"import time:\s+\d+ \|\s+(\d+) \|\s*(\S+)", line)
        if m:
            top = m.group(2).split(".")[0]
            if top != own:
                totals[top] = max(totals.get(top, 0.0), int(m.group(1)) / 1000)
    return sorted(totals.items(), key=lambda kv: -kv[1])[:count]


def run(cp: ControlPlane, figures: Figures, runs: int) -> None:
    log(f"startup: gsb-tui in tmux, {runs} runs")
    times = startup_s(cp, runs)
    figures.add("startup_s", median(times), "s", f"median of {len(times)}/{runs}")
    if times:
        figures.note("startup", "runs: " + ", ".join(f"{t:.2f} s" for t in times))
    kube_s, code = wall_time(
        kubectl_args(cp, "get", "resourceslices,deviceclasses,resourceclaims,pods"), runs + 2
    )
    figures.add("kubectl_get_all_s", kube_s, "s", f"exit {code}")
    for name, code_text in IMPORTS.items():
        figures.add(f"{name}_ms", import_ms(code_text, 3), "ms")
    for module, target in (
        ("gsb_tui.ui.app", "gsb_tui.ui.app"),
        ("the Kubernetes client make_api_client imports", "kubernetes_asyncio.config.kube_config"),
    ):
        top = import_top(target)
        figures.note(
            "startup",
            f"import {module}: heaviest packages (cumulative ms): "
            + ", ".join(f"{name} {ms:.0f}" for name, ms in top),
        )
