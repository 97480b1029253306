"""Typed at the boundary: each reader of dra/model/fields.py, and the cases issue 26 measured
(a count, a pool generation, a slice count of the wrong type; a lone surrogate in an attribute;
a slice whose spec is a list), read into a view that keeps the object and says which field is
wrong and what was expected."""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import pytest

from gsb_tui.check_cli import malformed_findings
from gsb_tui.dra.builder import build_view
from gsb_tui.dra.cel import evaluate_all
from gsb_tui.dra.model import fields as f
from gsb_tui.dra.model import parse_pod, parse_slice
from gsb_tui.dra.model.malformed import as_json, object_text
from gsb_tui.dra.view import DraView
from gsb_tui.snapshot import Kind, Snapshot, obj_key
from gsb_tui.why_cli import answer
from tests.recorded import snap

WRONG: list[Any] = ["v2", ["x"], {"a": 1}, math.nan, math.inf, -math.inf, 10**400, 1.5, True]
SURROGATES = ["\ud800", "x\udc80y"]


def reading(reader: Any, value: Any, *more: Any) -> tuple[Any, list[f.FieldProblem]]:
    bad: list[f.FieldProblem] = []
    return reader(value, "spec.x", bad, *more), bad


@pytest.mark.parametrize("value", WRONG, ids=repr)
def test_an_integer_of_the_wrong_type_is_absent_and_said(value: Any) -> None:
    got, bad = reading(f.integer, value, 7)
    assert got == 7 and len(bad) == 1
    assert bad[0].path == "spec.x" and bad[0].expected == "integer"


def test_what_a_wrong_value_is_called() -> None:
    said = {repr(v): f.found(v)[0] for v in [*WRONG, "\ud800", 2**63, 3.0]}
    assert said == {
        "'v2'": "string",
        "['x']": "list",
        "{'a': 1}": "map",
        "nan": "nan",
        "inf": "infinity",
        "-inf": "-infinity",
        repr(10**400): "huge",
        "1.5": "number",
        "True": "boolean",
        "'\\ud800'": "surrogate",
        repr(2**63): "out-of-range",
        "3.0": "number",
    }
    assert f.found(10**400) == ("huge", "401")


def test_absent_is_never_malformed() -> None:
    for reader in (f.integer, f.string, f.ident, f.flag, f.mapping, f.items, f.quantity):
        _, bad = reading(reader, None)
        assert bad == []


@pytest.mark.parametrize("value", SURROGATES, ids=repr)
def test_a_lone_surrogate_is_spelled_out_and_said(value: Any) -> None:
    got, bad = reading(f.string, value)
    assert got == value.encode("utf-8", "backslashreplace").decode() and got.encode()
    assert [(p.expected, p.found) for p in bad] == [("string", "surrogate")]
    name, bad = reading(f.ident, value)  # a name stays as the Store keys it, and is said
    assert name == value and len(bad) == 1


def test_quantities_maps_lists_and_flags() -> None:
    assert reading(f.quantity, "80Gi") == ("80Gi", [])
    assert reading(f.quantity, 3) == ("3", [])
    for wrong in ("lots", math.nan, [1], 10**400, True):
        assert reading(f.quantity, wrong)[0] is None and reading(f.quantity, wrong)[1]
    assert reading(f.mapping, ["x"])[0] == {} and reading(f.items, {"a": 1})[0] == []
    assert reading(f.flag, "true") == (
        False,
        [f.FieldProblem("spec.x", "boolean", "string", "'true'")],
    )
    got, bad = reading(f.strings, ["a", 5, "\ud800", None])
    assert got == ("a",) and [p.path for p in bad] == ["spec.x[1]", "spec.x[2]"]


def replaced(kind: Kind, change: Any, mark: str = "step-8") -> Snapshot:
    base = snap(mark)
    objects = {k: dict(v) for k, v in base.objects.items()}
    for key, obj in list(objects[kind].items()):
        obj = copy.deepcopy(dict(obj))
        change(obj)
        del objects[kind][key]
        objects[kind][obj_key(obj)] = obj
    return Snapshot(objects=objects, states=base.states, server_version=base.server_version)


def said(view: DraView) -> dict[tuple[str, str], list[tuple[str, str, str]]]:
    return {
        (m.object_kind, m.name): [(p.path, p.expected, p.found) for p in m.problems]
        for m in view.malformed()
    }


