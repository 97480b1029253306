"""The node's half of DRA: what stops a pod the scheduler placed, and a node whose driver went
away while claims still hold its devices. Only a real kubelet ever gets this far (kwok runs
every pod at once).

After scheduling the kubelet prepares the pod's claims through the driver's kubelet plugin,
before the sandbox (pkg/kubelet/kuberuntime/kuberuntime_manager.go): a failure is a Warning
Event `FailedPrepareDynamicResources`, "Failed to prepare dynamic resources: …", repeated with
backoff while the containers wait in ContainerCreating. Then the images are pulled (waiting
ErrImagePull / ImagePullBackOff, the kubelet's message beside). A driver whose plugin stopped
loses its node's ResourceSlices (the kubelet removes them ~40 s later) while the claims
allocated from that pool stay allocated. Pure: facts with the kubelet's own words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from gsb_tui.dra.model import ContainerWaiting, DeviceId, Pod
from gsb_tui.snapshot import Kind, ObjKey
from gsb_tui.words import text

if TYPE_CHECKING:
    from gsb_tui.dra.view import DraView

PREPARE_FAILED = "FailedPrepareDynamicResources"
IMAGE_PULL = ("ErrImagePull", "ImagePullBackOff")
CREATING = ("ContainerCreating", "PodInitializing")  # not a problem by themselves
# The kubelet's words when the driver's kubelet plugin does not answer on the node
# (pkg/kubelet/cm/dra): never registered or gone, or registered but its socket is dead.
_NOT_REGISTERED = re.compile(r"DRA driver (\S+) is not registered")
_UNAVAILABLE = "code = Unavailable"
_SOCKET = re.compile(r"/plugins/([^/\s\"]+)/[^/\s\"]*\.sock")

MAX_CLAIMS = 6  # claim names listed in a vanished pool's line before "+N"

BlockerCode = Literal["prepare-failed", "image-pull", "waiting", "creating"]


@dataclass(frozen=True)
class KubeletBlocker:
    """Why a pod placed on a node does not run, in the kubelet's words."""

    code: BlockerCode
    pod: ObjKey
    node: str
    reason: str  # the event's reason or the container's waiting reason, as written
    message: str  # the kubelet's message, quoted ("" when it gave none)
    container: str = ""  # the waiting container ("" for a prepare failure)
    count: int = 1  # how often the kubelet said it (an event's count)
    last_seen: str = ""  # RFC 3339, the event's latest occurrence ("" for a container state)
    source: str = "kubelet"
    drivers: tuple[str, ...] = ()  # the drivers of the pod's allocated claims

    @property
    def plugin_down(self) -> tuple[str, str]:
        """("not-registered" or "unreachable", the driver) when the kubelet could not reach the
        driver's kubelet plugin on the node; ("", "") when it said something else."""
        if self.code != "prepare-failed":
            return "", ""
        found = _NOT_REGISTERED.search(self.message)
        if found:
            return "not-registered", found.group(1)
        if _UNAVAILABLE in self.message:
            socket = _SOCKET.search(self.message)
            return "unreachable", socket.group(1) if socket else ", ".join(self.drivers)
        return "", ""


def kubelet_blocker(view: DraView, pod: Pod) -> KubeletBlocker | None:
    """What holds a pod that is placed (spec.nodeName) but still Pending, as the kubelet says
    it now: an image it cannot pull or another waiting reason (the containers' state is now),
    else its newest FailedPrepareDynamicResources event, else ContainerCreating with nothing
    said yet. None: running, not placed, being deleted, or the kubelet wrote nothing yet."""
    if pod.phase != "Pending" or not pod.node or pod.deleting:
        return None
    now: list[tuple[BlockerCode, list[ContainerWaiting]]] = [
        ("image-pull", [w for w in pod.waiting if w.reason in IMAGE_PULL]),
        ("waiting", [w for w in pod.waiting if w.reason and w.reason not in CREATING]),
    ]
    for code, chosen in now:
        if chosen:
            w = chosen[0]
            return KubeletBlocker(code, pod.key, pod.node, w.reason, w.message, w.container)
    events = view.pod_events(pod, PREPARE_FAILED)
    if events:
        e = events[-1]
        drivers = {r.id.driver for c in view.claims_of_pod(pod) for r in c.results}
        return KubeletBlocker(
            "prepare-failed",
            pod.key,
            pod.node,
            e.reason,
            e.message,
            count=e.count,
            last_seen=e.last_seen,
            source=e.source or "kubelet",
            drivers=tuple(sorted(drivers)),
        )
    creating = [w for w in pod.waiting if w.reason in CREATING]
    if creating:
        w = creating[0]
        return KubeletBlocker("creating", pod.key, pod.node, w.reason, w.message, w.container)
    return None


