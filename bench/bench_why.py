"""How long `gsb-tui why` takes to decide on a large cluster (no cluster I/O: the decision).

The recorded lab (tests/fixtures/lab.jsonl, step-8) cloned to --nodes kwok-like nodes of 8
devices (bench_view.scale), every fourth device held by a bound pod's claim, plus the
recording's own pending pod dra-big (4 devices) and its claim. Prints, median of --runs:
the allocator's inputs prepared, the pod judged on every node, the blockers explained, and
the whole answer (`why_cli.answer`, what `gsb-tui why --json` prints) — for a pod that fits
(dra-big) and for one asking more than any node has (refused on every node).

    .venv/bin/python bench/bench_why.py [--nodes 1250] [--runs 5]
"""

from __future__ import annotations

import argparse
import copy
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import bench_view
from bench_view import _median_ms

from gsb_tui import gc_pause
from gsb_tui.dra.alloc.explain import blockers
from gsb_tui.dra.alloc.from_view import inputs_of
from gsb_tui.dra.alloc.scheduler import judge_pod
from gsb_tui.dra.alloc.verdicts import AllocatorSession
from gsb_tui.dra.builder import build_view
from gsb_tui.kube.recording import snapshot_at
from gsb_tui.snapshot import Kind, Snapshot, obj_key
from gsb_tui.why_cli import answer

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--nodes", type=int, default=1250)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    bench_view.NODES = args.nodes
    bench_view.CLAIMS = bench_view.PODS = args.nodes * 2
    base = snapshot_at(ROOT / "tests/fixtures/lab.jsonl", "step-8")
    big = next(p for p in base.items(Kind.PODS) if p["metadata"]["name"] == "dra-big")
    scaled = bench_view.scale(base)
    objects = {k: dict(v) for k, v in scaled.objects.items()}
    objects[Kind.PODS][obj_key(big)] = big
    for claim in base.items(Kind.CLAIMS):
        if not (claim.get("status") or {}).get("allocation"):
            objects[Kind.CLAIMS][obj_key(claim)] = claim
            huge = copy.deepcopy(dict(claim))
            huge["metadata"] = {**huge["metadata"], "name": "huge", "ownerReferences": []}
            huge["spec"]["devices"]["requests"][0]["exactly"]["count"] = 9
            objects[Kind.CLAIMS][obj_key(huge)] = huge
    huge_pod = copy.deepcopy(dict(big))
    huge_pod["metadata"] = {**huge_pod["metadata"], "name": "huge", "uid": "uid-huge"}
    huge_pod["spec"]["resourceClaims"] = [{"name": "gpus", "resourceClaimName": "huge"}]
    objects[Kind.PODS][obj_key(huge_pod)] = huge_pod
    view = build_view(Snapshot(objects=objects, states=scaled.states))
    pods = {p.name: p for p in view.pods.values() if p.pending}
    print(
        f"scale: {len(view.devices)} devices on {args.nodes} nodes, {len(view.claims)} claims,"
        f" {len(view.pods)} pods; judged: {', '.join(sorted(pods))}"
    )

    def cold() -> object:
        return inputs_of(view)  # no session: what a one-shot `gsb-tui why` process does

    print(f"prepare inputs, cold      {_median_ms(cold, args.runs):8.1f} ms  (a why process)")
    session = AllocatorSession()
    inputs = session.inputs(view)
    took = _median_ms(partial(session.inputs, view), args.runs)
    print(f"prepare inputs, warm      {took:8.1f} ms  (the dashboard's session)")
    for name in ("dra-big", "huge"):
        pod = pods[name]
        judged = judge_pod(pod.raw, inputs)
        took = _median_ms(partial(judge_pod, pod.raw, inputs), args.runs)
        fits = f"fits {judged.fits} on {len(judged.nodes)} nodes"
        print(f"{name:8s} judge                {took:8.1f} ms  ({fits})")
        took = _median_ms(partial(blockers, judged, inputs), args.runs)
        print(f"{name:8s} explain              {took:8.1f} ms")

        def whole(pod: object = pod) -> object:
            return answer(view, pod.namespace, pod.name, "en")  # type: ignore[attr-defined]

        with gc_pause.paused():  # as `gsb-tui why` runs it
            took = _median_ms(whole, args.runs)
        print(f"{name:8s} why --json           {took:8.1f} ms  (cold: all of it)")


if __name__ == "__main__":
    main()
