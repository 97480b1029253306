"""The checklist pane: verdicts from gsb_tui.lab, `e` shows and `c` copies a step's example."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gsb_tui import lab
from gsb_tui.snapshot import Snapshot
from gsb_tui.ui import lab_checks
from gsb_tui.ui.screens.text_view import TextViewScreen
from gsb_tui.words import text
from tests.ui.helpers import make_app, wait_until
from tests.ui.scripted import SnapshotSource


@pytest.fixture
def step8(lab_snapshot: Callable[[str], Snapshot]) -> Snapshot:
    return lab_snapshot("step-8")


def _pane_text(app: Any) -> str:
    """The pane's words, wrapped lines joined (a long title wraps under itself)."""
    pane = app.dashboard.checklist
    shown = str(pane.query_one(".steps").render()) + str(pane.query_one(".step-detail").render())
    return " ".join(shown.split())


async def test_checklist_shows_every_step_verdict(step8: Snapshot) -> None:
    app = make_app(SnapshotSource(step8))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.checklist.verdicts)
        pane = app.dashboard.checklist
        assert [v.step for v in pane.verdicts or []] == [s.id for s in lab.STEPS]
        shown = _pane_text(app)
        for s in lab.STEPS:
            assert s.title("en") in shown
        first = (pane.verdicts or [])[0]
        assert " ".join(str(first.reason).split()) in shown  # the first step's reason


async def test_e_shows_and_c_copies_the_example(
    step8: Snapshot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pyperclip

    def no_clipboard(_text: str) -> None:
        raise pyperclip.PyperclipException("could not find a copy/paste mechanism")

    monkeypatch.setattr(pyperclip, "copy", no_clipboard)
    app = make_app(SnapshotSource(step8))
    notes: list[str] = []
    async with app.run_test(size=(160, 48)) as pilot:
        monkeypatch.setattr(app, "notify", lambda message, **_kw: notes.append(str(message)))
        await wait_until(pilot, lambda: app.dashboard.checklist.verdicts)
        app.dashboard.focus_pane("checklist")
        await pilot.press("down", "down")  # step 3: a manifest
        await pilot.pause()
        step = app.dashboard.checklist.current_step
        assert step == lab.STEPS[2].id
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, TextViewScreen)
        assert app.screen.plain == lab.example_for(step)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
    saved = tmp_path / "data" / "gsb-tui" / "examples" / f"step{step}-example.yaml"
    assert saved.read_text() == lab.example_for(step).rstrip("\n") + "\n"
    assert notes, "copying tells the user what happened"
    note = notes[-1]
    assert str(saved) in note
    assert "system clipboard: none here (no X or Wayland display)" in note
    assert "copied to the system clipboard" not in note  # never claims what it cannot confirm


async def test_checklist_loading_until_the_lab_has_evaluate(
    step8: Snapshot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lab_checks, "lab_evaluate", lambda: None)
    app = make_app(SnapshotSource(step8))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.view is not None)
        assert app.dashboard.checklist.notice_text == text("en", "checklist-loading")
        await pilot.press("tab", "tab", "tab", "tab", "e")  # no verdicts: a warning, no crash
        await pilot.pause()
        assert app.is_running


async def test_a_failing_check_keeps_the_dashboard_running(
    step8: Snapshot, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(_view: object, _lab_dir: object) -> list[object]:
        raise ValueError("check bug")

    monkeypatch.setattr(lab_checks, "lab_evaluate", lambda: broken)
    app = make_app(SnapshotSource(step8))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.checklist.error)
        assert "ValueError: check bug" in app.dashboard.checklist.notice_text
        assert app.dashboard.grid.cells


async def test_a_step_turning_green_is_announced(
    step8: Snapshot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gsb_tui.dra.builder import build_view
    from gsb_tui.ui.app import GsbApp
    from gsb_tui.ui.messages import LabFilesChanged

    view = build_view(step8)
    (slice_,) = view.slices
    models = {d.attribute("model") for d in slice_.devices}
    answer = (
        f"driver={slice_.driver}\ndevices={len(slice_.devices)}\n"
        f"node={slice_.node}\nmodel={models.pop()}\n"
    )
    app = GsbApp(SnapshotSource(step8), tmp_path, "en", watch_lab_dir=False)
    notes: list[str] = []
    async with app.run_test(size=(160, 48)) as pilot:
        monkeypatch.setattr(app, "notify", lambda message, **_kw: notes.append(str(message)))
        await wait_until(pilot, lambda: app.dashboard.checklist.verdicts)
        assert not any(v.ok for v in app.dashboard.checklist.verdicts or [] if v.step == 1)
        (tmp_path / "slices.txt").write_text(answer)
        app.post_message(LabFilesChanged())
        await wait_until(pilot, lambda: app.newly_green == [1])
    assert notes == [text("en", "step-green", step=1, title=lab.step(1).title("en"))]


async def test_a_mark_changing_redraws_the_steps_without_a_layout(
    step8: Snapshot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another step's mark changing (the cursor's step and its detail as they were) takes as
    many lines: its text is drawn again without a layout of the screen (~20 ms at 10,000
    devices, a frame the first keys waited behind). A detail of another height is laid out."""
    from dataclasses import replace

    from textual.widgets import Static

    layouts: list[str] = []
    real = Static.refresh

    def spying(widget: Static, *regions: Any, **kw: Any) -> Any:
        if kw.get("layout") and {"steps", "step-detail"} & set(widget.classes):
            layouts.append(str(widget.classes))
        return real(widget, *regions, **kw)

    app = make_app(SnapshotSource(step8))
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.dashboard.checklist.verdicts)
        pane = app.dashboard.checklist
        pane.moved = True  # the cursor stays where it is
        verdicts = list(pane.verdicts or [])
        other = next(i for i in range(len(verdicts)) if i != pane.cursor)
        was = verdicts[other].status
        verdicts[other] = replace(verdicts[other], status="broken" if was != "broken" else "green")
        monkeypatch.setattr(Static, "refresh", spying)
        pane.show(verdicts)
        await pilot.pause(0.1)
        steps = str(pane.query_one(".steps", Static).render())
        line = steps.splitlines()[sum(pane._line_counts[:other])]
        assert line.lstrip(" ▶").startswith("✗" if was != "broken" else "✓")
        assert layouts == []
        verdicts[pane.cursor] = replace(verdicts[pane.cursor], subchecks=())  # fewer lines
        pane.show(verdicts)
        assert layouts  # the detail's height changed: laid out
