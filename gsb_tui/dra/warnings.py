"""Things worth flagging in the device grid and the claims pane: facts with the keys of the
objects they are about, so no pane re-parses a string to find them again.

A rule that needs to know an object is absent only judges when that kind's watch is synced
(and covers the namespace): a pod missing from a half-listed snapshot proves nothing.
The words live in the catalog (`warning.<code>`, `warning.short.<code>`); `message` is a
convenience that fills them in.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from gsb_tui.dra import readers
from gsb_tui.dra.model import Claim, DeviceId, Pod, Slice
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


def _claim_warnings(
    view: DraView, c: Claim, knows: Callable[[Kind, str], bool]
) -> tuple[list[DraWarning], list[ObjKey]]:
    """A claim's leak and ghost-consumer warnings, and the pod keys they read."""
    out: list[DraWarning] = []
    if c.allocated and not c.reserved_for and not c.deleting:
        out.append(
            DraWarning(
                "leak",
                claims=(c.key,),
                devices=tuple(c.devices),
                params=(("claim", c.name), ("devices", ", ".join(d.device for d in c.devices))),
            )
        )
    read: list[ObjKey] = []
    for consumer in c.reserved_for:
        if consumer.resource != "pods":
            continue
        key = (c.namespace, consumer.name)
        read.append(key)
        pod = view.pods.get(key)
        if pod is not None and (not consumer.uid or not pod.uid or consumer.uid == pod.uid):
            continue  # the common case first: the pod is there
        if knows(Kind.PODS, c.namespace):
            out.append(
                DraWarning(
                    "ghost-consumer",
                    claims=(c.key,),
                    pods=(key,),
                    devices=tuple(c.devices),
                    params=(("claim", c.name), ("pod", consumer.name)),
                )
            )
    return out, read


def _pod_warnings(
    view: DraView, pod: Pod, knows: Callable[[Kind, str], bool]
) -> tuple[list[DraWarning], list[ObjKey], list[ObjKey]]:
    """A pod's missing-claim, missing-template and claim-not-in-container warnings, and the
    claim and template keys they read."""
    out: list[DraWarning] = []
    claims_read: list[ObjKey] = []
    templates_read: list[ObjKey] = []
    for entry in pod.claims:
        for name, kind, known, code, read in (
            (entry.claim_name, Kind.CLAIMS, view.claims, "missing-claim", claims_read),
            (
                entry.template_name,
                Kind.TEMPLATES,
                view.templates,
                "missing-template",
                templates_read,
            ),
        ):
            if not name:
                continue
            read.append((pod.namespace, name))
            if (pod.namespace, name) not in known and knows(kind, pod.namespace):
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
    # Lab mistake 1, detected here and only here (the lab's findings read these warnings).
    unlisted = pod.unlisted_entries
    if unlisted:
        names = {e.name for e in unlisted}
        claims = tuple(
            c.key
            for entry in unlisted
            for c in view.claims_of_entry(pod, entry)
            if entry.name in names
        )
        claims_read.extend(claims)
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
    return out, claims_read, templates_read


def _stale(view: DraView) -> list[DraWarning]:
    # Kept while the slices are the same objects: a claim's change must not walk every slice.
    slices, stale = view.slices, view.stale_slices
    return view.memo.kept("stale-slice warnings", (slices, stale), lambda: _stale_of(slices, stale))


def _stale_of(slices: tuple[Slice, ...], stale_slices: tuple[Slice, ...]) -> list[DraWarning]:
    if not stale_slices:
        return []
    newest = {(s.driver, s.pool): s.generation for s in slices}
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
        for s in stale_slices
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


@dataclass
class _Kept:
    """The last find_warnings: each claim's and pod's warnings (non-empty only), and who read
    which key, so the next view redoes the objects that changed and those that read them."""

    view: DraView
    knowing: tuple[object, ...]  # the states `knows` answered from
    by_claim: dict[ObjKey, list[DraWarning]] = field(default_factory=dict)
    by_pod: dict[ObjKey, list[DraWarning]] = field(default_factory=dict)
    claim_reads: dict[ObjKey, list[ObjKey]] = field(default_factory=dict)  # claim → pods
    pod_reads: dict[ObjKey, tuple[list[ObjKey], list[ObjKey]]] = field(default_factory=dict)
    readers_of_pod: dict[ObjKey, set[ObjKey]] = field(default_factory=dict)  # pod → claims
    readers_of_claim: dict[ObjKey, set[ObjKey]] = field(default_factory=dict)  # claim → pods
    readers_of_template: dict[ObjKey, set[ObjKey]] = field(default_factory=dict)
    # Pods with an entry no container lists: their claims are found through owners too, so
    # they are judged again on every view (there are few).
    unlisted: set[ObjKey] = field(default_factory=set)


