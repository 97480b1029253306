"""`gsb-tui devices [--json] [--node N]`: one row per device of the current pool generations,
in the grid's words (state, every reason, the claims and pods holding it, warnings), and the
ledger's counts. Exit 0 when listed, 1 when --node names no node with devices, 2 when the
cluster cannot be read.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from dataclasses import asdict

from gsb_tui.cli_io import EXIT_NOT_YET, EXIT_OK, EXIT_UNUSABLE
from gsb_tui.kube.config import KubeconfigError, Target
from gsb_tui.kube.oneshot import Unreachable, fetch_snapshot, unreadable
from gsb_tui.snapshot import Kind
from gsb_tui.words import CATALOG, localize, text

NEEDED = (Kind.SLICES, Kind.CLAIMS)


def run_devices(args: argparse.Namespace, target: Target, lang: str) -> int:
    kinds = (Kind.SLICES, Kind.CLASSES, Kind.CLAIMS, Kind.PODS, Kind.NODES, Kind.TAINT_RULES)
    try:
        snapshot = asyncio.run(fetch_snapshot(target, kinds))
    except (KubeconfigError, Unreachable) as exc:
        print(f"gsb-tui devices: {localize(exc.text, lang)}", file=sys.stderr)
        return EXIT_UNUSABLE
    problem = unreadable(snapshot, NEEDED)
    if problem is not None:
        print(f"gsb-tui devices: {localize(problem, lang)}", file=sys.stderr)
        return EXIT_UNUSABLE
    from gsb_tui.dra.device_rows import device_rows, summary
    from gsb_tui.dra.view import build_view
    from gsb_tui.dra.warnings import find_warnings

    view = build_view(snapshot)
    rows = device_rows(view, find_warnings(view), args.node)
    if args.node is not None and not rows:
        print(f"gsb-tui devices: {text(lang, 'devices.no-node', node=args.node)}", file=sys.stderr)
        return EXIT_NOT_YET
    totals = summary(view, rows)
    if args.json:
        out = {
            "devices": [
                {
                    "node": r.node,
                    "driver": r.id.driver,
                    "pool": r.id.pool,
                    "device": r.id.device,
                    "state": r.state,
                    "reasons": list(r.reasons),
                    "claims": list(r.claims),
                    "pods": list(r.pods),
                    "warnings": list(r.warnings),
                    "text": _row_text(lang, r.state, r.reasons, r.detail),
                }
                for r in rows
            ],
            "summary": asdict(totals),
        }
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return EXIT_OK
    header = ("NODE", "DRIVER", "POOL", "DEVICE", "STATE", "CLAIMS", "PODS", "REASONS")
    table = [
        (
            r.node or "-",
            r.id.driver,
            r.id.pool,
            r.id.device,
            r.state,
            ",".join(r.claims) or "-",
            ",".join(r.pods) or "-",
            ",".join(r.reasons + r.warnings) or "-",
        )
        for r in rows
    ]
    widths = [max(len(h), *(len(row[i]) for row in table)) for i, h in enumerate(header)]
    for row in (header, *table):
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    print(text(lang, "devices.summary", **asdict(totals)))
    return EXIT_OK


def _row_text(lang: str, state: str, reasons: tuple[str, ...], detail: str) -> str:
    key = f"devices.state.{state}"
    words = text(lang, key) if key in CATALOG else state
    return f"{words}: {detail}" if detail else words
