"""Textual's frame timer: gsb-tui asks for 240 ticks a second (a change waits for the next tick),
and a user's own TEXTUAL_FPS is kept. Checked in a fresh interpreter: the constant is read once,
when Textual is first imported."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

PROBE = "import gsb_tui.ui.app; from textual import constants; print(constants.MAX_FPS)"


@pytest.mark.parametrize(("env", "want"), [(None, "240"), ("30", "30")])
def test_frame_timer_rate(env: str | None, want: str) -> None:
    environ = {k: v for k, v in os.environ.items() if k != "TEXTUAL_FPS"}
    if env is not None:
        environ["TEXTUAL_FPS"] = env
    out = subprocess.run(
        [sys.executable, "-c", PROBE], env=environ, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == want
