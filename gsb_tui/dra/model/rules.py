"""DeviceTaintRules: taints an admin puts on devices from outside their slices. Served as
resource.k8s.io/v1 from 1.37 (GA, on), as v1beta2 in 1.36 only with DRADeviceTaintRules on and
the v1beta2 API enabled (the reflector reads whichever is served); when neither is, there are
simply no rules (the header and the slices pane say so).

A rule without `deviceSelector` taints every device in 1.36 and none from 1.37.1 (only an
explicit `deviceSelector: {}` selects all there). Which one a rule follows is read from the
version it was served at: v1 means 1.37 (1.37.0 served v1 with the old meaning: misjudged)."""

from __future__ import annotations

from dataclasses import dataclass

from gsb_tui.dra.model.base import DeviceId
from gsb_tui.dra.model.features import DeviceTaint, conditions, taint
from gsb_tui.dra.model.fields import Bad, FieldProblem, ident, mapping, string
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
    problems: tuple[FieldProblem, ...] = ()  # fields of the wrong type (model/fields.py)

    def selects(self, id: DeviceId) -> bool:
        if self.selects_nothing:
            return False
        return (
            (not self.driver or self.driver == id.driver)
            and (not self.pool or self.pool == id.pool)
            and (not self.device or self.device == id.device)
        )


def parse_taint_rule(obj: Obj) -> TaintRule:
    bad: Bad = []
    m = mapping(obj.get("metadata"), "metadata", bad)
    spec = mapping(obj.get("spec"), "spec", bad)
    selector = mapping(spec.get("deviceSelector"), "spec.deviceSelector", bad)
    taint_spec = mapping(spec.get("taint"), "spec.taint", [])
    mine: Bad = []
    found_taint = taint(taint_spec, mine)
    bad.extend(p.under("spec.taint") for p in mine)
    status = mapping(obj.get("status"), "status", bad)
    found = conditions(status.get("conditions"), "status.conditions", bad)
    return TaintRule(
        name=ident(m.get("name"), "metadata.name", bad),
        driver=string(selector.get("driver"), "spec.deviceSelector.driver", bad),
        pool=string(selector.get("pool"), "spec.deviceSelector.pool", bad),
        device=string(selector.get("device"), "spec.deviceSelector.device", bad),
        taint=found_taint,
        eviction_in_progress=any(
            c.type == "EvictionInProgress" and c.status == "True" for c in found
        ),
        raw=obj,
        selects_nothing=spec.get("deviceSelector") is None
        and obj.get("apiVersion") == "resource.k8s.io/v1",
        problems=tuple(bad),
    )
