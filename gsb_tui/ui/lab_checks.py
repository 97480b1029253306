"""The lab checklist: the checks run in a worker thread (gsb_tui.lab and its CEL library are
imported there on first use, off the path to the first frame), and the checklist pane is told;
a step that turns green is announced."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import App

from gsb_tui.dra.view import DraView
from gsb_tui.ui.messages import VerdictsReady
from gsb_tui.ui.panes.checklist import Evaluate, lab_evaluate, step_title
from gsb_tui.words import text

if TYPE_CHECKING:  # the lab is imported on first use, off the path to the first frame
    from gsb_tui.lab.verdict import Verdict
    from gsb_tui.ui.screens.dashboard import DashboardScreen


class LabChecks(App[int]):
    dashboard: DashboardScreen
    view: DraView | None
    lab_dir: Path
    lang: str
    newly_green: list[int]  # steps announced as newly green, in order (the App makes it)
    verdicts_view: DraView | None = None  # the view the checklist was judged on
    # Until the first check, the checklist says "checklist loading".
    _evaluate: Evaluate | None = None
    _evaluate_looked_up = False
    _lab_started = False  # checks ran at scale (the first wait for a still screen)

    def _first_checks(self) -> None:
        self._lab_started = True
        self._evaluate_lab(self.view)

    def _evaluate_lab(self, view: DraView | None) -> None:
        if not self.is_running:  # shutting down: the panes are going away
            return
        if view is not None:
            self._run_checks(view)

    # A description, or textual would format repr(view) (all of it) on every call.
    @work(thread=True, exclusive=True, group="lab", exit_on_error=False, description="lab checks")
    def _run_checks(self, view: DraView) -> None:
        if not self._evaluate_looked_up:
            try:
                self._evaluate = lab_evaluate()
            except Exception as exc:  # a broken lab package: say so in the pane, keep going
                self.post_message(VerdictsReady(None, f"{type(exc).__name__}: {exc}", view))
                return
            self._evaluate_looked_up = True
        evaluate = self._evaluate
        if evaluate is None:
            self.post_message(VerdictsReady(None, view=view))
            return
        try:
            verdicts = list(evaluate(view, self.lab_dir))
        except Exception as exc:  # a check bug must not take the dashboard down
            self.post_message(VerdictsReady(None, f"{type(exc).__name__}: {exc}", view))
            return
        self.post_message(VerdictsReady(verdicts, view=view))

    @on(VerdictsReady)
    def _verdicts_ready(self, message: VerdictsReady) -> None:
        if not self.is_running:  # shutting down: the panes are going away
            return
        self.verdicts_view = message.view
        checklist = self.dashboard.checklist
        verdicts = list(message.verdicts) if message.verdicts is not None else None
        if verdicts == checklist.verdicts and message.error == checklist.error:
            return  # the same verdicts as before: no second frame for nothing
        self._announce_green(checklist.verdicts, verdicts)
        checklist.show(verdicts, message.error)

    def _announce_green(
        self, before: Sequence[Verdict] | None, after: Sequence[Verdict] | None
    ) -> None:
        """Say so when a step turns green (not for steps already green when gsb-tui started)."""
        if not before or not after or not self.dashboard.lab_shown:
            return
        was_green = {v.step for v in before if v.ok}
        for verdict in after:
            if verdict.ok and verdict.step not in was_green:
                title = step_title(verdict.step, self.lang)
                self.newly_green.append(verdict.step)
                self.notify(
                    text(self.lang, "step-green", step=verdict.step, title=title),
                    title="✓",
                    timeout=6,
                )
