"""The contract between cluster I/O and everything that reads it.

kube/ fills a Store from list+watch (or from a recording); a Snapshot is an immutable
view of that store at one moment. dra/, lab/ and ui/ only ever see Snapshots.
Objects stay the raw camelCase dicts the API server sent, so the YAML view shows
exactly what the server holds and fields newer than any client model survive.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Literal

Obj = Mapping[str, Any]
ObjKey = tuple[str, str]  # (namespace or "", name)


class Kind(StrEnum):
    """The kinds gsb-tui watches, named by their API resource (plural)."""

    SLICES = "resourceslices"
    CLASSES = "deviceclasses"
    CLAIMS = "resourceclaims"
    TEMPLATES = "resourceclaimtemplates"
    PODS = "pods"
    EVENTS = "events"
    NODES = "nodes"
    TAINT_RULES = "devicetaintrules"  # resource.k8s.io/v1 (1.37), v1beta2 with its gate (1.36)
    # resource.k8s.io/v1alpha3 behind DRAResourcePoolStatus (alpha, off in 1.36 and 1.37): read
    # only, gsb-tui never creates one (dra/pool_status.py sets its answers beside the ledger's)
    POOL_STATUS = "resourcepoolstatusrequests"


@dataclass(frozen=True)
class KindInfo:
    kind: Kind
    group: str  # "" for the core group
    version: str
    namespaced: bool
    title: str
    object_kind: str  # the "kind" field of one object
    # Optional kinds are APIs a cluster may not serve (a beta gate off by default): "not
    # served" is normal for them, so they never make the dashboard look unsynced.
    optional: bool = False
    # Older versions to read when `version` is not served, newest first (the reflector tries
    # them in turn: DeviceTaintRule is v1 from 1.37, v1beta2 behind a runtime-config in 1.36).
    fallbacks: tuple[str, ...] = ()

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    def older(self) -> KindInfo | None:
        """The same kind at the next older version to try, or None past the oldest."""
        order = (KINDS[self.kind].version, *KINDS[self.kind].fallbacks)
        if self.version not in order or self.version == order[-1]:
            return None
        return replace(self, version=order[order.index(self.version) + 1])

    @property
    def every_api(self) -> str:
        """ "resource.k8s.io/v1 / v1beta2": every version tried, for the "not served" words."""
        versions = " / ".join((KINDS[self.kind].version, *KINDS[self.kind].fallbacks))
        return f"{self.group}/{versions}" if self.group else versions

    @property
    def api_prefix(self) -> str:
        return f"/api/{self.version}" if not self.group else f"/apis/{self.group}/{self.version}"

    def path(self, namespace: str | None = None) -> str:
        if self.namespaced and namespace:
            return f"{self.api_prefix}/namespaces/{namespace}/{self.kind.value}"
        return f"{self.api_prefix}/{self.kind.value}"


KINDS: Mapping[Kind, KindInfo] = MappingProxyType(
    {
        Kind.SLICES: KindInfo(
            Kind.SLICES, "resource.k8s.io", "v1", False, "ResourceSlices", "ResourceSlice"
        ),
        Kind.CLASSES: KindInfo(
            Kind.CLASSES, "resource.k8s.io", "v1", False, "DeviceClasses", "DeviceClass"
        ),
        Kind.CLAIMS: KindInfo(
            Kind.CLAIMS, "resource.k8s.io", "v1", True, "ResourceClaims", "ResourceClaim"
        ),
        Kind.TEMPLATES: KindInfo(
            Kind.TEMPLATES,
            "resource.k8s.io",
            "v1",
            True,
            "ResourceClaimTemplates",
            "ResourceClaimTemplate",
        ),
        Kind.PODS: KindInfo(Kind.PODS, "", "v1", True, "Pods", "Pod"),
        Kind.EVENTS: KindInfo(Kind.EVENTS, "", "v1", True, "Events", "Event"),
        Kind.NODES: KindInfo(Kind.NODES, "", "v1", False, "Nodes", "Node"),
        Kind.TAINT_RULES: KindInfo(
            Kind.TAINT_RULES,
            "resource.k8s.io",
            "v1",
            False,
            "DeviceTaintRules",
            "DeviceTaintRule",
            optional=True,
            fallbacks=("v1beta2",),
        ),
        Kind.POOL_STATUS: KindInfo(
            Kind.POOL_STATUS,
            "resource.k8s.io",
            "v1alpha3",
            False,
            "ResourcePoolStatusRequests",
            "ResourcePoolStatusRequest",
            optional=True,
        ),
    }
)
REQUIRED_KINDS: tuple[Kind, ...] = tuple(k for k, info in KINDS.items() if not info.optional)

Phase = Literal["connecting", "synced", "reconnecting", "forbidden", "not-served", "error"]


@dataclass(frozen=True)
class KindState:
    """How the watch of one kind stands; panes show this instead of stale data."""

    phase: Phase = "connecting"
    message: str = ""
    attempts: int = 0  # consecutive failed attempts (shown as "reconnecting n")
    scope: str = ""  # "all namespaces", "namespace dra-lab" or "cluster"
    # Seconds between re-lists when the kind is listed again and again instead of watched
    # (nodes past kube.reflector.POLL_NODES_ABOVE: their status heartbeats are not wanted).
    every: float = 0.0
    # While synced, how the watch is heard (kube/reflector.py): "" alive and heard from
    # recently; "stale" its watch said nothing, not even a bookmark, past the bookmark interval;
    # "not-answering" the API server answers nothing. `heard` is when the kind last heard from
    # the server (monotonic seconds; 0 when `quiet` is ""). The data stays usable: it is the
    # last the server said.
    heard: float = 0.0
    quiet: str = ""

    @property
    def usable(self) -> bool:
        """Objects of this kind can be trusted as complete."""
        return self.phase == "synced"


def obj_key(obj: Obj) -> ObjKey:
    meta = obj.get("metadata") or {}
    return (str(meta.get("namespace") or ""), str(meta.get("name") or ""))


@dataclass(frozen=True, repr=False)
class Snapshot:
    """Every watched object at one moment, plus how each kind's watch stands."""

    objects: Mapping[Kind, Mapping[ObjKey, Obj]] = field(default_factory=dict)
    states: Mapping[Kind, KindState] = field(default_factory=dict)
    revision: int = 0  # bumps on every applied change; cheap "did anything change" test
    last_event_at: float | None = None  # monotonic time of the last applied change
    server_version: str = ""  # the API server's gitVersion; "" while unknown (or a recording's)
    # Per kind, when the Store knows it: (the kind's mapping in the Store's previous snapshot,
    # the keys added, changed or removed since). dra/ patches what it derived from that
    # mapping instead of comparing every object; absent after a re-list (all may differ).
    changed: Mapping[Kind, tuple[Mapping[ObjKey, Obj], frozenset[ObjKey]]] = field(
        default_factory=dict
    )

    def items(self, kind: Kind) -> list[Obj]:
        """Objects of a kind, sorted by (namespace, name) for stable display."""
        objs = self.objects.get(kind, {})
        return [objs[k] for k in sorted(objs)]

    def get(self, kind: Kind, namespace: str, name: str) -> Obj | None:
        return self.objects.get(kind, {}).get((namespace, name))

    def state(self, kind: Kind) -> KindState:
        return self.states.get(kind, KindState())

    def __iter__(self) -> Iterator[Kind]:
        return iter(self.objects)

    def __repr__(self) -> str:
        # Counts, not objects: asyncio.run reprs the task's result twice on its way out (the
        # SIGINT handler it restores holds the task), and 5,000 claims' full repr took 0.1 s each.
        counts = ", ".join(f"{kind.value}={len(objs)}" for kind, objs in self.objects.items())
        return f"Snapshot(revision={self.revision}, {counts})"

    @property
    def synced(self) -> bool:
        """Every required kind is synced (an optional API may be unserved or still coming)."""
        required = [k for k in self.states if not KINDS[k].optional]
        return bool(required) and all(self.state(k).usable for k in required)
