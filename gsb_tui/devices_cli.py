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
from typing import TYPE_CHECKING, Any

from gsb_tui.cli_io import EXIT_NOT_YET, EXIT_OK, EXIT_UNUSABLE
from gsb_tui.kube.config import KubeconfigError, Target
from gsb_tui.kube.oneshot import Unreachable, fetch_snapshot, unreadable
from gsb_tui.snapshot import Kind
from gsb_tui.words import CATALOG, localize, text

if TYPE_CHECKING:
    from gsb_tui.dra.model import DeviceId, FieldProblem
    from gsb_tui.dra.pool_status import PoolComparison, PoolRequest, PoolStatus, Reason
    from gsb_tui.dra.view import DraView

NEEDED = (Kind.SLICES, Kind.CLAIMS)


def run_devices(args: argparse.Namespace, target: Target, lang: str) -> int:
    kinds: tuple[Kind, ...] = (Kind.SLICES, Kind.CLASSES, Kind.CLAIMS, Kind.PODS, Kind.NODES)
    kinds += (Kind.TAINT_RULES, Kind.POOL_STATUS)  # optional: unserved ones are left empty
    try:
        snapshot = asyncio.run(fetch_snapshot(target, kinds))
    except (KubeconfigError, Unreachable) as exc:
        print(f"gsb-tui devices: {localize(exc.text, lang)}", file=sys.stderr)
        return EXIT_UNUSABLE
    problem = unreadable(snapshot, NEEDED)
    if problem is not None:
        print(f"gsb-tui devices: {localize(problem, lang)}", file=sys.stderr)
        return EXIT_UNUSABLE
    from gsb_tui.dra.builder import build_view
    from gsb_tui.dra.device_rows import device_rows, summary
    from gsb_tui.dra.model.malformed import as_json, count_text, object_text
    from gsb_tui.dra.pool_status import compare
    from gsb_tui.dra.warnings import find_warnings

    view = build_view(snapshot)
    rows = device_rows(view, find_warnings(view), args.node)
    if args.node is not None and not rows:
        print(f"gsb-tui devices: {text(lang, 'devices.no-node', node=args.node)}", file=sys.stderr)
        return EXIT_NOT_YET
    totals = summary(view, rows)
    status = compare(view)
    pools = [p for p in status.pools if args.node is None or p.node == args.node]
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
                    "pod_groups": list(r.groups),
                    "warnings": list(r.warnings),
                    "text": _row_text(lang, r.state, r.reasons, r.detail, r.groups),
                    # what a real node's kubelet reports (null: none did, e.g. on kwok)
                    "health": r.health,
                    "health_message": r.health_message,
                    "health_reported_by": r.health_said_by,
                    # fields of the wrong type, read as absent (dra/model/malformed.py)
                    "malformed": [p.path for p in _problems(view, r.id)],
                }
                for r in rows
            ],
            "malformed": [as_json(m, lang) for m in view.malformed()],
            "summary": asdict(totals),
            "vanished_pools": _vanished_json(view, lang, args.node),
            "pool_status": [_pool_json(lang, p) for p in pools],
            "pool_status_requests": [_request_json(lang, r) for r in status.requests],
        }
        print(json.dumps(out, ensure_ascii=False, indent=2))
        return EXIT_OK
    header: tuple[str, ...] = ("NODE", "DRIVER", "POOL", "DEVICE", "STATE", "CLAIMS", "PODS")
    header += ("REASONS",)
    table: list[tuple[str, ...]] = [
        (
            r.node or "-",
            r.id.driver,
            r.id.pool,
            r.id.device,
            r.state,
            ",".join(r.claims) or "-",
            ",".join(r.pods) or "-",
            ",".join(r.reasons + r.warnings + _malformed_word(view, r.id)) or "-",
        )
        for r in rows
    ]
    if any(r.health for r in rows):  # a HEALTH column only where a kubelet reported
        header += ("HEALTH",)
        table = [(*row, r.health or "-") for row, r in zip(table, rows, strict=True)]
    widths = [max([len(h), *(len(row[i]) for row in table)]) for i, h in enumerate(header)]
    for row in (header, *table):
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    print(text(lang, "devices.summary", **asdict(totals)))
    if totals.unhealthy or totals.health_unknown:
        print(text(lang, "devices.summary.health", **asdict(totals)))
        for r in rows:
            if r.health != "Healthy" and r.health_message:
                print(f"  {r.id.device} {r.health}: {r.health_message} ({r.health_said_by})")
    malformed = view.malformed()  # kept, read with the wrong field absent, counted apart
    if malformed:
        print(count_text(len(malformed), lang))
        for m in malformed:
            print(f"  ! {object_text(m, lang)}")
    for pool in _vanished_json(view, lang, args.node):
        print()
        print("\n".join(pool["text"]))
    if status.requests:
        print()
        print(text(lang, "poolstatus.heading", n=len(status.requests), pending=_pending(status)))
        for line in _pool_lines(lang, status.requests, pools):
            print(line)
    return EXIT_OK


def _problems(view: DraView, id: DeviceId) -> tuple[FieldProblem, ...]:
    device = view.device(id)
    return device.problems if device is not None else ()


def _malformed_word(view: DraView, id: DeviceId) -> tuple[str, ...]:
    return ("malformed",) if _problems(view, id) else ()


