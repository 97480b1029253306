"""Devices that look the same to a selector share one evaluation: the outcomes stay per device.

runtime.py evaluates a selector once per distinct projection key (projection.py: the values of
the device leaves the selector reads) and gives the other devices with that key the same
outcome. These tests evaluate every selector twice over the same devices: once device by
device with every result forgotten in between (nothing can be shared: the reference), once
in one pass (sharing), in both orders, and compare every outcome: result, runtime error words,
unfinished. Devices are the recorded ones (the lab and three profile recordings) and variants
of them with the values selectors look at changed; selectors are hand-picked shapes, some of
which must not be keyed by leaf, and tests/cel_generated.py's generated ones (fixed seed).
"""

from __future__ import annotations

import copy
import dataclasses
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from gsb_tui.dra.cel import (
    CelCompileError,
    CelOutcome,
    CelSession,
    Selector,
    compile_selector,
    device_variable,
    evaluate_all,
    explain_request,
    runtime,
)
from gsb_tui.dra.cel.device import DeviceError, traits
from gsb_tui.dra.model import Device, DeviceId, Request, parse_class, parse_slice
from gsb_tui.snapshot import Kind
from tests import cel_generated
from tests.recorded import profile_snap, snap

GPU = "gpu.example.com"
A = f"device.attributes['{GPU}']"
C = f"device.capacity['{GPU}']"

# (profile, mark) recordings whose devices join the lab's: partitions (bool attributes, other
# capacities), network (another driver, devices without capacity, allowMultipleAllocations),
# shared (capacities with request policies).
PROFILES = [
    ("partitions", "partition-pending"),
    ("network", "fabric-allocated"),
    ("shared", "full"),
]


def _recorded_slices() -> list[dict[str, Any]]:
    slices = list(snap("step-5").items(Kind.SLICES))
    for name, mark in PROFILES:
        slices.extend(profile_snap(name, mark).items(Kind.SLICES))
    return [copy.deepcopy(dict(s)) for s in slices]


