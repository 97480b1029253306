"""Generated shapes against the real kube-scheduler: what `gsb-tui why` predicts for a pod held
back by a scheduling gate, and what the scheduler then does with it.

One practice cluster (lab, partitions, shared, taints; the seeded node cordoned, since a
shape's network-attached pools reach every node). For each shape of tests/alloc_shapes.py, from
a fixed seed (GSB_SHAPES_SEED overrides it, GSB_SHAPES_COUNT the number of shapes), one at a
time: apply it; for each judged pod, ask `gsb-tui why NS/POD --json` while it is still gated,
lift the gate, wait for the scheduler's answer; clean up. Then:

- the scheduler did what the shape was built for (placed <=> built to fit);
- `why` said so (placed <=> fits, on one of the nodes it named; when refused, a blocker code
  the shape was built for is among those it named);
- upstream's allocator (tests/alloc_oracle.py, where present) agrees with the scheduler.

A table of every judged pod is printed at the end (`-s` to see it).
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from gsb_tui.cluster.control_plane import ControlPlane, Settings
from gsb_tui.cluster.releases import RELEASES
from gsb_tui.cluster.rest import Rest
from tests import alloc_apply, alloc_shapes
from tests.e2e.conftest import REPO, practice_cluster

SEED = int(os.environ.get("GSB_SHAPES_SEED") or 1202)
COUNT = int(os.environ.get("GSB_SHAPES_COUNT") or 30)
# The other releases the practice cluster builds run fewer shapes (their own, from elsewhere
# in the seed's sequence): each is a control plane more in CI.
COUNT_OTHER = int(os.environ.get("GSB_SHAPES_COUNT_OTHER") or 10)
FIRST_OTHER = 5000
REPEAT = int(os.environ.get("GSB_SHAPES_REPEAT") or 1)  # >1: apply each shape again (stability)
PROFILES = ("lab", "partitions", "shared", "taints")
GSB_TUI = REPO / ".venv" / "bin" / "gsb-tui"
WHY_TIMEOUT_S = 60
OUTCOME_TIMEOUT_S = 30
# Every shape is judged in the module's fixture: about 3 s a shape, 8 s a repeated one.
pytestmark = pytest.mark.timeout(max(600, 20 * max(COUNT, COUNT_OTHER) * REPEAT))


@dataclass
class Row:
    shape: alloc_shapes.Shape
    pod: str
    prediction: dict[str, Any] | None = None
    why_error: str = ""
    outcome: tuple[str, str] = ("", "")
    again: list[tuple[str, str]] = field(default_factory=list)  # outcomes of the repeats
    seconds: float = 0.0

    @property
    def built_for(self) -> set[str]:
        return self.shape.built_for[self.pod]

    @property
    def placed(self) -> bool:
        return self.outcome[0] == "placed"

    def codes(self) -> set[str]:
        return {str(b.get("code")) for b in (self.prediction or {}).get("blockers") or []}


@dataclass
class Run:
    release: str
    cp: ControlPlane
    rest: Rest
    why: bool
    rows: list[Row] = field(default_factory=list)
    terminating: list[str] = field(default_factory=list)  # namespaces still going away
    seconds: float = 0.0


def why_available() -> bool:
    try:
        proc = subprocess.run(
            [str(GSB_TUI), "why", "--help"], capture_output=True, timeout=WHY_TIMEOUT_S
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0


def ask_why(kubeconfig: Path, pod: str) -> tuple[dict[str, Any] | None, str]:
    cmd = [str(GSB_TUI), "why", pod, "--json", "--kubeconfig", str(kubeconfig)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=WHY_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {WHY_TIMEOUT_S} s"
    try:
        answer = json.loads(proc.stdout)
    except ValueError:
        return (
            None,
            f"exit {proc.returncode}, no JSON: {proc.stdout[:200]!r} {proc.stderr[-300:]!r}",
        )
    if not isinstance(answer, dict):
        return None, f"exit {proc.returncode}: not an object: {proc.stdout[:200]!r}"
    return answer, ""


def judge_shape(run: Run, shape: alloc_shapes.Shape, rows: list[Row] | None) -> list[Row]:
    """Apply, predict, ungate, read the outcome, clean; one row per judged pod."""
    rest = run.rest
    alloc_apply.apply(rest, alloc_shapes.on_release(shape, run.release))
    out = rows if rows is not None else [Row(shape, pod) for pod in shape.judged]
    try:
        for row in out:
            started = time.monotonic()
            if rows is None and run.why:
                row.prediction, row.why_error = ask_why(run.cp.kubeconfig, row.pod)
            alloc_apply.ungate(rest, row.pod)
            result = alloc_apply.outcome(rest, row.pod, OUTCOME_TIMEOUT_S)
            if rows is None:
                row.outcome = result
                row.seconds = round(time.monotonic() - started, 2)
            else:
                row.again.append(result)
    finally:
        # the namespace controller takes ~5 s a namespace: wait only if the shape comes again
        run.terminating += alloc_apply.clean(
            rest, alloc_shapes.on_release(shape, run.release), wait_namespaces=REPEAT > 1
        )
    return out


def _shapes(release: str) -> Iterator[alloc_shapes.Shape]:
    if release == "1.36":
        yield from alloc_shapes.shapes(SEED, COUNT)
        return
    for index in range(FIRST_OTHER, FIRST_OTHER + COUNT_OTHER):
        yield alloc_shapes.generate(SEED, index)


@pytest.fixture(scope="module", params=sorted(RELEASES))
def run(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    release = request.param
    settings = Settings(nodes=1, profiles=PROFILES, audit=False, kube=release)
    with practice_cluster(request, tmp_path_factory, settings, f"shapes-{release}") as cp:
        rest = cp.rest()
        for node in rest.get("/api/v1/nodes")["items"]:
            rest.request(
                "PATCH",
                f"/api/v1/nodes/{node['metadata']['name']}",
                {"spec": {"unschedulable": True}},
            )
        started = time.monotonic()
        state = Run(release, cp, rest, why_available())
        for shape in _shapes(release):
            rows = judge_shape(state, shape, None)
            for _ in range(REPEAT - 1):
                judge_shape(state, shape, rows)
            state.rows.extend(rows)
        alloc_apply.wait_gone(rest, state.terminating, 120)
        state.seconds = round(time.monotonic() - started, 1)
        yield state
        print_table(state)


def short(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def print_table(run: Run) -> None:
    print(
        f"\n[shapes {run.release}] seed {SEED}, {len(run.rows)} judged pods, "
        f"{run.seconds} s (why: {'yes' if run.why else 'not available'})"
    )
    print(f"{'shape':>9}  {'pod':<28} {'built for':<26} {'prediction':<34} outcome")
    for row in run.rows:
        built = ",".join(sorted(row.built_for)) or "fit"
        if row.prediction is not None:
            fits = row.prediction.get("fits")
            nodes = row.prediction.get("nodes") or []
            pred = (
                f"fits {len(nodes)} node(s)" if fits else "refused " + ",".join(sorted(row.codes()))
            )
        else:
            pred = row.why_error or "-"
        kind, detail = row.outcome
        print(
            f"{row.shape.name:>9}  {short(row.pod, 28):<28} {short(built, 26):<26} "
            f"{short(pred, 34):<34} {kind} {short(detail, 90)}"
        )


def test_scheduler_does_what_each_shape_was_built_for(run: Run) -> None:
    wrong = [
        f"{r.shape.name} {r.pod}: built for {sorted(r.built_for) or 'fit'} "
        f"({r.shape.notes[r.pod]}), scheduler {r.outcome}"
        for r in run.rows
        if r.placed == bool(r.built_for) or r.outcome[0] not in ("placed", "refused")
    ]
    assert not wrong, "\n".join(wrong)
    # GSB_SHAPES_REPEAT=2 applies every shape a second time: the outcome must not move.
    moved = [
        f"{r.shape.name} {r.pod}: {r.outcome[0]} then {[a[0] for a in r.again]}"
        for r in run.rows
        if any(a[0] != r.outcome[0] for a in r.again)
    ]
    assert not moved, "\n".join(moved)


def test_why_predicts_the_scheduler(run: Run) -> None:
    assert run.why, "gsb-tui why answered for the shapes"
    wrong = []
    for r in run.rows:
        where = f"{r.shape.name} {r.pod} ({r.shape.notes[r.pod]})"
        p = r.prediction
        if p is None:
            wrong.append(f"{where}: why failed: {r.why_error}")
            continue
        if bool(p.get("fits")) != r.placed:
            wrong.append(
                f"{where}: why fits={p.get('fits')} {sorted(r.codes())}, scheduler {r.outcome}"
            )
        elif r.placed and r.outcome[1] not in (p.get("nodes") or []):
            wrong.append(f"{where}: placed on {r.outcome[1]}, why named {p.get('nodes')}")
        elif not r.placed and r.built_for and not (r.built_for & r.codes()):
            wrong.append(
                f"{where}: built for {sorted(r.built_for)}, why named {sorted(r.codes())}; "
                f"scheduler: {r.outcome[1]}"
            )
    assert not wrong, f"{len(wrong)} of {len(run.rows)}:\n" + "\n".join(wrong)


def test_oracle_agrees_with_the_scheduler(run: Run) -> None:
    from tests.alloc_oracle import for_release, run_oracle

    wrong = []
    seen: dict[str, dict[str, Any]] = {}
    for r in run.rows:
        if r.shape.name not in seen:
            snap = for_release(alloc_shapes.snapshot(r.shape), run.release)
            seen[r.shape.name] = run_oracle(snap, release=run.release)["pods"]
        verdict = seen[r.shape.name].get(r.pod) or {}
        if bool(verdict.get("fits")) != r.placed:
            wrong.append(
                f"{r.shape.name} {r.pod} ({r.shape.notes[r.pod]}): "
                f"oracle fits={verdict.get('fits')} "
                f"{verdict.get('error') or verdict.get('pod_reason') or ''}, scheduler {r.outcome}"
            )
    assert not wrong, f"{len(wrong)} of {len(run.rows)}:\n" + "\n".join(wrong)
