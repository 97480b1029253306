"""Counts per node, pool or model, and the devices behind each count of the ledger.

The same facts as the ledger (dra/ledger.py) split by where the devices are: "in use" is the
ledger's allocated, "free" its allocatable (a shared device with capacity left is both, as
the ledger counts it), and blocked / tainted / pool problems the states of its unavailable
devices, exactly as the grid's ledger line words them; unhealthy is what the kubelet reports
(dra/health.py). So a node's line and the ledger line never disagree.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar, cast

from gsb_tui.dra.health import DeviceHealth
from gsb_tui.dra.model import Claim, Device, DeviceId
from gsb_tui.dra.model.features import DeviceTaint
from gsb_tui.dra.natural import natural_key
from gsb_tui.dra.view import DraView

K = TypeVar("K")

# What a count of the ledger line is about; the list behind it shows these devices.
Category = Literal[
    "in-use",
    "free",
    "blocked",
    "tainted",
    "incomplete-pool",
    "invalid-pool",
    "unavailable",  # unheld, not allocatable, for none of the reasons above
    "unhealthy",
    "health-unknown",
]
CATEGORIES: tuple[Category, ...] = (
    "in-use",
    "free",
    "blocked",
    "tainted",
    "incomplete-pool",
    "invalid-pool",
    "unavailable",
    "unhealthy",
    "health-unknown",
)
# The states of unavailable devices the ledger line names; any other is "unavailable".
NAMED_UNAVAILABLE = ("blocked", "tainted", "incomplete-pool", "invalid-pool")


@dataclass(frozen=True)
class DeviceCounts:
    devices: int = 0
    in_use: int = 0
    free: int = 0
    blocked: int = 0
    tainted: int = 0
    unhealthy: int = 0
    other: int = 0  # unavailable for another reason: a pool problem, or none named
    models: tuple[str, ...] = ()  # the models published, in natural order ("" not counted)


def model_of(device: Device) -> str:
    """The model the driver publishes as an attribute ("model" or "<driver>/model"), or ""."""
    found = device.attribute("model")
    return found if isinstance(found, str) else ""


def device_models(view: DraView) -> Mapping[DeviceId, str]:
    """Each device's model, kept while the devices are the very same (counting reads it for
    every device of every group again at each change of a claim)."""
    devices = view.devices
    return view.memo.kept("device-models", (devices,), lambda: {d.id: model_of(d) for d in devices})


def device_categories(view: DraView) -> Mapping[DeviceId, tuple[Category, ...]]:
    """Every published device's categories (a shared device with room left: in use and free),
    health last; kept while the devices, their holders, availability and health are the same."""

    def make() -> Mapping[DeviceId, tuple[Category, ...]]:
        ledger = view.ledger()
        published = set(view.occupancy)
        out: dict[DeviceId, tuple[Category, ...]] = {}
        for device in view.devices:
            found: list[Category] = []
            device_id = device.id
            if device_id in ledger.allocated:
                found.append("in-use")
            if device_id in ledger.allocatable:
                found.append("free")
            if device_id in ledger.unavailable:
                state = view.state(device_id)
                found.append(cast(Category, state) if state in NAMED_UNAVAILABLE else "unavailable")
            health = view.health.devices.get(device_id)
            if health is not None and device_id in published:
                if health.health == "Unhealthy":
                    found.append("unhealthy")
                elif health.health == "Unknown":
                    found.append("health-unknown")
            out[device_id] = tuple(found)
        return out

    inputs = (view.devices, view.occupancy, view.availability, view.health)
    return view.memo.kept("device-categories", inputs, make)


def count(view: DraView, devices: Iterable[DeviceId]) -> DeviceCounts:
    """The counts of these devices (those the view publishes)."""
    categories = device_categories(view)
    of_device = device_models(view)
    tally = dict.fromkeys(CATEGORIES, 0)
    models: set[str] = set()
    total = 0
    for device_id in devices:
        found = categories.get(device_id)
        if found is None:
            continue
        total += 1
        for category in found:
            tally[category] += 1
        models.add(of_device.get(device_id, ""))
    models.discard("")
    other = tally["incomplete-pool"] + tally["invalid-pool"] + tally["unavailable"]
    return DeviceCounts(
        devices=total,
        in_use=tally["in-use"],
        free=tally["free"],
        blocked=tally["blocked"],
        tainted=tally["tainted"],
        unhealthy=tally["unhealthy"],
        other=other,
        models=tuple(sorted(models, key=natural_key)),
    )


def merged(parts: Iterable[DeviceCounts]) -> DeviceCounts:
    """The counts of several groups together (a node's pools and counter sets)."""
    parts = list(parts)
    models = {m for p in parts for m in p.models}
    return DeviceCounts(
        devices=sum(p.devices for p in parts),
        in_use=sum(p.in_use for p in parts),
        free=sum(p.free for p in parts),
        blocked=sum(p.blocked for p in parts),
        tainted=sum(p.tainted for p in parts),
        unhealthy=sum(p.unhealthy for p in parts),
        other=sum(p.other for p in parts),
        models=tuple(sorted(models, key=natural_key)),
    )


def count_groups(view: DraView, groups: Mapping[K, Sequence[DeviceId]]) -> dict[K, DeviceCounts]:
    """Counts for each group of devices (a node, a pool, a counter set)."""
    return {key: count(view, ids) for key, ids in groups.items()}


def by_node(view: DraView) -> dict[str, DeviceCounts]:
    """Counts per node ("" for devices of no node: network-attached pools), natural order."""
    nodes: dict[str, list[DeviceId]] = {}
    for device in view.devices:
        nodes.setdefault(device.node, []).append(device.id)
    return count_groups(view, {n: nodes[n] for n in sorted(nodes, key=natural_key)})


def by_model(view: DraView) -> dict[str, DeviceCounts]:
    """Counts per model ("" for devices that publish none), natural order."""
    models: dict[str, list[DeviceId]] = {}
    for device in view.devices:
        models.setdefault(model_of(device), []).append(device.id)
    return count_groups(view, {m: models[m] for m in sorted(models, key=natural_key)})


# --- the devices behind a count -------------------------------------------------------------


@dataclass(frozen=True)
class LedgerEntry:
    """One device behind a ledger count, with what explains it."""

    device: DeviceId
    node: str
    category: Category
    taints: tuple[DeviceTaint, ...] = ()  # tainted: the taints a plain request does not tolerate
    short_counters: tuple[str, ...] = ()  # blocked: "<set>/<counter>" with too little left
    blocked_by: tuple[DeviceId, ...] = ()  # blocked: the allocated devices that used them
    pool_problem: tuple[str, str] | None = None  # (state, reason) of its pool
    health: DeviceHealth | None = None  # unhealthy / unknown: what the kubelet says
    holders: tuple[Claim, ...] = ()  # in use: the claims holding it
    state: str = ""  # DraView.state: what its cell says


def ledger_entries(view: DraView, category: Category) -> tuple[LedgerEntry, ...]:
    """The devices a ledger count counts, by node, pool and device in natural order."""
    categories = device_categories(view)
    chosen = [d for d in view.devices if category in categories.get(d.id, ())]
    chosen.sort(key=lambda d: (natural_key(d.node), natural_key(d.id.pool), natural_key(d.name)))
    out = []
    for device in chosen:
        device_id = device.id
        found = view.availability.get(device_id)
        occ = view.occupancy.get(device_id)
        out.append(
            LedgerEntry(
                device=device_id,
                node=device.node,
                category=category,
                taints=found.blocking_taints if found is not None else (),
                short_counters=found.short_counters if found is not None else (),
                blocked_by=found.blocked_by if found is not None else (),
                pool_problem=view.pool_problems.get((device_id.driver, device_id.pool)),
                health=view.health.devices.get(device_id),
                holders=occ.holders if occ is not None else (),
                state=view.state(device_id),
            )
        )
    return tuple(out)


def ledger_counts(view: DraView) -> dict[Category, int]:
    """How many devices each category has (the numbers the ledger line shows)."""
    categories = device_categories(view)

    def make() -> dict[Category, int]:
        tally = dict.fromkeys(CATEGORIES, 0)
        for found in categories.values():
            for category in found:
                tally[category] += 1
        return tally

    # Kept while the categories are: a change that moves no device counts nothing again.
    return dict(view.memo.kept("ledger counts", (categories,), make))
