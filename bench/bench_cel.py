"""CEL selector evaluation over 1,000 lab-shaped devices: gsb-tui's evaluator vs cel-python.

Devices are clones of the recorded ones (tests/fixtures/lab.jsonl, step-5) with new names,
indices and uuids. Selectors: the recorded DeviceClass selector, the recorded pick-seven
selector, and the example driver's model / memory selectors plus a version comparison.

Prints `name value unit` lines (figures, not pass/fail). The headline
`cel_eval_1000_devices_ms` is every selector on every device with nothing cached but the
compiled selectors: each device's CEL context is built during the run, as after a fresh list.
Every timed run starts after a gc.collect() (not timed).

`cel_preview_10000_devices_ms` is one claim's preview as the details pane asks for it
(ui/render/explain.py: explain_request with the DeviceClass selectors, then the request's) over
10,000 devices shaped like the scale profile's (cluster/seed.py: nodes of 8 devices, `index`
0-7 on each node, a unique `uuid`), nothing cached but the compiled selectors, no time budget.
The recorded pick-seven request (`index == 7`) is the claim; `..._unique_keys_ms` is the same
preview with a request selector reading the unique `uuid`, where no two devices share a verdict.
`cel_admitted_near_limit_ms` is one device's run of a selector the API server admits close to
its cost limit (two 300-item list literals compared pairwise: 90,000 comparisons), the slowest
shape tests/unit/test_cel_limits.py holds to a verdict; the evaluation budget is 1 s a device.
Run: .venv/bin/python bench/bench_cel.py [--runs N] [--devices N] [--preview-devices N]
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import gc
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gsb_tui.dra import cel as gcel
from gsb_tui.dra.cel import parse_quantity, parse_semver
from gsb_tui.dra.cel.semver import Semver
from gsb_tui.dra.model import (
    Device,
    DeviceId,
    Request,
    parse_claim,
    parse_class,
    parse_slice,
)
from gsb_tui.kube.recording import snapshot_at
from gsb_tui.snapshot import Kind

RECORDING = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "lab.jsonl"


def lab_devices(count: int, per_node: int = 0) -> tuple[list[Device], list[str]]:
    """Clones of the recorded devices; with `per_node`, nodes (and pools) of that many devices
    indexed from 0 on each node, as the example driver publishes them (else one pool, index i)."""
    snap = snapshot_at(RECORDING, "step-5")
    recorded = [d for s in map(parse_slice, snap.items(Kind.SLICES)) for d in s.devices]
    (cls,) = map(parse_class, snap.items(Kind.CLASSES))
    (pick,) = [c for c in map(parse_claim, snap.items(Kind.CLAIMS)) if c.name == "pick-seven"]
    driver = recorded[0].id.driver
    model = recorded[0].raw["attributes"]["model"]["string"]
    devices = []
    for i in range(count):
        base = recorded[i % len(recorded)]
        raw = copy.deepcopy(dict(base.raw))
        index, pool, node, slice_name = i, base.id.pool, base.node, f"{base.slice_name}-{i // 128}"
        if per_node:  # slices hold at most 128 devices; with per_node, one slice per node
            index, node = i % per_node, f"node-{i // per_node}"
            pool, slice_name = node, f"{node}-slice"
        raw["name"] = f"gpu-{index}"
        raw["attributes"]["index"] = {"int": index}
        raw["attributes"]["uuid"] = {"string": f"gpu-{i:08x}-0000-4000-8000-000000000000"}
        devices.append(
            Device(
                id=DeviceId(driver, pool, f"gpu-{index}"),
                slice_name=slice_name,
                node=node,
                attributes={**base.attributes, "index": index},
                capacity=dict(base.capacity),
                raw=raw,
            )
        )
    selectors = [
        *cls.selectors,
        *pick.requests[0].selectors,
        f"device.attributes['{driver}'].model == '{model}'",
        f"device.capacity['{driver}'].memory.compareTo(quantity('4Gi')) >= 0",
        f"device.attributes['{driver}'].driverVersion.isGreaterThan(semver('0.1.0'))",
    ]
    return devices, selectors


def median_ms(fn: Callable[[], object], runs: int, before: Callable[[], None]) -> float:
    times = []
    for _ in range(runs):
        before()
        # Each run starts with the collector's generations empty: whether a full collection
        # (tens of ms over 10,000 devices' objects) lands inside a run depends on what earlier
        # runs left, not on the code measured.
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def bench_gsb(devices: list[Device], selectors: list[str], runs: int) -> dict[str, set[DeviceId]]:
    gcel.library()  # the import, measured by design.md, is not part of compiling
    session = gcel.CelSession()
    start = time.perf_counter()
    compiled = [session.compile(e) for e in selectors]
    print(
        f"cel_compile_{len(selectors)}_selectors_ms {(time.perf_counter() - start) * 1000:.2f} ms"
    )

    def run() -> dict[str, set[DeviceId]]:
        return {s.expression: {d.id for d in devices if s.evaluate(d).matched} for s in compiled}

    def forget_devices() -> None:
        session.clear()
        for expression in selectors:
            session.compile(expression)

    n = len(devices)
    cold = median_ms(run, runs, forget_devices)
    print(f"cel_eval_{n}_devices_ms {cold:.2f} ms")
    warm = median_ms(run, runs, lambda: session.clear(results_only=True))
    print(f"cel_eval_{n}_devices_contexts_cached_ms {warm:.2f} ms")
    cached = median_ms(run, runs, lambda: None)
    print(f"cel_eval_{n}_devices_results_cached_ms {cached:.2f} ms")
    print(f"cel_eval_per_selector_device_us {warm * 1000 / (n * len(selectors)):.2f} us")
    return run()


def bench_preview(count: int, runs: int) -> None:
    """One claim's preview the way the details pane asks for it (ui/render/explain.py claim_preview:
    explain_request with the class, the request and the free devices), uncached."""
    snap = snapshot_at(RECORDING, "step-5")
    (cls,) = map(parse_class, snap.items(Kind.CLASSES))
    (pick,) = [c for c in map(parse_claim, snap.items(Kind.CLAIMS)) if c.name == "pick-seven"]
    request = pick.requests[0]
    devices, _ = lab_devices(count, per_node=8)
    free = [d.id for d in devices]
    unique = dataclasses.replace(
        request, selectors=(f"device.attributes['{devices[0].id.driver}'].uuid != ''",)
    )
    for name, req in (("", request), ("_unique_keys", unique)):
        expressions = [*cls.selectors, *req.selectors]

        session = gcel.CelSession()

        def forget(expressions: list[str] = expressions, session: Any = session) -> None:
            session.clear()
            for expression in expressions:
                session.compile(expression)

        def preview(req: Request = req, session: Any = session) -> gcel.RequestPreview:
            return gcel.explain_request(devices, cls, req, free, session=session)

        figure = median_ms(preview, runs, forget)
        print(f"cel_preview_{count}_devices{name}_ms {figure:.2f} ms")
        forget()
        gc.collect()
        budgeted = gcel.explain_request(
            devices, cls, req, free, budget=gcel.PREVIEW_BUDGET, session=session
        )
        print(
            f"cel_preview_{count}_devices{name}_unfinished_in_budget {budgeted.unfinished} devices"
            f" (of {count}, {gcel.PREVIEW_BUDGET * 1000:.0f} ms budget;"
            f" {len(budgeted.selector_admits)} admitted)"
        )


def bench_celpy(devices: list[Device], selectors: list[str], runs: int) -> dict[str, set[DeviceId]]:
    """cel-python with the same Kubernetes functions as plain Python (quantities as strings)."""
    import celpy
    from celpy import celtypes

    def quantity(text: Any) -> Any:
        return celtypes.StringType("quantity:" + str(text))

    def semver(text: Any) -> Any:
        return celtypes.StringType("semver:" + str(text))

    def compare(a: Any, b: Any) -> Any:
        kind, _, x = str(a).partition(":")
        _, _, y = str(b).partition(":")
        if kind == "quantity":
            qa, qb = parse_quantity(x), parse_quantity(y)
            return celtypes.IntType(qa.cmp(qb))
        return celtypes.IntType(parse_semver(x).compare(parse_semver(y)))

    functions = {
        "quantity": quantity,
        "semver": semver,
        "compareTo": compare,
        "isGreaterThan": lambda a, b: celtypes.BoolType(int(compare(a, b)) > 0),
    }

    def variable(d: Device) -> Any:
        var = gcel.device_variable(d)
        for domain in var["attributes"].values():
            for name, value in domain.items():
                if isinstance(value, Semver):
                    domain[name] = "semver:" + str(value)
        for domain in var["capacity"].values():
            for name in domain:
                domain[name] = "quantity:" + d.capacity[name]
        return celpy.json_to_cel(var)

    env = celpy.Environment()
    start = time.perf_counter()
    programs = [(e, env.program(env.compile(e), functions=functions)) for e in selectors]
    print(
        f"celpy_compile_{len(selectors)}_selectors_ms {(time.perf_counter() - start) * 1000:.2f} ms"
    )
    n = len(devices)

    def run_cold() -> dict[str, set[DeviceId]]:
        activations = [{"device": variable(d)} for d in devices]
        return {
            e: {d.id for d, a in zip(devices, activations, strict=True) if p.evaluate(a)}
            for e, p in programs
        }

    cold = median_ms(run_cold, max(1, runs // 3), lambda: None)
    print(f"celpy_eval_{n}_devices_ms {cold:.2f} ms")
    activations = [{"device": variable(d)} for d in devices]

    def run_warm() -> None:
        for _e, p in programs:
            for a in activations:
                p.evaluate(a)

    warm = median_ms(run_warm, max(1, runs // 3), lambda: None)
    print(f"celpy_eval_{n}_devices_activations_cached_ms {warm:.2f} ms")
    return run_cold()


def bench_near_limit(device: Device, runs: int) -> None:
    items = ", ".join(str(i) for i in range(300))
    expression = f"[{items}].exists(x, [{items}].exists(y, x == y + 1000))"
    compiled = gcel.compile_selector(expression)
    if compiled.max_cost > gcel.MAX_COST:
        raise SystemExit("the near-limit selector is no longer admitted: adjust it")

    def once() -> object:
        return gcel.evaluate_all([expression], [device])  # a fresh session: nothing cached

    figure = median_ms(once, runs, lambda: None)
    budget_ms = gcel.EVALUATION_BUDGET * 1000
    print(f"cel_admitted_near_limit_ms {figure:.1f} ms (budget {budget_ms:.0f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--devices", type=int, default=1000)
    parser.add_argument("--preview-devices", type=int, default=10_000)
    args = parser.parse_args()
    devices, selectors = lab_devices(args.devices)
    print(f"load_average_1m {os.getloadavg()[0]:.2f} (2 cores; other work inflates the figures)")
    print(f"selectors {len(selectors)}")
    ours = bench_gsb(devices, selectors, args.runs)
    bench_preview(args.preview_devices, args.runs)
    bench_near_limit(devices[0], args.runs)
    try:
        import celpy  # noqa: F401  (cel-python: only for this comparison)
    except ImportError:
        print("celpy_skipped not installed (.venv/bin/pip install cel-python==0.5.0)")
    else:
        theirs = bench_celpy(devices, selectors, args.runs)
        agree = all(ours[e] == theirs[e] for e in selectors)
        print(f"libraries_agree {str(agree).lower()}")
    for e in selectors:
        print(f"matches {len(ours[e])} {e}")


if __name__ == "__main__":
    main()
