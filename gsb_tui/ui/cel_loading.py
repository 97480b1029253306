"""The CEL library for the selector previews: loaded once in a worker thread (after the first
frame, or at once when the selector tool asks), then the details pane and an open selector
tool are told."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import App

from gsb_tui.ui.messages import CelReady, CelWanted
from gsb_tui.ui.render.explain import cel_ready, warm_up
from gsb_tui.ui.screens.selector import SelectorScreen

if TYPE_CHECKING:
    from gsb_tui.ui.screens.dashboard import DashboardScreen


class CelLoading(App[int]):
    dashboard: DashboardScreen
    _cel_started = False

    def _load_cel(self) -> None:
        if self._cel_started or not self.is_running:
            return
        self._cel_started = True
        if cel_ready():  # loaded by an earlier app in this process
            self.post_message(CelReady())
            return
        self.run_worker(self._warm_cel, name="cel", group="cel", thread=True, exit_on_error=False)

    def _warm_cel(self) -> None:
        warm_up()
        self.post_message(CelReady())

    @on(CelWanted)
    def _cel_wanted(self) -> None:
        self._load_cel()

    @on(CelReady)
    def _cel_ready(self) -> None:
        if not self.is_running:  # shutting down: the panes are going away
            return
        self.dashboard.details.refresh_preview()
        for screen in self.screen_stack:
            if isinstance(screen, SelectorScreen):
                screen.cel_loaded()
