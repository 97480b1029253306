"""tests/alloc_shapes.py without a cluster: deterministic, consistent, varied.

What the scheduler does with the shapes is tests/e2e/test_scheduler_shapes.py's business; here
only what a shape promises about itself.
"""

from __future__ import annotations

import collections
import json
from typing import Any

from tests import alloc_shapes
from tests.alloc_shapes import CODES, GATE, Shape

SEED = 4711
COUNT = 200


def _all(seed: int = SEED, count: int = COUNT) -> list[Shape]:
    return list(alloc_shapes.shapes(seed, count))


SHAPES = _all()


def test_same_seed_and_index_same_shape() -> None:
    again = [alloc_shapes.generate(SEED, i) for i in (0, 7, 13)]
    for shape in again:
        first = SHAPES[shape.index]
        assert json.dumps(alloc_shapes.snapshot(shape), sort_keys=True) == json.dumps(
            alloc_shapes.snapshot(first), sort_keys=True
        )
        assert shape.built_for == first.built_for


def test_names_come_from_the_seed() -> None:
    other = alloc_shapes.generate(SEED + 1, 0)
    assert other.namespaces[0]["metadata"]["name"] != SHAPES[0].namespaces[0]["metadata"]["name"]
    drivers = {s["spec"]["driver"] for shape in SHAPES[:50] for s in shape.slices}
    assert len(drivers) >= 50  # one per world, never a constant


def test_every_pod_has_a_container_naming_its_claims() -> None:
    for shape in SHAPES:
        for pod in shape.pods:
            spec = pod["spec"]
            entries = [e["name"] for e in spec["resourceClaims"]]
            (container,) = spec["containers"]
            assert container["image"] == "busybox"
            assert [c["name"] for c in container["resources"]["claims"]] == entries
            assert set(container["resources"]) == {"claims"}


def test_judged_pods_are_gated_and_bound_pods_bound() -> None:
    for shape in SHAPES:
        assert 1 <= len(shape.judged) <= 2
        assert set(shape.built_for) == set(shape.judged)
        for pod in shape.pods:
            key = f"{pod['metadata']['namespace']}/{pod['metadata']['name']}"
            if key in shape.judged:
                assert pod["spec"]["schedulingGates"] == [{"name": GATE}]
                assert "nodeName" not in pod["spec"]
            else:
                assert pod["spec"]["nodeName"]
                assert "schedulingGates" not in pod["spec"]


def _devices(shape: Shape) -> dict[tuple[str, str, str], dict[str, Any]]:
    """Every published device, of any generation (a claim may hold one of an older one)."""
    out = {}
    for s in shape.slices:
        spec = s["spec"]
        for d in spec.get("devices") or []:
            out[(spec["driver"], spec["pool"]["name"], d["name"])] = {**d, "_slice": spec}
    return out


def test_allocations_are_consistent() -> None:
    """Never two claims on one exclusive device; shares within capacity; each allocated claim
    reserved for a bound pod on a node the allocation allows."""
    for shape in SHAPES:
        devices = _devices(shape)
        pods = {
            (p["metadata"]["namespace"], p["metadata"]["name"]): p
            for p in shape.pods
            if p["spec"].get("nodeName")
        }
        exclusive: set[tuple[str, str, str]] = set()
        shares: dict[tuple[str, str, str], collections.Counter[str]] = {}
        for claim in shape.claims:
            status = claim.get("status")
            if not status:
                continue
            (ref,) = status["reservedFor"]
            pod = pods[(claim["metadata"]["namespace"], ref["name"])]
            assert pod["metadata"]["uid"] == ref["uid"]
            terms = (status["allocation"].get("nodeSelector") or {}).get("nodeSelectorTerms")
            if terms and terms[0].get("matchFields"):
                assert terms[0]["matchFields"][0]["values"] == [pod["spec"]["nodeName"]]
            for result in status["allocation"]["devices"]["results"]:
                dev_id = (result["driver"], result["pool"], result["device"])
                device = devices[dev_id]
                if "shareID" in result:
                    assert device.get("allowMultipleAllocations")
                    used = shares.setdefault(dev_id, collections.Counter())
                    for name, q in result["consumedCapacity"].items():
                        used[name] += int(q.removesuffix("Gi"))
                else:
                    assert dev_id not in exclusive, f"{shape.name}: {dev_id} twice"
                    exclusive.add(dev_id)
        for dev_id, used in shares.items():
            for name, amount in used.items():
                cap = devices[dev_id]["capacity"][name]["value"]
                assert amount <= int(cap.removesuffix("Gi")), f"{shape.name}: {dev_id} {name}"


def test_every_case_is_frequent_enough() -> None:
    codes: collections.Counter[str] = collections.Counter()
    features: collections.Counter[str] = collections.Counter()
    fit = 0
    for shape in SHAPES:
        features.update(shape.features)
        for built in shape.built_for.values():
            codes.update(built)
            fit += not built
    assert fit >= 40
    rare = {code: codes[code] for code in CODES if codes[code] < 4}
    assert not rare, f"codes too rare in {COUNT} shapes: {rare}"
    wanted = (
        "partitions", "shared", "capacity-request", "net-allnodes", "net-selector",
        "per-device", "incomplete-pool", "invalid-pool", "stale-generation", "taint-NoSchedule",
        "taint-NoExecute", "taint-None", "rule-device", "rule-pool", "rule-name",
        "toleration-exists", "toleration-equal", "all-mode", "match-attribute",
        "distinct-attribute", "first-available", "admin-access", "admin-on-held",
        "node-cordoned", "node-taint-NoSchedule", "pod-node-selector", "pod-toleration",
        "slices-1", "slices-2", "slices-3", "count-1", "count-2", "count-3", "count-4",
        *(f"nodes-{n}" for n in range(1, 7)),
    )  # fmt: skip
    missing = {f: features[f] for f in wanted if features[f] < 4}
    assert not missing, f"features too rare in {COUNT} shapes: {missing}"
