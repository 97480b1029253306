"""The allocation oracle (cluster/oracle) answers as kube-scheduler 1.36.3 would.

Hand-made objects in the practice cluster's shapes (gsb_tui.cluster.seed: driver
gpu.example.com, a pool per node named after it, the DeviceClass selecting the driver): two
nodes with two GPUs each. Every case checks the nodes the pod fits on and why the others were
refused, so a wrong filter, a wrong allocated state or a swallowed error each shows.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from gsb_tui.cluster import seed
from tests.alloc_oracle import OracleError, run_oracle

DRIVER = seed.DRIVER
NS = seed.LAB_NAMESPACE
NODES = ("node-a", "node-b")
NOT_ALL = "cannot allocate all claims"


def node(name: str, **spec: Any) -> dict[str, Any]:
    obj = seed.node(name)
    obj["metadata"]["uid"] = f"uid-{name}"
    obj["spec"] = spec
    return obj


def resource_slice(node_name: str, devices: int = 2) -> dict[str, Any]:
    obj = seed.resource_slice(node_name, f"uid-{node_name}", devices)
    obj["metadata"]["name"] = f"{obj['metadata']['generateName']}x7k2p"
    return obj


def device_class(expression: str = f"device.driver == '{DRIVER}'") -> dict[str, Any]:
    obj = seed.device_class()
    obj["spec"]["selectors"] = [{"cel": {"expression": expression}}]
    return obj


def claim(name: str, count: int, owner: dict[str, Any] | None = None) -> dict[str, Any]:
    metadata: dict[str, Any] = {"name": name, "namespace": NS, "uid": f"uid-claim-{name}"}
    if owner is not None:
        metadata["ownerReferences"] = [
            {
                "apiVersion": "v1",
                "kind": "Pod",
                "name": owner["metadata"]["name"],
                "uid": owner["metadata"]["uid"],
                "controller": True,
                "blockOwnerDeletion": True,
            }
        ]
    return {
        "apiVersion": "resource.k8s.io/v1",
        "kind": "ResourceClaim",
        "metadata": metadata,
        "spec": {
            "devices": {
                "requests": [
                    {
                        "name": "gpu",
                        "exactly": {
                            "deviceClassName": DRIVER,
                            "allocationMode": "ExactCount",
                            "count": count,
                        },
                    }
                ]
            }
        },
    }


def allocated(obj: dict[str, Any], node_name: str, devices: list[str], pod: str) -> dict[str, Any]:
    """`obj` as the scheduler leaves it once `pod` runs with `devices` of `node_name`."""
    obj = copy.deepcopy(obj)
    obj["status"] = {
        "allocation": {
            "devices": {
                "results": [
                    {"request": "gpu", "driver": DRIVER, "pool": node_name, "device": d}
                    for d in devices
                ]
            },
            "nodeSelector": {
                "nodeSelectorTerms": [
                    {
                        "matchFields": [
                            {"key": "metadata.name", "operator": "In", "values": [node_name]}
                        ]
                    }
                ]
            },
        },
        "reservedFor": [{"resource": "pods", "name": pod, "uid": f"uid-pod-{pod}"}],
    }
    return obj


def pod(name: str, claim_name: str | None = None, **spec: Any) -> dict[str, Any]:
    """A pending pod whose container uses claim "gpu": `claim_name`, or a template's claim."""
    entry: dict[str, Any] = {"name": "gpu"}
    if claim_name is None:
        entry["resourceClaimTemplateName"] = "one-gpu"
    else:
        entry["resourceClaimName"] = claim_name
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": NS, "uid": f"uid-pod-{name}"},
        "spec": {
            "containers": [
                {
                    "name": "ctr",
                    "image": "ubuntu:22.04",
                    "command": ["bash", "-c", "sleep 9999"],
                    "resources": {"claims": [{"name": "gpu"}]},
                }
            ],
            "resourceClaims": [entry],
            **spec,
        },
        "status": {"phase": "Pending"},
    }


