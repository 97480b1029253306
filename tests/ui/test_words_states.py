"""Words on screen: every state worded (no raw ids such as "not-started" or "not-served"), the
command palette in Korean with --lang ko (Textual's own commands too), and the Korean help
laid out for 80 columns (a binding's words read as one sentence, not a column wrapped word by
word)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from textual.command import CommandInput, CommandList, CommandPalette
from textual.pilot import Pilot

from gsb_tui.lab.report import to_text
from gsb_tui.snapshot import Kind
from gsb_tui.ui.app import GsbApp
from gsb_tui.ui.screens.help import HelpScreen
from gsb_tui.words import text
from tests.recorded import snap
from tests.ui.helpers import make_app, wait_until
from tests.ui.scripted import ScriptedSource, SnapshotSource, state

RAW_IDS = ("not-started", "in-progress", "cannot-judge", "not-served")
RAW = re.compile("|".join(rf"(?<![\w-]){re.escape(i)}(?![\w-])" for i in RAW_IDS))


def _screen_text(app: GsbApp) -> str:
    # The composed screen as text (Textual has no public way to read it back).
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


def _region_text(app: GsbApp, widget: Any) -> str:
    """What the screen shows inside one widget's content region (cells, not characters)."""
    region = widget.content_region
    strips = app.screen._compositor.render_strips()[region.y : region.bottom]
    return "\n".join(strip.crop(region.x, region.right).text for strip in strips)


def _words(text_: str) -> str:
    return " ".join(text_.split())


def _with_pods_forbidden() -> ScriptedSource:
    """Step 8 as recorded, but pods may not be read: steps that need them cannot be judged,
    and DeviceTaintRules are not served (as recorded)."""
    step8 = snap("step-8")
    source = ScriptedSource()
    for kind in Kind:
        if kind is Kind.PODS:
            source.push(state(kind, "forbidden", "pods is forbidden"))
            continue
        from gsb_tui.kube.store import Change

        source.push(Change(kind, "SYNCED", items=tuple(step8.items(kind))))
        source.push(Change(kind, "STATE", state=step8.state(kind)))
    return source


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
async def test_no_state_id_reaches_the_screen(size: tuple[int, int]) -> None:
    app = make_app(_with_pods_forbidden())
    async with app.run_test(size=size) as pilot:
        await wait_until(
            pilot, lambda: app.view is not None and app.verdicts_view is app.view, timeout=30
        )
        statuses = {v.status for v in app.dashboard.checklist.verdicts or []}
        assert {"cannot-judge", "not-started"} <= statuses  # the states this test is about
        assert app.view.snapshot.state(Kind.TAINT_RULES).phase == "not-served"
        seen = []
        for group in ("1", "2", "3", "4"):  # every tab at 80x24 (all panes when wide)
            await pilot.press(group)
            await pilot.pause()
            seen.append(_screen_text(app))
        for index, verdict in enumerate(app.dashboard.checklist.verdicts or []):
            app.dashboard.checklist.cursor = index  # each step's own status line
            app.dashboard.checklist._render_steps()
            await pilot.pause()
            seen.append(_screen_text(app))
            assert text("en", f"status.{verdict.status}") in seen[-1]
        found = [m.group() for screen in seen for m in RAW.finditer(screen)]
        assert found == []


def test_the_check_command_words_its_states() -> None:
    from gsb_tui.dra.builder import build_view
    from gsb_tui.lab import evaluate
    from tests.ui.helpers import NO_LAB_DIR

    verdicts = evaluate(build_view(snap("step-8")), NO_LAB_DIR)
    shown = to_text(verdicts, "en")
    assert "not started" in shown and not RAW.search(shown)


async def _palette_titles(pilot: Pilot[Any], app: GsbApp) -> tuple[list[str], str]:
    await pilot.press("ctrl+p")
    await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette))
    palette = app.screen
    commands = palette.query_one(CommandList)
    await wait_until(pilot, lambda: commands.option_count > 5)
    await pilot.pause(0.2)  # every provider's discovery hits are in
    titles = [str(getattr(o.prompt, "plain", o.prompt)) for o in commands.options]
    return titles, str(palette.query_one(CommandInput).placeholder)


async def test_the_command_palette_speaks_korean() -> None:
    app = make_app(SnapshotSource(snap("step-8")), "ko")
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_until(pilot, lambda: app.view is not None and app.dashboard.grid.cells)
        titles, placeholder = await _palette_titles(pilot, app)
    shown = "\n".join(titles)
    assert placeholder == text("ko", "palette.placeholder")
    for key in ("palette.theme", "palette.quit", "palette.screenshot"):  # Textual's own
        assert text("ko", key) in shown, key
    assert text("ko", "palette.go-to-pane", pane=text("ko", "claims")) in shown
    assert text("ko", "palette.key", title=text("ko", "key.gsb.yaml"), key="y") in shown
    for english in ("Theme", "Quit", "Screenshot", "Go to pane", "(key "):
        assert english not in shown, english


async def test_the_korean_help_reads_as_sentences_at_80_columns() -> None:
    app = make_app(SnapshotSource(snap("step-8")), "ko")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.view is not None and app.dashboard.grid.cells)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        shown = _words(_region_text(app, screen.query_one("#help-table")))
        visible = [row for row in screen.rows if f" {row[3]} " in f" {shown} "]
        assert len(visible) >= 3, "several bindings fit on an 80x24 screen"
        for _key, description, tooltip, binding_id, where in visible:
            said = f"{description} — {tooltip}" if tooltip else description
            assert _words(said) in shown, binding_id  # one sentence, wrapped under itself
            assert f"{where} · {binding_id}" in shown
