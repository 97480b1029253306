"""The operator's recorded cluster (tests/fixtures/profiles/operator.jsonl), copied side by side
until it has 10,000 devices and more: for bench/operator_keys.py.

Each copy renames the nodes (the next numbers: node i of copy k is node i + k x nodes, so pools,
slice names and allocations' node selectors follow), gives every uid a new one derived from it
(owner references, reservedFor and the devices' uuids stay consistent) and moves the namespaced
objects to `<namespace>-<k>` (copy 0 keeps the recording's own). What the real scheduler and
the resourceclaim controller did in the recording (placements, counters blocking, shares,
taints, pending pods) is thus repeated on every copy, never invented.
"""

from __future__ import annotations

import math
import re
import uuid
from pathlib import Path
from typing import Any

import orjson

from gsb_tui.kube.recording import snapshot_at
from gsb_tui.kube.store import Change, Store
from gsb_tui.snapshot import Kind, Snapshot

ROOT = Path(__file__).resolve().parent.parent
RECORDING = ROOT / "tests" / "fixtures" / "profiles" / "operator.jsonl"
MARK = "filled"
UID = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def copies_for(devices: int, snapshot: Snapshot) -> int:
    """How many copies of the recording hold at least `devices` devices."""
    per_copy = sum(len(s["spec"].get("devices") or []) for s in snapshot.items(Kind.SLICES))
    return max(1, math.ceil(devices / max(1, per_copy)))


def _renamer(nodes: list[str], copy: int) -> tuple[re.Pattern[bytes], dict[bytes, bytes]]:
    """Node names -> this copy's names: the same prefix, the number moved on by copy x nodes."""
    renamed: dict[bytes, bytes] = {}
    for index, name in enumerate(sorted(nodes, key=_natural)):
        head, _, tail = name.rpartition("-")
        number = int(tail) if tail.isdigit() else index
        new = f"{head or name}-{number + copy * len(nodes)}"
        renamed[name.encode()] = new.encode()
    words = b"|".join(re.escape(n) for n in sorted(renamed, key=len, reverse=True))
    return re.compile(rb"(?<![A-Za-z0-9])(" + words + rb")(?![0-9])"), renamed


def _natural(name: str) -> tuple[str, int]:
    head, _, tail = name.rpartition("-")
    return (head, int(tail)) if tail.isdigit() else (name, -1)


def _copy(obj: dict[str, Any], copy: int, names: re.Pattern[bytes], to: dict[bytes, bytes]) -> Any:
    if copy == 0:
        return obj
    raw = orjson.dumps(obj)
    raw = names.sub(lambda m: to[m.group(1)], raw)
    raw = UID.sub(
        lambda m: str(uuid.uuid5(uuid.UUID(m.group(0).decode()), str(copy))).encode(), raw
    )
    out = orjson.loads(raw)
    for holder in (out.get("metadata") or {}, out.get("involvedObject") or {}):
        if holder.get("namespace"):
            holder["namespace"] = f"{holder['namespace']}-{copy}"
    return out


def scaled_changes(devices: int = 10_000) -> tuple[list[Change], int]:
    """The changes a source emits for the copied cluster (every kind listed and synced), and
    how many copies it took."""
    snapshot = snapshot_at(RECORDING, MARK)
    copies = copies_for(devices, snapshot)
    nodes = [str(n["metadata"]["name"]) for n in snapshot.items(Kind.NODES)]
    renamers = [_renamer(nodes, k) for k in range(copies)]
    changes: list[Change] = []
    if snapshot.server_version:
        changes.append(Change(Kind.NODES, "SERVER", label=snapshot.server_version))
    for kind in Kind:
        items = snapshot.items(kind)
        if kind == Kind.CLASSES or snapshot.state(kind).phase != "synced":
            copied = tuple(items)  # cluster-wide and shared by every copy
        else:
            copied = tuple(_copy(dict(o), k, *renamers[k]) for k in range(copies) for o in items)
        changes.append(Change(kind, "SYNCED", items=copied))
        changes.append(Change(kind, "STATE", state=snapshot.state(kind)))
    return changes, copies


def scaled_snapshot(devices: int = 10_000) -> Snapshot:
    store = Store()
    for change in scaled_changes(devices)[0]:
        store.apply(change)
    return store.snapshot()
