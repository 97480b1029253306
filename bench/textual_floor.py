"""Textual's own floor for event → screen: a bare App at the latency bench's size whose one
Static changes, timed from `update()` to the composed frame turned into terminal bytes (as
bench/headless.py times gsb-tui's frames). Figures, not pass/fail.

    .venv/bin/python bench/textual_floor.py [--updates 200]

gsb-tui's latency goal (issue 13: p95 within 1.2 x `kubectl get -w`) leaves its store → frame
path ~3.5 ms at p95 on this machine (kubectl's p95 ~11.5 ms, our watch's own ~10.3 ms): this
is how much of that Textual needs to draw anything at all.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

from harness import percentile
from headless import SIZE
from textual.app import App, ComposeResult
from textual.widgets import Static


class Bare(App[None]):
    def __init__(self) -> None:
        super().__init__()
        self.started: float | None = None
        self.took: list[float] = []

    def compose(self) -> ComposeResult:
        for i in range(5):
            yield Static("x" * 50, id=f"s{i}")

    def _display(self, screen: Any, renderable: Any) -> None:
        super()._display(screen, renderable)
        if self.started is not None and renderable is not None:
            if hasattr(renderable, "render_segments"):
                renderable.render_segments(self.console)  # the bytes a terminal would get
            self.took.append(1000 * (time.perf_counter() - self.started))
            self.started = None


async def measure(updates: int) -> list[float]:
    app = Bare()
    async with app.run_test(size=SIZE, headless=True):
        await asyncio.sleep(0.5)
        line = app.query_one("#s2", Static)
        for i in range(updates):
            app.started = time.perf_counter()
            line.update(f"claim-{i:04d} " * 3)
            await asyncio.sleep(0.1)
    return app.took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--updates", type=int, default=200)
    took = asyncio.run(measure(parser.parse_args().updates))
    print(f"textual_floor_p50_ms {percentile(took, 50):.2f} ms  ({len(took)} frames)")
    print(f"textual_floor_p95_ms {percentile(took, 95):.2f} ms")


if __name__ == "__main__":
    main()
