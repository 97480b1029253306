"""The operator's recording (tests/fixtures/profiles/operator.jsonl,
`gsb-tui cluster record-profile operator FILE`): a cluster an operator would watch, filled by the
real kube-scheduler and resourceclaim controller. Its shape is asserted from its own content
(nodes, devices, namespaces and reasons found in it) and from the scenario code that made it
(gsb_tui/cluster/operator_scenario.py), never from names written here.
"""

from __future__ import annotations

from collections import Counter

from gsb_tui.cli import demo_names, demo_recording
from gsb_tui.cluster import operator_scenario
from gsb_tui.cluster.profile_scenarios import Published
from gsb_tui.dra.view import DraView
from gsb_tui.kube.recording import marks
from gsb_tui.snapshot import Kind
from gsb_tui.why_cli import answer
from tests.recorded import profile_recording, profile_snap, profile_view

NAME = operator_scenario.NAME
MAX_BYTES = 5_000_000
SIZE = operator_scenario.SETTINGS


def filled() -> DraView:
    return profile_view(NAME, "filled")


def test_the_recording_is_small_marked_and_a_demo() -> None:
    path = profile_recording(NAME)
    assert path.is_file(), f"record it: gsb-tui cluster record-profile {NAME} {path}"
    assert path.stat().st_size < MAX_BYTES
    assert marks(path) == ["start", "filled"]
    assert NAME in demo_names()
    assert demo_recording(NAME).resolve() == path.resolve()


def test_an_operator_sized_cluster_of_nodes_and_devices() -> None:
    v = filled()
    nodes = v.nodes()
    assert len(nodes) >= SIZE.nodes >= 40
    assert len(v.devices) >= 960
    per_node = Counter(d.node for d in v.devices)
    assert set(per_node) == set(nodes)  # every node publishes devices
    assert len(set(per_node.values())) == 1  # each node the same
    assert {s.pool for s in v.slices if s.node} >= {f"{n}-partitions" for n in nodes}


def test_claims_in_several_namespaces_most_allocated_and_running() -> None:
    v = filled()
    assert len(v.claim_namespaces()) >= 3
    allocated = [c for c in v.claims.values() if c.allocated]
    assert len(allocated) * 10 >= len(v.claims) * 9
    running = [p for p in v.pods.values() if p.phase == "Running"]
    assert len(running) * 10 >= len(v.pods) * 9
    # The scheduler's placement: each Running pod on the node its allocated claims are on.
    for pod in running:
        claims = v.claims_of_pod(pod)
        assert claims and all(c.allocated for c in claims), pod.key
        assert {c.allocated_node for c in claims} <= {pod.node, ""}, pod.key
    # Claims the resourceclaim controller made from a template, for the pods that asked.
    assert any(c.owner_pod for c in allocated)


def test_the_scenario_came_true() -> None:
    """What operator_scenario asked for (from the published slices): every pod it expects
    Running is, every pod it expects Pending is, and the scheduler said why."""
    start = profile_snap(NAME, "start")
    published = Published(tuple(start.items(Kind.SLICES)), tuple(start.items(Kind.CLASSES)))
    _, expect = operator_scenario.workloads(published)
    v = filled()
    for key in expect.running:
        assert v.pods[key].phase == "Running", key
    assert expect.pending
    for key in expect.pending:
        pod = v.pods[key]
        assert pod.pending and not pod.node, key
        said = v.scheduler_said(pod)
        assert said is not None and said.reason == "FailedScheduling", key


def test_pending_pods_wait_for_different_reasons() -> None:
    v = filled()
    pending = [p for p in v.pods.values() if p.pending]
    assert pending
    reasons = set()
    for pod in pending:
        said = answer(v, pod.namespace, pod.name, "en")
        assert not said["fits"], pod.key
        assert said["blockers"], pod.key
        reasons.add(tuple(sorted(b["code"] for b in said["blockers"])))
    assert len(reasons) >= 2, reasons


def test_tainted_devices_with_their_reasons_and_some_tolerated() -> None:
    v = filled()
    tainted = [d for d in v.devices if d.taints]
    assert tainted
    assert all(t.key and t.value and t.effect for d in tainted for t in d.taints)
    kept_away = [d for d in tainted if v.state(d.id) == "tainted"]
    assert kept_away
    held = [d for d in tainted if any(t.blocks for t in d.taints) and v.occupancy[d.id].holders]
    assert held, "a claim tolerating a blocking taint holds such a device"
    for device in held:
        (claim,) = v.occupancy[device.id].holders
        assert any(r.tolerations for r in claim.requests), claim.key


def test_counters_block_whole_gpus_and_partitions() -> None:
    v = filled()
    blocked = [a for a in v.availability.values() if a.state == "blocked"]
    assert blocked
    for found in blocked:
        assert found.blocked_by and v.why_not(found.device) == "counters"
    device = {d.id: d for d in v.devices}
    # Held whole GPUs block their partitions, held partitions block their whole GPU.
    blockers = {b for a in blocked for b in a.blocked_by}
    assert any(device[b].attribute("full") for b in blockers)
    assert any(device[b].attribute("partition") is not None for b in blockers)


def test_shares_and_a_claim_shared_by_pods() -> None:
    v = filled()
    shared = [o for o in v.occupancy.values() if o.device.multiple and len(o.holders) > 1]
    assert shared, "a shared device held by several claims (consumable capacity)"
    assert any(len(v.pods_of_claim(c)) > 1 for c in v.claims.values())
