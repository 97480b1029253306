"""Counts per node and model, the devices behind each ledger count, and natural order, on the
operator recording (40 nodes, partitions, taints, shares: tests/fixtures/profiles/operator.jsonl)
and the real node's unhealthy device (tests/fixtures/realnode/lab.jsonl)."""

from __future__ import annotations

from collections import Counter

from gsb_tui.dra.builder import build_view
from gsb_tui.dra.natural import natural_key, natural_sorted
from gsb_tui.dra.node_summary import (
    NAMED_UNAVAILABLE,
    by_model,
    by_node,
    count,
    ledger_counts,
    ledger_entries,
    model_of,
)
from gsb_tui.dra.view import DraView
from tests.recorded import profile_view
from tests.unit import node_half_objects as objects


def _operator() -> DraView:
    return profile_view("operator", "filled")


def test_natural_order_counts_numbers_by_value() -> None:
    nodes = sorted({d.node for d in _operator().devices})
    ordered = natural_sorted(nodes)
    numbers = [int(n.rsplit("-", 1)[1]) for n in ordered]
    assert numbers == sorted(numbers)  # lab-node-2 before lab-node-10
    assert ordered != nodes  # the text order puts lab-node-10 before lab-node-2
    assert natural_key("gpu-9") < natural_key("gpu-10") < natural_key("gpu-10a")
    assert natural_key("10") < natural_key("a")  # numbers first, as `ls -v`
    assert sorted(["b1", "A1", "a2"], key=natural_key) == ["A1", "a2", "b1"]  # case aside


def test_counts_of_every_device_are_the_ledgers() -> None:
    view = _operator()
    ledger = view.ledger()
    whole = count(view, (d.id for d in view.devices))
    states = Counter(view.state(d) for d in ledger.unavailable)
    assert whole.devices == ledger.total
    assert whole.in_use == len(ledger.allocated)
    assert whole.free == ledger.free
    assert whole.blocked == states["blocked"] and whole.blocked > 0
    assert whole.tainted == states["tainted"] and whole.tainted > 0
    named = {s: n for s, n in states.items() if s in NAMED_UNAVAILABLE[2:]}
    assert whole.other == sum(named.values()) + sum(
        n for s, n in states.items() if s not in NAMED_UNAVAILABLE
    )
    tally = ledger_counts(view)
    assert (tally["blocked"], tally["tainted"], tally["free"]) == (
        whole.blocked,
        whole.tainted,
        whole.free,
    )


def test_per_node_counts_add_up_and_come_in_natural_order() -> None:
    view = _operator()
    nodes = by_node(view)
    assert list(nodes) == natural_sorted(nodes)
    assert len(nodes) == len({d.node for d in view.devices})
    whole = count(view, (d.id for d in view.devices))
    for field in ("devices", "in_use", "free", "blocked", "tainted", "unhealthy", "other"):
        assert sum(getattr(c, field) for c in nodes.values()) == getattr(whole, field), field
    per_node = Counter(d.node for d in view.devices)
    assert {n: c.devices for n, c in nodes.items()} == dict(per_node)


def test_models_are_the_published_attribute() -> None:
    view = _operator()
    published = Counter(model_of(d) for d in view.devices)
    models = by_model(view)
    assert {m: c.devices for m, c in models.items()} == dict(published)
    assert all(m for m in published)  # the practice driver publishes a model for every device
    for model, counts in models.items():
        assert counts.models == (model,)
    # Several models in one group are all named.
    network = profile_view("network", "port-allocated")
    assert len(count(network, (d.id for d in network.devices)).models) == len(
        {model_of(d) for d in network.devices}
    )


def test_tainted_and_blocked_entries_carry_their_reasons() -> None:
    view = _operator()
    tally = ledger_counts(view)
    tainted = ledger_entries(view, "tainted")
    assert len(tainted) == tally["tainted"]
    assert all(e.taints and all(t.blocks for t in e.taints) for e in tainted)
    blocked = ledger_entries(view, "blocked")
    assert len(blocked) == tally["blocked"]
    assert all(e.short_counters for e in blocked)
    assert all(view.state(b) != "free" for e in blocked for b in e.blocked_by)
    keys = [
        (natural_key(e.node), natural_key(e.device.pool), natural_key(e.device.device))
        for e in blocked
    ]
    assert keys == sorted(keys)
    in_use = ledger_entries(view, "in-use")
    assert len(in_use) == len(view.ledger().allocated)
    assert all(e.holders for e in in_use)


def test_unhealthy_entries_say_what_the_kubelet_said() -> None:
    view = build_view(objects.unhealthy())
    entries = ledger_entries(view, "unhealthy")
    reported = [h for h in view.health.devices.values() if h.health == "Unhealthy"]
    assert [e.device for e in entries] == [h.device for h in reported]
    assert all(e.health is not None and e.health.message for e in entries)
    assert count(view, (d.id for d in view.devices)).unhealthy == len(reported)
