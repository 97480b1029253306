"""Seed a started control plane: the lab's namespace and class, the kwok nodes and what the
profiles publish on them, then wait until the nodes are Ready and the lab can make pods."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from gsb_tui.cluster import seed, seed_profiles
from gsb_tui.cluster.rest import Rest, RestError

SEED_THREADS = 8  # nodes and slices are created in parallel: 1,250 nodes one by one take minutes
# The control plane's wait: (what, check, timeout, interval), raising when a component died.
Wait = Callable[[str, Callable[[], bool], float, float], None]


def seed_cluster(
    rest: Rest,
    names: list[str],
    profile_names: tuple[str, ...],
    devices: int,
    partitions: int,
    wait: Wait,
) -> None:
    rest.ensure("/api/v1/namespaces", seed.namespace())
    rest.ensure("/apis/resource.k8s.io/v1/deviceclasses", seed.device_class())

    def add_node(name: str) -> tuple[str, str]:
        created = rest.ensure("/api/v1/nodes", seed.node(name))
        uid = str(created["metadata"]["uid"])
        existing = rest.get(
            f"/apis/resource.k8s.io/v1/resourceslices?fieldSelector=spec.nodeName={name}"
        )
        if "lab" in profile_names and not existing.get("items"):
            rest.create(
                "/apis/resource.k8s.io/v1/resourceslices",
                seed.resource_slice(name, uid, devices),
            )
        return name, uid

    with ThreadPoolExecutor(max(1, min(SEED_THREADS, len(names)))) as pool:
        uids = dict(pool.map(add_node, names))  # map keeps the nodes in order
        made = seed_profiles.objects(profile_names, uids, devices, partitions)
        list(pool.map(lambda item: rest.create(*item), made))  # raises what a create raised

    def nodes_ready() -> bool:
        items = rest.get("/api/v1/nodes").get("items", [])
        ready = {
            n["metadata"]["name"]
            for n in items
            for c in (n.get("status") or {}).get("conditions") or []
            if c.get("type") == "Ready" and c.get("status") == "True"
        }
        return set(names) <= ready

    def default_sa() -> bool:
        try:
            rest.get(f"/api/v1/namespaces/{seed.LAB_NAMESPACE}/serviceaccounts/default")
            return True
        except RestError:
            return False

    # Each look lists every node: at a thousand nodes, once a second is plenty.
    many = len(names) > 50
    wait("kwok to mark the node(s) Ready", nodes_ready, 60 + 0.1 * len(names), 1.0 if many else 0.1)
    wait(f"the default ServiceAccount in {seed.LAB_NAMESPACE}", default_sa, 60, 0.1)
