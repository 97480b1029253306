"""`s`: try a CEL selector on the published devices, live as you type.

The expression (and optionally a DeviceClass) is evaluated against every device of the current
DraView; each device shows ✓/✗/error and which claim and pods hold it. A selector the API
server would reject shows its message, a hint and the corrected expression (ctrl+f puts it in).
The App hands the screen every new view while it is open. Opened from the dashboard, it starts
with the selector of the lab step the checklist is on, when that step has one
(lab/step_selector.py).

At 10,000 devices: evaluating runs in a worker thread with a time budget (TRIAL_BUDGET), one at
a time; the first key after a pause starts it at once, a burst of keys is evaluated once it
pauses for DEBOUNCE, the latest text always last, and a trial a newer one overtook stops early
(trial.py's `stop`) and is never shown. A new view that changes none of what a trial shows
(devices, classes, occupancy, availability: the very same objects) costs nothing; no timer runs
while nothing changes. At most MAX_ROWS devices are listed (the matching ones first when they do
not all fit); the summary counts all of them.
"""

from __future__ import annotations

import contextlib
import time
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import Input, Label, Select, Static

from gsb_tui import gc_pause
from gsb_tui.dra.trial import Trial, try_selector
from gsb_tui.dra.view import DraView
from gsb_tui.ui.messages import CelWanted
from gsb_tui.ui.render.explain import cel_problem, cel_ready
from gsb_tui.ui.screens.selector_rows import (
    MAX_ROWS,
    device_table,
    error_text,
    listed,
    trial_summary,
    vocabulary_text,
)
from gsb_tui.words import text

__all__ = ["MAX_ROWS", "SelectorScreen", "listed", "trial_summary"]

