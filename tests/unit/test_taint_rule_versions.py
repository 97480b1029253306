"""DeviceTaintRules wherever the server serves them, meaning what that version means: v1 (1.37,
GA) first, then v1beta2 (1.36 behind its gate); a rule without deviceSelector taints every
device at v1beta2 (1.36) and none at v1 (1.37.1 on), `deviceSelector: {}` all at both."""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest

from gsb_tui.dra.alloc.from_view import inputs_of
from gsb_tui.dra.builder import build_view
from gsb_tui.kube.pages import Fetched
from gsb_tui.kube.reflector import Reflector
from gsb_tui.snapshot import KINDS, Kind, Snapshot, obj_key
from tests.recorded import profile_snap

BASE = profile_snap("taints", "evicted")


def _with_rule(api_version: str, selector: Any) -> Snapshot:
    (rule,) = [copy.deepcopy(dict(r)) for r in BASE.items(Kind.TAINT_RULES)]
    rule["apiVersion"] = api_version
    if selector is None:
        rule["spec"].pop("deviceSelector", None)
    else:
        rule["spec"]["deviceSelector"] = selector
    objects = {k: dict(v) for k, v in BASE.objects.items()}
    objects[Kind.TAINT_RULES] = {obj_key(rule): rule}
    return Snapshot(objects=objects, states=BASE.states)


def _tainted(s: Snapshot) -> set[str]:
    """The devices the rule taints, as the grid's facts and as the allocator reads them."""
    view = build_view(s)
    rule_taint = next(iter(view.taint_rules)).taint
    by_view = {
        d.id.device
        for d in view.devices
        if (found := view.availability.get(d.id)) is not None and rule_taint in found.taints
    }
    inputs = inputs_of(view)
    by_allocator = {
        d.id.device for sl in inputs.slices for d in sl.devices if rule_taint in d.taints
    }
    assert by_view == by_allocator
    return by_allocator


def test_a_rule_without_selector_means_what_its_version_means() -> None:
    every = {d["name"] for s in BASE.items(Kind.SLICES) for d in (s["spec"].get("devices") or [])}
    assert _tainted(_with_rule("resource.k8s.io/v1beta2", None)) == every  # 1.36
    assert _tainted(_with_rule("resource.k8s.io/v1", None)) == set()  # 1.37.1 on
    assert _tainted(_with_rule("resource.k8s.io/v1", {})) == every
    assert _tainted(_with_rule("resource.k8s.io/v1beta2", {})) == every


class _Server:
    """Answers list pages by path: `served` versions 200, the others 404."""

    def __init__(self, served: set[str]) -> None:
        self.served = served
        self.asked: list[str] = []

    async def fetch(self, path: str, *_args: Any) -> Fetched:
        self.asked.append(path)
        version = path.split("/")[3]
        if version not in self.served:
            return Fetched(404, "Not Found", "text/plain", b"404 page not found")
        body = b'{"kind": "DeviceTaintRuleList", "metadata": {"resourceVersion": "3"}, "items": []}'
        return Fetched(200, "OK", "application/json", body)


def _run_until(reflector: Reflector, changes: list[Any], kind: str) -> None:
    """Run the reflector until it emits a change of `kind` (at most a second)."""

    async def run() -> None:
        task = asyncio.ensure_future(reflector.run())
        for _ in range(100):
            if any(c.type == kind for c in changes):
                break
            await asyncio.sleep(0.01)
        task.cancel()

    asyncio.run(run())


@pytest.mark.parametrize(("served", "read"), [({"v1", "v1beta2"}, "v1"), ({"v1beta2"}, "v1beta2")])
def test_the_newest_served_version_is_read(served: set[str], read: str) -> None:
    server = _Server(served)
    changes: list[Any] = []
    reflector = Reflector(server, KINDS[Kind.TAINT_RULES], changes.append, watching=False)  # type: ignore[arg-type]
    _run_until(reflector, changes, "SYNCED")
    assert any(c.type == "SYNCED" for c in changes)
    assert reflector.info.version == read
    assert server.asked[-1] == f"/apis/resource.k8s.io/{read}/devicetaintrules"
    assert [c for c in changes if c.type == "STATE" and c.state.phase == "not-served"] == []


def test_not_served_at_any_version_says_every_version_tried() -> None:
    server = _Server(set())
    changes: list[Any] = []
    reflector = Reflector(server, KINDS[Kind.TAINT_RULES], changes.append, watching=False)  # type: ignore[arg-type]
    _run_until(reflector, changes, "STATE")
    (state,) = [c.state for c in changes if c.type == "STATE"]
    assert state.phase == "not-served" and "resource.k8s.io/v1 / v1beta2" in state.message
    assert [p.split("/")[3] for p in server.asked] == ["v1", "v1beta2"]
    assert reflector.info.version == "v1"  # asked again from the newest after the wait
