"""The allocator's answer for every pending pod of the operator's cluster copied to 10,000
devices and more (bench/operator_scale.py: 1.36 partitions, shares and taints on 440 nodes).

    .venv/bin/python bench/operator_why.py [--devices 10000]

Per pod (`namespace/name`): the judgement on every node, then its blockers, as the details
pane's worker and `gsb-tui why` decide them; the first pod of a fresh Verdicts also pays for
the allocator's inputs and the pools every node gathers. No cluster I/O: the decision.
"""

from __future__ import annotations

import argparse
import time

from operator_scale import scaled_snapshot

from gsb_tui.dra.alloc.scheduler import BUDGET_S
from gsb_tui.dra.alloc.verdicts import Verdicts
from gsb_tui.dra.builder import build_view


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--devices", type=int, default=10_000)
    args = parser.parse_args()
    view = build_view(scaled_snapshot(args.devices))
    pending = sorted((p for p in view.pods.values() if p.pending), key=lambda p: p.key)
    print(f"devices {len(view.devices)}, nodes {len({d.node for d in view.devices})}")
    print(f"pending pods {len(pending)}")
    verdicts = Verdicts(view, BUDGET_S)
    started = time.monotonic()
    inputs = verdicts.inputs
    print(f"inputs {1000 * (time.monotonic() - started):.0f} ms ({len(inputs.nodes)} nodes)")
    took = []
    for pod in pending:
        started = time.monotonic()
        verdict = verdicts.pod(pod)
        took.append(1000 * (time.monotonic() - started))
        assert verdict is not None
        print(
            f"{pod.namespace}/{pod.name}: fits {verdict.fits}, {len(verdict.blockers)} blockers,"
            f" {took[-1]:.0f} ms"
        )
    took.sort()
    if took:
        print(f"why_pod_p50_ms {took[len(took) // 2]:.0f} ms")
        print(f"why_pod_max_ms {took[-1]:.0f} ms")


if __name__ == "__main__":
    main()
