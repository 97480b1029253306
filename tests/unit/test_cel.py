"""CEL device selectors on recorded devices, with Kubernetes' semantics.

Devices, classes, claims and selector text come from tests/fixtures/lab.jsonl (a real 1.36
control plane); expected matches are derived from the recorded attributes, never written in.
The compile error of the lab's common mistake is compared with the text the real API server
printed (docs/CLUSTER-FACTS.md).
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import re
from fractions import Fraction
from pathlib import Path

import pytest

from gsb_tui.dra.cel import (
    CelCompileError,
    CelOutcome,
    CelSession,
    CelUnsupportedError,
    compile_selector,
    evaluate_all,
    explain_request,
)
from gsb_tui.dra.cel.quantity import MAX_INT64, QuantityError, parse_quantity
from gsb_tui.dra.cel.semver import SemverError, parse_semver
from gsb_tui.dra.model import (
    Device,
    DeviceClass,
    DeviceId,
    parse_claim,
    parse_class,
    parse_pod,
    parse_slice,
)
from gsb_tui.kube.recording import snapshot_at
from gsb_tui.snapshot import Kind
from gsb_tui.ui.render.explain import request_shortfall, request_summary  # the words for a preview
from tests.recorded import RECORDING, snap

ROOT = Path(__file__).resolve().parents[2]
CLUSTER_FACTS = ROOT / "docs" / "CLUSTER-FACTS.md"


def devices(mark: str = "step-0") -> list[Device]:
    return [d for s in map(parse_slice, snap(mark).items(Kind.SLICES)) for d in s.devices]


def device_class(mark: str = "step-0") -> DeviceClass:
    (cls,) = [parse_class(o) for o in snap(mark).items(Kind.CLASSES)]
    return cls


def driver() -> str:
    (name,) = {d.id.driver for d in devices()}
    return name


def raw_attr(device: Device, name: str) -> object:
    (value,) = dict(device.raw["attributes"][name]).values()
    return value


def matched(expression: str, devs: list[Device]) -> set[DeviceId]:
    selector = compile_selector(expression)
    return {d.id for d in devs if selector.evaluate(d).matched}


# --- selectors from the recording ---------------------------------------------------------------


def test_device_class_selector_as_served_matches_every_device_of_its_driver() -> None:
    cls = device_class()
    devs = devices()
    assert cls.selectors, "the recorded DeviceClass has a selector"
    # dra-example-driver names its class after the driver.
    expected = {d.id for d in devs if d.id.driver == cls.name}
    assert expected and expected == {d.id for d in devs}
    result = evaluate_all(cls.selectors, devs)
    assert {i for i, o in result.items() if o.matched} == expected
    assert all(o.error == "" for o in result.values())


def test_pick_seven_selector_matches_only_the_device_with_index_seven() -> None:
    claims = {c.name: c for c in map(parse_claim, snap("step-5").items(Kind.CLAIMS))}
    pick = claims["pick-seven"]
    (request,) = pick.requests
    (expression,) = request.selectors
    devs = devices("step-5")
    with_seven = {d.id for d in devs if raw_attr(d, "index") == 7}
    assert len(with_seven) == 1
    assert matched(expression, devs) == with_seven
    # The real scheduler chose from the same set.
    assert set(pick.devices) <= with_seven


def test_model_selector_with_the_recorded_model_matches_all() -> None:
    devs = devices()
    (model,) = {raw_attr(d, "model") for d in devs}
    expression = f"device.attributes['{driver()}'].model == '{model}'"
    assert matched(expression, devs) == {d.id for d in devs}
    other = f"device.attributes['{driver()}'].model == '{model}-other'"
    assert matched(other, devs) == set()


def test_memory_capacity_compared_as_quantity() -> None:
    devs = devices()
    expression = f"device.capacity['{driver()}'].memory.compareTo(quantity('4Gi')) >= 0"
    memory = {d.id: parse_quantity(d.capacity["memory"]).value for d in devs}
    expected = {i for i, v in memory.items() if v >= 4 * 2**30}
    assert expected  # the example driver's GPUs are bigger than 4Gi
    assert matched(expression, devs) == expected
    biggest = max(memory.values())
    above = f"device.capacity['{driver()}'].memory.isGreaterThan(quantity('{biggest}'))"
    assert matched(above, devs) == set()
    # Equality is by value, not by spelling: the same amount in Ki.
    same = f"device.capacity['{driver()}'].memory == quantity('{biggest / 1024}Ki')"
    assert matched(same, devs) == {i for i, v in memory.items() if v == biggest}


def test_version_attribute_arrives_as_semver() -> None:
    devs = devices()
    (text,) = {raw_attr(d, "driverVersion") for d in devs}
    version = parse_semver(str(text))
    attr = f"device.attributes['{driver()}'].driverVersion"
    everyone = {d.id for d in devs}
    assert matched(f"{attr}.compareTo(semver('{version}')) == 0", devs) == everyone
    assert matched(f"{attr} == semver('{version}')", devs) == everyone
    assert matched(f"{attr}.isGreaterThan(semver('{version}'))", devs) == set()
    newer = f"{version.major + 1}.0.0"
    assert matched(f"{attr}.isLessThan(semver('{newer}'))", devs) == everyone
    assert matched(f"{attr}.major() == {version.major}", devs) == everyone


def test_missing_key_is_a_runtime_error_per_device_not_a_match() -> None:
    devs = devices()
    selector = compile_selector(f"device.attributes['{driver()}'].idx == 7")
    for d in devs:
        outcome = selector.evaluate(d)
        assert outcome == type(outcome)(d.id, False, "no such key: idx")


def test_unknown_domain_is_an_empty_map() -> None:
    devs = devices()
    other = "example.com"
    assert other not in {d.id.driver for d in devs}
    assert matched(f"device.attributes['{other}'].size() == 0", devs) == {d.id for d in devs}
    outcome = compile_selector(f"device.attributes['{other}'].index == 7").evaluate(devs[0])
    assert not outcome.matched and outcome.error == "no such key: index"


def test_evaluate_all_is_an_and_and_the_first_error_wins() -> None:
    devs = devices()
    seven = next(d for d in devs if raw_attr(d, "index") == 7)
    exprs = [
        device_class().selectors[0],
        f"device.attributes['{driver()}'].index == 7",
        f"device.attributes['{driver()}'].idx == 1",
    ]
    result = evaluate_all(exprs, devs)
    # Only gpu-7 passes the index test, so only it reaches the broken third selector.
    assert result[seven.id].error == "selector #2: no such key: idx"
    assert all(not o.matched and not o.error for i, o in result.items() if i != seven.id)


def test_bind_and_unqualified_names_in_another_domain() -> None:
    devs = devices()
    expression = f"cel.bind(gpu, device.attributes['{driver()}'], gpu.index >= 6 && has(gpu.model))"
    assert matched(expression, devs) == {d.id for d in devs if int(str(raw_attr(d, "index"))) >= 6}


def test_a_selector_survives_cleared_caches_and_new_device_objects() -> None:
    selector = compile_selector(f"device.attributes['{driver()}'].index == 7")
    selector.session.clear()
    first = {d.id for d in devices() if selector.evaluate(d).matched}
    # A new snapshot brings new objects for the same devices: same answers.
    fresh = [
        d
        for s in map(parse_slice, snapshot_at(RECORDING, "step-0").items(Kind.SLICES))
        for d in s.devices
    ]
    assert {d.id for d in fresh if selector.evaluate(d).matched} == first
    assert first == {d.id for d in devices() if raw_attr(d, "index") == 7}


PROJECTION_CASES = [
    "device.driver == '{d}'",
    "device.attributes['{d}'].index == 7",
    "has(device.attributes['{d}'].index) && !has(device.attributes['{d}'].nope)",
    "device.attributes['{d}']['model'].startsWith('L')",
    "'index' in device.attributes['{d}']",
    "size(device.attributes['{d}']) > 3",
    "device.attributes.exists(domain, domain == '{d}')",
    "cel.bind(g, device.attributes['{d}'], g.index > 2 && g.uuid != '')",
    "device.capacity['{d}'].memory.compareTo(quantity('1Gi')) > 0",
    "device.capacity['{d}'].exists(name, name == 'compute')",
    "device.attributes['{d}'].nope == 1",
    "!device.allowMultipleAllocations",
]


@pytest.mark.parametrize("template", PROJECTION_CASES)
def test_devices_converted_for_one_selector_answer_like_whole_devices(template: str) -> None:
    """Each device's CEL value holds only what compiled selectors read: check that reading
    less never changes an answer."""
    expression = template.format(d=driver())
    devs = devices()
    alone_session, whole_session = CelSession(), CelSession()
    alone = {d.id: alone_session.compile(expression).evaluate(d) for d in devs}
    whole_session.compile("cel.bind(whole, device, true)")  # makes every device convert fully
    whole = {d.id: whole_session.compile(expression).evaluate(d) for d in devs}
    assert alone == whole


def test_an_invalid_version_attribute_is_an_error_whatever_the_selector_reads() -> None:
    # The allocator converts every attribute before evaluating; a bad one fails the device.
    dev = devices()[0]
    raw = copy.deepcopy(dict(dev.raw))
    raw["attributes"]["driverVersion"] = {"version": "1.0"}
    broken = dataclasses.replace(dev, raw=raw)
    outcome = compile_selector(device_class().selectors[0]).evaluate(broken)
    assert not outcome.matched
    assert outcome.error == (
        "attribute driverVersion: parse semantic version: No Major.Minor.Patch elements found"
    )
    assert compile_selector(device_class().selectors[0]).evaluate(dev).matched


def test_python_functions_reach_devices_converted_whole() -> None:
    session = CelSession()
    session.compile("cel.bind(whole, device, true)")
    dev = devices()[0]
    assert session.compile("cel.bind(whole, device, true)").evaluate(dev).matched
    memory = parse_quantity(dev.capacity["memory"]).as_int64()
    asked = f"device.capacity['{driver()}'].memory.asInteger() == {memory}"
    assert session.compile(asked).evaluate(dev) == CelOutcome(dev.id, True)


# --- compile errors ------------------------------------------------------------------------------


def _api_server_detail(expression: str) -> str:
    """The detail the real API server printed for an expression (docs/CLUSTER-FACTS.md)."""
    text = CLUSTER_FACTS.read_text(encoding="utf-8")
    start = text.index(f'Invalid value: "{expression}": ') + len(f'Invalid value: "{expression}": ')
    return text[start : text.index("\n```", start)]


def test_attributes_index_mistake_is_rejected_like_the_api_server_with_a_fix() -> None:
    mistake = "device.attributes.index == 7"
    with pytest.raises(CelCompileError) as caught:
        compile_selector(mistake, driver=driver())
    err = caught.value
    assert str(err) == _api_server_detail(mistake)
    assert err.fix == f"device.attributes['{driver()}'].index == 7"
    assert err.fix in err.hint
    # The fix compiles and picks the device whose index is 7.
    assert matched(err.fix, devices()) == {d.id for d in devices() if raw_attr(d, "index") == 7}


def test_domain_written_as_the_attribute_name_gets_the_same_fix() -> None:
    with pytest.raises(CelCompileError) as caught:
        compile_selector("device.attributes['index'] == 7", driver=driver())
    assert "found no matching overload for '_==_'" in str(caught.value)
    assert caught.value.fix == f"device.attributes['{driver()}'].index == 7"


def test_expression_that_is_not_bool() -> None:
    with pytest.raises(CelCompileError) as caught:
        compile_selector(f"device.attributes['{driver()}'].index + 1")
    assert str(caught.value) == "must evaluate to bool or the unknown type, not int"
    assert caught.value.hint
    # A lone attribute has the unknown type: accepted at admission, fails per device at runtime.
    lone = compile_selector(f"device.attributes['{driver()}'].model").evaluate(devices()[0])
    assert not lone.matched and "could not be converted to bool" in lone.error


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("device.foo == 1", "ERROR: <input>:1:7: undefined field 'foo'"),
        ("nope(1)", "ERROR: <input>:1:5: undeclared reference to 'nope' (in container '')"),
        (
            "device.capacity['x'].memory > quantity('1')",
            "found no matching overload for '_>_' applied to "
            "'(kubernetes.Quantity, kubernetes.Quantity)'",
        ),
        ("1 == 1u", "found no matching overload for '_==_' applied to '(int, uint)'"),
        ("device.driver.compareTo('a') == 0", "applied to 'string.(string)'"),
        ("1 +", "Syntax error: mismatched input '<EOF>'"),
    ],
)
def test_compile_errors_read_like_cel_go(expression: str, message: str) -> None:
    with pytest.raises(CelCompileError) as caught:
        compile_selector(expression)
    assert str(caught.value).startswith("compilation failed: ERROR: <input>:")
    assert message in str(caught.value)


def test_library_the_api_server_has_but_we_do_not_is_unsupported_not_wrong() -> None:
    with pytest.raises(CelUnsupportedError):
        compile_selector("ip('10.0.0.1').family() == 4")


# --- explaining a request ------------------------------------------------------------------------


def test_explain_request_for_the_pending_pod_at_step_8() -> None:
    s = snap("step-8")
    devs = devices("step-8")
    claims = list(map(parse_claim, s.items(Kind.CLAIMS)))
    pods = {p.name: p for p in map(parse_pod, s.items(Kind.PODS))}
    big = pods["dra-big"]
    (claim,) = [c for c in claims if c.owner_pod == big.name]
    (request,) = claim.requests
    allocated = {d for c in claims for d in c.devices}
    free = [d.id for d in devs if d.id not in allocated]
    preview = explain_request(devs, device_class("step-8"), request, free)
    assert set(preview.class_admits) == {d.id for d in devs}
    assert preview.selector_admits == preview.class_admits  # no selectors of its own
    assert set(preview.free_matching) == set(free)
    assert preview.needed == request.count
    assert request_summary(preview) == f"class admits {len(devs)} devices, {len(free)} of them free"
    assert len(free) < request.count, "the recorded pod is Pending for lack of devices"
    names = ", ".join(d.name for d in devs if d.id in set(free))
    assert request_shortfall(preview) == f"needs {request.count}, {len(free)} free: {names}"


def test_explain_request_with_a_selector_counts_what_it_admits() -> None:
    s = snap("step-5")
    claims = {c.name: c for c in map(parse_claim, s.items(Kind.CLAIMS))}
    (request,) = claims["pick-seven"].requests
    devs = devices("step-5")
    preview = explain_request(devs, device_class("step-5"), request, [d.id for d in devs])
    assert len(preview.selector_admits) == 1
    assert (
        request_summary(preview)
        == f"class admits {len(devs)} devices, selectors admit 1, 1 of them free"
    )
    assert request_shortfall(preview) == ""
    missing = explain_request(devs, None, request, [])
    assert request_summary(missing) == f"device class {request.device_class} does not exist"


# --- quantities and versions ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("80Gi", Fraction(80 * 2**30)),
        ("100", Fraction(100)),
        ("500m", Fraction(1, 2)),
        ("1k", Fraction(1000)),
        ("1e3", Fraction(1000)),
        ("1E3", Fraction(1000)),
        ("1E", Fraction(10**18)),  # E alone is exa, not an exponent
        ("2e-3", Fraction(2, 1000)),
        ("1.5Gi", Fraction(3 * 2**29)),
        ("0.2G", Fraction(200_000_000)),
        ("+1.G", Fraction(10**9)),
        ("-5Mi", Fraction(-5 * 2**20)),
        ("0", Fraction(0)),
        ("000", Fraction(0)),
        ("0.1n", Fraction(1, 10**9)),  # rounded up to a whole nano
        ("-0.1n", Fraction(-1, 10**9)),
        ("16Ei", Fraction(MAX_INT64)),  # binary amounts are capped at int64
        (
            "9999999999999999999999999999999999999G",
            Fraction(9999999999999999999999999999999999999 * 10**9),
        ),
    ],
)
def test_quantity_values_are_exact(text: str, value: Fraction) -> None:
    assert parse_quantity(text).value == value


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "quantities must match the regular expression"),
        ("10Mo", "quantities must match the regular expression"),
        ("1.5.5", "quantities must match the regular expression"),
        ("10Mm", "unable to parse quantity's suffix"),
        ("1K", "unable to parse quantity's suffix"),
        ("1e", "unable to parse quantity's suffix"),
    ],
)
def test_quantity_errors_carry_apimachinery_messages(text: str, message: str) -> None:
    with pytest.raises(QuantityError, match=re.escape(message)):
        parse_quantity(text)


@pytest.mark.parametrize(
    ("expression", "result"),
    [
        # Kubernetes' own quantity library test cases.
        ("quantity('200M') == quantity('0.2G')", True),
        ("quantity('50M').isLessThan(quantity('50Mi'))", True),
        ("quantity('50Mi').compareTo(quantity('50M')) == 1", True),
        ("quantity('50k').add(quantity('20')) == quantity('50.02k')", True),
        ("quantity('50k').sub(20) == quantity('49980')", True),
        ("quantity('50k').add(20).sub(quantity('100k')).asInteger() == -49980", True),
        ("quantity('50.703k').asApproximateFloat() == 50703.0", True),
        ("quantity('9999999999999999999999999999999999999G').isInteger()", False),
        ("quantity('50').isInteger()", True),
        ("isQuantity('20Mi') && !isQuantity('20Mo')", True),
        # apimachinery keeps 1000m as 1000 x 10^-3: not an int64 at scale 0.
        ("quantity('1000m').isInteger()", False),
        ("quantity('1') == quantity('1000m')", True),
        ("semver('1.2.3').compareTo(semver('1.2.3+build')) == 0", True),
        ("semver('1.0.0-alpha').isLessThan(semver('1.0.0'))", True),
        ("semver('v1.2', true) == semver('1.2.0')", True),
        ("isSemver('1.0') || isSemver('01.0.0')", False),
    ],
)
def test_quantity_and_semver_functions(expression: str, result: bool) -> None:
    outcome = compile_selector(expression).evaluate(devices()[0])
    assert outcome.error == ""
    assert outcome.matched is result


QUANTITIES = ["-1Ei", "-2", "-1", "-999m", "-1n", "0", "1n", "999m", "1", "1000m", "1.5", "2"]
QUANTITIES += ["1k", "1Ki", "80Gi", "81920Mi", "1e30", "9999999999999999999999999999999999999G"]


@pytest.mark.parametrize("a", QUANTITIES)
def test_quantity_comparisons_in_cel_agree_with_exact_values(a: str) -> None:
    dev = devices()[0]
    for b in QUANTITIES:
        want = (parse_quantity(a).value > parse_quantity(b).value) - (
            parse_quantity(a).value < parse_quantity(b).value
        )
        expression = (
            f"quantity('{a}').compareTo(quantity('{b}')) == {want}"
            f" && quantity('{a}').isGreaterThan(quantity('{b}')) == {str(want > 0).lower()}"
            f" && quantity('{a}').isLessThan(quantity('{b}')) == {str(want < 0).lower()}"
            f" && (quantity('{a}') == quantity('{b}')) == {str(want == 0).lower()}"
        )
        assert compile_selector(expression).evaluate(dev) == CelOutcome(dev.id, True), (a, b)


SEMVERS = ["0.0.1", "1.0.0-0", "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha-1", "1.0.0-alpha.beta"]
SEMVERS += [
    "1.0.0-beta.2",
    "1.0.0-beta.11",
    "1.0.0-rc.1",
    "1.0.0",
    "1.0.0+build.5",
    "1.2.0",
    "10.0.0",
]


@pytest.mark.parametrize("a", SEMVERS)
def test_semver_comparisons_in_cel_agree_with_precedence(a: str) -> None:
    dev = devices()[0]
    for b in SEMVERS:
        want = parse_semver(a).compare(parse_semver(b))
        expression = (
            f"semver('{a}').compareTo(semver('{b}')) == {want}"
            f" && semver('{a}').isLessThan(semver('{b}')) == {str(want < 0).lower()}"
            f" && (semver('{a}') == semver('{b}')) == {str(want == 0).lower()}"
        )
        assert compile_selector(expression).evaluate(dev) == CelOutcome(dev.id, True), (a, b)


def test_quantity_runtime_errors() -> None:
    dev = devices()[0]
    bad = compile_selector("quantity('10Mo').isInteger()").evaluate(dev)
    assert not bad.matched and bad.error.startswith("quantities must match the regular expression")
    big = compile_selector("quantity('9999999999999999999999999999999999999G').asInteger() > 0")
    assert big.evaluate(dev).error == "cannot convert value to integer"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1.0", "No Major.Minor.Patch elements found"),
        ("01.0.0", "Major number must not contain leading zeroes"),
        ("1.0.0-01", "Numeric PreRelease version must not contain leading zeroes"),
        ("1.0.0+", "Build meta data is empty"),
    ],
)
def test_semver_errors(text: str, message: str) -> None:
    with pytest.raises(SemverError, match=re.escape(message)):
        parse_semver(text)


def test_semver_precedence() -> None:
    order = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2"]
    order += ["1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0", "2.0.0"]
    versions = [parse_semver(v) for v in order]
    for a, b in itertools.pairwise(versions):
        assert a.compare(b) == -1 and b.compare(a) == 1
