"""The lab directory watched (inotify through watchfiles), also across its own removal.

inotify watches a directory's inode: once the learner removes the lab directory (or a `mv`
puts another in its place), a watch on it sees nothing ever again. So the nearest existing
directory above it is watched as well (non-recursively, its other entries ignored): the lab
directory appearing, vanishing or being replaced there re-arms the watch on the new one. A
lab directory made after gsb-tui started is picked up the same way, and a lab path that is a
symlink whose target is swapped is caught by comparing the directory's identity every few
seconds. Each time what the lab holds may have changed, `changed()` is called (also once
after each watch is armed, for what was written meanwhile).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Collection
from pathlib import Path

CHECK_EVERY_MS = 5000  # how often the directory's identity is compared, with no event
DEBOUNCE_MS = 200
RETRY_S = 5.0  # after the watch itself failed (inotify limits, a directory gone meanwhile)

Identity = tuple[int, int] | None  # (st_dev, st_ino) of the directory, None when there is none


def identity(path: Path) -> Identity:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino) if os.path.isdir(path) else None


def anchor_of(lab: Path) -> Path:
    """The nearest directory above the lab directory that exists (where it would appear)."""
    for parent in lab.parents:
        if identity(parent) is not None:
            return parent
    return Path(lab.anchor or "/")


def touches_the_way(changed: Path, lab: Path, anchor: Path) -> bool:
    """A change to the lab directory itself or to a directory between it and the anchor."""
    return changed == lab or (changed in lab.parents and anchor in changed.parents)


async def watch_lab_dir(lab_dir: Path, changed: Callable[[], object]) -> None:
    """Call `changed()` whenever a file in the lab directory may have changed, or the
    directory itself came, went or was replaced. Runs until cancelled."""
    from watchfiles import awatch

    lab = Path(os.path.abspath(lab_dir))
    while True:
        anchor = anchor_of(lab)
        armed = identity(lab)
        paths = [str(anchor)] + ([str(lab)] if armed is not None else [])
        settled = False
        try:
            async for batch in awatch(
                *paths,
                debounce=DEBOUNCE_MS,
                recursive=False,
                rust_timeout=CHECK_EVERY_MS,
                yield_on_timeout=True,
            ):
                if _rearm(batch, lab, anchor, armed):
                    changed()  # it came, went or was replaced: watch what is there afresh
                    break
                # The first batch (an event, or the first check) also stands for whatever
                # was written while the watch was being armed.
                if not settled or any(Path(path).parent == lab for _change, path in batch):
                    changed()
                    settled = True
        except (OSError, RuntimeError):  # e.g. inotify's watch limit, a path gone meanwhile
            await asyncio.sleep(RETRY_S)


def _rearm(batch: Collection[tuple[object, str]], lab: Path, anchor: Path, armed: Identity) -> bool:
    if identity(lab) != armed or anchor_of(lab) != anchor:
        return True
    return any(touches_the_way(Path(path), lab, anchor) for _change, path in batch)
