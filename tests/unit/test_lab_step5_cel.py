"""Step 5's selector sub-check, judged by evaluating the learner's CEL on the recorded devices.

The devices, their `index` values and the class come from the recorded lab (tests/recorded.py);
the expected picks are computed from the view, never written down here.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import NoReturn

import pytest

from gsb_tui.dra import cel
from gsb_tui.dra.builder import build_view
from gsb_tui.dra.view import DraView
from gsb_tui.lab import checks, example_text, selectors
from gsb_tui.lab.files import LabFiles
from gsb_tui.lab.verdict import SubCheck, Verdict
from gsb_tui.snapshot import Kind
from tests.recorded import snap, view

DECLARED = "pick.yaml: pick-seven"
INDEX = "device.attributes['gpu.example.com'].index"
SELECTOR_BLOCK = re.compile(r"        selectors:\n(?:        - cel:\n(?:            .*\n)+)+")


@pytest.fixture
def lab(tmp_path: Path) -> Path:
    d = tmp_path / "gsb-dra"
    d.mkdir()
    return d


def write_pick(lab: Path, *expressions: str) -> None:
    """The lab's example pick.yaml with its selectors replaced by `expressions`."""
    entries = "".join(
        f"        - cel:\n            expression: {json.dumps(e)}\n" for e in expressions
    )
    text, n = SELECTOR_BLOCK.subn("        selectors:\n" + entries, example_text("pick.yaml"))
    assert n == 1
    (lab / "pick.yaml").write_text(text)


def check(v: DraView, lab: Path) -> Verdict:
    return checks.check_pick(v, LabFiles(lab))


def declared(v: Verdict) -> SubCheck:
    return next(s for s in v.subchecks if s.name == DECLARED)


def names_where(v: DraView, keep: str) -> list[str]:
    """Devices of the lab driver whose int `index` passes `keep` (e.g. ">= 6"), in view order."""
    op, bound = keep.split()
    compare = {">=": int.__ge__, "==": int.__eq__}[op]
    return [
        d.name
        for d in v.devices
        if d.id.driver == v.lab_driver()
        and type(i := d.attribute("index")) is int
        and compare(i, int(bound))
    ]


# ---------------------------------------------------------------- however it is written


@pytest.mark.parametrize("mark", ["step-5", "step-8"])
@pytest.mark.parametrize(
    "expressions",
    [
        (f"{INDEX} == 7",),
        (f"{INDEX} > 6",),
        (f"{INDEX} in [7]",),
        (f"7 == {INDEX}",),
        (f"{INDEX} == 7 && device.driver == 'gpu.example.com'",),
        (f"{INDEX} >= 6", f"{INDEX} != 6"),  # every selector must admit it, as in the scheduler
    ],
)
def test_selectors_that_pick_index_7_are_green(
    mark: str, expressions: tuple[str, ...], lab: Path
) -> None:
    write_pick(lab, *expressions)
    sub = declared(check(view(mark), lab))
    assert sub.ok is True, sub.reason


def test_step_5_is_green_with_a_comparison_the_text_reading_refused(lab: Path) -> None:
    expression = f"{INDEX} > 6"
    # What the regexes said before: this correct selector "does not compare index with 7".
    assert selectors.selects_value(expression, "gpu.example.com", "index", 7) is not None
    write_pick(lab, expression)
    v = check(view("step-5"), lab)
    assert v.ok, v.reason


def test_a_selector_that_picks_more_names_the_devices(lab: Path) -> None:
    v = view("step-5")
    picked = names_where(v, ">= 6")
    assert len(picked) > 1 and names_where(v, "== 7")[0] in picked
    write_pick(lab, f"{INDEX} >= 6")
    sub = declared(check(v, lab))
    assert sub.ok is False and sub.reason.key == "cel.picks_other"
    assert f"admits {len(picked)} of the {len(v.devices)} devices" in sub.reason
    assert f": {', '.join(picked)};" in sub.reason
    assert ", ".join(picked) in sub.reason.lang("ko") and "고릅니다" in sub.reason.lang("ko")


def test_the_right_text_inside_a_wrong_selector_is_not_green(lab: Path) -> None:
    v = view("step-5")
    expression = f"{INDEX} == 7 || {INDEX} == 6"
    assert selectors.selects_value(expression, "gpu.example.com", "index", 7) is None
    write_pick(lab, expression)
    sub = declared(check(v, lab))
    assert sub.ok is False and sub.reason.key == "cel.picks_other"
    assert f"admits 2 of the {len(v.devices)} devices" in sub.reason


def test_a_selector_that_picks_many_names_a_few(lab: Path) -> None:
    v = view("step-5")
    picked = names_where(v, ">= 1")
    assert len(picked) > 4
    write_pick(lab, f"{INDEX} >= 1")
    sub = declared(check(v, lab))
    assert sub.reason.key == "cel.picks_other"
    assert f"{', '.join(picked[:4])} and {len(picked) - 4} more" in sub.reason
    assert f"외 {len(picked) - 4}개" in sub.reason.lang("ko")
    assert picked[-1] not in sub.reason.split(";")[0]


