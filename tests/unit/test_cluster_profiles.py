"""Practice-cluster profiles without a cluster: names, flags, object shapes, the driver's writes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gsb_tui.cli import main
from gsb_tui.cluster import profiles, seed, seed_profiles
from gsb_tui.cluster.binding_driver import allocation_key, settled, status_devices


def test_lab_is_the_default_and_adds_nothing() -> None:
    assert profiles.DEFAULT == ("lab",)
    assert profiles.apiserver_flags(["lab"]) == []
    assert profiles.gate_flags(["lab"]) == []
    assert profiles.controllers(["lab"]) == []
    assert seed_profiles.objects(("lab",), {"lab-node": "uid"}, 8, 2) == []


def test_names_are_checked_combined_and_ordered() -> None:
    assert profiles.parse(" taints , lab,taints") == ("lab", "taints")
    assert profiles.parse("extended") == ("lab", "extended")  # needs devices to hand out
    with pytest.raises(profiles.ProfileError, match=r"unknown profile 'gpus'; choose from lab"):
        profiles.parse("lab,gpus")
    with pytest.raises(profiles.ProfileError, match="at least one"):
        profiles.parse(",")


def test_flags_merge_gates_runtime_config_and_controllers() -> None:
    names = profiles.parse("taints,binding,network")
    flags = profiles.apiserver_flags(names)
    assert flags[0].startswith("--feature-gates=DRADeviceTaints=true,DRADeviceTaintRules=true,")
    assert "DRADeviceBindingConditions=true" in flags[0]
    assert flags[0].count("DRAPartitionableDevices") == 1
    assert flags[1] == "--runtime-config=resource.k8s.io/v1beta2=true"
    assert profiles.controllers(names) == ["device-taint-eviction-controller"]
    assert profiles.components(names) == ["binding-driver"]


def test_bad_up_options_stop_before_anything_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for extra, words in (
        (["--profile", "lab,nope"], "unknown profile 'nope'"),
        (["--partitions", "0"], "--partitions must be 1..16"),
        (["--binding-delay", "-1"], "--binding-delay must be >= 0"),
    ):
        # a wrong command line: EX_USAGE, as every other usage error (README's exit codes)
        assert main(["--lang", "en", "cluster", "--dir", str(tmp_path), "up", *extra]) == 64
        assert words in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_partitions_share_counter_sets_within_the_slice_limits() -> None:
    made = seed_profiles.partition_slices("n", "uid", gpus=12, partitions=5)
    counters = [s for s in made if s["spec"].get("sharedCounters")]
    devices = [s for s in made if s["spec"].get("devices")]
    assert [len(s["spec"]["sharedCounters"]) for s in counters] == [8, 4]
    assert [len(s["spec"]["devices"]) for s in devices] == [64, 8]  # 12 x (5 + 1)
    assert {s["spec"]["pool"]["resourceSliceCount"] for s in made} == {len(made)}
    assert [s["metadata"]["generateName"][:5] for s in made] == ["00000", "00001", "00002", "00003"]
    first = {d["name"]: d for d in devices[0]["spec"]["devices"][:6]}
    assert set(first) == {f"gpu-0-partition-{j}" for j in range(5)} | {"gpu-0-full"}
    assert first["gpu-0-partition-0"]["consumesCounters"] == [
        {
            "counterSet": "gpu-0-counters",
            "counters": {"memory": {"value": "16Gi"}, "compute": {"value": "20"}},
        }
    ]
    assert first["gpu-0-full"]["attributes"]["full"] == {"bool": True}
    assert counters[0]["spec"]["sharedCounters"][0] == {
        "name": "gpu-0-counters",
        "counters": {"memory": {"value": "80Gi"}, "compute": {"value": "100"}},
    }


def test_quantities_are_written_as_kubernetes_writes_them() -> None:
    assert seed_profiles.binary_quantity(80 * 2**30) == "80Gi"
    assert seed_profiles.binary_quantity(80 * 2**30 // 3) == "28633115306"
    assert seed_profiles.binary_quantity(3 * 2**20) == "3Mi"


def test_network_pools_choose_nodes_per_slice_and_per_device() -> None:
    fabric, ports = seed_profiles.network_slices(["a", "b"], nics=2)
    assert fabric["spec"]["allNodes"] is True and "nodeName" not in fabric["spec"]
    assert ports["spec"]["perDeviceNodeSelection"] is True
    assert [
        (d["name"], d.get("nodeName"), d.get("allNodes")) for d in ports["spec"]["devices"]
    ] == [
        ("port-0", "a", None),
        ("port-1", "b", None),
        ("uplink", None, True),
    ]


def test_profile_pools_keep_the_lab_slice_and_its_uuids_apart() -> None:
    lab = seed.resource_slice("lab-node", "uid", 8)["spec"]["devices"]
    made = seed_profiles.objects(
        ("lab", "partitions", "shared", "taints", "binding"), {"lab-node": "uid"}, 8, 2
    )
    pools = {o["spec"]["pool"]["name"] for _, o in made}
    assert pools == {f"lab-node-{p}" for p in ("partitions", "shared", "taints", "binding")}
    lab_uuids = {d["attributes"]["uuid"]["string"] for d in lab}
    other = {
        d["attributes"]["uuid"]["string"] for _, o in made for d in o["spec"].get("devices", [])
    }
    assert not lab_uuids & other


def _claim(devices: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    result = {
        "request": "gpu",
        "driver": seed.DRIVER,
        "pool": "p",
        "device": "gpu-0",
        "bindingConditions": ["BindingConditions"],
        "bindingFailureConditions": ["BindingFailureConditions"],
    }
    return {
        "metadata": {"uid": "u1", "name": "c", "namespace": "ns", "resourceVersion": "7"},
        "status": {
            "allocation": {
                "allocationTimestamp": "2026-01-01T00:00:00Z",
                "devices": {"results": [result]},
            },
            "devices": devices or [],
        },
    }


def test_the_driver_writes_the_conditions_once() -> None:
    claim = _claim()
    assert not settled(claim)
    assert allocation_key(claim) == ("u1", "2026-01-01T00:00:00Z")
    written = status_devices(claim, "2026-01-01T00:00:05Z")
    assert written == [
        {
            "driver": seed.DRIVER,
            "pool": "p",
            "device": "gpu-0",
            "conditions": [
                {
                    "type": "BindingConditions",
                    "status": "True",
                    "reason": "PracticeDriverReady",
                    "message": "gsb-tui binding-driver: device attached",
                    "lastTransitionTime": "2026-01-01T00:00:05Z",
                }
            ],
        }
    ]
    assert settled(_claim(written))
    failed = status_devices(claim, "t", fail=True)
    assert [c["type"] for c in failed[0]["conditions"]] == ["BindingFailureConditions"]
    assert settled(_claim(failed))  # the scheduler takes it from here
    other = json.loads(json.dumps(claim).replace(seed.DRIVER, "other.example.com"))
    assert settled(other) and status_devices(other, "t") == []


def test_a_profile_the_release_cannot_serve_is_refused_with_the_release_it_needs() -> None:
    assert profiles.available("workloads", "1.37") and not profiles.available("workloads", "1.36")
    assert all(profiles.available(n, "1.36") for n in profiles.KNOWN if n != "workloads")
    profiles.check_release(profiles.parse("lab,workloads"), "1.37")
    with pytest.raises(profiles.ProfileError, match=r"workloads needs --kube 1\.37"):
        profiles.check_release(profiles.parse("lab,workloads"), "1.36")
