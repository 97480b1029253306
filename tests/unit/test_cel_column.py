"""A selector over a whole device sequence by key column (gsb_tui/dra/cel/column.py, the selector
tool's trial): every device's outcome says what evaluating it alone says; the keys are read once
per sequence and keying plan, so a second expression reading the same leaves reads none and
evaluates once per distinct key; a new sequence object, a deadline and a stop are honoured.

Devices are test_cel_dedupe's population (the recorded lab and profile devices and variants of
them); the reference is that module's device-by-device evaluation with nothing cached.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from gsb_tui.dra.cel import CelOutcome, CelSession, Selector, column, compile_selector
from gsb_tui.dra.cel.device import traits
from gsb_tui.dra.cel.projection import Plan
from gsb_tui.dra.model import Device
from tests.unit.test_cel_dedupe import (
    COARSE_SHAPES,
    GPU,
    LEAF_SHAPES,
    POPULATION,
    _generated,
    _many_devices,
    _one_by_one,
)

A = f"device.attributes['{GPU}']"


def _said(outcome: CelOutcome) -> tuple[bool, str, bool]:
    """What an outcome says of its device (a column's outcome names its key's first device)."""
    return (outcome.matched, outcome.error, outcome.unfinished)


def _assert_as_alone(selector: Selector, devs: Sequence[Device]) -> None:
    expected = _one_by_one(selector, devs)
    for order in (tuple(devs), tuple(reversed(devs))):
        selector.session.clear(results_only=True)
        got = selector.evaluate_many(order)
        assert got is not None
        wrong = {
            d.id: (_said(o), _said(expected[d.id]))
            for d, o in zip(order, got, strict=True)
            if _said(o) != _said(expected[d.id])
        }
        assert not wrong, (selector.expression, wrong)


@pytest.mark.parametrize("expression", LEAF_SHAPES + COARSE_SHAPES)
def test_a_column_says_of_each_device_what_it_alone_says(expression: str) -> None:
    _assert_as_alone(compile_selector(expression), POPULATION)


def test_generated_selectors_say_the_same_by_column() -> None:
    compiled = []
    for expression in _generated():
        try:
            compiled.append(compile_selector(expression, driver=GPU))
        except Exception:  # CelCompileError, CelUnsupportedError: nothing to evaluate
            continue
    assert len(compiled) > 90
    for selector in compiled:
        _assert_as_alone(selector, POPULATION)


@pytest.fixture
def keys_read(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Plan]]:
    """The keys read (Plan.key), one entry per read."""
    seen: list[Plan] = []
    key = Plan.key

    def counting_key(self: Plan, device: Device) -> Any:
        seen.append(self)
        return key(self, device)

    monkeypatch.setattr(Plan, "key", counting_key)
    yield seen


def test_keys_are_read_once_per_sequence_and_a_new_expression_runs_per_distinct_key(
    keys_read: list[Plan], evaluations: list[str]
) -> None:
    devs = tuple(d for d in POPULATION if d.id.driver == GPU)
    session = CelSession()
    first = session.compile(f"{A}.index == 7")
    assert first.evaluate_many(devs) is not None
    keyable = [d for d in devs if traits(d).convertible]
    assert len(keys_read) == len(keyable)  # one read per device the plan can key
    keys = [first._evaluator.plan.key(d) for d in keyable]  # type: ignore[union-attr]
    distinct = len(set(keys) - {None})
    alone = len(devs) - len(keyable) + keys.count(None)
    assert distinct + alone < len(devs) // 2  # the recording's devices repeat their indexes
    keys_read.clear()
    evaluations.clear()
    second = session.compile(f"{A}.index == 1")  # the same leaf: the same column
    got = second.evaluate_many(devs)
    assert got is not None
    assert len(keys_read) == 0
    assert len(evaluations) == distinct + alone
    assert sum(o.matched for o in got) == sum(second.evaluate(d).matched for d in devs) > 0
    keys_read.clear()
    assert second.evaluate_many(tuple(devs)[::-1]) is not None  # another sequence object
    assert len(keys_read) == len(keyable)


def test_a_stop_ends_it_and_a_deadline_leaves_the_rest_unfinished_and_not_kept() -> None:
    devs = tuple(_many_devices(column.STOP_EVERY + 50))  # the stop is asked before chunk two
    selector = compile_selector(f"{A}.model == 'LATEST-GPU-MODEL'")
    asked: list[int] = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 1

    assert selector.evaluate_many(devs, stop=stop) is None
    assert len(asked) == 2
    selector.session.clear(results_only=True)  # the first chunk's outcomes are kept
    late = selector.evaluate_many(devs, deadline=0.0)  # long past
    assert late is not None and all(o.unfinished for o in late)
    again = selector.evaluate_many(devs)
    assert again is not None and not any(o.unfinished for o in again)
    assert any(o.matched for o in again)
