"""Judging one selector three ways: the API server, the scheduler, and gsb-tui.

- the API server: `kubectl create --dry-run=server` of a ResourceClaim with the selector
  (allocationMode All); the rejection is what kubectl prints after the field path;
- the scheduler (for admitted selectors): the claim and a pod that uses it are created; the
  devices it allocates, or its "cannot allocate" / "CEL runtime error: ..." message;
- gsb-tui: compile_selector (its rejection message), then evaluate_all over the published
  devices with the class's selectors, as the allocator does.

`compare` says whether they agree: the same admission verdict and message, and for admitted
selectors the same devices or the same runtime error. Used by tests/e2e/test_cel_parity.py
(a bounded set) and bench/cel_parity.py (the larger run).
"""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from gsb_tui.cluster.control_plane import ControlPlane
from gsb_tui.cluster.lab_run import kubectl
from gsb_tui.cluster.rest import RestError
from gsb_tui.dra.alloc.features import features_for
from gsb_tui.dra.alloc.results import enhance_runtime_error
from gsb_tui.dra.cel import CelCompileError, CelUnsupportedError, compile_selector, evaluate_all
from gsb_tui.dra.view import DraView

CLASS = "gpu.example.com"
_FIELD = re.compile(r"cel\.expression: (.*)", re.DOTALL)
_INVALID = re.compile(r'Invalid value: "(?:[^"\\]|\\.)*": ', re.DOTALL)
_SELECTOR = re.compile(r"^(?:class [^:]*: |request [^:]*: )?selector #\d+: ")


@dataclass
class Judged:
    admitted: bool
    message: str = ""  # the rejection (after the field path) or the scheduler's runtime error
    matched: frozenset[str] = field(default_factory=frozenset)  # device names
    abstained: bool = False  # gsb-tui: CelUnsupportedError (the API server may accept it)
    unschedulable: str = ""  # the scheduler's message when it allocated nothing


def claim(name: str, namespace: str, expression: str) -> dict[str, object]:
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaim",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {
            "devices": {
                "requests": [
                    {
                        "name": "gpus",
                        "exactly": {
                            "deviceClassName": CLASS,
                            "allocationMode": "All",
                            "selectors": [{"cel": {"expression": expression}}],
                        },
                    }
                ]
            }
        },
    }


def pod(name: str, namespace: str) -> dict[str, object]:
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {
            "containers": [
                {"name": "c", "image": "ubuntu:22.04", "resources": {"claims": [{"name": "gpus"}]}}
            ],
            "resourceClaims": [{"name": "gpus", "resourceClaimName": name}],
        },
    }


def admission(kubeconfig: Path, namespace: str, expression: str) -> Judged:
    """kubectl create --dry-run=server: admitted, or the API server's words for the selector."""
    command = [kubectl(), f"--kubeconfig={kubeconfig}", "create", "--dry-run=server", "-f", "-"]
    proc = subprocess.run(
        command,
        input=json.dumps(claim("parity", namespace, expression)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    if proc.returncode == 0:
        return Judged(True)
    m = _FIELD.search(proc.stderr)
    body = m.group(1).rstrip("\n") if m else proc.stderr.strip()
    return Judged(False, _INVALID.sub("", body, count=1))


def scheduling(cluster: ControlPlane, namespace: str, name: str, expression: str) -> Judged:
    """Create the claim and a pod; what the scheduler allocates or says. Cleans up."""
    rest = cluster.rest()
    base = f"/apis/resource.k8s.io/v1/namespaces/{namespace}/resourceclaims"
    rest.create(base, claim(name, namespace, expression))
    try:
        rest.create(f"/api/v1/namespaces/{namespace}/pods", pod(name, namespace))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            got = rest.get(f"{base}/{name}")
            results = got.get("status", {}).get("allocation", {}).get("devices", {}).get("results")
            if results:
                return Judged(True, matched=frozenset(r["device"] for r in results))
            for cond in (
                rest.get(f"/api/v1/namespaces/{namespace}/pods/{name}")
                .get("status", {})
                .get("conditions", [])
            ):
                if cond["type"] == "PodScheduled" and cond["status"] == "False":
                    said = str(cond["message"])
                    error = said.split("CEL runtime error: ", 1)
                    if len(error) == 2:
                        return Judged(True, error[1].strip())
                    return Judged(True, unschedulable=said)
            time.sleep(0.05)
        raise AssertionError(f"the scheduler said nothing about {name}")
    finally:
        with contextlib.suppress(RestError):  # the pod may not have been created
            rest.delete(f"/api/v1/namespaces/{namespace}/pods/{name}?gracePeriodSeconds=0")
        rest.delete(f"{base}/{name}")
        deadline = time.monotonic() + 30
        while rest.get(base)["items"]:
            assert time.monotonic() < deadline, "claim not released"
            time.sleep(0.05)


def gsb_tui(view: DraView, expression: str) -> Judged:
    """gsb-tui's judgement: its rejection, or the devices it says match (with the class's
    selectors first, as the allocator evaluates them) and the first runtime error."""
    try:
        compile_selector(expression, driver=CLASS)
    except CelUnsupportedError as exc:
        return Judged(True, exc.message, abstained=True)
    except CelCompileError as exc:
        return Judged(False, exc.message)
    class_selectors = list(view.classes[CLASS].selectors)
    outcomes = evaluate_all([*class_selectors, expression], view.devices)
    features = features_for(view.snapshot.server_version)  # 1.37 words runtime errors more
    errors = sorted(
        {
            enhance_runtime_error(features, _SELECTOR.sub("", o.error))
            for o in outcomes.values()
            if o.error
        }
    )
    matched = frozenset(d.device for d, o in outcomes.items() if o.matched)
    return Judged(True, " | ".join(errors), matched=matched)


def compare(api: Judged, scheduler: Judged | None, ours: Judged) -> str:
    """ "" when gsb-tui agrees with the API server (and the scheduler), else why not."""
    if ours.abstained:
        return ""
    if api.admitted != ours.admitted:
        said = "admits" if api.admitted else f"rejects: {api.message}"
        return f"the API server {said}; gsb-tui {'admits' if ours.admitted else ours.message}"
    if not api.admitted:
        return "" if ours.message == api.message else f"words: {api.message!r} / {ours.message!r}"
    assert scheduler is not None
    if scheduler.message:  # a runtime error: gsb-tui has the same one on some device
        ours_errors = ours.message.split(" | ") if ours.message else []
        if scheduler.message in ours_errors:
            return ""
        return f"scheduler: {scheduler.message!r}; gsb-tui: {ours.message or 'no error'}"
    if ours.message:
        return f"gsb-tui has a runtime error the scheduler did not: {ours.message}"
    if scheduler.matched != ours.matched:
        return f"scheduler {sorted(scheduler.matched)}; gsb-tui {sorted(ours.matched)}"
    if not scheduler.matched and "cannot allocate all claims" not in scheduler.unschedulable:
        return f"scheduler: {scheduler.unschedulable}"
    return ""