def _vanished_json(view: DraView, lang: str, node: str | None) -> list[dict[str, Any]]:
    """Pools no slice publishes while claims hold their devices (a driver gone from a node)."""
    from gsb_tui.dra.node_side import vanished_pools, vanished_words

    return [
        {
            "driver": p.driver,
            "pool": p.pool,
            "node": p.node or None,
            "claims": [f"{ns}/{name}" for ns, name in p.claims],
            "devices": [d.device for d in p.devices],
            "text": vanished_words(view, p, lang),
        }
        for p in vanished_pools(view)
        if node is None or p.node == node
    ]


def _row_text(
    lang: str, state: str, reasons: tuple[str, ...], detail: str, groups: tuple[str, ...] = ()
) -> str:
    key = f"devices.state.{state}"
    words = text(lang, key) if key in CATALOG else state
    if groups and state == "reserved":  # held by a PodGroup for its pods, not by one pod
        words = text(lang, "devices.state.group", group=", ".join(groups))
    return f"{words}: {detail}" if detail else words


# ---- ResourcePoolStatusRequests (dra/pool_status.py) ----------------------------------------


def _pending(status: PoolStatus) -> int:
    return sum(1 for r in status.requests if r.state == "pending")


def _names(devices: tuple[str, ...], most: int = 8) -> str:
    shown = ", ".join(devices[:most])
    return shown + (f" … (+{len(devices) - most})" if len(devices) > most else "")


def _reason_text(lang: str, kind: str, r: Reason) -> str:
    key = f"poolstatus.{kind}.{r.code}"
    return text(lang, key, n=r.n, devices=_names(r.devices), detail=r.detail)


def _reason_json(lang: str, kind: str, r: Reason) -> dict[str, Any]:
    return {
        "code": r.code,
        "n": r.n,
        "devices": list(r.devices),
        "moves": dict(r.moves),
        "detail": r.detail,
        "text": _reason_text(lang, kind, r),
    }


def _pool_json(lang: str, p: PoolComparison) -> dict[str, Any]:
    """One reported pool: upstream's counts as written, what the controller would write now,
    gsb-tui's own (its `available` is what the ledger counts free), and why they differ."""
    return {
        "request": p.request,
        "written_at": p.written_at,
        "driver": p.driver,
        "pool": p.pool,
        "node": p.node or None,
        "generation": p.generation,
        "generation_now": p.generation_now,
        "upstream": p.reported.as_dict(),
        "upstream_now": p.mirrored.as_dict() if p.mirrored.known() else None,
        "gsb_tui": p.own.as_dict(),
        "differs": p.differs,
        "validation_error": p.validation_error or None,
        "reasons": [_reason_json(lang, "reason", r) for r in p.reasons],
        "notes": [_reason_json(lang, "note", r) for r in p.notes],
        "partition_summary": [dict(x) for x in p.partition_summary],
        "shareable_summary": dict(p.shareable_summary) if p.shareable_summary else None,
    }


def _request_json(lang: str, r: PoolRequest) -> dict[str, Any]:
    return {
        "name": r.name,
        "driver": r.driver,
        "pool": r.pool or None,
        "limit": r.limit,
        "state": r.state,
        "written_at": r.written_at or None,
        "message": r.message,
        "pool_count": r.pool_count,
        "listed": r.listed,
        "waiting_on": list(r.waiting_on),
        "text": _request_text(lang, r),
    }


def _request_text(lang: str, r: PoolRequest) -> str:
    from gsb_tui.dra.pool_status import RETRIES

    if r.state == "pending" and r.waiting_on:
        pools = ", ".join(r.waiting_on)
        return text(
            lang, "poolstatus.pending-incomplete", name=r.name, pools=pools, retries=RETRIES
        )
    if r.state == "pending":
        return text(lang, "poolstatus.pending", name=r.name)
    if r.state == "failed":
        return text(lang, "poolstatus.failed", name=r.name, message=r.message)
    if r.pool_count is not None and r.listed < r.pool_count:
        count, listed, limit = r.pool_count, r.listed, r.limit
        return text(
            lang, "poolstatus.truncated", name=r.name, count=count, listed=listed, limit=limit
        )
    return ""


def _pool_lines(
    lang: str, requests: tuple[PoolRequest, ...], pools: list[PoolComparison]
) -> list[str]:
    """The requests that say something of themselves, then each pool as the newest answer
    about it says (--json has every answer)."""
    lines = [f"  {words}" for r in requests if (words := _request_text(lang, r))]
    newest: dict[tuple[str, str], PoolComparison] = {}
    for p in pools:  # sorted by (driver, pool, written_at, request): the last one wins
        newest[(p.driver, p.pool)] = p
    for p in newest.values():
        said = text(
            lang,
            "poolstatus.pool",
            request=p.request,
            pool=f"{p.driver}/{p.pool}",
            generation=p.generation,
            upstream=p.reported.slashed(),
            own=p.own.slashed(),
        )
        lines.append(f"  {said}")
        lines += [f"    - {_reason_text(lang, 'reason', r)}" for r in p.reasons]
        lines += [f"    · {_reason_text(lang, 'note', r)}" for r in p.notes]
    if len(pools) > len(newest):
        lines.append(f"  {text(lang, 'poolstatus.older', n=len(pools) - len(newest))}")
    return lines
