"""gsb-tui in a real terminal (tmux): layouts across a resize, and `c` proven end to end through
OSC 52 into tmux's buffer and through pyperclip into an X clipboard (Xvfb + xclip)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gsb_tui.lab.steps import example_for
from tests.tmux import Tmux as BaseTmux

REPO = Path(__file__).resolve().parents[2]
GSB = str(Path(sys.executable).parent / "gsb-tui")


class Tmux(BaseTmux):
    def wait_for(self, text: str, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never appeared; the screen:\n{self.screen()}")


@pytest.fixture
def recording(tmp_path: Path) -> Path:
    """The lab recording cut at step 8, so the replay ends on a full screen."""
    lines = []
    for line in (REPO / "tests" / "fixtures" / "lab.jsonl").read_text().splitlines():
        lines.append(line)
        if '"label":"step-8"' in line:
            break
    path = tmp_path / "step8.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    assert shutil.which("tmux"), "tmux is needed (scripts/test installs it)"
    t = Tmux(f"gsb-test-{os.getpid()}-{tmp_path.name}")  # a server of its own per test
    yield t
    t.kill()


def start(
    tmux: Tmux, recording: Path, tmp_path: Path, size: tuple[int, int], env: str = ""
) -> None:
    tmux("new-session", "-d", "-s", "gsb", "-x", str(size[0]), "-y", str(size[1]))
    tmux("set", "-g", "set-clipboard", "on")
    command = (
        f"env -u COLUMNS -u LINES {env} XDG_DATA_HOME={tmp_path / 'data'} "
        f"XDG_STATE_HOME={tmp_path / 'state'} "
        f"{GSB} --demo {recording} --speed 0 --lab-dir {tmp_path / 'lab'} --lang en; "
        'echo "EXIT""ED=$?"'
    )
    tmux("send-keys", "-t", "gsb", command, "Enter")
    tmux.wait_for("dra-big")


def copy_step_example(tmux: Tmux) -> str:
    tmux("send-keys", "-t", "gsb", "C-p")
    tmux.wait_for("Search for commands")
    tmux("send-keys", "-t", "gsb", "-l", "Go to pane: Lab")
    time.sleep(0.5)
    tmux("send-keys", "-t", "gsb", "Enter")
    time.sleep(0.5)
    tmux("send-keys", "-t", "gsb", "c")
    return tmux.wait_for("saved to")


def test_resize_from_80x24_to_200x60(tmux: Tmux, recording: Path, tmp_path: Path) -> None:
    start(tmux, recording, tmp_path, (80, 24))
    time.sleep(1.0)  # let the first frames settle before resizing
    small = tmux.wait_for("gpu-0")
    assert len(small.splitlines()) <= 24
    assert "Devices" in small and "gpu-0" in small
    tmux("set", "-g", "window-size", "manual")
    tmux("resize-window", "-t", "gsb", "-x", "200", "-y", "60")
    big = tmux.wait_for("Lab checklist")
    assert len(big.splitlines()) > 24
    # The wide layout shows the grid, the claims and the checklist at once.
    assert "Claims" in big and "pick-seven" in big and "share-a" in big
    tmux("send-keys", "-t", "gsb", "q")
    assert "EXITED=0" in tmux.wait_for("EXITED=")
    assert "Traceback" not in tmux.screen()
    print("\n[terminal] 80x24 -> 200x60 resize: layouts redrawn, exit 0")


def test_copy_reaches_tmux_buffer_through_osc52(
    tmux: Tmux, recording: Path, tmp_path: Path
) -> None:
    start(tmux, recording, tmp_path, (160, 48), env="DISPLAY= WAYLAND_DISPLAY=")
    screen = copy_step_example(tmux)
    assert "terminal clipboard" in screen and "no X or Wayland display" in screen
    buffer = tmux("show-buffer")
    assert buffer.strip() == example_for(1).strip()
    saved = list((tmp_path / "data" / "gsb-tui" / "examples").iterdir())
    assert [p.read_text().strip() for p in saved] == [example_for(1).strip()]
    assert not (tmp_path / "lab").exists()  # nothing written into the lab directory
    print("\n[terminal] c -> OSC 52 -> tmux buffer: identical to the example")


def test_copy_reaches_x_clipboard_through_pyperclip(
    tmux: Tmux, recording: Path, tmp_path: Path
) -> None:
    assert shutil.which("Xvfb") and shutil.which("xclip"), "Xvfb and xclip are needed"
    display = f":{90 + os.getpid() % 100}"
    xvfb = subprocess.Popen(["Xvfb", display, "-nolisten", "tcp"], stderr=subprocess.DEVNULL)
    try:
        time.sleep(1.0)
        start(tmux, recording, tmp_path, (160, 48), env=f"DISPLAY={display}")
        screen = copy_step_example(tmux)
        clip = subprocess.run(
            ["xclip", "-o", "-selection", "clipboard"],
            capture_output=True,
            text=True,
            env={**os.environ, "DISPLAY": display},
            timeout=10,
        )
        assert clip.stdout.strip() == example_for(1).strip()
        assert "copied" in screen
        print("\n[terminal] c -> pyperclip -> X clipboard (Xvfb + xclip): identical")
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=10)
