"""Fixtures the unit tests of the CEL package share."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from gsb_tui.dra.cel import CelOutcome, runtime


@pytest.fixture
def evaluations(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The expressions really evaluated (not answered from the shared outcomes)."""
    seen: list[str] = []
    real = runtime._evaluate

    def counting(ev: runtime.Evaluator, *args: Any) -> CelOutcome:
        seen.append(ev.expression)
        return real(ev, *args)

    monkeypatch.setattr(runtime, "_evaluate", counting)
    yield seen
