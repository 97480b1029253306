"""CEL selector evaluation over 1,000 lab-shaped devices: gsb-tui's evaluator vs cel-python.

Devices are clones of the recorded ones (tests/fixtures/lab.jsonl, step-5) with new names,
indices and uuids. Selectors: the recorded DeviceClass selector, the recorded pick-seven
selector, and the example driver's model / memory selectors plus a version comparison.

Prints `name value unit` lines (figures, not pass/fail). The headline
`cel_eval_1000_devices_ms` is every selector on every device with nothing cached but the
compiled selectors: each device's CEL context is built during the run, as after a fresh list.
Run: .venv/bin/python bench/bench_cel.py [--runs N] [--devices N]
"""

from __future__ import annotations

import argparse
import copy
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gsb_tui.dra import cel as gcel
from gsb_tui.dra.cel import SEMVER_TEXT, parse_quantity, parse_semver
from gsb_tui.dra.model import Device, DeviceId, parse_claim, parse_class, parse_slice
from gsb_tui.kube.recording import snapshot_at
from gsb_tui.snapshot import Kind

RECORDING = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "lab.jsonl"


def lab_devices(count: int) -> tuple[list[Device], list[str]]:
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
        raw["name"] = f"gpu-{i}"
        raw["attributes"]["index"] = {"int": i}
        raw["attributes"]["uuid"] = {"string": f"gpu-{i:08x}-0000-4000-8000-000000000000"}
        devices.append(
            Device(
                id=DeviceId(driver, base.id.pool, f"gpu-{i}"),
                slice_name=f"{base.slice_name}-{i // 128}",  # slices hold at most 128 devices
                node=base.node,
                attributes={**base.attributes, "index": i},
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
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def bench_gsb(devices: list[Device], selectors: list[str], runs: int) -> dict[str, set[DeviceId]]:
    gcel.clear_caches()
    gcel.library()  # the import, measured by design.md, is not part of compiling
    start = time.perf_counter()
    compiled = [gcel.compile_selector(e) for e in selectors]
    print(
        f"cel_compile_{len(selectors)}_selectors_ms {(time.perf_counter() - start) * 1000:.2f} ms"
    )

    def run() -> dict[str, set[DeviceId]]:
        return {s.expression: {d.id for d in devices if s.evaluate(d).matched} for s in compiled}

    def forget_devices() -> None:
        gcel.clear_caches()
        for expression in selectors:
            gcel.compile_selector(expression)

    n = len(devices)
    cold = median_ms(run, runs, forget_devices)
    print(f"cel_eval_{n}_devices_ms {cold:.2f} ms")
    warm = median_ms(run, runs, lambda: gcel.clear_caches(results_only=True))
    print(f"cel_eval_{n}_devices_contexts_cached_ms {warm:.2f} ms")
    cached = median_ms(run, runs, lambda: None)
    print(f"cel_eval_{n}_devices_results_cached_ms {cached:.2f} ms")
    print(f"cel_eval_per_selector_device_us {warm * 1000 / (n * len(selectors)):.2f} us")
    return run()


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
                if isinstance(value, dict):  # a version
                    domain[name] = "semver:" + value[SEMVER_TEXT]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--devices", type=int, default=1000)
    args = parser.parse_args()
    devices, selectors = lab_devices(args.devices)
    print(f"load_average_1m {os.getloadavg()[0]:.2f} (2 cores; other work inflates the figures)")
    print(f"selectors {len(selectors)}")
    ours = bench_gsb(devices, selectors, args.runs)
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
