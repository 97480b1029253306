"""`s`: try a CEL selector on the published devices, live as you type.

The expression (and optionally a DeviceClass) is evaluated, debounced, against every device of
the current DraView; each device shows ✓/✗/error and which claim and pods hold it. A selector
the API server would reject shows its message, a hint and the corrected expression (ctrl+f puts
it in). The App hands the screen every new view while it is open.

Evaluating runs in a worker thread with a time budget (TRIAL_BUDGET), so the screen answers keys
whatever the selector does; a result that arrives after a newer one was asked for is dropped.
"""

from __future__ import annotations

import contextlib
from functools import partial
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Input, Label, Select, Static

from gsb_tui.dra.trial import DeviceVerdict, Trial, try_selector, vocabulary
from gsb_tui.dra.view import DraView
from gsb_tui.ui.explain import cel_problem, cel_ready
from gsb_tui.ui.messages import CelWanted
from gsb_tui.words import localize, text

DEBOUNCE = 0.15  # seconds of quiet typing before the expression is evaluated
TRIAL_BUDGET = 2.0  # seconds one evaluation of every device may take, in the worker

MARKS = {
    "match": ("✓", "bold green"),
    "no-match": ("✗", "dim"),
    "class": ("✗", "dim"),
    "error": ("!", "bold red"),
    "": ("·", "dim"),
}


def _verdict_text(d: DeviceVerdict, class_name: str, lang: str = "en") -> Text:
    if d.verdict == "match":
        return Text(text(lang, "sel.match"), style="green")
    if d.verdict == "no-match":
        return Text(text(lang, "sel.no-match"), style="dim")
    if d.verdict == "class":
        why = f": {d.error}" if d.error else ""
        return Text(text(lang, "sel.not-in-class", name=class_name) + why, style="dim")
    if d.verdict == "error":
        return Text(text(lang, "error", message=d.error), style="red")
    return Text("")


def trial_summary(trial: Trial, view: DraView, lang: str = "en") -> str:
    """What the trial comes to, in `lang`; the view tells which note trial.py gave (class
    gone, or no expression typed)."""
    if trial.error:
        return text(lang, "sel.rejected")
    if trial.note:
        if trial.device_class and trial.device_class not in view.classes:
            return text(lang, "sel.class-gone", name=trial.device_class)
        if not trial.expression:
            return text(lang, "sel.type")
        return trial.note
    matched = trial.matches
    total = len(trial.devices)
    free = sum(1 for d in matched if d.allocatable)
    errors = sum(1 for d in trial.devices if d.verdict == "error")
    key = "sel.matches.one" if total == 1 else "sel.matches"
    summary = text(lang, key, matched=len(matched), total=total)
    if trial.device_class:
        summary += " " + text(lang, "sel.class-admits", n=trial.class_admits)
    summary += ", " + text(lang, "of-them-free", n=free)
    if errors:
        summary += "; " + text(lang, "sel.unchecked", n=errors)
    return summary


def device_table(trial: Trial, show_pool: bool, lang: str = "en") -> Table:
    table = Table(box=None, show_edge=False, header_style="bold", expand=True, pad_edge=False)
    table.add_column("", no_wrap=True, width=1)
    table.add_column("DEVICE", no_wrap=True)
    table.add_column("RESULT", ratio=2)
    table.add_column("CLAIM", ratio=2, overflow="ellipsis", no_wrap=True)
    table.add_column("PODS", ratio=1, overflow="ellipsis", no_wrap=True)
    for d in trial.devices:
        mark, style = MARKS.get(d.verdict, ("?", ""))
        occ = d.occupancy
        name = f"{d.device.id.pool}/{d.device.name}" if show_pool else d.device.name
        if occ is not None and occ.claims:
            claim = Text(", ".join(c.name for c in occ.claims))
        elif d.allocatable:
            claim = Text("free", style="green")
        else:  # not held, still not allocatable: the grid's word for why
            claim = Text(d.state, style="red")
        pods = ", ".join(p.split("/", 1)[-1] for p in occ.consumers) if occ else ""
        table.add_row(
            Text(mark, style=style),
            Text(name, style="bold" if d.matched else ""),
            _verdict_text(d, trial.device_class, lang),
            claim,
            pods,
        )
    return table


def vocabulary_text(view: DraView, lang: str = "en") -> Text:
    out = Text(text(lang, "sel.vocabulary") + "\n", style="bold")
    for key, names in vocabulary(view):
        out.append("  ")
        out.append(key, style="cyan")
        out.append(": " + ", ".join(names) + "\n", style="dim")
    out.rstrip()
    return out


def error_text(trial: Trial, lang: str = "en") -> Text:
    """The API server's rejection as it words it, then the hint and the fix, lined up."""
    out = Text()
    out.append(localize(trial.error, lang) + "\n", style="red")
    hint, fix = text(lang, "sel.hint"), text(lang, "sel.fix")
    column = max(cell_len(hint), cell_len(fix)) + 1
    if trial.hint:
        out.append(hint + " " * (column - cell_len(hint)), style="bold yellow")
        out.append(localize(trial.hint, lang) + "\n")
    if trial.fix:
        out.append(fix + " " * (column - cell_len(fix)), style="bold green")
        out.append(trial.fix, style="bold cyan")
        out.append("   " + text(lang, "sel.fix-note"), style="dim")
    return out


class SelectorScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="gsb.selector.close"),
        Binding(
            "ctrl+f",
            "apply_fix",
            "Apply fix",
            tooltip="Replace the expression with the suggested fix",
            id="gsb.selector.fix",
        ),
    ]

    def __init__(self, view: DraView | None, lang: str = "en", expression: str = "") -> None:
        super().__init__()
        self.view = view
        self.lang = lang
        self.expression = expression
        self.device_class = ""
        self.trial: Trial | None = None  # what the screen shows now
        self.evaluations = 0
        self._asked = 0  # which evaluation the screen waits for (older results are dropped)
        self._timer: Timer | None = None
        self._class_names: list[str] = []  # the Select's options now

    # --- layout --------------------------------------------------------------------------

    def _class_options(self) -> list[tuple[str, str]]:
        return [(name, name) for name in sorted(self.view.classes)] if self.view else []

    def compose(self) -> ComposeResult:
        options = self._class_options()
        self._class_names = [name for name, _ in options]
        # The only class by default (what a request names), or none to try the bare selector.
        if len(options) == 1:
            self.device_class = options[0][1]
        with Vertical(id="selector") as frame:
            frame.border_title = text(self.lang, "sel.title")
            frame.border_subtitle = text(self.lang, "sel.keys")
            with Horizontal(classes="selector-row"):
                yield Label("CEL", classes="selector-label")
                yield Input(
                    self.expression,
                    placeholder="device.attributes['<driver>'].index == 7",
                    compact=True,
                    id="selector-input",
                )
            with Horizontal(classes="selector-row"):
                yield Label("DeviceClass", classes="selector-label")
                yield Select(
                    options,
                    prompt=text(self.lang, "sel.no-class"),
                    allow_blank=True,
                    value=self.device_class or Select.NULL,
                    compact=True,
                    id="selector-class",
                )
            with VerticalScroll(id="selector-scroll"):
                yield Static("", id="selector-summary")
                yield Static("", id="selector-error")
                yield Static("", id="selector-devices")
                yield Static("", id="selector-vocabulary")

    @property
    def composed(self) -> bool:
        """False for a screen pushed while the app quits (`q` and `s` in one burst of keys):
        it is mounted but never composed, so there is nothing to focus, fill or evaluate."""
        return bool(self.query("#selector-input"))

    def on_mount(self) -> None:
        if not self.composed:
            return
        self.query_one("#selector-input", Input).focus()
        if not cel_ready():
            self.app.post_message(CelWanted())
        self.evaluate()

    # --- input ---------------------------------------------------------------------------

    @on(Input.Changed, "#selector-input")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        self.expression = event.value
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(DEBOUNCE, self.evaluate)

    @on(Input.Submitted, "#selector-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.expression = event.value
        self.evaluate()

    @on(Select.Changed, "#selector-class")
    def _class_changed(self, event: Select.Changed) -> None:
        event.stop()
        value = event.value
        self.device_class = value if isinstance(value, str) else ""
        self.evaluate()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_apply_fix(self) -> None:
        if self.trial is not None and self.trial.fix and self.composed:
            box = self.query_one("#selector-input", Input)
            box.value = self.trial.fix
            box.cursor_position = len(box.value)
            self.expression = box.value
            self.evaluate()

    # --- from the App ----------------------------------------------------------------------

    def show_view(self, view: DraView) -> None:
        """A new cluster view while the screen is open: new classes, devices, occupancy."""
        self.view = view
        if not self.composed:
            return
        select: Select[Any] = self.query_one("#selector-class", Select)
        options = self._class_options()
        if [name for name, _ in options] != self._class_names:
            self._class_names = [name for name, _ in options]
            keep = self.device_class if self.device_class in view.classes else ""
            select.set_options(options)
            select.value = keep or Select.NULL
            self.device_class = keep
        self.evaluate()

    def cel_loaded(self) -> None:
        self.evaluate()

    # --- evaluation ----------------------------------------------------------------------

    def evaluate(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if not self.composed:
            return
        summary = self.query_one("#selector-summary", Static)
        if self.view is None:
            summary.update(Text(text(self.lang, "sel.no-view"), style="italic"))
            return
        words = vocabulary_text(self.view, self.lang)
        self.query_one("#selector-vocabulary", Static).update(words)
        if not cel_ready() or cel_problem():
            note = cel_problem() or text(self.lang, "sel.loading")
            summary.update(Text(note, style="italic"))
            return
        self.evaluations += 1
        self._asked += 1
        job = partial(self._try, self.view, self.expression, self.device_class, self._asked)
        self.run_worker(
            job, thread=True, group="selector-trial", exclusive=True, exit_on_error=False
        )

    def _try(self, view: DraView, expression: str, device_class: str, asked: int) -> None:
        """In a worker thread: evaluate, then hand the trial to the UI thread."""
        try:
            trial = try_selector(view, expression, device_class, budget=TRIAL_BUDGET)
        except Exception as exc:  # said on screen: a worker that dies silently answers nothing
            said = text(self.lang, "cel.cannot-evaluate", detail=f"{type(exc).__name__}: {exc}")
            trial = Trial(expression, device_class, (), error=said)
        with contextlib.suppress(RuntimeError):  # the app closed while evaluating
            self.app.call_from_thread(self._show, trial, view, asked)

    def _show(self, trial: Trial, view: DraView, asked: int) -> None:
        if asked != self._asked or not self.is_mounted or not self.composed:
            return  # a newer expression was typed meanwhile, or the screen closed
        summary = self.query_one("#selector-summary", Static)
        error = self.query_one("#selector-error", Static)
        devices = self.query_one("#selector-devices", Static)
        self.trial = trial
        style = "bold red" if trial.error else "italic" if trial.note else "bold"
        summary.update(Text(trial_summary(trial, view, self.lang), style=style))
        error.update(error_text(trial, self.lang) if trial.error else "")
        error.display = bool(trial.error)
        show_pool = view.several_pools()
        devices.update(device_table(trial, show_pool, self.lang) if trial.devices else "")
