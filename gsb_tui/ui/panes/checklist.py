"""The lab checklist: one line per step, the selected step's sub-checks, reason and hint.

Verdicts come from `gsb_tui.lab.evaluate(view, lab_dir)` (run by the App off the UI thread);
until that exists the pane says "checklist loading". `e` shows the step's example, `c` copies
it (see ui/clipboard.py for what "copy" honestly means).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from gsb_tui.kube.source import SourceInfo
from gsb_tui.ui.panes.base import Pane
from gsb_tui.ui.text import text

MARK = {
    "green": ("✓", "green"),
    "broken": ("✗", "red"),
    "in-progress": ("…", "yellow"),
    "not-started": ("·", "dim"),
    "cannot-judge": ("?", "magenta"),
}


def lab_evaluate() -> Callable[[Any, Any], Sequence[Any]] | None:
    """The hook: `gsb_tui.lab.evaluate(view, lab_dir) -> verdicts`, once the lab package has it."""
    try:
        lab = importlib.import_module("gsb_tui.lab")
    except ImportError:
        return None
    fn = getattr(lab, "evaluate", None)
    return fn if callable(fn) else None


def step_title(step: int, lang: str) -> str:
    try:
        steps = importlib.import_module("gsb_tui.lab.steps")
        return str(steps.step(step).title(lang))
    except (ImportError, AttributeError, KeyError):
        return f"step {step}"


def step_example(step: int) -> str | None:
    """The example the `e`/`c` keys show for a step, from the lab package's data."""
    try:
        steps = importlib.import_module("gsb_tui.lab.steps")
        return str(steps.example_for(step))
    except (ImportError, AttributeError, KeyError, OSError):
        return None


def localized(value: Any, lang: str) -> str:
    """lab's bilingual Text picks its language; anything else is shown as it is."""
    pick = getattr(value, "lang", None)
    return str(pick(lang)) if callable(pick) else str(value or "")


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
        self.verdicts: list[Any] | None = None
        self.error = ""
        self.cursor = 0

    def compose(self) -> ComposeResult:
        yield from self.compose_notice()
        with ChecklistScroll(classes="body"):
            yield Static("", classes="steps")
            yield Static("", classes="step-detail")

    def on_mount(self) -> None:
        self.set_notice(text(self.lang, "checklist-loading"))

    def show(self, verdicts: Sequence[Any] | None, error: str = "") -> None:
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
        return int(getattr(self.verdicts[self.cursor], "step", self.cursor + 1))

    def _render_steps(self) -> None:
        verdicts = self.verdicts or []
        lines = Text(no_wrap=True, overflow="ellipsis")
        for index, verdict in enumerate(verdicts):
            status = str(getattr(verdict, "status", "not-started"))
            mark, style = MARK.get(status, ("·", ""))
            step = int(getattr(verdict, "step", index + 1))
            prefix = "▶" if index == self.cursor else " "
            lines.append(f"{prefix}{mark} {step} ", style=f"bold {style}")
            lines.append(
                step_title(step, self.lang), style="reverse" if index == self.cursor else ""
            )
            lines.append("\n")
        self.query_one(".steps", Static).update(lines)
        self.query_one(".step-detail", Static).update(self._detail(verdicts))

    def _detail(self, verdicts: Sequence[Any]) -> Text:
        out = Text()
        if not verdicts:
            return out
        verdict = verdicts[self.cursor]
        status = str(getattr(verdict, "status", ""))
        mark, style = MARK.get(status, ("·", ""))
        out.append(f"\n{mark} {status}\n", style=f"bold {style}")
        for sub in getattr(verdict, "subchecks", ()):
            ok = getattr(sub, "ok", None)
            sub_mark, sub_style = (
                ("✓", "green") if ok else (("✗", "red") if ok is False else ("·", "dim"))
            )
            out.append(f" {sub_mark} ", style=sub_style)
            out.append(f"{getattr(sub, 'name', '')}\n")
        reason = localized(getattr(verdict, "reason", ""), self.lang)
        hint = localized(getattr(verdict, "hint", ""), self.lang)
        if reason:
            out.append(f"\n{reason}\n")
        if hint:
            out.append("→ ", style="bold cyan")
            out.append(f"{hint}\n", style="cyan")
        out.append("\ne example  c copy", style="dim")
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
            self.app.notify(f"no example for step {step}", severity="warning")
            return None
        return step, example

    def action_example(self) -> None:
        found = self._example()
        if found is not None:
            from gsb_tui.ui.screens.text_view import TextViewScreen

            step, example = found
            self.app.push_screen(
                TextViewScreen(
                    f"step {step} example",
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
