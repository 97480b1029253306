"""The allocation oracle: upstream's DRA allocator and the scheduler's node filters, as a program.

`cluster/oracle` (Go, in the control plane's module) reads a snapshot on stdin and says, for every
pending pod and node, whether kube-scheduler of its release (one build per release the practice
cluster builds: gsb_tui/cluster/releases.py) would let the pod on: the claims resolved as
its DynamicResources PreFilter does, the slices with DeviceTaintRules applied by upstream's
resourceslice tracker, structured.NewAllocator / Allocate per node, after the NodeUnschedulable,
TaintToleration and NodeAffinity filters. Tests compare gsb_tui's allocator against it.

    run_oracle({"slices": [...], "classes": [...], "claims": [...], "nodes": [...],
                "pods": [...], "rules": [...], "features": {"DeviceTaints": False}})
    -> {"pods": {"ns/name": {"fits": bool, "nodes": [...], "error": str | None,
                             "pod_reason": str | None, "node_status": {...}, "stage": {...},
                             "allocation": {node: [{"claim", "request", "driver", "pool",
                                                    "device", "shareID"}]}}}}

The binary is built on first use (seconds after the control plane's build, about 2 min from an
empty Go build cache) and cached by the hash of go.mod, go.sum, its sources and `go version`
(gsb_tui.cluster.build.ensure_oracle).
"""

from __future__ import annotations

import functools
import json
import subprocess
from pathlib import Path
from typing import Any

from gsb_tui.cluster.build import ensure_oracle
from gsb_tui.cluster.releases import DEFAULT_RELEASE, RELEASES
from gsb_tui.dra.alloc.features import Features, features_for
from gsb_tui.dra.alloc.scheduler import Inputs, PodJudgement, judge_pod, prepare
from gsb_tui.dra.model import parse_taint_rule


class OracleError(RuntimeError):
    """The oracle refused the snapshot, failed or took too long; the message has its stderr."""


@functools.cache
def oracle_path(release: str = DEFAULT_RELEASE) -> Path:
    """The release's built oracle (built now when the cache lacks it)."""
    return ensure_oracle(log=lambda _m: None, release=release)


def for_release(snapshot: dict[str, Any], release: str) -> dict[str, Any]:
    """The snapshot as a server of `release` holds it: from 1.37 DeviceTaintRules are read at
    resource.k8s.io/v1 (where a rule without deviceSelector selects no device)."""
    if release == "1.36" or not snapshot.get("rules"):
        return snapshot
    rules = [{**r, "apiVersion": "resource.k8s.io/v1"} for r in snapshot["rules"]]
    return {**snapshot, "rules": rules}


def run_oracle(
    snapshot: dict[str, Any], timeout: float = 60, release: str = DEFAULT_RELEASE
) -> dict[str, Any]:
    """Judge `snapshot` with the release's oracle; its parsed answer."""
    binary = oracle_path(release)
    try:
        proc = subprocess.run(
            [str(binary)],
            input=json.dumps(snapshot).encode(),
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        stderr = (exc.stderr or b"").decode(errors="replace").strip()
        raise OracleError(f"{binary} took longer than {timeout} s; stderr: {stderr!r}") from exc
    stderr = proc.stderr.decode(errors="replace").strip()
    if proc.returncode != 0:
        raise OracleError(f"{binary} exited {proc.returncode}: {stderr or '(no stderr)'}")
    try:
        answer = json.loads(proc.stdout)
    except ValueError as exc:
        raise OracleError(f"{binary} wrote no JSON ({exc}); stderr: {stderr!r}") from exc
    if not isinstance(answer, dict) or not isinstance(answer.get("pods"), dict):
        raise OracleError(f"{binary} answered without 'pods': {proc.stdout[:200]!r}")
    return answer


def judge_all(
    snapshot: dict[str, Any], release: str = DEFAULT_RELEASE, features: Features | None = None
) -> tuple[Inputs, dict[str, PodJudgement]]:
    """gsb-tui's allocator on the same snapshot, deciding as the release's patch the practice
    cluster pins (or with `features`): every pod not bound yet, by "ns/name"."""
    rules = [parse_taint_rule(r) for r in snapshot.get("rules", [])]
    features = features or features_for(RELEASES[release].k8s)
    inputs = prepare(
        snapshot["slices"],
        snapshot["classes"],
        snapshot["claims"],
        snapshot["nodes"],
        rules,
        features=features,
    )
    judged = {
        f"{pod['metadata']['namespace']}/{pod['metadata']['name']}": judge_pod(pod, inputs)
        for pod in snapshot["pods"]
        if not (pod.get("spec") or {}).get("nodeName")
    }
    return inputs, judged
