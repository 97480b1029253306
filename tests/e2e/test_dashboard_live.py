"""The dashboard, headless, against the real control plane: the grid and the claims pane follow
what the real scheduler allocates, as it happens."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Any

from gsb_tui.cluster.control_plane import ControlPlane
from gsb_tui.cluster.lab_run import example, kubectl
from gsb_tui.kube.config import Target
from gsb_tui.kube.live import LiveSource
from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.panes.claims import ClaimsPane
from gsb_tui.ui.panes.device_canvas import Cell

NS = "dra-lab"


def apply(cluster: ControlPlane, manifest: str) -> None:
    subprocess.run(
        [kubectl(), f"--kubeconfig={cluster.kubeconfig}", "apply", "-f", "-"],
        input=manifest,
        capture_output=True,
        text=True,
        check=True,
    )


def delete(cluster: ControlPlane, *what: str) -> None:
    subprocess.run(
        [
            kubectl(),
            f"--kubeconfig={cluster.kubeconfig}",
            "-n",
            NS,
            "delete",
            *what,
            "--wait=true",
            "--timeout=60s",
        ],
        capture_output=True,
        text=True,
        check=True,
    )


def cells(app: GsbApp) -> dict[str, Cell]:
    return {d.device: c for d, c in app.dashboard.grid.cells.items()}


def drawn(app: GsbApp, device: str) -> str:
    """What the grid draws for a device, as plain text."""
    grid = app.dashboard.grid
    found = next(d for d in grid.cells if d.device == device)
    return "\n".join(grid.canvas.cell_text(found))


def claim_rows(app: GsbApp) -> dict[str, tuple[str, str, str, str]]:
    # rows are (key, cells, ...): the claim key, then the four cells as shown
    return {entry[0][1]: entry[1] for entry in app.query_one(ClaimsPane).rows}


def scheduler_results(cluster: ControlPlane, claim: str) -> list[str]:
    obj: dict[str, Any] = cluster.rest().get(
        f"/apis/resource.k8s.io/v1/namespaces/{NS}/resourceclaims/{claim}"
    )
    return [r["device"] for r in obj["status"]["allocation"]["devices"]["results"]]


async def until(pilot: Any, what: str, cond: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for the screen to show {what}")
        await pilot.pause(0.05)


async def test_grid_and_claims_follow_the_scheduler(cluster: ControlPlane, tmp_path: Path) -> None:
    source = LiveSource(Target(kubeconfig=cluster.kubeconfig, namespace=NS))
    app = GsbApp(source, tmp_path / "lab", "en", watch_lab_dir=False)
    published = [
        d["name"]
        for s in cluster.rest().get("/apis/resource.k8s.io/v1/resourceslices")["items"]
        for d in s["spec"]["devices"]
    ]
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, "every published device", lambda: set(cells(app)) == set(published))
        assert all(c.occupancy.status == "free" for c in cells(app).values())

        apply(cluster, example("shared.yaml"))
        await until(pilot, "the shared claim", lambda: "shared" in claim_rows(app))
        await until(
            pilot,
            "both consumers of shared",
            lambda: (
                "share-a" in claim_rows(app)["shared"][3]
                and "share-b" in claim_rows(app)["shared"][3]
            ),
        )
        (device,) = scheduler_results(cluster, "shared")
        await until(
            pilot, f"{device} shared", lambda: cells(app)[device].occupancy.status == "shared"
        )
        rendered = drawn(app, device)
        assert "shared" in rendered and "share-a" in rendered and "share-b" in rendered
        assert claim_rows(app)["shared"][1] == "allocated,reserved"
        assert claim_rows(app)["shared"][2] == device

        apply(cluster, example("two.yaml"))
        claim_name = ""

        def two_allocated() -> bool:
            nonlocal claim_name
            rows = {k: r for k, r in claim_rows(app).items() if k.startswith("dra-2x-gpus-")}
            if rows:
                claim_name = next(iter(rows))
            return bool(rows) and rows[claim_name][1] == "allocated,reserved"

        await until(pilot, "dra-2x's claim allocated", two_allocated)
        devices = scheduler_results(cluster, claim_name)
        for d in devices:
            await until(
                pilot,
                f"{d} reserved by dra-2x",
                lambda d=d: "dra-2x" in drawn(app, d),
            )
        assert sorted(claim_rows(app)[claim_name][2].split(", ")) == sorted(devices)

        delete(cluster, "pod", "dra-2x")
        await until(pilot, "dra-2x's claim gone", lambda: claim_name not in claim_rows(app))
        for d in devices:
            await until(
                pilot, f"{d} free again", lambda d=d: cells(app)[d].occupancy.status == "free"
            )
        delete(cluster, "pod", "share-a", "share-b")
        await until(
            pilot,
            "shared no longer reserved",
            lambda: (
                claim_rows(app).get("shared", ("", ""))[1] == "allocated"
                or claim_rows(app).get("shared", ("", ""))[1] == "pending"
            ),
        )
        delete(cluster, "resourceclaim", "shared")
        delete(cluster, "resourceclaimtemplate", "two-gpus")
        await until(
            pilot,
            "every device free",
            lambda: all(c.occupancy.status == "free" for c in cells(app).values()),
        )
