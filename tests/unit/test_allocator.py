"""gsb_tui/allocator.py: glibc keeps its mmap threshold fixed, so large buffers freed go back to
the system instead of leaving holes in the heap."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gsb_tui import allocator

# Free a 16 MiB block (glibc then raises its threshold to 16 MiB, unless fixed), make 48 blocks
# of 1 MiB each followed by a small block that stays, free the large ones, and say how much
# of them the process still holds.
PROBE = """
import sys
from gsb_tui.allocator import fix_mmap_threshold
if sys.argv[1] == "fixed":
    assert fix_mmap_threshold()
def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) // 1024
big = bytearray(16 << 20)
del big
before = rss()
large, small = [], []
for i in range(48):
    large.append(bytearray(1 << 20))
    small.append(b"y" * 2000 + bytes([i]))
del large
print(rss() - before)
"""


def _held_mb(mode: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, mode],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc only")
def test_large_blocks_freed_are_given_back_with_the_threshold_fixed() -> None:
    moving, fixed = _held_mb("moving"), _held_mb("fixed")
    assert moving >= 40  # the 48 MiB stayed in the heap's holes
    assert fixed <= 8  # each was mapped on its own and given back


def test_a_users_own_setting_and_other_systems_are_left_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(allocator.USERS_OWN, "65536")
    assert allocator.fix_mmap_threshold() is False
    monkeypatch.delenv(allocator.USERS_OWN)
    monkeypatch.setattr(allocator.sys, "platform", "darwin")
    assert allocator.fix_mmap_threshold() is False
