"""What reading pods in every namespace costs in memory when most pods do not use DRA.

A list page of --dra pods (the recorded lab's claim-using pod, cloned) and --other pods (the
same pod without claims, in other namespaces) is decoded the way the pods reflector decodes
it, with and without kube/dra_scope.py's filter; prints the objects kept and the memory they
hold (tracemalloc, after a collection), beside what the decoded page itself took.

    .venv/bin/python bench/bench_scope.py [--dra 5000] [--other 45000]
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import gc
import json
import sys
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gsb_tui.kube.dra_scope import pod_filter
from gsb_tui.kube.http_get import Fetched
from gsb_tui.kube.recording import snapshot_at
from gsb_tui.kube.reflector import Reflector
from gsb_tui.snapshot import KINDS, Kind

ROOT = Path(__file__).resolve().parents[1]


class _Page:
    def __init__(self, body: bytes) -> None:
        self.body = body

    async def fetch(self, *_args: Any) -> Fetched:
        return Fetched(200, "OK", "application/json", self.body)


def _kept_mb(body: bytes, keep: bool) -> tuple[int, float]:
    kept: list[Any] = []
    reflector = Reflector(
        _Page(body),  # type: ignore[arg-type]
        KINDS[Kind.PODS],
        kept.append,
        namespace="dra-lab",
        all_namespaces_first=True,
        scope=pod_filter("dra-lab") if keep else None,
    )
    gc.collect()
    tracemalloc.start()
    asyncio.run(reflector.list())
    gc.collect()
    held, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    (synced,) = [c for c in kept if c.type == "SYNCED"]
    return len(synced.items), held / 2**20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--dra", type=int, default=5000)
    parser.add_argument("--other", type=int, default=45000)
    args = parser.parse_args()
    base = snapshot_at(ROOT / "tests/fixtures/lab.jsonl", "step-8")
    pod = next(p for p in base.items(Kind.PODS) if (p.get("spec") or {}).get("resourceClaims"))
    items = []
    for i in range(args.dra + args.other):
        clone = copy.deepcopy(dict(pod))
        clone["metadata"] = {**clone["metadata"], "name": f"p-{i}", "uid": f"u-{i}"}
        if i >= args.dra:
            clone["metadata"]["namespace"] = f"team-{i % 40}"
            clone["spec"].pop("resourceClaims", None)
            clone.get("status", {}).pop("resourceClaimStatuses", None)
        else:
            clone["metadata"]["namespace"] = f"dra-{i % 40}"
        items.append(clone)
    body = json.dumps({"kind": "PodList", "metadata": {"resourceVersion": "1"}, "items": items})
    page = body.encode()
    print(f"page: {args.dra} DRA pods + {args.other} others, {len(page) / 2**20:.1f} MB of JSON")
    for keep in (False, True):
        n, mb = _kept_mb(page, keep)
        label = "filtered (dra_scope)" if keep else "every pod kept     "
        print(f"{label}  kept {n:6d} pods  held after the list {mb:7.1f} MB")


if __name__ == "__main__":
    main()
