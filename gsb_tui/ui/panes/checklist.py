"""The lab checklist: one line per step, the selected step's sub-checks, reason and hint.

Verdicts come from `gsb_tui.lab.evaluate(view, lab_dir)` (run by the App off the UI thread);
until that exists the pane says "checklist loading". `e` shows the step's example, `c` copies
it (see ui/clipboard.py for what "copy" honestly means).
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
from gsb_tui.ui.panes.base import Pane
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


class ChecklistScroll(VerticalScroll, can_focus=False):
    pass


class ChecklistPane(Pane, can_focus=True):
    title_key = "checklist"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", "Previous step", show=False, id="gsb.lab.up"),
        Binding("down", "move(1)", "Next step", show=False, id="gsb.lab.down"),
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

    def compose(self) -> ComposeResult:
        yield from self.compose_notice()
        with ChecklistScroll(classes="body"):
            yield Static("", classes="steps")
            yield Static("", classes="step-detail")

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
        if self.verdicts and not 0 <= self.cursor < len(self.verdicts):
            self.cursor = 0
        self._render_steps()

    @property
    def current_step(self) -> int | None:
        if not self.verdicts:
            return None
        return self.verdicts[self.cursor].step

    def _render_steps(self) -> None:
        verdicts = self.verdicts or []
        lines = Text(no_wrap=True, overflow="ellipsis")
        for index, verdict in enumerate(verdicts):
            mark, style = MARK.get(verdict.status, ("·", ""))
            step = verdict.step
            prefix = "▶" if index == self.cursor else " "
            lines.append(f"{prefix}{mark} {step} ", style=f"bold {style}")
            lines.append(
                step_title(step, self.lang), style="reverse" if index == self.cursor else ""
            )
            lines.append("\n")
        self.query_one(".steps", Static).update(lines)
        self.query_one(".step-detail", Static).update(self._detail(verdicts))

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
        out.append("\n" + text(self.lang, "checklist.keys"), style="dim")
        return out

    def action_move(self, step: int) -> None:
        if self.verdicts:
            self.cursor = max(0, min(len(self.verdicts) - 1, self.cursor + step))
            self._render_steps()

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
            from gsb_tui.ui.screens.text_view import TextViewScreen

            step, example = found
            self.app.push_screen(
                TextViewScreen(
                    text(self.lang, "example-title", step=step),
                    example,
                    syntax="yaml",
                    copy_name=f"step{step}-example.yaml",
                )
            )

    def action_copy_example(self) -> None:
        found = self._example()
        if found is not None:
            from gsb_tui.ui.clipboard import copy_text

            step, example = found
            copy_text(self.app, example, f"step{step}-example.yaml")
