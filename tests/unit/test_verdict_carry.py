"""An AllocatorSession's verdicts carry over to a newer view whose allocation parts are the
same objects (an event came, nothing the allocator reads changed), and are decided again when
a part changed: at 10,000 devices an event a second must not re-judge a pending pod each time;
a fresh session shares nothing."""

from __future__ import annotations

import copy
from typing import Any

from gsb_tui.dra.alloc import verdicts as verdicts_module
from gsb_tui.dra.alloc.verdicts import AllocatorSession
from gsb_tui.dra.builder import ViewBuilder
from gsb_tui.dra.view import DraView
from gsb_tui.snapshot import Kind, Snapshot, obj_key
from tests.recorded import snap


def _with(base: Snapshot, kind: Kind, obj: dict[str, Any]) -> Snapshot:
    objects = {k: dict(v) for k, v in base.objects.items()}
    objects.setdefault(kind, {})[obj_key(obj)] = obj
    return Snapshot(objects=objects, states=base.states, server_version=base.server_version)


def _pending(view: DraView) -> Any:
    pods = [p for p in view.pods.values() if p.pending and view.claims_of_pod(p)]
    assert pods, "the recording's step-8 has a pending pod (dra-big)"
    return pods[0]


def test_an_event_keeps_the_verdict_and_a_claim_change_does_not() -> None:
    base = snap("step-8")
    session, builder = AllocatorSession(), ViewBuilder()
    first = builder.build(base)
    pod = _pending(first)
    verdict = session.verdicts(first, 10.0).pod(pod)
    assert verdict is not None and verdict.fits is False

    event = copy.deepcopy(next(iter(base.objects[Kind.EVENTS].values())))
    event["metadata"]["name"] = "one-more-event"
    second = builder.build(_with(base, Kind.EVENTS, event))
    assert session.verdicts(second, 10.0).pod(_pending(second), decide=False) is verdict
    assert AllocatorSession().verdicts(second, 10.0).pod(_pending(second), decide=False) is None

    claim = copy.deepcopy(next(iter(base.objects[Kind.CLAIMS].values())))
    claim["metadata"]["name"] = "another-claim"
    third = builder.build(_with(base, Kind.CLAIMS, claim))
    assert session.verdicts(third, 10.0).pod(_pending(third), decide=False) is None
    again = session.verdicts(third, 10.0).pod(_pending(third))
    assert again is not None and again.fits == verdict.fits


def test_verdicts_do_not_carry_past_their_time(monkeypatch: Any) -> None:
    base = snap("step-8")
    session, builder = AllocatorSession(), ViewBuilder()
    first = builder.build(base)
    assert session.verdicts(first, 10.0).pod(_pending(first)) is not None
    monkeypatch.setattr(verdicts_module, "CARRY_S", 0.0)
    event = copy.deepcopy(next(iter(base.objects[Kind.EVENTS].values())))
    event["metadata"]["name"] = "later-event"
    second = builder.build(_with(base, Kind.EVENTS, event))
    assert session.verdicts(second, 10.0).pod(_pending(second), decide=False) is None