def snapshot(
    pods: list[dict[str, Any]],
    claims: list[dict[str, Any]],
    nodes: list[dict[str, Any]] | None = None,
    classes: list[dict[str, Any]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "slices": [resource_slice(n) for n in NODES],
        "classes": classes if classes is not None else [device_class()],
        "claims": claims,
        "nodes": nodes if nodes is not None else [node(n) for n in NODES],
        "pods": pods,
        **extra,
    }


def judged(snap: dict[str, Any], name: str) -> dict[str, Any]:
    answer = run_oracle(snap)
    result: dict[str, Any] = answer["pods"][f"{NS}/{name}"]
    return result


def test_a_claim_for_three_devices_fits_on_no_node_of_two() -> None:
    result = judged(snapshot([pod("p", "three")], [claim("three", 3)]), "p")
    assert result["fits"] is False
    assert result["nodes"] == []
    assert result["error"] is None
    assert result["pod_reason"] is None
    assert result["stage"] == {"node-a": "allocate", "node-b": "allocate"}
    assert result["node_status"] == {"node-a": NOT_ALL, "node-b": NOT_ALL}
    assert result["allocation"] == {}


def test_a_claim_for_two_devices_fits_on_both_with_the_nodes_own_devices() -> None:
    result = judged(snapshot([pod("p", "two")], [claim("two", 2)]), "p")
    assert result["fits"] is True
    assert result["nodes"] == ["node-a", "node-b"]
    assert result["error"] is None
    assert result["stage"] == {"node-a": "ok", "node-b": "ok"}
    assert result["node_status"] == {"node-a": "ok", "node-b": "ok"}
    for n in NODES:
        devices = sorted(
            (d["claim"], d["request"], d["driver"], d["pool"], d["device"], d["shareID"])
            for d in result["allocation"][n]
        )
        assert devices == [
            (f"{NS}/two", "gpu", DRIVER, n, "gpu-0", False),
            (f"{NS}/two", "gpu", DRIVER, n, "gpu-1", False),
        ]


def test_a_device_taken_by_another_claim_leaves_node_a_one_short() -> None:
    taken = allocated(claim("other", 1), "node-a", ["gpu-1"], pod="other-pod")
    result = judged(snapshot([pod("p", "two")], [claim("two", 2), taken]), "p")
    assert result["fits"] is True
    assert result["nodes"] == ["node-b"]
    assert result["stage"] == {"node-a": "allocate", "node-b": "ok"}
    assert result["node_status"]["node-a"] == NOT_ALL
    assert list(result["allocation"]) == ["node-b"]
    assert {d["device"] for d in result["allocation"]["node-b"]} == {"gpu-0", "gpu-1"}


def test_a_one_device_claim_gets_the_device_left_on_node_a() -> None:
    taken = allocated(claim("other", 1), "node-a", ["gpu-0"], pod="other-pod")
    result = judged(snapshot([pod("p", "one")], [claim("one", 1), taken]), "p")
    assert result["nodes"] == ["node-a", "node-b"]
    assert [d["device"] for d in result["allocation"]["node-a"]] == ["gpu-1"]


def test_an_allocated_claim_holds_the_pod_to_its_node() -> None:
    # Another pod holds the claim: a claim can be shared (CanBeReserved is always true in 1.36).
    shared = allocated(claim("shared", 1), "node-b", ["gpu-0"], pod="first")
    result = judged(snapshot([pod("p", "shared")], [shared]), "p")
    assert result["fits"] is True
    assert result["nodes"] == ["node-b"]
    assert result["stage"] == {"node-a": "claim-node", "node-b": "ok"}
    assert result["node_status"]["node-a"] == "resourceclaim not available on the node"
    assert result["allocation"] == {"node-b": []}  # nothing left to allocate


def test_the_first_available_subrequest_that_fits_is_taken_and_named() -> None:
    prioritized = claim("either", 1)
    prioritized["spec"]["devices"]["requests"] = [
        {
            "name": "gpu",
            "firstAvailable": [
                {"name": "three", "deviceClassName": DRIVER, "count": 3},
                {"name": "one", "deviceClassName": DRIVER},  # ExactCount, 1: the API's defaults
            ],
        }
    ]
    result = judged(snapshot([pod("p", "either")], [prioritized]), "p")
    assert result["nodes"] == ["node-a", "node-b"]
    assert [(d["request"], d["device"]) for d in result["allocation"]["node-a"]] == [
        ("gpu/one", "gpu-0")
    ]


def test_the_pods_node_selector_restricts_the_nodes() -> None:
    picky = pod("p", "two", nodeSelector={"kubernetes.io/hostname": "node-b"})
    result = judged(snapshot([picky], [claim("two", 2)]), "p")
    assert result["fits"] is True
    assert result["nodes"] == ["node-b"]
    assert result["stage"] == {"node-a": "node-selector", "node-b": "ok"}
    assert result["node_status"]["node-a"] == "node(s) didn't match Pod's node affinity/selector"
    assert list(result["allocation"]) == ["node-b"]


def test_a_cordoned_node_is_excluded_unless_the_pod_tolerates_it() -> None:
    nodes = [node("node-a", unschedulable=True), node("node-b")]
    tolerant = pod(
        "tolerant",
        "two-more",
        tolerations=[{"key": "node.kubernetes.io/unschedulable", "effect": "NoSchedule"}],
    )
    snap = snapshot([pod("p", "two"), tolerant], [claim("two", 2), claim("two-more", 2)], nodes)
    answer = run_oracle(snap)["pods"]
    result = answer[f"{NS}/p"]
    assert result["nodes"] == ["node-b"]
    assert result["stage"] == {"node-a": "node-unschedulable", "node-b": "ok"}
    assert result["node_status"]["node-a"] == "node(s) were unschedulable"
    # Each pod is judged against the snapshot alone: both may take node-b's two devices.
    assert answer[f"{NS}/tolerant"]["nodes"] == ["node-a", "node-b"]


def test_a_node_taint_the_pod_does_not_tolerate_excludes_the_node() -> None:
    nodes = [node("node-a", taints=[{"key": "gpu", "effect": "NoSchedule"}]), node("node-b")]
    result = judged(snapshot([pod("p", "two")], [claim("two", 2)], nodes), "p")
    assert result["nodes"] == ["node-b"]
    assert result["stage"]["node-a"] == "node-taint"


def test_a_cel_runtime_error_means_the_pod_fits_nowhere() -> None:
    broken = device_class(f"device.attributes['{DRIVER}'].nosuch == 1")
    result = judged(snapshot([pod("p", "two")], [claim("two", 2)], classes=[broken]), "p")
    assert result["fits"] is False
    assert result["nodes"] == []
    assert result["allocation"] == {}
    assert result["error"] is not None
    assert "CEL runtime error" in result["error"]
    assert result["stage"] == {"node-a": "error", "node-b": "error"}


def test_a_cel_runtime_error_on_one_node_aborts_the_attempt_on_all() -> None:
    broken = device_class(f"device.attributes['{DRIVER}'].nosuch == 1")
    snap = snapshot([pod("p", "two")], [claim("two", 2)], classes=[broken])
    for device in snap["slices"][1]["spec"]["devices"]:  # node-b's devices have the attribute
        device["attributes"]["nosuch"] = {"int": 1}
    result = judged(snap, "p")
    assert result["stage"] == {"node-a": "error", "node-b": "ok"}
    assert result["error"] is not None
    assert "CEL runtime error" in result["error"]
    assert result["node_status"]["node-a"] == f"error: {result['error']}"
    # The scheduler aborts the whole attempt on the error: node-b is not offered.
    assert result["fits"] is False
    assert result["nodes"] == []
    assert result["allocation"] == {}


def test_a_template_claim_is_found_through_the_pod_status_and_its_owner() -> None:
    p = pod("p")
    made = claim("p-gpu-abcde", 2, owner=p)
    snap = snapshot([p], [made])
    # Not made yet: no entry in status.resourceClaimStatuses.
    not_yet = judged(snap, "p")
    assert not_yet["fits"] is False
    assert not_yet["pod_reason"] is not None
    assert "ResourceClaim not created yet" in not_yet["pod_reason"]
    assert not_yet["node_status"] == {}
    p["status"]["resourceClaimStatuses"] = [{"name": "gpu", "resourceClaimName": "p-gpu-abcde"}]
    assert judged(snap, "p")["nodes"] == ["node-a", "node-b"]
    # Made for another pod: refused whatever the nodes have.
    made["metadata"]["ownerReferences"][0]["uid"] = "uid-pod-someone-else"
    refused = judged(snap, "p")
    assert refused["nodes"] == []
    assert "Pod is not owner" in (refused["pod_reason"] or "")


def test_a_missing_claim_and_a_missing_class_are_pod_level_reasons() -> None:
    missing = judged(snapshot([pod("p", "nowhere")], []), "p")
    assert missing["fits"] is False
    assert missing["pod_reason"] == f'could not find ResourceClaim "{NS}/nowhere"'
    no_class = judged(snapshot([pod("p", "two")], [claim("two", 2)], classes=[]), "p")
    assert no_class["fits"] is False
    assert no_class["pod_reason"] == f"request gpu: device class {DRIVER} does not exist"


def test_a_device_taint_rule_taints_the_devices_it_selects() -> None:
    rule: dict[str, Any] = {
        "apiVersion": "resource.k8s.io/v1beta2",
        "kind": "DeviceTaintRule",
        "metadata": {"name": "gpu-0-broken"},
        "spec": {
            "deviceSelector": {"driver": DRIVER, "pool": "node-a", "device": "gpu-0"},
            "taint": {"key": "example.com/broken", "effect": "NoSchedule"},
        },
    }
    snap = snapshot([pod("p", "two")], [claim("two", 2)], rules=[rule])
    assert judged(snap, "p")["nodes"] == ["node-b"]
    # Without a selector a rule taints every device of every slice.
    del rule["spec"]["deviceSelector"]
    assert judged(snap, "p")["nodes"] == []
    snap["features"] = {"DeviceTaints": False}
    assert judged(snap, "p")["nodes"] == ["node-a", "node-b"]


def test_bound_pods_are_not_judged_and_bad_input_is_refused() -> None:
    bound = pod("bound", "two", nodeName="node-a")
    answer = run_oracle(snapshot([bound, pod("p", "two")], [claim("two", 2)]))
    assert sorted(answer["pods"]) == [f"{NS}/p"]
    with pytest.raises(OracleError, match="unknown feature"):
        run_oracle(snapshot([], [], features={"NoSuchGate": True}))
    with pytest.raises(OracleError, match="exited 2"):
        run_oracle({"slices": "not a list"})