@pytest.mark.parametrize("value", WRONG, ids=repr)
def test_a_claim_count_of_the_wrong_type_is_a_malformed_claim(value: Any) -> None:
    def change(claim: dict[str, Any]) -> None:
        for request in claim["spec"]["devices"]["requests"]:
            request["exactly"]["count"] = value

    s = replaced(Kind.CLAIMS, change)
    view = build_view(s)
    assert len(view.claims) == len(s.objects[Kind.CLAIMS])  # every claim kept
    found = said(view)
    assert len(found) == len(view.claims)
    for problems in found.values():
        assert ("spec.devices.requests[0].exactly.count", "integer") in {p[:2] for p in problems}
    (pending,) = [p for p in view.pods.values() if not p.node]
    out = answer(view, pending.namespace, pending.name, "en")
    assert out["found"] and isinstance(out["fits"], bool)
    assert any("exactly.count: expected an integer" in m["text"] for m in out["malformed"])


@pytest.mark.parametrize("value", WRONG, ids=repr)
def test_a_pool_generation_of_the_wrong_type_is_a_malformed_slice(value: Any) -> None:
    def change(slice_: dict[str, Any]) -> None:
        slice_["spec"]["pool"]["generation"] = value
        slice_["spec"]["pool"]["resourceSliceCount"] = value

    view = build_view(replaced(Kind.SLICES, change))
    assert view.slices and view.devices  # kept, its devices shown
    for name, problems in said(view).items():
        assert name[0] == "ResourceSlice"
        assert {p[0] for p in problems} == {"spec.pool.generation", "spec.pool.resourceSliceCount"}
    text = object_text(view.malformed()[0], "ko")
    assert "spec.pool.generation: 정수 자리에" in text


@pytest.mark.parametrize("value", SURROGATES, ids=repr)
def test_a_lone_surrogate_in_an_attribute_is_said_and_selectors_still_answer(value: str) -> None:
    def change(slice_: dict[str, Any]) -> None:
        slice_["spec"]["devices"][0]["attributes"]["model"] = {"string": value}
        slice_["spec"]["devices"][1]["attributes"][f"gpu.example.com/{value}"] = {"int": 1}

    view = build_view(replaced(Kind.SLICES, change))
    first, second = view.devices[0], view.devices[1]
    assert "model" not in first.attributes
    assert first.problems[0].path == "spec.devices[0].attributes.model.string"
    assert second.problems[0].found == "surrogate"
    outcomes = evaluate_all(["device.attributes['gpu.example.com'].model == 'x'"], view.devices)
    assert len(outcomes) == len(view.devices)  # every device answered, none raised
    json.dumps(as_json(view.malformed()[0], "en"), ensure_ascii=False).encode()


def test_a_slice_whose_spec_is_a_list_is_kept_and_said() -> None:
    s = replaced(Kind.SLICES, lambda obj: obj.__setitem__("spec", ["not", "a", "map"]))
    view = build_view(s)
    (found,) = view.malformed()
    assert found.kind == Kind.SLICES and found.problems[0].path == "spec"
    assert object_text(found, "en").endswith("spec: expected a map, found a list")
    assert view.slices[0].name == found.name and not view.devices
    (finding,) = malformed_findings(view)
    assert finding.code == "malformed" and finding.subject.startswith("ResourceSlice ")
    assert "spec: expected a map" in finding.reason and "맵 자리에 목록" in finding.reason.ko


def test_a_pod_with_wrong_types_keeps_its_claims_and_gates() -> None:
    pod = copy.deepcopy(dict(snap("step-8").items(Kind.PODS)[0]))
    pod["spec"]["schedulingGates"] = [5, {"name": "ok"}]
    pod["status"]["phase"] = ["Running"]
    parsed = parse_pod(pod)
    assert parsed.scheduling_gates == ("", "ok") and parsed.phase == ""
    assert {p.path for p in parsed.problems} == {"spec.schedulingGates[0]", "status.phase"}
    assert parsed.claims  # the rest is read


def test_a_well_formed_recording_has_no_malformed_object() -> None:
    for mark in ("step-1", "step-8", "mistake-1"):
        assert build_view(snap(mark)).malformed() == ()
    for obj in snap("step-8").items(Kind.SLICES):
        assert parse_slice(obj).problems == ()
