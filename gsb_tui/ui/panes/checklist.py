"""The lab checklist: one line per step, the selected step's sub-checks, reason and hint.

Verdicts come from `gsb_tui.lab.evaluate(view, lab_dir)` (run by the App off the UI thread);
until that exists the pane says "checklist loading". `e` shows the step's example, `c` copies
it (see ui/clipboard.py for what "copy" honestly means). The cursor starts at the first step
not green (and follows it as steps turn green) until the learner moves it; PageUp/PageDown and
Home/End scroll the pane, so the reason below the steps is in reach at 80x24. A title too long
for its line wraps under the title, not under the step's mark.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from gsb_tui.dra.view import DraView
from gsb_tui.kube.source import SourceInfo
from gsb_tui.ui.messages import TextWanted
from gsb_tui.ui.panes.base import Pane
from gsb_tui.ui.render.explain import wrap
from gsb_tui.words import localize, text

if TYPE_CHECKING:  # the lab is imported on first use, off the path to the first frame
    from gsb_tui.lab.verdict import Verdict

MARK = {
    "green": ("✓", "green"),
    "broken": ("✗", "red"),
    "in-progress": ("…", "yellow"),
    "not-started": ("·", "dim"),
    "cannot-judge": ("?", "magenta"),
}

Evaluate = Callable[[DraView, Path], Sequence["Verdict"]]


def lab_evaluate() -> Evaluate | None:
    """The lab's checks, `evaluate(view, lab_dir) -> verdicts` (imported here, on first use)."""
    from gsb_tui.lab.report import evaluate

    return evaluate


def step_title(step: int, lang: str) -> str:
    from gsb_tui.lab.steps import step as lab_step

    try:
        return lab_step(step).title(lang)
    except KeyError:
        return text(lang, "step-n", step=step)


def step_example(step: int) -> str | None:
    """The example the `e`/`c` keys show for a step, from the lab package's data."""
    from gsb_tui.lab.steps import example_for

    try:
        return example_for(step)
    except (KeyError, OSError):
        return None


def first_not_green(verdicts: Sequence[Verdict]) -> int:
    """Where the checklist opens: the first step not green (the last step when all are)."""
    return next((i for i, v in enumerate(verdicts) if not v.ok), max(0, len(verdicts) - 1))


class ChecklistScroll(VerticalScroll, can_focus=False):
    pass


class StepText(Static):
    """The steps' or the detail's text. New words in as many lines at the same width (the
    cursor moved, a mark turned green) are drawn without a layout: at 10,000 devices laying the
    screen out for them took a frame of ~20 ms. The same text again is not drawn at all."""

    def __init__(self, *, classes: str) -> None:
        super().__init__("", classes=classes)
        self._shown: tuple[Text, int, int] | None = None  # text, width, its lines at it

    def show(self, content: Text, width: int) -> None:
        if self._shown is not None and self._shown[:2] == (content, width):
            return
        lines = len(content.wrap(self.app.console, width))
        laid_out = self._shown is not None and self._shown[1:] == (width, lines)
        self.update(content, layout=not laid_out)
        self._shown = (content, width, lines)


