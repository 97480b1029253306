"""Things worth flagging in the device grid and the claims pane: facts with the keys of the
objects they are about, so no pane re-parses a string to find them again.

A rule that needs to know an object is absent only judges when that kind's watch is synced
(and covers the namespace): a pod missing from a half-listed snapshot proves nothing.
The words live in the catalog (`warning.<code>`, `warning.short.<code>`); `message` is a
convenience that fills them in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from gsb_tui.dra.model import DeviceId
from gsb_tui.dra.view import DraView
from gsb_tui.snapshot import KINDS, Kind, ObjKey, Snapshot
from gsb_tui.words import Text, t

WarningCode = Literal[
    "leak",
    "ghost-consumer",
    "missing-claim",
    "missing-template",
    "claim-not-in-container",
    "stale-slice",
    "orphan-result",
]


@dataclass(frozen=True)
class DraWarning:
    code: WarningCode
    # The objects it is about: the grid marks the claims' devices, the claims pane the claims.
    claims: tuple[ObjKey, ...] = ()
    pods: tuple[ObjKey, ...] = ()
    devices: tuple[DeviceId, ...] = ()
    slice: str = ""  # stale-slice only
    # The values its words need, as (name, value) pairs (hashable, ordered).
    params: tuple[tuple[str, str], ...] = ()

    @property
    def subject(self) -> str:
        """The one object it is chiefly about: "ns/name" of the pod or claim, or the slice."""
        if self.code in ("missing-claim", "missing-template", "claim-not-in-container"):
            key = self.pods[0] if self.pods else ("", "")
        elif self.claims:
            key = self.claims[0]
        else:
            return self.slice
        return f"{key[0]}/{key[1]}"

    @property
    def message(self) -> Text:
        """What it means and what to do, in both languages."""
        return t(f"warning.{self.code}", **dict(self.params))

    @property
    def short(self) -> Text:
        """A few words for a grid cell's title or a claims row."""
        return t(f"warning.short.{self.code}")


def _knows_all(snapshot: Snapshot, kind: Kind, namespace: str) -> bool:
    """The kind is synced and its watch covers the namespace (scope "namespace X" or wider)."""
    state = snapshot.state(kind)
    if not state.usable:
        return False
    scope = state.scope
    return not scope.startswith("namespace ") or scope == f"namespace {namespace}"


def _knowing(snapshot: Snapshot) -> Callable[[Kind, str], bool]:
    """_knows_all asked once per (kind, namespace): at 5,000 pods it was asked 10,000 times a
    build with the same few answers."""
    answers: dict[tuple[Kind, str], bool] = {}

    def knows(kind: Kind, namespace: str) -> bool:
        found = answers.get((kind, namespace))
        if found is None:
            found = answers[(kind, namespace)] = _knows_all(snapshot, kind, namespace)
        return found

    return knows


def _leaks(view: DraView) -> list[DraWarning]:
    return [
        DraWarning(
            "leak",
            claims=(c.key,),
            devices=tuple(c.devices),
            params=(("claim", c.name), ("devices", ", ".join(d.device for d in c.devices))),
        )
        for c in view.claims.values()
        if c.allocated and not c.reserved_for and not c.deleting
    ]


def _ghosts(view: DraView) -> list[DraWarning]:
    out = []
    knows = _knowing(view.snapshot)
    pods = view.pods
    for c in view.claims.values():
        for consumer in c.reserved_for:
            if consumer.resource != "pods":
                continue
            pod = pods.get((c.namespace, consumer.name))
            if pod is not None and (not consumer.uid or not pod.uid or consumer.uid == pod.uid):
                continue  # the common case first: the pod is there
            if knows(Kind.PODS, c.namespace):
                out.append(
                    DraWarning(
                        "ghost-consumer",
                        claims=(c.key,),
                        pods=((c.namespace, consumer.name),),
                        devices=tuple(c.devices),
                        params=(("claim", c.name), ("pod", consumer.name)),
                    )
                )
    return out


def _missing_refs(view: DraView) -> list[DraWarning]:
    out = []
    knows = _knowing(view.snapshot)
    claims, templates = view.claims, view.templates
    for pod in view.pods.values():
        for entry in pod.claims:
            # The common case first, cheaply: what the entry names is there.
            if (not entry.claim_name or (pod.namespace, entry.claim_name) in claims) and (
                not entry.template_name or (pod.namespace, entry.template_name) in templates
            ):
                continue
            for name, kind, known, code in (
                (entry.claim_name, Kind.CLAIMS, claims, "missing-claim"),
                (entry.template_name, Kind.TEMPLATES, templates, "missing-template"),
            ):
                if name and knows(kind, pod.namespace) and (pod.namespace, name) not in known:
                    out.append(
                        DraWarning(
                            code,  # type: ignore[arg-type]
                            pods=(pod.key,),
                            params=(
                                ("pod", pod.name),
                                ("kind", KINDS[kind].object_kind),
                                ("name", name),
                                ("namespace", pod.namespace),
                            ),
                        )
                    )
    return out


def _not_in_container(view: DraView) -> list[DraWarning]:
    # Lab mistake 1, detected here and only here (the lab's findings read these warnings).
    out = []
    for pod in view.pods.values():
        unlisted = pod.unlisted_entries
        if not unlisted:
            continue
        names = {e.name for e in unlisted}
        claims = tuple(
            c.key
            for entry in unlisted
            for c in view.claims_of_entry(pod, entry)
            if entry.name in names
        )
        devices = tuple(d for key in claims for d in view.claims[key].devices)
        containers = ", ".join(pod.container_claims)
        out.append(
            DraWarning(
                "claim-not-in-container",
                claims=claims,
                pods=(pod.key,),
                devices=devices,
                params=(
                    ("pod", pod.name),
                    ("entries", ", ".join(e.name for e in unlisted)),
                    ("entry", unlisted[0].name),
                    ("containers", containers or "-"),
                ),
            )
        )
    return out


def _stale(view: DraView) -> list[DraWarning]:
    newest = {(s.driver, s.pool): s.generation for s in view.slices}
    return [
        DraWarning(
            "stale-slice",
            slice=s.name,
            params=(
                ("slice", s.name),
                ("pool", s.pool),
                ("driver", s.driver),
                ("generation", str(s.generation)),
                ("newest", str(newest.get((s.driver, s.pool), "?"))),
            ),
        )
        for s in view.stale_slices
    ]


def _orphans(view: DraView) -> list[DraWarning]:
    return [
        DraWarning(
            "orphan-result",
            claims=(claim.key,),
            devices=tuple(claim.devices),  # the device itself is on no grid: mark the rest
            params=(("claim", claim.name), ("device", str(device))),
        )
        for claim, device in view.orphan_results
    ]


def find_warnings(view: DraView) -> tuple[DraWarning, ...]:
    found = [
        *_leaks(view),
        *_ghosts(view),
        *_missing_refs(view),
        *_not_in_container(view),
        *_stale(view),
        *_orphans(view),
    ]
    # Same order on every snapshot so the panes do not flicker.
    return tuple(sorted(found, key=lambda w: (w.subject, w.code, w.params)))
