"""The lab directory stays watched when it is removed and made anew, made after gsb-tui
started, moved aside for another, or reached through a symlink that is re-pointed (issue 26,
part 6: the checklist used to stay stale forever once the directory had been made again).

Each call of `changed()` records what the directory held at that moment, so a test waits for a
call that saw its change: an earlier, unrelated call can never satisfy it.
"""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from gsb_tui.ui import lab_watch
from gsb_tui.ui.lab_watch import anchor_of, touches_the_way, watch_lab_dir

DEADLINE_S = 30.0  # a failure bound only: each wait ends as soon as its call arrives

Seen = list[tuple[str, ...] | None]


class Watch:
    def __init__(self, lab: Path) -> None:
        self.lab = lab
        self.seen: Seen = []
        self.wake = asyncio.Event()

    def changed(self) -> None:
        self.seen.append(tuple(sorted(os.listdir(self.lab))) if self.lab.is_dir() else None)
        self.wake.set()

    async def until(self, what: str, holds: Callable[[tuple[str, ...] | None], bool]) -> None:
        async def wait() -> None:
            start = 0
            while True:
                for index in range(start, len(self.seen)):
                    if holds(self.seen[index]):
                        del self.seen[: index + 1]
                        return
                start = len(self.seen)
                self.wake.clear()
                await self.wake.wait()

        try:
            await asyncio.wait_for(wait(), DEADLINE_S)
        except TimeoutError:
            raise AssertionError(f"changed() never saw {what}; it saw {self.seen}") from None

    async def has(self, name: str) -> None:
        await self.until(f"{name} in {self.lab}", lambda held: held is not None and name in held)

    async def gone(self) -> None:
        await self.until(f"{self.lab} removed", lambda held: held is None)


@pytest.fixture
def fast_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lab_watch, "CHECK_EVERY_MS", 300)
    monkeypatch.setattr(lab_watch, "RETRY_S", 0.2)


async def _watching(lab: Path) -> AsyncIterator[Watch]:
    watch = Watch(lab)
    task = asyncio.create_task(watch_lab_dir(lab, watch.changed))
    try:
        yield watch
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


def _write(path: Path, body: str = "driver=gpu.example.com\n") -> None:
    path.write_text(body, encoding="utf-8")


async def test_removed_and_made_again_is_watched_again(tmp_path: Path, fast_checks: None) -> None:
    lab = tmp_path / "gsb-dra"
    lab.mkdir()
    async for watch in _watching(lab):
        _write(lab / "slices.txt")
        await watch.has("slices.txt")
        shutil.rmtree(lab)
        await watch.gone()  # the checklist hears of the removal too
        lab.mkdir()
        _write(lab / "class.txt")
        await watch.has("class.txt")
        _write(lab / "one.yaml", "kind: Pod\n")  # and it keeps being watched
        await watch.has("one.yaml")


async def test_a_lab_dir_made_after_start_is_picked_up(tmp_path: Path, fast_checks: None) -> None:
    lab = tmp_path / "not" / "yet" / "gsb-dra"
    async for watch in _watching(lab):
        lab.mkdir(parents=True)  # mkdir -p: each level appears in turn
        _write(lab / "slices.txt")
        await watch.has("slices.txt")
        _write(lab / "claim.json", "{}\n")
        await watch.has("claim.json")


async def test_moved_aside_for_another_directory(tmp_path: Path, fast_checks: None) -> None:
    lab, fresh = tmp_path / "gsb-dra", tmp_path / "fresh"
    lab.mkdir()
    fresh.mkdir()
    _write(fresh / "pick.yaml", "kind: Pod\n")
    async for watch in _watching(lab):
        lab.rename(tmp_path / "old")
        fresh.rename(lab)
        await watch.has("pick.yaml")
        _write(lab / "two.yaml", "kind: Pod\n")
        await watch.has("two.yaml")
        _write(tmp_path / "old" / "shared.yaml")  # the old one is no longer watched ...
        _write(lab / "report.json", "{}\n")
        await watch.has("report.json")
        assert all(held is None or "shared.yaml" not in held for held in watch.seen)


async def test_a_symlinked_lab_dir_whose_target_changes(tmp_path: Path, fast_checks: None) -> None:
    first, second, lab = tmp_path / "first", tmp_path / "second", tmp_path / "gsb-dra"
    first.mkdir()
    second.mkdir()
    lab.symlink_to(first)
    async for watch in _watching(lab):
        _write(first / "slices.txt")
        await watch.has("slices.txt")
        (tmp_path / "next").symlink_to(second)
        (tmp_path / "next").replace(lab)  # ln -sfn second gsb-dra, atomically
        await watch.until("the new target", lambda held: held == ())
        _write(second / "class.txt")
        await watch.has("class.txt")
        shutil.rmtree(second)  # the target itself removed and made again: no event above it
        second.mkdir()
        _write(second / "one.yaml")
        await watch.has("one.yaml")


def test_what_counts_as_the_way_to_the_lab_dir(tmp_path: Path) -> None:
    lab = tmp_path / "a" / "b" / "lab"
    assert anchor_of(lab) == tmp_path
    assert touches_the_way(lab, lab, tmp_path)
    assert touches_the_way(tmp_path / "a", lab, tmp_path)
    assert not touches_the_way(tmp_path / "other", lab, tmp_path)
    assert not touches_the_way(lab / "slices.txt", lab, tmp_path)


async def test_the_checklist_follows_a_lab_dir_made_anew(
    lab_snapshot: Callable[[str], object], tmp_path: Path, fast_checks: None
) -> None:
    """The App's own watcher: step 1 green, the directory removed (not green any more), made
    again with the answer (green again), with no cluster change to wake the checks."""
    from gsb_tui.dra.builder import build_view
    from gsb_tui.snapshot import Snapshot
    from gsb_tui.ui.app import GsbApp
    from tests.ui.helpers import wait_until
    from tests.ui.scripted import SnapshotSource

    snapshot = lab_snapshot("step-8")
    assert isinstance(snapshot, Snapshot)
    (slice_,) = build_view(snapshot).slices
    model = next(iter({d.attribute("model") for d in slice_.devices}))
    answer = (
        f"driver={slice_.driver}\ndevices={len(slice_.devices)}\n"
        f"node={slice_.node}\nmodel={model}\n"
    )
    lab = tmp_path / "gsb-dra"
    lab.mkdir()
    _write(lab / "slices.txt", answer)
    app = GsbApp(SnapshotSource(snapshot), lab, "en")  # watch_lab_dir: the default, on

    def step1_ok() -> bool | None:
        verdicts = app.dashboard.checklist.verdicts
        return None if not verdicts else next(v.ok for v in verdicts if v.step == 1)

    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: step1_ok() is True, DEADLINE_S)
        shutil.rmtree(lab)
        await wait_until(pilot, lambda: step1_ok() is False, DEADLINE_S)
        lab.mkdir()
        _write(lab / "slices.txt", answer)
        await wait_until(pilot, lambda: step1_ok() is True, DEADLINE_S)