class ChecklistPane(Pane, can_focus=True):
    title_key = "checklist"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", "Previous step", show=False, id="gsb.lab.up"),
        Binding("down", "move(1)", "Next step", show=False, id="gsb.lab.down"),
        Binding("pageup", "scroll_by(-1)", "Page up", show=False, id="gsb.lab.pageup"),
        Binding("pagedown", "scroll_by(1)", "Page down", show=False, id="gsb.lab.pagedown"),
        Binding("home", "scroll_to_edge(0)", "Top", show=False, id="gsb.lab.home"),
        Binding("end", "scroll_to_edge(1)", "Bottom", show=False, id="gsb.lab.end"),
        Binding("e", "example", "Example", tooltip="Show the step's example", id="gsb.lab.example"),
        Binding(
            "c",
            "copy_example",
            "Copy example",
            tooltip="Send the example to the clipboard and save it to a file",
            id="gsb.lab.copy",
        ),
    ]

    def __init__(self, info: SourceInfo, lang: str, *, id: str | None = None) -> None:
        super().__init__(info, lang, id=id)
        self.verdicts: list[Verdict] | None = None
        self.error = ""
        self.cursor = 0
        self.moved = False  # the learner chose a step: the cursor no longer follows the first
        self._steps_width = 0  # the width the step lines were wrapped to
        self._line_counts: list[int] = []  # screen lines of each step's title

    def compose(self) -> ComposeResult:
        yield from self.compose_notice()
        with ChecklistScroll(classes="body"):
            yield StepText(classes="steps")
            yield StepText(classes="step-detail")

    def on_mount(self) -> None:
        self.set_notice(text(self.lang, "checklist-loading"))

    def show(self, verdicts: Sequence[Verdict] | None, error: str = "") -> None:
        self.verdicts = list(verdicts) if verdicts is not None else None
        self.error = error
        if self.verdicts is None:
            loading = text(self.lang, "checklist-loading")
            self.set_notice(f"{loading}: {error}" if error else loading)
            return
        self.set_notice(None)
        if self.verdicts and not self.moved:
            self.cursor = first_not_green(self.verdicts)
            self.call_after_refresh(self._scroll_to_cursor)
        if self.verdicts and not 0 <= self.cursor < len(self.verdicts):
            self.cursor = 0
        self._render_steps()

    @property
    def body(self) -> ChecklistScroll:
        return self.query_one(ChecklistScroll)

    def on_resize(self) -> None:
        if self.verdicts and self._width() != self._steps_width:
            self._render_steps()

    def _width(self) -> int:
        return max(20, self.body.scrollable_content_region.width or self.content_size.width)

    def _scroll_to_cursor(self) -> None:
        """Bring the selected step's line into view (at 80x24 it may be below the fold)."""
        line = sum(self._line_counts[: self.cursor])
        body = self.body
        if not body.scroll_y <= line < body.scroll_y + body.scrollable_content_region.height:
            body.scroll_to(y=line, animate=False, immediate=True)

    @property
    def current_step(self) -> int | None:
        if not self.verdicts:
            return None
        return self.verdicts[self.cursor].step

    def _render_steps(self) -> None:
        verdicts = self.verdicts or []
        lines = Text()
        self._steps_width = width = self._width()
        self._line_counts = []
        for index, verdict in enumerate(verdicts):
            mark, style = MARK.get(verdict.status, ("·", ""))
            step = verdict.step
            prefix = f"{'▶' if index == self.cursor else ' '}{mark} {step} "
            lines.append(prefix, style=f"bold {style}")
            # Wrapped here, continuation lines under the title (a hanging indent).
            pad = " " * len(prefix)
            title = wrap(step_title(step, self.lang), width, pad, pad)
            self._line_counts.append(max(1, len(title)))
            for i, piece in enumerate(title or [pad]):
                if i:
                    lines.append("\n" + pad)
                lines.append(piece[len(pad) :], style="reverse" if index == self.cursor else "")
            lines.append("\n")
        self.query_one(".steps", StepText).show(lines, width)
        self.query_one(".step-detail", StepText).show(self._detail(verdicts), width)

    def _detail(self, verdicts: Sequence[Verdict]) -> Text:
        out = Text()
        if not verdicts:
            return out
        verdict = verdicts[self.cursor]
        mark, style = MARK.get(verdict.status, ("·", ""))
        status = text(self.lang, f"status.{verdict.status}")
        out.append(f"\n{mark} {status}\n", style=f"bold {style}")
        for sub in verdict.subchecks:
            ok = sub.ok
            sub_mark, sub_style = (
                ("✓", "green") if ok else (("✗", "red") if ok is False else ("·", "dim"))
            )
            out.append(f" {sub_mark} ", style=sub_style)
            out.append(f"{sub.name}\n")
        reason = localize(verdict.reason, self.lang)
        hint = localize(verdict.hint, self.lang)
        if reason:
            out.append(f"\n{reason}\n")
        if hint:
            out.append("→ ", style="bold cyan")
            out.append(f"{hint}\n", style="cyan")
        out.append("\n" + text(self.lang, "checklist.keys.scroll"), style="dim")
        return out

    def action_move(self, step: int) -> None:
        if self.verdicts:
            self.moved = True
            self.cursor = max(0, min(len(self.verdicts) - 1, self.cursor + step))
            self._render_steps()

    def action_scroll_by(self, pages: int) -> None:
        body = self.body
        if pages < 0:
            body.scroll_page_up(animate=False)
        else:
            body.scroll_page_down(animate=False)

    def action_scroll_to_edge(self, end: int) -> None:
        if end:
            self.body.scroll_end(animate=False)
        else:
            self.body.scroll_home(animate=False)

    def _example(self) -> tuple[int, str] | None:
        step = self.current_step
        if step is None:
            self.app.notify(text(self.lang, "checklist-loading"), severity="warning")
            return None
        example = step_example(step)
        if example is None:
            self.app.notify(text(self.lang, "no-example", step=step), severity="warning")
            return None
        return step, example

    def action_example(self) -> None:
        found = self._example()
        if found is not None:
            step, example = found
            title = text(self.lang, "example-title", step=step)
            self.post_message(TextWanted(title, example, "yaml", f"step{step}-example.yaml"))

    def action_copy_example(self) -> None:
        found = self._example()
        if found is not None:
            from gsb_tui.ui.clipboard import copy_text

            step, example = found
            copy_text(self.app, example, f"step{step}-example.yaml")