def test_a_selector_that_picks_another_device(lab: Path) -> None:
    v = view("step-5")
    write_pick(lab, f"{INDEX} == 6")
    sub = declared(check(v, lab))
    assert sub.reason.key == "cel.picks_other"
    assert f": {names_where(v, '== 6')[0]};" in sub.reason
    assert sub.reason.endswith(f"index == 7: {names_where(v, '== 7')[0]}")


def test_quoted_integer_picks_nothing(lab: Path) -> None:
    write_pick(lab, f"{INDEX} == '7'")
    sub = declared(check(view("step-5"), lab))
    assert sub.ok is False and sub.reason.key == "cel.quoted_int"
    assert "without quotes" in sub.reason


def test_no_device_without_a_known_mistake(lab: Path) -> None:
    v = view("step-5")
    write_pick(lab, f"{INDEX} == 70")
    sub = declared(check(v, lab))
    assert sub.reason.key == "cel.picks_none"
    assert f"none of the {len(v.devices)} devices" in sub.reason
    assert sub.reason.endswith(names_where(v, "== 7")[0])


def test_wrong_domain_is_a_runtime_error(lab: Path) -> None:
    v = view("step-5")
    write_pick(lab, "device.attributes['example.com'].index == 7")
    sub = declared(check(v, lab))
    assert sub.ok is False and sub.reason.key == "cel.runtime_error"
    assert "no such key: index" in sub.reason and "allocates nothing" in sub.reason
    assert f"first on {v.devices[0].name}" in sub.reason
    assert "no such key: index" in sub.reason.lang("ko") and "스케줄러" in sub.reason.lang("ko")


def test_attribute_without_domain_keeps_the_admission_explanation(lab: Path) -> None:
    write_pick(lab, "device.attributes.index == 7")
    sub = declared(check(view("step-5"), lab))
    assert sub.ok is False and sub.reason.key == "mistake.attr_no_domain"
    assert "device.attributes['gpu.example.com'].index" in sub.reason
    assert "rejects this expression" in sub.reason
    # Before pick-seven exists, the cluster row says why: the API server refused it.
    v = check(view("step-4"), lab)
    cluster = next(s for s in v.subchecks if s.name == "cluster: pick-seven")
    assert cluster.reason.key == "mistake.rejected"


def test_other_compile_errors_quote_the_api_server(lab: Path) -> None:
    write_pick(lab, f"{INDEX} ==")
    v = check(view("step-4"), lab)
    sub = declared(v)
    assert sub.reason.key == "cel.rejected" and "Syntax error" in sub.reason
    assert "\n" not in sub.reason and "거절" in sub.reason.lang("ko")
    cluster = next(s for s in v.subchecks if s.name == "cluster: pick-seven")
    assert cluster.reason.key == "mistake.rejected"


# ---------------------------------------------------------------- when the cluster cannot tell


def without_devices(mark: str) -> DraView:
    recorded = snap(mark)
    return build_view(replace(recorded, objects={**recorded.objects, Kind.SLICES: {}}))


def test_no_devices_falls_back_to_reading_the_text(lab: Path) -> None:
    v = without_devices("step-5")
    assert not v.devices and v.classes
    write_pick(lab, f"{INDEX} == 7")
    assert declared(check(v, lab)).ok is True
    write_pick(lab, f"{INDEX} > 6")  # the text reading cannot see that this is the same
    sub = declared(check(v, lab))
    assert sub.ok is False and sub.reason.key == "cel.not_value"
    write_pick(lab, "device.attributes['example.com'].index == 7")
    assert declared(check(v, lab)).reason.key == "cel.wrong_domain"


def test_no_cel_library_falls_back_to_reading_the_text(
    lab: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def missing() -> NoReturn:
        raise ImportError("No module named 'cel'")

    monkeypatch.setattr(cel, "library", missing)
    write_pick(lab, f"{INDEX} > 6")
    sub = declared(check(view("step-5"), lab))
    assert sub.ok is False and sub.reason.key == "cel.not_value"
    write_pick(lab, f"{INDEX} == 7")
    assert declared(check(view("step-5"), lab)).ok is True


def test_text_reading_tells_a_wrong_domain_from_an_admission_mistake() -> None:
    """The fallback reading agrees with the cluster (tests/e2e/test_cel_parity.py): reading
    further under attributes['index'] compiles and fails at scheduling; comparing the map
    itself is refused at admission."""
    driver = "gpu.example.com"
    further = selectors.mistake("device.attributes['index'].index == 7", driver)
    assert further is not None and further.key == "cel.wrong_domain"
    assert not selectors.rejected_at_admission("device.attributes['index'].index == 7", driver)
    assert selectors.rejected_at_admission("device.attributes['index'] == 7", driver)
    assert selectors.rejected_at_admission("device.attributes.index == 7", driver)
