"""Show one profile's feature on a practice cluster, step by step, for a recording.

`gsb-tui cluster record-profile NAME FILE` starts a fresh cluster with that profile, performs its
scenario (profile_scenarios.py: data, built from what the cluster publishes) with kubectl and
records the watch stream with a MARK after each step, exactly as `record-lab` does
(lab_run.record: the same runner, recorder, waits and cleanup). The recordings are
tests/fixtures/profiles/<name>.jsonl, replayed by `gsb-tui --demo NAME` and read by
tests/unit/test_profile_recordings.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from gsb_tui.cluster import lab_run, operator_scenario
from gsb_tui.cluster.lab_run import NS, LabRunError, LabRunner, Log, Mark
from gsb_tui.cluster.profile_scenarios import RECIPES, RESOURCE, Published, Step, Wait, binding
from gsb_tui.cluster.rest import RestError
from gsb_tui.kube.recording import compact, marks

# ---- performing ----------------------------------------------------------------------------


def probe(runner: LabRunner, wait: Wait) -> Callable[[], bool]:
    """The check `wait` names, as lab_run's waits take it."""
    rest = runner.rest
    if wait.what == "running":
        return runner.running(wait.name)
    if wait.what == "unschedulable":
        return runner.failed_scheduling(wait.name)

    def check() -> bool:
        try:
            if wait.what == "gone":
                runner.pod(wait.name)
                return False
            if wait.what == "allocated":
                got = rest.get(f"{RESOURCE}/namespaces/{NS}/resourceclaims/{wait.name}")
                return bool((got.get("status") or {}).get("allocation"))
            if wait.what == "event":
                path = f"/api/v1/namespaces/{NS}/events?fieldSelector=involvedObject.name="
                events = rest.get(path + wait.name).get("items", [])
                return any(
                    wait.detail == e.get("reason") or wait.detail in e.get("message", "")
                    for e in events
                )
            status = rest.get(wait.name).get("status") or {}
            conditions = list(status.get("conditions") or [])
            if status.get("allocation"):  # a claim: conditions per allocated device
                for entry in status.get("devices") or []:
                    conditions += [
                        c for c in entry.get("conditions") or [] if c["status"] == "True"
                    ]
            return any(c.get("type") == wait.detail for c in conditions)
        except RestError as exc:
            return wait.what == "gone" and exc.status == 404

    return check


def all_of(checks: list[Callable[[], bool]]) -> Callable[[], bool]:
    return lambda: all(check() for check in checks)


def perform(steps: list[Step], runner: LabRunner, mark: Mark) -> list[str]:
    """Each step in turn (apply, delete, wait, settle, mark), then lab_run's cleanup."""
    for s in steps:

        def act(s: Step = s) -> None:
            if s.apply:
                runner.apply("\n---\n".join(json.dumps(m) for m in s.apply))
            if s.delete:
                runner.delete(*s.delete)

        runner.step(mark, s.mark, act, all_of([probe(runner, w) for w in s.wait]), s.settle)
    runner.cleanup(mark)
    return [s.mark for s in steps] + ["cleanup"]


def record_profile(name: str, out: Path, binding_fail: bool = False, log: Log = print) -> list[str]:
    """Start a fresh cluster with the profile, perform its scenario, record it, stop; the marks.
    `lab` records the lab itself (record-lab)."""
    if name == "lab":
        lab_run.record_lab(out, log)
        return marks(out)
    if name == operator_scenario.NAME:  # the 960-device operator's cluster, not a profile
        if binding_fail:
            raise LabRunError("--binding-fail goes with the binding profile only")
        found = lab_run.record(out, operator_scenario.SETTINGS, operator_scenario.perform, log)
        before, after = compact(out)  # 130 pods' status steps: the last of each between marks
        log(f"compacted {out}: {before} -> {after} lines")
        return found
    recipe = RECIPES.get(name)
    if recipe is None:
        raise LabRunError(
            f"no scenario for profile {name!r} "
            f"(choose from lab, {', '.join(RECIPES)}, {operator_scenario.NAME})"
        )
    settings = recipe.settings
    if binding_fail:
        if name != "binding":
            raise LabRunError("--binding-fail goes with the binding profile only")
        settings = replace(settings, binding_fail=True)

    def run(runner: LabRunner, mark: Mark) -> list[str]:
        found = Published.read(runner)
        steps = binding(found, fail=True) if binding_fail else recipe.scenario(found)
        return perform(steps, runner, mark)

    return lab_run.record(out, settings, run, log)