def plugin_hint(blocker: KubeletBlocker, lang: str) -> str:
    """What to do when the kubelet could not reach the driver's kubelet plugin ("" if not)."""
    problem, driver = blocker.plugin_down
    if not problem:
        return ""
    return text(lang, f"kubelet.hint.{problem}", driver=driver or "?", node=blocker.node)


@dataclass(frozen=True)
class VanishedPool:
    """A pool no current ResourceSlice publishes any more while claims still hold its devices:
    on a node, its driver (the kubelet plugin) went away."""

    driver: str
    pool: str
    node: str  # where the devices were: the claims' allocation node, else the pool's name
    claims: tuple[ObjKey, ...]
    devices: tuple[DeviceId, ...]


def vanished_pools(view: DraView) -> tuple[VanishedPool, ...]:
    """Pools of allocated devices that no current slice of their driver publishes at all
    (results naming a device a still-published pool lacks are orphan results, said apart).
    Judged only while the slices are listed: a slice not seen yet proves nothing."""
    if not view.snapshot.state(Kind.SLICES).usable:
        return ()
    slices = view.slices  # kept while they are the same: a claim's change walks no slice
    published = view.memo.kept(
        "published pools", (slices,), lambda: frozenset((s.driver, s.pool) for s in slices)
    )
    found: dict[tuple[str, str], tuple[dict[ObjKey, None], dict[DeviceId, None], set[str]]] = {}
    for claim, device in view.orphan_results:
        pool = (device.driver, device.pool)
        if pool in published:
            continue
        claims, devices, nodes = found.setdefault(pool, ({}, {}, set()))
        claims[claim.key] = None
        devices[device] = None
        if claim.allocated_node:
            nodes.add(claim.allocated_node)
    out = []
    for (driver, name), (claims, devices, nodes) in sorted(found.items()):
        node = sorted(nodes)[0] if len(nodes) == 1 else ""
        if not nodes and name in view.nodes():
            node = name  # a node-local pool is named after its node
        ordered = tuple(sorted(devices, key=lambda d: _natural(d.device)))
        out.append(VanishedPool(driver, name, node, tuple(claims), ordered))
    return tuple(out)


def _natural(name: str) -> list[tuple[int, int | str]]:
    """gpu-2 before gpu-10."""
    return [(0, int(p)) if p.isdigit() else (1, p) for p in re.split(r"(\d+)", name) if p]


def pods_blocked_by_vanished(view: DraView, pool: VanishedPool) -> tuple[ObjKey, ...]:
    """Pods using the pool's claims that the kubelet has not started."""
    out: dict[ObjKey, None] = {}
    for key in pool.claims:
        claim = view.claims.get(key)
        for pod in view.pods_of_claim(claim) if claim is not None else ():
            if kubelet_blocker(view, pod) is not None:
                out[pod.key] = None
    return tuple(out)


def vanished_words(view: DraView, pool: VanishedPool, lang: str) -> list[str]:
    """A pool no slice publishes while claims hold its devices, in a few sentences."""
    names = [name for _, name in pool.claims]
    claims = ", ".join(names[:MAX_CLAIMS]) + (
        f", +{len(names) - MAX_CLAIMS}" if len(names) > MAX_CLAIMS else ""
    )
    values = {"driver": pool.driver, "n": len(pool.claims), "claims": claims}
    if pool.node:
        lines = [text(lang, "node.vanished", node=pool.node, **values)]
    else:
        lines = [text(lang, "node.vanished-pool", pool=pool.pool, **values)]
    devices = ", ".join(d.device for d in pool.devices)
    lines.append(text(lang, "node.vanished-devices", devices=devices))
    waiting = pods_blocked_by_vanished(view, pool)
    if waiting:
        lines.append(text(lang, "node.vanished-pods", pods=", ".join(n for _, n in waiting)))
    return lines
