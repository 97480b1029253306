"""Textual's frame timer: the App gsb-tui starts asks for 240 ticks a second (a change waits for
the next tick), a user's own TEXTUAL_FPS is kept, and importing the UI alone changes nothing.
Checked in a fresh interpreter: Textual reads the rate once, when it is first imported."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gsb_tui.ui import FRAME_RATE
from tests.recorded import RECORDING

MADE = (
    "from pathlib import Path; from gsb_tui.kube.source import ReplaySource;"
    " from gsb_tui.ui.run import make_app;"
    f" make_app(ReplaySource(Path({str(RECORDING)!r})), Path('/nonexistent-lab'), 'en');"
    " from textual import constants; print(constants.MAX_FPS)"
)
IMPORTED = "import gsb_tui.ui.app; from textual import constants; print(constants.MAX_FPS)"


def _rate(probe: str, env: str | None, home: Path) -> str:
    environ = {k: v for k, v in os.environ.items() if k != "TEXTUAL_FPS"}
    environ["HOME"] = environ["XDG_CONFIG_HOME"] = str(home)  # no user config is read
    if env is not None:
        environ["TEXTUAL_FPS"] = env
    out = subprocess.run(
        [sys.executable, "-c", probe], env=environ, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


@pytest.mark.parametrize(("env", "want"), [(None, "240"), ("30", "30")])
def test_the_app_gsb_tui_starts_asks_for_its_frame_rate(
    env: str | None, want: str, tmp_path: Path
) -> None:
    assert _rate(MADE, env, tmp_path) == want


def test_importing_the_ui_leaves_textuals_rate_alone(tmp_path: Path) -> None:
    assert _rate(IMPORTED, None, tmp_path) != FRAME_RATE  # Textual's own default
