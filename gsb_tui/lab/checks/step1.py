"""Step 1, slices.txt: driver=, devices=, node=, model= as the ResourceSlices publish them."""

from __future__ import annotations

import re

from gsb_tui.dra.view import DraView
from gsb_tui.lab import cluster
from gsb_tui.lab.checks.common import key_values, kv_value, next_hint, waiting
from gsb_tui.lab.files import LabFiles
from gsb_tui.lab.steps import step
from gsb_tui.lab.verdict import SubCheck, Verdict, failed, not_yet, passed, verdict
from gsb_tui.snapshot import Kind
from gsb_tui.words import t

_SLICE_KEYS = ("driver", "devices", "node", "model")


def check_slices(view: DraView, files: LabFiles) -> Verdict:
    name = step(1).file
    file_sub, kv, started = key_values(files, name, _SLICE_KEYS)
    subs = [file_sub]
    block = cluster.blocked_reason(view, (Kind.SLICES,))
    if block is not None:
        return verdict(1, subs + cluster.blocked_all(_SLICE_KEYS, block), started)
    if not view.slices:
        subs += [not_yet(k, t("slices.none"), t("hint.wait_driver")) for k in _SLICE_KEYS]
        return verdict(1, subs, started)
    if kv is None or file_sub.ok is False:
        return verdict(1, subs + waiting(_SLICE_KEYS, name), started)
    published = view.drivers()
    values: dict[str, str] = {}
    for key in _SLICE_KEYS:
        value, problem = kv_value(kv, key, name, _SLICE_KEYS)
        if problem is not None:
            subs.append(problem)
        else:
            assert value is not None
            values[key] = value
    # Compare the other values with the driver the learner named, when it is a real one.
    driver = values.get("driver", "")
    if "driver" in values:
        if driver in published:
            subs.insert(1, passed("driver"))
        else:
            subs.insert(1, failed("driver", t("s1.driver", value=driver), t("hint.s1_driver")))
            driver = ""
    driver = driver or view.lab_driver()
    slices = [s for s in view.slices if s.driver == driver]
    devices = cluster.driver_devices(view, driver)
    if "devices" in values:
        subs.append(_devices_sub(values["devices"], len(devices), driver, len(slices)))
    if "node" in values:
        nodes = sorted({s.node for s in slices if s.node})
        given = [n.strip() for n in values["node"].split(",") if n.strip()]
        if values["node"] in nodes or (given and sorted(given) == nodes):
            subs.append(passed("node"))
        elif values["node"] in {s.name for s in slices} or values["node"] in {
            s.pool for s in slices
        }:
            subs.append(
                failed("node", t("s1.node_is_slice", value=values["node"]), t("hint.s1_node"))
            )
        else:
            subs.append(
                failed("node", t("s1.node", value=values["node"], driver=driver), t("hint.s1_node"))
            )
    if "model" in values:
        models = {str(m) for d in devices if (m := d.attribute("model")) is not None}
        if not models:
            subs.append(not_yet("model", t("s1.no_model", driver=driver)))
        elif values["model"] in models:
            subs.append(passed("model"))
        else:
            subs.append(
                failed(
                    "model", t("s1.model", value=values["model"], driver=driver), t("hint.s1_model")
                )
            )
    order = {"slices.txt": 0, **{k: i + 1 for i, k in enumerate(_SLICE_KEYS)}}
    subs.sort(key=lambda s: order.get(s.name, 99))
    return verdict(1, subs, started, next_hint(1))


def _devices_sub(value: str, expected: int, driver: str, slices: int) -> SubCheck:
    # At most 18 digits: a count of devices, and int() of a huge string raises (digit limit).
    if not re.fullmatch(r"\d{1,18}", value):
        shown = value if len(value) <= 40 else value[:40] + "…"
        return failed("devices", t("s1.devices_not_number", value=shown), t("hint.s1_devices"))
    if int(value) == expected:
        return passed("devices")
    return failed(
        "devices", t("s1.devices", value=value, driver=driver, slices=slices), t("hint.s1_devices")
    )
