"""Pods and events read across namespaces are kept only when they are about DRA (the lab's
namespace whole): a cluster's other pods do not fill gsb-tui's memory."""

from __future__ import annotations

import asyncio
import copy
import json
from typing import Any

from gsb_tui.kube.dra_scope import event_filter, pod_filter, uses_dra
from gsb_tui.kube.pages import Fetched
from gsb_tui.kube.reflector import Reflector
from gsb_tui.snapshot import KINDS, Kind
from tests.recorded import snap

LAB = "dra-lab"


def _recorded_pods() -> list[dict[str, Any]]:
    return [copy.deepcopy(dict(p)) for p in snap("step-8").items(Kind.PODS)]


def _elsewhere(pod: dict[str, Any], namespace: str, dra: bool) -> dict[str, Any]:
    pod = copy.deepcopy(pod)
    pod["metadata"]["namespace"] = namespace
    if not dra:
        pod["spec"].pop("resourceClaims", None)
        pod.get("status", {}).pop("resourceClaimStatuses", None)
        for c in pod["spec"].get("containers", []):
            c.get("resources", {}).pop("claims", None)
    return pod


def test_the_lab_namespace_is_kept_whole_elsewhere_only_dra_pods() -> None:
    pods = _recorded_pods()
    with_claims = next(p for p in pods if p["spec"].get("resourceClaims"))
    keep = pod_filter(LAB)
    assert all(keep(p) for p in pods)  # the lab's namespace: every pod
    assert keep(_elsewhere(with_claims, "team-b", dra=True))
    assert not keep(_elsewhere(with_claims, "team-b", dra=False))
    plain = _elsewhere(with_claims, "team-b", dra=False)
    plain["spec"]["containers"][0].setdefault("resources", {})["limits"] = {"cpu": "1"}
    assert not uses_dra(plain)
    plain["spec"]["containers"][0]["resources"]["limits"]["example.com/gpu"] = "1"
    assert uses_dra(plain)  # an extended resource may be DRA-backed: the allocator decides


def test_events_elsewhere_only_about_dra() -> None:
    events = [copy.deepcopy(dict(e)) for e in snap("step-8").items(Kind.EVENTS)]
    keep = event_filter(LAB)
    assert events and all(keep(e) for e in events)
    failed = next(e for e in events if e.get("reason") == "FailedScheduling")
    moved = {**failed, "metadata": {**failed["metadata"], "namespace": "team-b"}}
    assert keep(moved)
    moved["reason"] = "Pulled"
    assert not keep(moved)


class _Pages:
    """A transport answering one list page."""

    def __init__(self, items: list[dict[str, Any]]) -> None:
        body = {"kind": "PodList", "metadata": {"resourceVersion": "7"}, "items": items}
        self.body = json.dumps(body).encode()

    async def fetch(self, *_args: Any) -> Fetched:
        return Fetched(200, "OK", "application/json", self.body)

    async def close(self) -> None:
        return None


def _listed(items: list[dict[str, Any]], changes: list[Any]) -> Reflector:
    """A pods reflector across namespaces with the lab's scope, listed once from `items`."""
    reflector = Reflector(
        _Pages(items),  # type: ignore[arg-type]
        KINDS[Kind.PODS],
        changes.append,
        namespace=LAB,
        all_namespaces_first=True,
        scope=pod_filter(LAB),
    )
    asyncio.run(reflector.list())
    return reflector


def test_a_reflector_across_namespaces_stores_only_what_it_keeps() -> None:
    pods = _recorded_pods()
    with_claims = next(p for p in pods if p["spec"].get("resourceClaims"))
    other = [_elsewhere(with_claims, "team-b", dra=False), _elsewhere(with_claims, "team-c", True)]
    changes: list[Any] = []
    _listed(pods + other, changes)
    (synced,) = [c for c in changes if c.type == "SYNCED"]
    kept = {(p["metadata"]["namespace"], p["metadata"]["name"]) for p in synced.items}
    assert kept == {(p["metadata"]["namespace"], p["metadata"]["name"]) for p in pods} | {
        ("team-c", with_claims["metadata"]["name"])
    }


def test_the_watch_passes_what_the_scope_keeps_and_deletes_what_leaves_it() -> None:
    pods = _recorded_pods()
    with_claims = next(p for p in pods if p["spec"].get("resourceClaims"))
    plain, dra = (
        _elsewhere(with_claims, "team-b", dra=False),
        _elsewhere(with_claims, "team-c", True),
    )
    changes: list[Any] = []
    reflector = _listed([], changes)

    def event(etype: str, obj: dict[str, Any]) -> list[tuple[str, str]]:
        changes.clear()
        reflector._event(json.dumps({"type": etype, "object": obj}).encode(), "1", "json")
        return [(c.type, c.obj["metadata"]["namespace"]) for c in changes]

    assert event("ADDED", plain) == []  # not about DRA: never stored
    assert event("ADDED", dra) == [("ADDED", "team-c")]
    assert event("MODIFIED", dra) == [("MODIFIED", "team-c")]
    left = _elsewhere(dra, "team-c", dra=False)  # a change that leaves the scope
    assert event("MODIFIED", left) == [("DELETED", "team-c")]
    assert event("MODIFIED", left) == []  # already gone
    assert event("DELETED", plain) == []  # never kept: nothing to delete
    assert event("ADDED", with_claims) == [("ADDED", LAB)]  # the lab's namespace: kept whole
    assert event("DELETED", with_claims) == [("DELETED", LAB)]
