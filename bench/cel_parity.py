"""CEL parity, the larger run: generated selectors judged by gsb-tui, the API server and the
scheduler on a practice cluster of its own (tests/cel_parity.py judges, tests/cel_generated.py
generates; the e2e test runs a bounded slice of the same).

Prints agreement figures (overall, per family, admission and scheduling apart) and every
disagreement; exits 1 when there is one.

Run: .venv/bin/python bench/cel_parity.py [--count 1000] [--seed 1] [--cluster-dir DIR]
(about 0.3 s per selector; --cluster-dir uses a cluster already up there instead of starting one)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.* helpers

from gsb_tui.cluster.control_plane import ControlPlane, Settings
from gsb_tui.dra.builder import build_view
from gsb_tui.dra.view import DraView
from gsb_tui.kube.config import Target
from gsb_tui.kube.oneshot import fetch_snapshot
from tests import cel_parity
from tests.cel_generated import FAMILIES, corpus

NS = "cel-parity"


@contextlib.contextmanager
def practice_cluster(directory: str | None) -> Iterator[ControlPlane]:
    if directory:
        yield ControlPlane(Path(directory))
        return
    with tempfile.TemporaryDirectory(prefix="gsb-cel-parity-") as tmp:
        cp = ControlPlane(Path(tmp))
        cp.up(Settings(audit=False), log=lambda _m: None)
        try:
            yield cp
        finally:
            cp.down(log=lambda _m: None)


def lab_view(cp: ControlPlane) -> DraView:
    cp.rest().ensure("/api/v1/namespaces", {"metadata": {"name": NS}})
    snapshot = asyncio.run(fetch_snapshot(Target(kubeconfig=cp.kubeconfig, namespace=NS)))
    return build_view(snapshot)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cluster-dir", help="a practice cluster already up in this directory")
    parser.add_argument("--show", type=int, default=40, help="disagreements to print")
    args = parser.parse_args()
    selectors = corpus(args.seed, args.count)
    tally: Counter[tuple[str, str]] = Counter()
    stage: Counter[str] = Counter()
    disagreements: list[tuple[str, str, str]] = []
    started = time.monotonic()
    with practice_cluster(args.cluster_dir) as cp:
        view = lab_view(cp)
        for i, (family, expression) in enumerate(selectors):
            api = cel_parity.admission(cp.kubeconfig, NS, expression)
            ours = cel_parity.gsb_tui(view, expression)
            scheduler = None
            if api.admitted:
                scheduler = cel_parity.scheduling(cp, NS, f"parity-{i}", expression)
            why = cel_parity.compare(api, scheduler, ours)
            verdict = "abstained" if ours.abstained else "disagree" if why else "agree"
            tally[(family, verdict)] += 1
            if not ours.abstained:
                stage[("admitted" if api.admitted else "rejected") + f" {verdict}"] += 1
            if why:
                disagreements.append((family, expression, why))
    elapsed = time.monotonic() - started
    judged = sum(n for (_, v), n in tally.items() if v != "abstained")
    agreed = sum(n for (_, v), n in tally.items() if v == "agree")
    print(f"cel_parity selectors {len(selectors)} seed {args.seed} in {elapsed:.0f} s")
    print(f"cel_parity agreement {agreed}/{judged} judged ({100 * agreed / max(judged, 1):.1f} %)")
    print(f"cel_parity abstained {len(selectors) - judged} (gsb-tui cannot evaluate them)")
    for name in sorted(stage):
        print(f"cel_parity {name.replace(' ', '_')} {stage[name]}")
    for family in FAMILIES:
        counts = {v: tally[(family, v)] for v in ("agree", "disagree", "abstained")}
        print(f"cel_parity family {family} " + " ".join(f"{k} {n}" for k, n in counts.items()))
    for family, expression, why in disagreements[: args.show]:
        print(f"DISAGREE [{family}] {expression[:200]!r}\n    {why[:400]}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    raise SystemExit(main())
