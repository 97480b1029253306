"""The grid's groups and their titles: devices of one node and pool, or of one counter set
(the partitions of one physical device), in natural order of node and pool names; and the
compact grid's node lines, each holding a node's groups (a pool of no node is a line of its own).
"""

from __future__ import annotations

from fractions import Fraction

from rich.text import Text

from gsb_tui.dra.availability import CounterLedger, format_quantity
from gsb_tui.dra.model import Device, DeviceId, Slice
from gsb_tui.dra.natural import natural_key
from gsb_tui.dra.node_summary import model_of
from gsb_tui.dra.view import DraView
from gsb_tui.ui.panes.grid_layout import Group, NodeLine
from gsb_tui.words import text


def make_groups(view: DraView, lang: str) -> tuple[Group, ...]:
    """Every group, titled, nodes in natural order (lab-node-2 before lab-node-10), a node's
    pools and counter sets in natural order too; devices as their slices publish them."""
    generations = {(s.driver, s.pool): s.generation for s in view.slices}
    slices = {s.name: s for s in view.slices}
    keyed: dict[tuple[str, ...], list[DeviceId]] = {}
    for device in view.devices:
        keyed.setdefault(group_key(view, device, slices), []).append(device.id)
    groups = []
    for key, ids in keyed.items():
        title = Text(no_wrap=True, overflow="ellipsis")
        if key[0] == "counters":
            _, node, driver, pool, counter_set = key
            _counter_title(title, view.counters[(driver, pool, counter_set)], lang)
            title.append(" · node ", style="dim")
            title.append(node or "-")
            title.append(" pool ", style="dim")
            title.append(pool)
        else:
            _, node, driver, pool = key
            if node.startswith("@"):  # no node: where the slice's devices are reachable
                title.append(text(lang, f"feat.where.{node[1:]}"), style="bold")
            else:
                title.append("node ", style="dim")
                title.append(node or "(network)", style="bold")
            if pool != node:
                title.append(" pool ", style="dim")
                title.append(pool)
        generation = generations.get((driver, pool), 0)
        count = text(lang, "grid.group-count", n=len(ids))
        title.append(f" · {driver} · gen {generation} · {count}", style="dim")
        groups.append(Group(title, tuple(ids), key, line_key(key)))
    groups.sort(key=_order)  # stable: a pool's counter sets stay in the order published
    return tuple(groups)


def _order(group: Group) -> tuple[object, ...]:
    node = group.key[1]
    # Nodes first by name, then pools of no node by where they reach.
    return (node.startswith("@") or not node, natural_key(node), natural_key(group.key[3]))


def line_key(key: tuple[str, ...]) -> str:
    """The compact line a group goes on: its node, or "<where>/<pool>" for a pool of no node."""
    node, pool = key[1], key[3]
    return node if node and not node.startswith("@") else f"{node}/{pool}"


def make_lines(groups: tuple[Group, ...], lang: str) -> tuple[NodeLine, ...]:
    """One line per node (its groups in order), one per pool of no node."""
    by_line: dict[str, list[Group]] = {}
    labels: dict[str, str] = {}
    for group in groups:
        by_line.setdefault(group.node, []).append(group)
        node, pool = group.key[1], group.key[3]
        if node and not node.startswith("@"):
            labels[group.node] = node
        elif node:
            labels[group.node] = f"{text(lang, f'feat.where.{node[1:]}')} {pool}"
        else:
            labels[group.node] = f"(network) {pool}"
    return tuple(NodeLine(key, labels[key], tuple(members)) for key, members in by_line.items())


def line_models(view: DraView, lines: tuple[NodeLine, ...]) -> dict[str, tuple[str, ...]]:
    """The models each line's devices publish, in natural order (devices as slices say)."""
    out = {}
    for line in lines:
        found = set()
        for device_id in line.devices:
            occ = view.occupancy.get(device_id)
            model = model_of(occ.device) if occ is not None else ""
            if model:
                found.add(model)
        out[line.key] = tuple(sorted(found, key=natural_key))
    return out


def _counter_title(title: Text, ledger: CounterLedger, lang: str) -> None:
    """The set and each counter's use: gpu-0-counters · memory 40Gi used · 40Gi left."""
    title.append(ledger.name, style="bold")
    for counter, total in ledger.total.items():
        used, left = ledger.used.get(counter, Fraction(0)), ledger.left(counter)
        words = text(
            lang,
            "feat.group.counter",
            counter=counter,
            used=format_quantity(used),
            left=format_quantity(left),
        )
        title.append(" · ", style="dim")
        title.append(words, style="red" if left <= 0 < total else "")


def counter_use(view: DraView) -> tuple[object, ...]:
    """What the counter-set titles say: each set's use."""
    return tuple((key, tuple(c.used.items())) for key, c in view.counters.items())


def group_key(view: DraView, device: Device, slices: dict[str, Slice]) -> tuple[str, ...]:
    """("counters", node, driver, pool, set) for a device consuming a counter set its pool
    shares; else ("node", node, driver, pool), node "@<where>" for a slice with no node."""
    driver, pool = device.id.driver, device.id.pool
    for use in device.consumes:
        if (driver, pool, use.counter_set) in view.counters:
            return ("counters", device.node, driver, pool, use.counter_set)
    node = device.node
    if not node:
        found = slices.get(device.slice_name)
        where = found.where if found is not None else ""
        if device.all_nodes:
            where = "all-nodes"
        elif device.node_selector:
            where = "node-selector"
        node = f"@{where}" if where else ""
    return ("node", node, driver, pool)
