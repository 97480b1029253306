"""The lab on the real node, and what only a real node shows: CDI env, device health, a
prepare failure. Used by the e2e tests and by `gsb-tui cluster record-lab --real-node`.
"""

from __future__ import annotations

import functools
import re
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gsb_tui.cluster import node_cli
from gsb_tui.cluster.control_plane import Settings
from gsb_tui.cluster.lab_run import NS, LabOutcome, LabRunner, Log, Mark, record

ENV_LINE = re.compile(r"^GPU_DEVICE_(\w+)=(.*)$")
# A pod made while the driver is away: the kubelet cannot prepare its claim.
ORPHAN_POD = "after-driver"
ORPHAN = f"""\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {{name: orphan-gpu, namespace: {NS}}}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {{deviceClassName: gpu.example.com}}
---
apiVersion: v1
kind: Pod
metadata: {{name: {ORPHAN_POD}, namespace: {NS}}}
spec:
  containers:
  - name: ctr
    image: busybox:1.36
    command: ["sh", "-c", "trap 'exit 0' TERM; sleep 9999 & wait"]
    resources:
      claims: [{{name: gpu}}]
  resourceClaims:
  - {{name: gpu, resourceClaimTemplateName: orphan-gpu}}
"""


# An image the node cannot have (no registry here): the kubelet's ErrImagePull.
NO_IMAGE_POD = "no-image"
NO_IMAGE = f"""\
apiVersion: v1
kind: Pod
metadata: {{name: {NO_IMAGE_POD}, namespace: {NS}}}
spec:
  containers:
  - name: ctr
    image: ubuntu:22.04
    command: ["sleep", "9999"]
    resources:
      claims: [{{name: gpu}}]
  resourceClaims:
  - {{name: gpu, resourceClaimTemplateName: one-gpu}}
"""


@dataclass
class NodeOutcome:
    lab: LabOutcome = field(default_factory=LabOutcome)
    env: dict[str, dict[str, str]] = field(default_factory=dict)  # pod -> GPU_DEVICE_* vars
    health_device: str = ""
    prepare_event: str = ""  # the kubelet's FailedPrepareDynamicResources message
    slices_gone_after: float = 0.0  # seconds from prepare-failed to the node's slices gone


def gpu_env(runner: LabRunner, pod: str) -> dict[str, str]:
    """The GPU_DEVICE_* variables the container really has (`kubectl exec … env`)."""
    proc = runner.kubectl("-n", NS, "exec", pod, "--", "env", timeout=30)
    if proc.returncode != 0:
        raise RuntimeError(f"kubectl exec {pod} -- env failed: {proc.stderr.strip()}")
    found = {}
    for line in proc.stdout.splitlines():
        if ENV_LINE.match(line):
            name, _, value = line.partition("=")
            found[name] = value
    return found


def allocated_device(runner: LabRunner, pod: str, entry: str = "gpu") -> str:
    status = runner.pod(pod).get("status") or {}
    claim = next(
        s["resourceClaimName"]
        for s in status.get("resourceClaimStatuses") or []
        if s.get("name") == entry
    )
    got = runner.rest.get(f"/apis/resource.k8s.io/v1/namespaces/{NS}/resourceclaims/{claim}")
    return str(got["status"]["allocation"]["devices"]["results"][0]["device"])


def container_health(pod: dict[str, Any]) -> list[str]:
    """Every health the kubelet put in the pod's container statuses."""
    return [
        str(r.get("health"))
        for c in (pod.get("status") or {}).get("containerStatuses") or []
        for s in c.get("allocatedResourcesStatus") or []
        for r in s.get("resources") or []
    ]


PULL_FAILURES = ("ErrImagePull", "ImagePullBackOff")


def waiting_reason(pod: dict[str, Any]) -> str:
    for status in (pod.get("status") or {}).get("containerStatuses") or []:
        waiting = (status.get("state") or {}).get("waiting") or {}
        if waiting.get("reason"):
            return str(waiting["reason"])
    return ""


def set_health(runner: LabRunner, node: str, device: str, state: str) -> None:
    patch = node_cli.annotation_patch(device, state)
    runner.rest.request("PATCH", f"/api/v1/nodes/{node}", patch)


def prepare_failures(runner: LabRunner, pod: str) -> list[str]:
    events = runner.rest.get(
        f"/api/v1/namespaces/{NS}/events?fieldSelector=involvedObject.name={pod}"
    )
    return [
        str(e.get("message"))
        for e in events.get("items", [])
        if e.get("reason") == "FailedPrepareDynamicResources"
    ]


def perform(
    runner: LabRunner,
    mark: Mark,
    between: Callable[[str], None] = lambda _label: None,
    settle: float = 1.0,
) -> NodeOutcome:
    """The lab's steps and mistakes, then a device marked unhealthy and back, then the driver
    stopped while a new pod needs it, and started again. `between(label)` runs at each mark
    (the e2e test checks there)."""
    out = NodeOutcome()
    node = str((runner.cp.info().get("real_node") or {}).get("name") or "")

    def marked(label: str) -> None:
        if label == "step-3":
            out.env["dra-1"] = gpu_env(runner, "dra-1")
        if label == "mistake-1":
            out.env["no-claim-ref"] = gpu_env(runner, "no-claim-ref")
        between(label)
        mark(label)

    out.lab = runner.perform(marked, settle)
    device = out.health_device = allocated_device(runner, "dra-1")

    def health_is(state: str) -> Callable[[], bool]:
        return lambda: state in container_health(runner.pod("dra-1"))

    for state, label in (("unhealthy", "health-unhealthy"), ("healthy", "health-healthy")):
        act = functools.partial(set_health, runner, node, device, state)
        runner.step(marked, label, act, health_is(state.capitalize()), settle)
    runner.step(
        marked,
        "image-missing",
        lambda: runner.apply(NO_IMAGE),
        lambda: waiting_reason(runner.pod(NO_IMAGE_POD)) in PULL_FAILURES,
        settle,
    )
    # SIGTERM, as a driver's pod is stopped: it unregisters from the kubelet.
    runner.cp.kill("practice-driver", signal.SIGTERM)
    runner.step(
        marked,
        "prepare-failed",
        lambda: runner.apply(ORPHAN),
        lambda: bool(prepare_failures(runner, ORPHAN_POD)),
        settle,
    )
    out.prepare_event = prepare_failures(runner, ORPHAN_POD)[0]
    # The kubelet wipes an unregistered driver's slices after a delay (seen: 31 s); the
    # claims keep their allocation.
    slices = f"/apis/resource.k8s.io/v1/resourceslices?fieldSelector=spec.nodeName={node}"
    started = time.monotonic()
    runner.wait_for("the driver's slices wiped", lambda: not runner.rest.get(slices)["items"], 120)
    out.slices_gone_after = round(time.monotonic() - started, 1)
    runner.step(marked, "driver-gone", None, None, settle)
    runner.cp.start_again("practice-driver")
    # The kubelet retries with backoff (seen: ~22 s after the driver came back).
    runner.wait_for("the pod after the driver's return", runner.running(ORPHAN_POD), 120)
    runner.step(marked, "driver-back", None, None, settle)
    return out


def _perform_and_clean(runner: LabRunner, mark: Mark) -> NodeOutcome:
    outcome = perform(runner, mark)
    runner.cleanup(mark)
    return outcome


def record_real_node_lab(out: Path, log: Log = print) -> NodeOutcome:
    """Start a fresh practice cluster with a real node, record the lab and the node's half."""
    return record(out, Settings(real_node=True, nodes=0), _perform_and_clean, log)