def find_warnings(view: DraView) -> tuple[DraWarning, ...]:
    """Every warning about the view. Claims and pods are judged again only where they, or an
    object they read, changed since the last call (at 5,000 of each, judging all of them was
    a tenth of a repaint; the last judgement is kept in the memo of the builder that built
    the view); `judge_whole` gives the same without it."""
    with view.memo.lock:
        kept = _judge(view, view.memo.last.get("warnings"))
        view.memo.last["warnings"] = kept
    return _assembled(kept, view)


def judge_whole(view: DraView) -> tuple[DraWarning, ...]:
    """find_warnings' answer, every claim and pod judged afresh (the memo left alone)."""
    kept = _Kept(view, ())
    _redo(kept, view, set(view.claims), set(view.pods))
    return _assembled(kept, view)


def _assembled(kept: _Kept, view: DraView) -> tuple[DraWarning, ...]:
    found = [w for ws in kept.by_claim.values() for w in ws]
    found += [w for ws in kept.by_pod.values() for w in ws]
    found += [*_stale(view), *_orphans(view)]
    # Same order on every snapshot so the panes do not flicker.
    return tuple(sorted(found, key=lambda w: (w.subject, w.code, w.params)))


def _judge(view: DraView, last: _Kept | None) -> _Kept:
    snapshot = view.snapshot
    knowing = tuple(snapshot.state(k) for k in (Kind.PODS, Kind.CLAIMS, Kind.TEMPLATES))
    changed = None
    if last is not None and last.knowing == knowing:
        changed = [
            view.changed_keys(k, last.view) for k in (Kind.CLAIMS, Kind.PODS, Kind.TEMPLATES)
        ]
    if last is None or changed is None or None in changed:
        kept = _Kept(view, knowing)
        _redo(kept, view, set(view.claims), set(view.pods))
        return kept
    claims, pods, templates = (c or frozenset() for c in changed)
    dirty_claims = set(claims)
    for key in pods:
        dirty_claims.update(last.readers_of_pod.get(key, ()))
    dirty_pods = set(pods) | last.unlisted
    for key in claims:
        dirty_pods.update(last.readers_of_claim.get(key, ()))
    for key in templates:
        dirty_pods.update(last.readers_of_template.get(key, ()))
    last.view = view
    _redo(last, view, dirty_claims, dirty_pods)
    return last


def _redo(kept: _Kept, view: DraView, claims: set[ObjKey], pods: set[ObjKey]) -> None:
    knows = _knowing(view.snapshot)
    for key in claims:
        for pod_key in kept.claim_reads.pop(key, ()):
            readers.forget(kept.readers_of_pod, pod_key, key)
        kept.by_claim.pop(key, None)
        claim = view.claims.get(key)
        if claim is None:
            continue
        found, read = _claim_warnings(view, claim, knows)
        if found:
            kept.by_claim[key] = found
        if read:
            kept.claim_reads[key] = read
            for pod_key in read:
                readers.note(kept.readers_of_pod, pod_key, key)
    for key in pods:
        claims_read, templates_read = kept.pod_reads.pop(key, ([], []))
        for name in claims_read:
            readers.forget(kept.readers_of_claim, name, key)
        for name in templates_read:
            readers.forget(kept.readers_of_template, name, key)
        kept.by_pod.pop(key, None)
        kept.unlisted.discard(key)
        pod = view.pods.get(key)
        if pod is None:
            continue
        found, claims_read, templates_read = _pod_warnings(view, pod, knows)
        if found:
            kept.by_pod[key] = found
        if pod.unlisted_entries:
            kept.unlisted.add(key)
        if claims_read or templates_read:
            kept.pod_reads[key] = (claims_read, templates_read)
            for name in claims_read:
                readers.note(kept.readers_of_claim, name, key)
            for name in templates_read:
                readers.note(kept.readers_of_template, name, key)
