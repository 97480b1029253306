"""The CEL selector a lab step works with, for the selector tool (`s`) to open with.

The learner's own first: the first `cel.expression` in the step's answer file (a claim or a
template in a YAML file) or its `selector=` line (class.txt); then the cluster's: the selectors
of the claim or template the step creates, as created, and for step 2 the served selector of
the lab's DeviceClass. A step without one (step 1's slices, step 4's claim.json) gives none.
Files are read as the checks read them (lab/files.py: regular files only, capped, never
raising).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from gsb_tui.dra.view import DraView
from gsb_tui.lab.files import LabFiles
from gsb_tui.lab.parse import parse_key_values, parse_yaml
from gsb_tui.lab.steps import LAB_NAMESPACE, step

CLASS_STEP = 2  # reads the DeviceClass: its selector is the step's expression


def _expressions(value: Any) -> Iterator[str]:
    """Every `cel: {expression: …}` in a manifest, in document order."""
    if isinstance(value, dict):
        cel = value.get("cel")
        if isinstance(cel, dict) and isinstance(cel.get("expression"), str):
            yield cel["expression"]
        for item in value.values():
            yield from _expressions(item)
    elif isinstance(value, list):
        for item in value:
            yield from _expressions(item)


def _from_file(files: LabFiles, name: str) -> str:
    read = files.read(name)
    if not read.ok:
        return ""
    if name.endswith((".yaml", ".yml")):
        for manifest in parse_yaml(read.text, name).objects:
            for expression in _expressions(manifest.body):
                if expression.strip():
                    return expression.strip()
        return ""
    if name.endswith(".txt"):
        return parse_key_values(read.text).values.get("selector", "").strip()
    return ""


def _from_cluster(step_id: int, view: DraView) -> str:
    for kind, name in step(step_id).objects:
        key = (LAB_NAMESPACE, name)
        found = view.claims.get(key) if kind == "ResourceClaim" else None
        requests = found.requests if found else ()
        if kind == "ResourceClaimTemplate" and key in view.templates:
            requests = view.templates[key].requests
        for request in requests:
            if request.selectors:
                return request.selectors[0]
    if step_id == CLASS_STEP:
        served = view.classes.get(view.lab_driver())
        if served is not None and served.selectors:
            return served.selectors[0]
    return ""


def step_selector(step_id: int, view: DraView | None, lab_dir: Path) -> tuple[str, str]:
    """(expression, where it is from: the answer file's name, or "cluster") for the step;
    ("", "") when the step has none."""
    try:
        lab_step = step(step_id)
    except KeyError:
        return "", ""
    files = LabFiles(lab_dir)
    for name in lab_step.files:
        expression = _from_file(files, name)
        if expression:
            return expression, name
    if view is None:
        return "", ""
    expression = _from_cluster(step_id, view)
    return (expression, "cluster") if expression else ("", "")
