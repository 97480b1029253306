"""Pod ↔ claim resolution: which claims each pod's resourceClaims entries name, and its
inverse, kept from build to build and redone only for the pods a change can touch.

At 5,000 pods resolving every pod on every build was a tenth of a repaint, although one claim
coming or going touches at most the pods that name it. Parsed objects are reused while their
raw object is (dra/parsed.py), so "changed" is told by identity.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from gsb_tui.dra import readers
from gsb_tui.dra.derive import Memo
from gsb_tui.dra.model import Claim, Pod, meta
from gsb_tui.snapshot import Kind, ObjKey

Owner = tuple[str, str, str]  # (namespace, pod name, pod claim name): a template's claim
REDO_ABOVE = 256  # changed pods and claims past which resolving everything again is cheaper


def owner_uid(claim: Claim) -> str:
    for ref in meta(claim.raw).get("ownerReferences") or ():
        if isinstance(ref, Mapping) and ref.get("kind") == "Pod" and ref.get("controller"):
            return str(ref.get("uid") or "")
    return ""


def resolve_claims(
    pod: Pod, claims: Mapping[ObjKey, Claim], by_owner: Mapping[Owner, tuple[Claim, ...]]
) -> tuple[Claim, ...]:
    """The claims a pod's entries resolve to, in entry order."""
    # status.resourceClaimStatuses names a template's generated claim; until the controller
    # has written it, fall back to the claim it made for this pod: controlled by the pod and
    # annotated with the entry's name (resource.kubernetes.io/pod-claim-name).
    out: dict[ObjKey, Claim] = {}
    for entry in pod.claims:
        name = entry.resolved_claim
        if name:
            claim = claims.get((pod.namespace, name))
            if claim is not None:
                out.setdefault(claim.key, claim)
        elif entry.template_name:
            for claim in by_owner.get((pod.namespace, pod.name, entry.name), ()):
                uid = owner_uid(claim)
                if not uid or not pod.uid or uid == pod.uid:
                    out.setdefault(claim.key, claim)
    return tuple(out.values())


def _names(pod: Pod) -> tuple[list[ObjKey], list[Owner]]:
    """What a pod's resolution reads: claims by key, and template claims by owner."""
    direct: list[ObjKey] = []
    owned: list[Owner] = []
    for entry in pod.claims:
        if entry.resolved_claim:
            direct.append((pod.namespace, entry.resolved_claim))
        elif entry.template_name:
            owned.append((pod.namespace, pod.name, entry.name))
    return direct, owned


def _owner(claim: Claim) -> Owner | None:
    return (claim.namespace, claim.owner_pod, claim.pod_claim_name) if claim.owner_pod else None


@dataclass
class _Index:
    pods: Mapping[ObjKey, Pod]
    claims: Mapping[ObjKey, Claim]
    lists: tuple[tuple[Pod, ...], tuple[Claim, ...]]  # the parses pods and claims came from
    resolved: dict[ObjKey, tuple[ObjKey, ...]] = field(default_factory=dict)  # pod → claims
    naming: dict[ObjKey, set[ObjKey]] = field(default_factory=dict)  # claim key → pods
    owning: dict[Owner, set[ObjKey]] = field(default_factory=dict)  # owner → pods
    holding: dict[ObjKey, set[ObjKey]] = field(default_factory=dict)  # claim → pods resolved
    by_claim: dict[ObjKey, tuple[Pod, ...]] = field(default_factory=dict)


def pods_by_claim(
    memo: Memo,
    pods: Mapping[ObjKey, Pod],
    claims: Mapping[ObjKey, Claim],
    by_owner: Mapping[Owner, tuple[Claim, ...]],
    lists: tuple[tuple[Pod, ...], tuple[Claim, ...]] = ((), ()),
) -> Mapping[ObjKey, tuple[Pod, ...]]:
    """Claim key → the pods whose entries resolve to it, in pod key order. The same mapping
    object as last time when no pod's resolution changed. `lists`: the parses `pods` and
    `claims` were made from (the memo's parses then know which keys changed)."""
    with memo.lock:
        last: _Index | None = memo.last.get("pods-by-claim")
        if last is not None and last.pods is pods and last.claims is claims:
            return last.by_claim
        if last is not None:
            parses = memo.parses
            changed_pods = parses.changed_since(Kind.PODS, last.lists[0], lists[0], last.pods, pods)
            changed_claims = parses.changed_since(
                Kind.CLAIMS, last.lists[1], lists[1], last.claims, claims
            )
            if len(changed_pods) + len(changed_claims) <= REDO_ABOVE:
                _patch(last, pods, claims, by_owner, changed_pods, changed_claims)
                last.lists = lists
                return last.by_claim
        index = _Index(pods, claims, lists)
        _redo(index, pods, claims, by_owner, set(pods))
        memo.last["pods-by-claim"] = index
        return index.by_claim


def _patch(
    index: _Index,
    pods: Mapping[ObjKey, Pod],
    claims: Mapping[ObjKey, Claim],
    by_owner: Mapping[Owner, tuple[Claim, ...]],
    changed_pods: set[ObjKey],
    changed_claims: set[ObjKey],
) -> None:
    affected = set(changed_pods)
    for key in changed_claims:
        affected.update(index.naming.get(key, ()))
        for claim in (index.claims.get(key), claims.get(key)):
            owner = _owner(claim) if claim is not None else None
            if owner is not None:
                affected.update(index.owning.get(owner, ()))
    old_pods = index.pods
    index.pods, index.claims = pods, claims
    if not affected:
        return
    for key in affected:  # forget what the old pod named
        old = old_pods.get(key)
        if old is not None:
            _index_names(index, key, old, readers.forget)
    _redo(index, pods, claims, by_owner, affected)


def _index_names(
    index: _Index,
    key: ObjKey,
    pod: Pod,
    mark: Callable[[dict[Any, set[ObjKey]], Any, ObjKey], None],
) -> None:
    """readers.note or readers.forget the claim names and owners this pod names."""
    direct, owned = _names(pod)
    for name in direct:
        mark(index.naming, name, key)
    for owner in owned:
        mark(index.owning, owner, key)


def _redo(
    index: _Index,
    pods: Mapping[ObjKey, Pod],
    claims: Mapping[ObjKey, Claim],
    by_owner: Mapping[Owner, tuple[Claim, ...]],
    keys: set[ObjKey],
) -> None:
    """Resolve these pods again and rebuild the entries of every claim they named or name."""
    dirty: set[ObjKey] = set()
    for key in keys:
        for claim in index.resolved.pop(key, ()):
            readers.forget(index.holding, claim, key)
            dirty.add(claim)
        pod = pods.get(key)
        if pod is None:
            continue
        _index_names(index, key, pod, readers.note)
        found = tuple(c.key for c in resolve_claims(pod, claims, by_owner))
        if found:
            index.resolved[key] = found
            for claim in found:
                readers.note(index.holding, claim, key)
            dirty.update(found)
    if not dirty:
        return
    by_claim = dict(index.by_claim)  # a new mapping: views keep the one they were built with
    for claim in dirty:
        holders = index.holding.get(claim)
        if holders:
            by_claim[claim] = tuple(pods[k] for k in sorted(holders))
        else:
            by_claim.pop(claim, None)
    index.by_claim = by_claim