DEBOUNCE = 0.15  # seconds: a change this soon after the one before waits for typing to pause
TRIAL_BUDGET = 2.0  # seconds one evaluation of every device may take, in the worker


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

    def __init__(
        self,
        view: DraView | None,
        lang: str = "en",
        expression: str = "",
        origin: tuple[int, str] | None = None,
    ) -> None:
        super().__init__()
        self.view = view
        self.lang = lang
        self.expression = expression
        self.origin = origin  # (lab step, file or "cluster") the opening expression is from
        self._opening = expression
        self.device_class = ""
        self.trial: Trial | None = None  # what the screen shows now
        self.evaluations = 0
        self._asked = 0  # bumped by every change of what to evaluate (older results dropped)
        self._trying = 0  # the `asked` of the trial in the worker; 0 when none runs
        self._changed_at = -DEBOUNCE  # time.monotonic() of the last change asked for
        self._timer: Timer | None = None  # one shot: the start once the typing paused
        self._class_names: list[str] = []  # the Select's options now
        self._facts: tuple[object, ...] = ()  # what the last trial was started on (identity)
        self._vocabulary_of: object = None  # the devices the vocabulary was drawn for

    @classmethod
    def for_step(
        cls, view: DraView | None, lang: str, step: int | None, lab_dir: Path | None
    ) -> SelectorScreen:
        """The tool opened on the selector of the lab step `step` when it has one."""
        if step is None or lab_dir is None:
            return cls(view, lang)
        from gsb_tui.lab.step_selector import step_selector

        expression, source = step_selector(step, view, lab_dir)
        return cls(view, lang, expression, (step, source) if expression else None)

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
                yield Input(  # focus selects it all: the first key typed replaces it
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
                origin = self._origin_text()
                shown = Static(origin, id="selector-origin")
                shown.display = bool(origin.plain)  # no line at all without one
                yield shown
                yield Static("", id="selector-summary")
                yield Static("", id="selector-error")
                yield Static("", id="selector-devices")
                yield Static("", id="selector-vocabulary")

    def _origin_text(self) -> Text:
        if self.origin is None or not self.expression:
            return Text("")
        step, source = self.origin
        if source == "cluster":
            source = text(self.lang, "sel.from-cluster")
        return Text(text(self.lang, "sel.from-step", step=step, source=source), style="dim")

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
        if event.value == self.expression and self.trial is not None:
            return
        self.expression = event.value
        if self.origin is not None:  # says where the opening expression is from, while it is
            self.query_one("#selector-origin").display = event.value == self._opening
        self._want()

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
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._asked += 1  # a trial still running stops at its next look
        self.dismiss(None)

    def action_apply_fix(self) -> None:
        if self.trial is not None and self.trial.fix and self.composed:
            box = self.query_one("#selector-input", Input)
            box.value = self.trial.fix
            box.cursor_position = len(box.value)
            self.expression = box.value
            self.evaluate()

    # --- from the App ----------------------------------------------------------------------

    @staticmethod
    def _facts_of(view: DraView) -> tuple[object, ...]:
        """What a trial shows that a new view may change: compared by identity (the view
        hands out the very same objects while nothing they come from changed)."""
        return (view.devices, view.classes, view.occupancy, view.availability)

    def show_view(self, view: DraView) -> None:
        """A new cluster view while the screen is open: new classes, devices, occupancy.
        One that changes none of them (a node's heartbeat, an event) costs nothing."""
        same = self.view is not None and _same(self._facts_of(view), self._facts)
        self.view = view
        if same or not self.composed:
            return
        select: Select[Any] = self.query_one("#selector-class", Select)
        options = self._class_options()
        if [name for name, _ in options] != self._class_names:
            self._class_names = [name for name, _ in options]
            keep = self.device_class if self.device_class in view.classes else ""
            select.set_options(options)
            select.value = keep or Select.NULL
            self.device_class = keep
        self._want()

    def cel_loaded(self) -> None:
        self.evaluate()

    # --- evaluation ----------------------------------------------------------------------

    def evaluate(self) -> None:
        """Evaluate what is on screen now (or as soon as the running trial stops)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self._asked += 1
        if not self._trying:
            self._start()

    def _want(self) -> None:
        """Something to evaluate changed. After a pause (nothing changed for DEBOUNCE) the
        trial starts at once; within a burst of keys it waits until they pause; a trial
        running meanwhile is overtaken (it stops early) and the latest one follows it."""
        self._asked += 1
        now = time.monotonic()
        quiet = now - self._changed_at >= DEBOUNCE
        self._changed_at = now
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if quiet and not self._trying:
            self._start()
        else:
            self._timer = self.set_timer(DEBOUNCE, self._timer_fired)

    def _timer_fired(self) -> None:
        self._timer = None
        self._pump()

    def _pump(self) -> None:
        """Start what was last asked for, unless a trial runs (its end calls this again) or
        the typing has not paused yet (the timer will)."""
        if self._timer is None and not self._trying:
            self._start()

    def _start(self) -> None:
        if not self.composed:
            return
        summary = self.query_one("#selector-summary", Static)
        view = self.view
        if view is None:
            summary.update(Text(text(self.lang, "sel.no-view"), style="italic"))
            return
        if view.devices is not self._vocabulary_of:
            words = vocabulary_text(view, self.lang)
            self.query_one("#selector-vocabulary", Static).update(words)
            self._vocabulary_of = view.devices
        if not cel_ready() or cel_problem():
            note = cel_problem() or text(self.lang, "sel.loading")
            summary.update(Text(note, style="italic"))
            return
        self.evaluations += 1
        self._trying = asked = self._asked
        self._facts = self._facts_of(view)
        job = partial(self._try, view, self.expression, self.device_class, asked)
        # A description, or Textual formats repr(job) (the whole view: seconds at 10,000).
        self.run_worker(
            job,
            name="selector-trial",
            description="selector trial",
            thread=True,
            group="selector-trial",
            exit_on_error=False,
        )

    def _try(self, view: DraView, expression: str, device_class: str, asked: int) -> None:
        """In a worker thread: evaluate, then hand the trial to the UI thread."""

        def overtaken() -> bool:
            return asked != self._asked

        try:
            trial = try_selector(
                view, expression, device_class, budget=TRIAL_BUDGET, stop=overtaken
            )
        except Exception as exc:  # said on screen: a worker that dies silently answers nothing
            said = text(self.lang, "cel.cannot-evaluate", detail=f"{type(exc).__name__}: {exc}")
            trial = Trial(expression, device_class, (), error=said)
        with contextlib.suppress(RuntimeError):  # the app closed while evaluating
            self.app.call_from_thread(self._show, trial, view, asked)

    def _show(self, trial: Trial, view: DraView, asked: int) -> None:
        self._trying = 0
        if not self.is_mounted or not self.composed:
            return  # the screen closed meanwhile
        if asked != self._asked or trial.stopped:
            self._pump()  # a newer expression or view was asked for meanwhile: that one next
            return
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
        if trial.devices and not trial.note:  # every device has its CEL context now
            # Its full collection (~0.1 s at 10,000 devices) waits for a still screen: the next
            # keystroke would wait behind it (ui/pacing.StillJobs; the App has them).
            still = getattr(self.app, "still_jobs", None)
            if still is not None:  # once per process: a no-op after the first
                still.add("freeze-long-lived", gc_pause.freeze_long_lived)
            else:
                self.call_after_refresh(gc_pause.freeze_long_lived)


def _same(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))
