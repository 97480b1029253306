"""DeviceTaintRules: taints an admin puts on devices from outside their slices. Served as
resource.k8s.io/v1 from 1.37 (GA, on), as v1beta2 in 1.36 only with DRADeviceTaintRules on and
the v1beta2 API enabled (the reflector reads whichever is served); when neither is, there are
simply no rules (the header and the slices pane say so).

A rule without `deviceSelector` taints every device in 1.36 and none from 1.37.1 (only an
explicit `deviceSelector: {}` selects all there). Which one a rule follows is read from the
version it was served at: v1 means 1.37 (1.37.0 served v1 with the old meaning: misjudged)."""

from __future__ import annotations

from dataclasses import dataclass

from gsb_tui.dra.model.base import DeviceId, _d, meta
from gsb_tui.dra.model.features import DeviceTaint, conditions
from gsb_tui.snapshot import Obj


@dataclass(frozen=True)
class TaintRule:
    name: str
    # spec.deviceSelector: an empty field matches every driver, pool or device
    driver: str
    pool: str
    device: str
    taint: DeviceTaint
    eviction_in_progress: bool  # status condition EvictionInProgress is True
    raw: Obj
    selects_nothing: bool = False  # no deviceSelector, read at v1 (1.37.1 on): matches none

    def selects(self, id: DeviceId) -> bool:
        if self.selects_nothing:
            return False
        return (
            (not self.driver or self.driver == id.driver)
            and (not self.pool or self.pool == id.pool)
            and (not self.device or self.device == id.device)
        )


def parse_taint_rule(obj: Obj) -> TaintRule:
    spec = _d(obj.get("spec"))
    selector = _d(spec.get("deviceSelector"))
    taint = _d(spec.get("taint"))
    found = conditions(_d(obj.get("status")).get("conditions"))
    return TaintRule(
        name=str(meta(obj).get("name") or ""),
        driver=str(selector.get("driver") or ""),
        pool=str(selector.get("pool") or ""),
        device=str(selector.get("device") or ""),
        taint=DeviceTaint(
            str(taint.get("key") or ""),
            str(taint.get("value") or ""),
            str(taint.get("effect") or ""),
            str(taint.get("timeAdded") or ""),
        ),
        eviction_in_progress=any(
            c.type == "EvictionInProgress" and c.status == "True" for c in found
        ),
        raw=obj,
        selects_nothing=spec.get("deviceSelector") is None
        and str(obj.get("apiVersion") or "") == "resource.k8s.io/v1",
    )
