"""The console script: a command that only prints leaves once its output is flushed, without
the interpreter's teardown; the others end as usual. Real processes: os._exit is the point."""

from __future__ import annotations

import subprocess
import sys

import pytest

SCRIPT = """
import atexit, sys
from gsb_tui import cli
atexit.register(lambda: print("torn down", file=sys.stderr))
if {profiled!r}:
    sys.setprofile(lambda *_: None)
sys.argv[1:] = {argv!r}
cli.script()
"""


def _script(*argv: str, profiled: bool = False) -> subprocess.CompletedProcess[str]:
    code = SCRIPT.format(argv=list(argv), profiled=profiled)
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )


@pytest.mark.parametrize("command", ["why", "check", "devices"])
def test_a_print_only_command_says_all_and_leaves_without_teardown(command: str) -> None:
    args = ["ns/pod"] if command == "why" else []
    done = _script(command, *args, "--kubeconfig=/nonexistent/kubeconfig", "--lang=en")
    assert done.returncode == 2, done.stderr  # the cluster unusable: cli_io.EXIT_UNUSABLE
    assert "no kubeconfig found" in done.stderr
    assert "/nonexistent/kubeconfig" in done.stderr
    assert "torn down" not in done.stderr


def test_the_other_paths_end_as_usual() -> None:
    done = _script("--version")
    assert done.returncode == 0
    assert done.stdout.strip()
    assert "torn down" in done.stderr


def test_under_a_profiler_a_print_only_command_ends_as_usual() -> None:
    """A profiler writes its report at exit (bench/profiles.py runs pyinstrument so)."""
    done = _script("why", "ns/pod", "--kubeconfig=/nonexistent/kubeconfig", profiled=True)
    assert done.returncode == 2, done.stderr
    assert "no kubeconfig found" in done.stderr
    assert "torn down" in done.stderr