def _set(attribute: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(raw: dict[str, Any]) -> None:
        if value is None:
            raw.setdefault("attributes", {}).pop(attribute, None)
        else:
            raw.setdefault("attributes", {})[attribute] = value

    return change


def _capacity(name: str, text: str | None) -> Callable[[dict[str, Any]], None]:
    def change(raw: dict[str, Any]) -> None:
        if text is None:
            raw.get("capacity", {}).pop(name, None)
        else:
            raw.setdefault("capacity", {})[name] = {"value": text}

    return change


def _no_capacity(raw: dict[str, Any]) -> None:
    raw.pop("capacity", None)


def _multiple(raw: dict[str, Any]) -> None:
    raw["allowMultipleAllocations"] = True


def _gpu_attributes(raw: dict[str, Any]) -> None:
    """The lab's first device's attributes (names unqualified), whatever the driver."""
    (first, *_) = snap("step-5").items(Kind.SLICES)
    raw["attributes"] = copy.deepcopy(dict(first["spec"]["devices"][0]["attributes"]))


# Variants of a recorded device: values selectors read, equal or not to the recorded ones, of
# other types, missing, published twice, invalid (the device is then an error for every
# selector, with its own words).
VARIANTS: dict[str, list[Callable[[dict[str, Any]], None]]] = {
    "index-7": [_set("index", {"int": 7})],
    "index-7-again": [
        _set("index", {"int": 7})
    ],  # the same values as the one before: shares its outcomes
    "index-1": [_set("index", {"int": 1})],
    "index-string": [_set("index", {"string": "7"})],
    "index-bool": [_set("index", {"bool": True})],
    "index-1.0": [_set("index", {"int": 1.0})],  # 1.0 == 1 == True in Python, not in CEL
    "index-int-true": [_set("index", {"int": True})],
    "index-int-and-string": [
        _set("index", {"int": 7, "string": "7"})
    ],  # _attribute takes `int` first
    "index-7.0-and-string": [_set("index", {"int": 7.0, "string": "7"})],
    "no-index": [_set("index", None)],
    "other-model": [_set("model", {"string": "OTHER-MODEL"})],
    "no-model": [_set("model", None)],
    "qualified-model-only": [
        _set("model", None),
        _set(f"{GPU}/model", {"string": "LATEST-GPU-MODEL"}),
    ],
    "model-twice": [_set(f"{GPU}/model", {"string": "QUALIFIED"})],  # published twice: not keyed
    "other-domain-model": [_set("other.example.com/model", {"string": "LATEST-GPU-MODEL"})],
    "version-build": [_set("driverVersion", {"version": "1.0.0+build"})],
    "version-rc": [_set("driverVersion", {"version": "2.0.0-rc.1"})],
    "version-as-string": [_set("driverVersion", {"string": "1.0.0"})],
    "bad-version": [_set("driverVersion", {"version": "1.0"})],  # invalid: an error for the device
    "index-list": [_set("index", {"int": [7]})],  # not a value a key can hold: evaluated on its own
    "no-value": [_set("extra", {})],  # no value: an error for the device
    "uuid-zero": [_set("uuid", {"string": "gpu-00000000-0000-4000-8000-000000000000"})],
    "memory-81920Mi": [_capacity("memory", "81920Mi")],  # equal to 80Gi as a quantity, not as text
    "memory-40Gi": [_capacity("memory", "40Gi")],
    "bad-memory": [_capacity("memory", "bad")],  # invalid: an error for the device
    "no-memory": [_capacity("memory", None)],
    "no-capacity": [_no_capacity],
    "multiple": [_multiple],
    "index-7-40Gi-multiple": [_set("index", {"int": 7}), _capacity("memory", "40Gi"), _multiple],
    "gpu-attributes": [
        _gpu_attributes
    ],  # on the network driver's device: the same names in another domain
}

# A Device built without its served object: CEL reads the view's plain values.
VIEW_ONLY: list[dict[str, Any]] = [
    {"index": 7, "model": "LATEST-GPU-MODEL"},
    {"index": 7.0, "model": "LATEST-GPU-MODEL"},
    {"index": True, "model": "LATEST-GPU-MODEL"},
    {"index": "7", "model": "LATEST-GPU-MODEL"},
    {"index": 7, "model": "LATEST-GPU-MODEL", f"{GPU}/model": "QUALIFIED"},
]


def _population() -> list[Device]:
    """The recorded devices, then each variant of the first recorded device of every slice
    whose driver is the GPU one, and of the network driver's (other names, one slice each)."""
    recorded = _recorded_slices()
    out = [d for s in recorded for d in parse_slice(s).devices]
    bases: dict[str, dict[str, Any]] = {}
    for s in recorded:
        spec = s["spec"]
        if spec.get("devices") and spec["driver"] not in bases:
            bases[spec["driver"]] = s
    for _, base in sorted(bases.items()):
        for i, changes in VARIANTS.items():
            variant = copy.deepcopy(base)
            raw = variant["spec"]["devices"][0]
            raw["name"] = f"{raw['name']}-variant-{i}"
            for change in changes:
                change(raw)
            variant["spec"]["devices"] = [raw]
            variant["metadata"]["name"] = f"{variant['metadata']['name']}-variant-{i}"
            out.extend(parse_slice(variant).devices)
    gpu = next(d for d in out if d.id.driver == GPU)
    for i, attributes in enumerate(VIEW_ONLY):
        name = f"{gpu.id.device}-view-{i}"
        out.append(
            dataclasses.replace(
                gpu,
                id=gpu.id._replace(device=name),
                slice_name=f"{gpu.slice_name}-view-{i}",
                attributes=attributes,
                raw={"name": name},
            )
        )
    ids = [(d.id, d.slice_name) for d in out]
    assert len(set(ids)) == len(ids)  # the caches are per (device, slice)
    return out


POPULATION = _population()


def _one_by_one(selector: Selector, devs: Sequence[Device]) -> dict[DeviceId, CelOutcome]:
    """The reference: every device evaluated with nothing cached (so nothing shared)."""
    out = {}
    for d in devs:
        selector.session.clear(results_only=True)
        out[d.id] = selector.evaluate(d)
    return out


def _in_one_pass(selector: Selector, devs: Sequence[Device]) -> dict[DeviceId, CelOutcome]:
    selector.session.clear(results_only=True)
    return {d.id: selector.evaluate(d) for d in devs}


def _assert_same_outcomes(selector: Selector, devs: Sequence[Device]) -> None:
    expected = _one_by_one(selector, devs)
    for order in (list(devs), list(reversed(devs))):
        shared = _in_one_pass(selector, order)
        wrong = {d: (shared[d], expected[d]) for d in expected if shared[d] != expected[d]}
        assert not wrong, (selector.expression, wrong)


# --- hand-picked shapes ---------------------------------------------------------------------

# Keyed by the leaves they read.
LEAF_SHAPES = [
    "device.driver == 'gpu.example.com'",
    f"{A}.index == 7",
    f"{A}.index == 1",
    f"{A}.model == 'LATEST-GPU-MODEL'",
    f"{A}.model.startsWith('LATEST')",
    f"has({A}.model)",
    f"has({A}.index) && !has({A}.nope)",
    f"{A}['model'] == 'QUALIFIED'",
    f"{A}.index + 1 > 1",  # a no-such-overload error where the index is not an int
    f"{A}.index > 0",
    f"{A}.driverVersion.isGreaterThan(semver('1.0.0'))",
    f"{A}.driverVersion == semver('1.0.0')",
    f"{A}.driverVersion == '1.0.0'",  # dynamic equality with a version: interpreter first
    f"{C}.memory.compareTo(quantity('80Gi')) == 0",
    f"{C}.memory.isGreaterThan(quantity('50Gi'))",
    f"{C}.memory.asInteger() > 0",
    f"dyn({C}.memory) == 1",  # a capacity through a dynamic value: interpreter first
    "!device.allowMultipleAllocations",
    "device.attributes['other.example.com'].model == 'LATEST-GPU-MODEL'",
    "device.attributes['net.example.com'].model.endsWith('MODEL')",
    f"{A}.nope == 1",
    "1 + 1 == 2",  # reads nothing: one evaluation for every device
]

# Keyed by a whole domain, a whole kind, or not keyed (the whole device).
COARSE_SHAPES = [
    f"{A}.exists(k, k.startsWith('u'))",
    f"{A}.all(k, {A}[k] != 'x')",
    f"'model' in {A}",
    f"size({A}) > 4",
    f"cel.bind(g, {A}, g.index > 2 && g.uuid != '')",
    f"{A}[{A}.model.lowerAscii()] == 1",
    "device.attributes[device.driver].model == 'LATEST-GPU-MODEL'",
    "device.attributes.exists(d, d == 'other.example.com')",
    f"device.attributes.exists(d, d == '{GPU}')",
    f"device.attributes.exists(d, d == '{GPU}' && device.attributes[d].exists(a, a == 'uuid'))",
    "device.attributes.all(d, device.attributes[d].all(a, device.attributes[d][a] != 1))",
    "has(device.attributes.nope)",
    f"{C}.exists(name, name == 'compute')",
    "device.capacity[device.driver].memory.compareTo(quantity('1Gi')) > 0",
    "size(device.capacity) == 1",
    "[device].size() == 1",
    "cel.bind(whole, device, whole.driver == 'gpu.example.com')",
]


@pytest.mark.parametrize("expression", LEAF_SHAPES + COARSE_SHAPES)
def test_shared_outcomes_equal_outcomes_device_by_device(expression: str) -> None:
    _assert_same_outcomes(compile_selector(expression), POPULATION)


def test_every_shape_reads_what_it_is_keyed_by() -> None:
    def plan(expression: str) -> Any:
        return compile_selector(expression)._evaluator.plan

    for expression in LEAF_SHAPES:
        found = plan(expression)
        assert found is not None
        assert all(len(leaf) == 1 or "*" not in leaf for leaf in found.leaves), expression
    assert plan(f"{A}.exists(k, k == 'u')").leaves == (("attributes", GPU, "*"),)
    assert plan(f"{A}[{A}.model] == 1").leaves == (
        ("attributes", GPU, "*"),
        ("attributes", GPU, "model"),
    )
    assert plan("device.attributes[device.driver].model == 'x'").leaves == (
        ("attributes", "*", "*"),
        ("driver",),
    )
    assert plan("[device].size() == 1") is None
    assert plan("cel.bind(whole, device, true)") is None


def test_leaf_keys_keep_types_presence_and_published_names_apart() -> None:
    key = compile_selector(f"{A}.index == 7")._evaluator.plan.key
    by_name = {d.id.device: d for d in POPULATION}
    gpu = next(n for n in by_name if n.endswith("-variant-index-7") and by_name[n].id.driver == GPU)
    base = gpu.removesuffix("-variant-index-7")

    def variant(i: str) -> Device:
        return by_name[f"{base}-variant-{i}"]

    assert key(variant("index-7")) == key(variant("index-7-again"))  # equal values: one key
    assert key(variant("index-int-and-string")) != key(variant("index-7"))  # finer: fine
    kinds = ["index-7", "index-1", "index-string", "index-bool", "index-1.0", "index-int-true"]
    kinds += ["index-7.0-and-string", "no-index"]
    keys = [key(variant(i)) for i in kinds]
    assert len(set(keys)) == len(keys)
    model = compile_selector(f"{A}.model == 'x'")._evaluator.plan.key
    assert model(variant("model-twice")) is None  # `model` and `gpu.example.com/model`
    assert model(variant("qualified-model-only")) == model(variant("index-7"))  # one value
    assert key(variant("index-list")) is None  # a list value
    views = [d for d in POPULATION if "-view-" in d.id.device]
    assert len({key(d) for d in views[:4]}) == 4  # 7, 7.0, True, "7" as plain values
    assert model(views[-1]) is None


def test_a_domain_read_as_a_map_keys_by_every_attribute_of_it() -> None:
    """The example driver's devices each carry a unique uuid: a selector that ranges over the
    domain cannot share; one that reads `model` shares across all of them."""
    gpus = [d for d in POPULATION if d.id.driver == GPU and "attributes" in d.raw]
    ranging = compile_selector(f"{A}.exists(k, k == 'model')")._evaluator.plan
    model = compile_selector(f"{A}.model == 'LATEST-GPU-MODEL'")._evaluator.plan
    uuids = {str(d.raw["attributes"].get("uuid")) for d in gpus}
    assert len({ranging.key(d) for d in gpus}) >= len(uuids)
    assert len({model.key(d) for d in gpus}) <= 6


def test_devices_with_the_same_values_are_evaluated_once(evaluations: list[str]) -> None:
    gpus = [d for d in POPULATION if d.id.driver == GPU]
    expression = f"{A}.model == 'LATEST-GPU-MODEL'"
    selector = compile_selector(expression)
    outcomes = [selector.evaluate(d) for d in gpus]
    keys = [selector._evaluator.plan.key(d) for d in gpus if traits(d).convertible]
    alone = sum(1 for d in gpus if not traits(d).convertible) + keys.count(None)
    assert evaluations.count(expression) == len(set(keys) - {None}) + alone < len(gpus) // 2
    assert sum(o.matched for o in outcomes) > len(gpus) // 2
    # ...and again only from the per-device cache.
    before = len(evaluations)
    assert [selector.evaluate(d) for d in gpus] == outcomes
    assert len(evaluations) == before


def test_a_device_the_library_cannot_convert_keeps_its_own_error() -> None:
    selector = compile_selector("device.driver == 'gpu.example.com'")
    outcomes = _in_one_pass(selector, POPULATION)
    errors = {o.error for o in outcomes.values() if o.error}
    assert errors == {
        "attribute driverVersion: parse semantic version: No Major.Minor.Patch elements found",
        "attribute extra: unsupported attribute value",
        "capacity memory: quantities must match the regular expression "
        "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
    }


def test_convertible_says_exactly_whether_the_device_converts() -> None:
    for d in POPULATION:
        try:
            device_variable(d)
        except DeviceError:
            converts = False
        else:
            converts = True
        assert traits(d).convertible == converts, d.id


def test_an_unfinished_outcome_is_not_shared() -> None:
    selector = compile_selector(f"{A}.model == 'LATEST-GPU-MODEL'")
    first, second = [d for d in POPULATION if d.id.driver == GPU][:2]
    assert selector._evaluator.plan.key(first) == selector._evaluator.plan.key(second)
    late = selector.evaluate(first, deadline=time.monotonic() - 1)
    assert late.unfinished
    assert selector.evaluate(second) == CelOutcome(second.id, True)
    assert selector.evaluate(first) == CelOutcome(first.id, True)


def test_a_shared_outcome_is_an_outcome_like_any_other() -> None:
    shared = CelOutcome(POPULATION[0].id, False, "no such key: x")
    made = runtime._same_for(POPULATION[1].id, shared)
    assert made == CelOutcome(POPULATION[1].id, False, "no such key: x")
    assert hash(made) == hash(CelOutcome(POPULATION[1].id, False, "no such key: x"))
    assert repr(made) == repr(CelOutcome(POPULATION[1].id, False, "no such key: x"))
    assert [f.name for f in dataclasses.fields(CelOutcome)] == [
        "device",
        "matched",
        "error",
        "unfinished",
    ]  # what runtime._same_for fills


def _many_devices(count: int) -> list[Device]:
    """Clones of the lab's first device with their own names and uuids, every third one of
    another model (one slice)."""
    (first, *_) = snap("step-5").items(Kind.SLICES)
    clone = copy.deepcopy(dict(first))
    base = clone["spec"]["devices"][0]
    devices = []
    for i in range(count):
        raw = copy.deepcopy(base)
        raw["name"] = f"many-{i}"
        raw["attributes"]["uuid"] = {"string": f"gpu-{i:08x}-0000-4000-8000-000000000000"}
        if i % 3 == 0:
            raw["attributes"]["model"] = {"string": "OTHER-MODEL"}
        devices.append(raw)
    clone["spec"]["devices"] = devices
    clone["metadata"]["name"] = "many"
    return list(parse_slice(clone).devices)


def test_a_selector_whose_keys_never_repeat_stops_being_keyed(evaluations: list[str]) -> None:
    devs = _many_devices(runtime.SHARING_PROBE + 100)
    session = CelSession()
    unique = session.compile(f"{A}.uuid.startsWith('gpu-0000')")
    model = session.compile(f"{A}.model == 'LATEST-GPU-MODEL'")
    for selector in (unique, model):
        _assert_same_outcomes(selector, devs)
    assert not unique._evaluator.sharing
    assert model._evaluator.sharing
    session.clear(results_only=True)
    evaluations.clear()
    assert [model.evaluate(d) for d in devs] == [model.evaluate(d) for d in devs]
    assert evaluations.count(model.expression) == 2  # two models: two evaluations
    for d in devs[:10]:
        unique.evaluate(d)
    assert unique._evaluator.sharing  # cleared caches: keys are tried again


# --- previews and evaluate_all --------------------------------------------------------------


def test_a_preview_in_one_pass_equals_previews_device_by_device() -> None:
    (cls,) = map(parse_class, snap("step-5").items(Kind.CLASSES))
    request = Request(
        name="r",
        device_class=cls.name,
        selectors=(f"{A}.index >= 0 || {A}.model == 'OTHER-MODEL'", f"{C}.memory.asInteger() > 0"),
        allocation_mode="ExactCount",
        count=1,
        admin_access=False,
    )
    free = [d.id for d in POPULATION[::2]]
    session = CelSession()
    together = explain_request(POPULATION, cls, request, free, session=session)
    outcomes: dict[DeviceId, CelOutcome] = {}
    admitted: list[DeviceId] = []
    for d in POPULATION:
        session.clear(results_only=True)
        alone = explain_request([d], cls, request, free, session=session)
        outcomes.update(alone.outcomes)
        admitted.extend(alone.selector_admits)
    assert dict(together.outcomes) == outcomes
    assert list(together.selector_admits) == admitted
    assert together.free_matching == tuple(d for d in admitted if d in set(free))
    assert any(o.error.startswith("class ") for o in outcomes.values())
    assert any(o.error.startswith("request r: selector #0") for o in outcomes.values())
    assert any(o.error.startswith("request r: selector #1") for o in outcomes.values())
    assert len(admitted) > 10
    expressions = [*cls.selectors, *request.selectors]
    session.clear(results_only=True)
    all_at_once = evaluate_all(expressions, POPULATION, session=session)
    one: dict[DeviceId, CelOutcome] = {}
    for d in POPULATION:
        session.clear(results_only=True)
        one.update(evaluate_all(expressions, [d], session=session))
    assert all_at_once == one


# --- generated selectors --------------------------------------------------------------------

SEED = 20260113
GENERATED = {"valid": 70, "runtime": 45, "costly": 12}


def _generated() -> list[str]:
    rng = random.Random(SEED)
    out: list[str] = []
    for family, count in GENERATED.items():
        drawn = 0
        while drawn < count:
            expression = cel_generated.selector(rng, family)[1]
            drawn += 1
            out.append(expression)
    return list(dict.fromkeys(out))


def test_generated_selectors_give_the_same_outcomes_shared_or_not() -> None:
    compiled = []
    for expression in _generated():
        try:
            compiled.append(compile_selector(expression, driver=GPU))
        except CelCompileError:  # also CelUnsupportedError
            continue
    assert len(compiled) > 90
    keyed = 0
    for selector in compiled:
        _assert_same_outcomes(selector, POPULATION)
        keyed += selector._evaluator.plan is not None
    assert keyed > len(compiled) // 2
