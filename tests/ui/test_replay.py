"""The recorded lab through ReplaySource(speed=0): the same pipeline as --demo and a live cluster.

Expectations are read from the recording's raw objects (status.allocation of each claim), not
from dra/ and not from constants.
"""

from __future__ import annotations

import json
from pathlib import Path

from gsb_tui.kube.recording import snapshot_at
from gsb_tui.kube.source import ReplaySource
from gsb_tui.snapshot import Kind, Snapshot
from tests.ui.helpers import make_app, wait_until


def _until_mark(recording: Path, mark: str, out: Path) -> Path:
    """The recording's lines up to (not including) MARK `mark`."""
    lines = []
    for line in recording.read_text(encoding="utf-8").splitlines():
        data = json.loads(line)
        if data.get("type") == "MARK" and data.get("label") == mark:
            break
        lines.append(line)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def _allocated(snapshot: Snapshot) -> dict[str, set[str]]:
    """device name -> claim names, from each claim's status.allocation.devices.results."""
    held: dict[str, set[str]] = {}
    for obj in snapshot.items(Kind.CLAIMS):
        allocation = (obj.get("status") or {}).get("allocation") or {}
        for result in (allocation.get("devices") or {}).get("results") or []:
            held.setdefault(result["device"], set()).add(obj["metadata"]["name"])
    return held


def _published(snapshot: Snapshot) -> set[str]:
    return {d["name"] for s in snapshot.items(Kind.SLICES) for d in s["spec"].get("devices", [])}


async def test_replay_to_step_8_shows_the_recorded_allocations(
    lab_recording: Path, tmp_path: Path
) -> None:
    path = _until_mark(lab_recording, "step-8", tmp_path / "to-step-8.jsonl")
    expected = _allocated(snapshot_at(lab_recording, "step-8"))
    assert expected, "the recording allocates devices by step 8"
    app = make_app(ReplaySource(path, speed=0))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.source_finished and app.dashboard.grid.cells)
        cells = app.dashboard.grid.cells
        shown_taken = {
            device_id.device: cell
            for device_id, cell in cells.items()
            if cell.occupancy.status != "free"
        }
        assert set(shown_taken) == set(expected)
        for device, claim_names in expected.items():
            text = "\n".join(app.dashboard.grid.canvas.cell_text(shown_taken[device].device_id))
            for name in claim_names:
                assert name in text
        assert {d.device for d in cells} == _published(snapshot_at(lab_recording, "step-8"))


async def test_full_replay_ends_with_what_the_recording_ends_with(lab_recording: Path) -> None:
    final = snapshot_at(lab_recording)
    app = make_app(ReplaySource(lab_recording, speed=0))
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.source_finished and app.dashboard.grid.cells)
        cells = app.dashboard.grid.cells
        taken = {d.device for d, c in cells.items() if c.occupancy.status != "free"}
        assert taken == set(_allocated(final))
        assert len(cells) == len(_published(final))
        assert app.dashboard.claims.visible_keys() == sorted(
            (o["metadata"]["namespace"], o["metadata"]["name"]) for o in final.items(Kind.CLAIMS)
        )
        assert "(replay finished)" in str(app.dashboard.query_one("#header").render())
