"""The demo (ReplaySource): `p` pauses and plays on, and the header names the scenario's step
the replay is at (the recording's last MARK, worded), in both languages."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from gsb_tui.kube.recording import marks
from gsb_tui.kube.source import ReplaySource
from gsb_tui.kube.store import Change
from gsb_tui.ui.panes.header import mark_words
from gsb_tui.words import text
from tests.ui.helpers import make_app, wait_until


def _until_after_mark(recording: Path, mark: str, out: Path) -> Path:
    """The recording's lines up to and with MARK `mark`."""
    lines = []
    for line in recording.read_text(encoding="utf-8").splitlines():
        lines.append(line)
        data = json.loads(line)
        if data.get("type") == "MARK" and data.get("label") == mark:
            break
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


async def test_a_paused_replay_holds_its_changes_until_played_on(
    lab_recording: Path, tmp_path: Path
) -> None:
    path = _until_after_mark(lab_recording, "step-2", tmp_path / "to-step-2.jsonl")
    source = ReplaySource(path, speed=0)
    source.pause(True)
    emitted: list[Change] = []
    task = asyncio.create_task(source.run(emitted.append))
    for _ in range(50):  # the replay has every chance to run; paused, it emits nothing
        await asyncio.sleep(0)
    assert emitted == [] and source.paused and source.mark == ""
    source.pause(False)
    await asyncio.wait_for(task, timeout=30)
    assert [c.label for c in emitted if c.type == "MARK"] == marks(path)
    assert source.mark == marks(path)[-1] == "step-2"


@pytest.mark.parametrize("lang", ["en", "ko"])
async def test_p_pauses_the_demo_and_the_header_names_the_step(
    lab_recording: Path, tmp_path: Path, lang: str
) -> None:
    path = _until_after_mark(lab_recording, "step-3", tmp_path / "to-step-3.jsonl")
    last = marks(path)[-1]
    source = ReplaySource(path, speed=0)
    source.pause(True)  # as if `p` had been pressed before the first change
    app = make_app(source, lang)
    async with app.run_test(size=(160, 48)) as pilot:
        header = app.dashboard.header
        await pilot.pause()
        assert not app.source_finished and header.scenario == ""
        await pilot.press("p")  # play on
        await wait_until(pilot, lambda: app.source_finished and header.scenario == last)
        assert not source.paused and not header.paused
        first_line = header.render().plain.splitlines()[0]
        at = text(lang, "demo.at", step=mark_words(last, lang))
        assert at in first_line
        assert at == text(lang, "demo.at", step=text(lang, "step-n", step=3))
        await pilot.press("p")  # pause
        await wait_until(pilot, lambda: header.paused)
        assert source.paused and text(lang, "demo.paused") in header.render().plain
        await pilot.press("p")
        await wait_until(pilot, lambda: not header.paused)
        assert not source.paused


def test_every_recorded_mark_has_words() -> None:
    """The marks of the recordings --demo plays are worded, never shown as their ids."""
    from gsb_tui.cli import demo_names, demo_recording

    for name in demo_names():
        for mark in marks(demo_recording(name)):
            worded = mark_words(mark, "ko")
            assert worded != mark and worded != mark_words(mark, "en"), (name, mark)
