"""The dashboard in a real terminal (tmux) stopped by a signal gives the terminal back as it
was and exits with the documented code (issue 26, part 5): SIGTERM used to leave the pane in
the alternate screen with mouse reporting on and the cursor hidden. And without a terminal on
stdin it says so and exits 64 instead of reading end-of-file forever.

tmux reports the pane's modes itself (#{alternate_on}, #{cursor_flag}, #{mouse_*_flag}), so
"restored" is read from the terminal, not guessed from the output.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.tmux import Tmux as BaseTmux

GSB = str(Path(sys.executable).parent / "gsb-tui")
DEADLINE_S = 60.0  # a failure bound only: each wait ends as soon as what it waits for is there
MODES = "#{alternate_on} #{cursor_flag} #{mouse_any_flag} #{mouse_button_flag} " + (
    "#{mouse_standard_flag} #{mouse_all_flag} #{mouse_sgr_flag}"
)
DRAWING = "1 0 1"  # what Textual's driver turns on: alternate screen, no cursor, mouse (and more)
RESTORED = "0 1 0 0 0 0 0"  # the shell's terminal again

# A parent that survives the hangup and writes down how its child ended.
WAITER = """
import signal, subprocess, sys
signal.signal(signal.SIGHUP, signal.SIG_IGN)
default = lambda: signal.signal(signal.SIGHUP, signal.SIG_DFL)
child = subprocess.Popen(sys.argv[2:], preexec_fn=default)
open(sys.argv[1] + ".pid", "w").write(str(child.pid))
code = child.wait()
open(sys.argv[1], "w").write(str(code))
"""


class Tmux(BaseTmux):
    def drawn(self) -> bool:
        return self.modes().startswith(DRAWING) and "Claims" in self.screen()

    def modes(self) -> str:
        return self("display-message", "-p", "-t", "gsb", MODES).strip()

    def wait(self, what: str, holds: object) -> None:
        deadline = time.monotonic() + DEADLINE_S
        while time.monotonic() < deadline:
            if holds():  # type: ignore[operator]
                return
            time.sleep(0.1)
        raise AssertionError(
            f"{what} never happened; modes {self.modes()}, screen:\n{self.screen()}"
        )


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    assert shutil.which("tmux"), "tmux is needed (scripts/test installs it)"
    t = Tmux(f"gsb-edges-{os.getpid()}-{tmp_path.name}")  # a server of its own per test
    t("new-session", "-d", "-s", "gsb", "-x", "160", "-y", "48")
    yield t
    t.kill()


def _dashboard(tmp_path: Path) -> str:
    return (
        f"env -u COLUMNS -u LINES XDG_STATE_HOME={tmp_path / 'state'} "
        f"XDG_CONFIG_HOME={tmp_path / 'config'} "
        f"{GSB} --demo --speed 0 --lab-dir {tmp_path / 'lab'} --lang en"
    )


def _start(tmux: Tmux, tmp_path: Path) -> int:
    """The demo dashboard in the pane, drawn; its pid."""
    pid_file = tmp_path / "pid"
    command = f'sh -c \'echo $$ > {pid_file}; exec {_dashboard(tmp_path)}\'; echo "EXIT""ED=$?"'
    tmux("send-keys", "-t", "gsb", command, "Enter")
    tmux.wait(
        "the dashboard drawn",
        lambda: tmux.modes().startswith(DRAWING) and "Claims" in tmux.screen(),
    )
    return int(pid_file.read_text())


def _exited(tmux: Tmux) -> int:
    found: list[int] = []

    def shown() -> bool:
        for line in tmux.screen().splitlines():
            if line.startswith("EXITED="):
                found.append(int(line.split("=", 1)[1]))
        return bool(found)

    tmux.wait("the exit code shown", shown)
    return found[-1]


@pytest.mark.parametrize(
    ("signum", "code"),
    [(signal.SIGTERM, 143), (signal.SIGHUP, 129), (signal.SIGINT, 130)],
    ids=["SIGTERM", "SIGHUP", "SIGINT"],
)
def test_a_signal_restores_the_terminal_and_exits_with_its_code(
    tmux: Tmux, tmp_path: Path, signum: int, code: int
) -> None:
    pid = _start(tmux, tmp_path)
    os.kill(pid, signum)
    assert _exited(tmux) == code
    assert tmux.modes() == RESTORED
    assert "Traceback" not in tmux.screen() and "internal error" not in tmux.screen()


def test_a_second_sigterm_while_stopping_still_restores(tmux: Tmux, tmp_path: Path) -> None:
    pid = _start(tmux, tmp_path)
    os.kill(pid, signal.SIGTERM)
    os.kill(pid, signal.SIGTERM)  # impatient: the second one leaves at once if still stopping
    assert _exited(tmux) == 143
    assert tmux.modes() == RESTORED


def test_the_terminal_closing_ends_it_with_129(tmux: Tmux, tmp_path: Path) -> None:
    """A real hangup: the pane's terminal goes away (tmux killed), gsb-tui exits and is gone."""
    waiter = tmp_path / "waiter.py"
    waiter.write_text(WAITER, encoding="utf-8")
    rc = tmp_path / "rc"
    command = f"{sys.executable} {waiter} {rc} {_dashboard(tmp_path)}"
    tmux("send-keys", "-t", "gsb", command, "Enter")
    tmux.wait(
        "the dashboard drawn",
        lambda: tmux.modes().startswith(DRAWING) and "Claims" in tmux.screen(),
    )
    pid = int((tmp_path / "rc.pid").read_text())
    tmux("kill-server")
    deadline = time.monotonic() + DEADLINE_S
    while not rc.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert rc.read_text() == "129"
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_stdin_not_a_terminal_is_said_and_the_screen_never_taken(
    tmux: Tmux, tmp_path: Path
) -> None:
    command = f'{_dashboard(tmp_path)} < /dev/null; echo "EXIT""ED=$?"'
    tmux("send-keys", "-t", "gsb", command, "Enter")
    assert _exited(tmux) == 64
    assert "the dashboard needs a terminal, and standard input is not one" in " ".join(
        tmux.screen().split()
    )
    assert tmux.modes() == RESTORED
