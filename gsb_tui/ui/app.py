"""The App: one long-lived worker runs the change source into a Store; a coalescing message
tells the App, which rebuilds the DraView (at most ~10 times a second, the first change at
once) and hands it to the dashboard. The worker never touches a widget."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

from textual import on
from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.timer import Timer

from gsb_tui import gc_pause
from gsb_tui.config import UserConfig, load_config
from gsb_tui.dra.builder import ViewBuilder
from gsb_tui.dra.view import DraView
from gsb_tui.dra.warnings import DraWarning, find_warnings
from gsb_tui.kube.source import ChangeSource
from gsb_tui.kube.store import Change, Store
from gsb_tui.snapshot import REQUIRED_KINDS
from gsb_tui.ui import keys, stylesheet_path
from gsb_tui.ui.cel_loading import CelLoading
from gsb_tui.ui.commands import DashboardCommands
from gsb_tui.ui.crash import write_crash_log  # run_dashboard prints the line it gives
from gsb_tui.ui.lab_checks import LabChecks
from gsb_tui.ui.lab_watch import watch_lab_dir
from gsb_tui.ui.messages import (
    LabFilesChanged,
    SourceFinished,
    SourceProblem,
    StoreChanged,
)
from gsb_tui.ui.pacing import (
    FIRST_WORK_WITHIN_S,
    GC_HOLD_MAX_S,
    HOLD_OBJECTS,
    AfterFrame,
    ChangeFilter,
    FirstLists,
    GcHold,
    IdleCollector,
    StillJobs,
)
from gsb_tui.ui.palette import LocalPalette
from gsb_tui.ui.screens.dashboard import DashboardScreen
from gsb_tui.ui.screens.help import HelpScreen, help_rows
from gsb_tui.ui.screens.layout_keys import ScenarioMarked
from gsb_tui.ui.screens.selector import SelectorScreen
from gsb_tui.words import localize, text

REPAINT_INTERVAL = 0.1  # at most ~10 repaints a second, whatever the event rate
# A slow repaint (at scale) waits 1.5 times its cost, so bursts coalesce and a third of the
# time is left to the watches (a factor of 2 left updates behind at scale).
COST_FACTOR = 1.5
RETRY_DELAYS = (1.0, 2.0, 5.0, 10.0, 30.0)  # when the source itself fails (not a watch)
SHOWN_PROBLEMS = 5  # config problems in the startup warning; the rest are counted


class GsbApp(LocalPalette, CelLoading, LabChecks):  # the palette's words in the app's language
    TITLE = "gsb-tui"
    CSS_PATH = str(stylesheet_path())
    COMMANDS = App.COMMANDS | {DashboardCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "question_mark", "help", "Help", key_display="?", tooltip="Show all keys", id="gsb.help"
        ),
        Binding("q", "quit", "Quit", tooltip="Leave gsb-tui", id="gsb.quit"),
    ]

    def __init__(
        self,
        source: ChangeSource,
        lab_dir: Path,
        lang: str = "en",
        *,
        repaint_interval: float = REPAINT_INTERVAL,
        retry_delays: Sequence[float] = RETRY_DELAYS,
        watch_lab_dir: bool = True,
        frame_hook: Callable[[int], None] | None = None,
        config_file: Path | None = None,
        first_frame: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        # The user's keymap (config_file None: no user config, the default keys). Bad entries
        # are reported once the app runs and keep their defaults; the valid ones apply.
        self.config = (
            load_config(
                config_file, holders=keys.key_holders(type(self)), normalize=keys.normalize_key
            )
            if config_file is not None
            else UserConfig()
        )
        if self.config.keymap:
            self.set_keymap(self.config.keymap)
        self.source = source
        self.first_frame = first_frame  # told when a frame first shows every kind's list
        self.lab_dir = lab_dir
        self.lang = lang
        self.repaint_interval = repaint_interval
        self.retry_delays = tuple(retry_delays) or RETRY_DELAYS
        self.watch_lab_dir = watch_lab_dir
        self.store = Store()
        self.changes = ChangeFilter()
        self.dropped_changes = 0  # changes the screen could not show (node heartbeats ...)
        self.view: DraView | None = None
        self.builder = ViewBuilder()  # the last build's parses and parts, kept for the next
        self.warnings: Sequence[DraWarning] = ()
        self.source_problem = ""
        self.source_finished = False
        self.repaints = 0
        self.deferred_repaints = 0  # repaints the throttle held back (the rest ran at once)
        self.crash_line = ""  # set when an unhandled error ends the app
        self.newly_green: list[int] = []  # steps announced as newly green, in order
        self._last_paint = float("-inf")
        self._paint_timer: Timer | None = None
        # What the last repaint cost, up to its first frame written: the throttle's interval
        # grows with it, so a repaint that takes seconds at scale cannot queue up more work.
        self.paint_cost = 0.0
        self._frame_pending = False  # a repaint ran and its frame is not written yet
        # The store revision the screen shows, and who wants to hear when a frame shows it.
        self.painted_revision = -1
        self.frame_hook = frame_hook
        self.gc_hold = GcHold()
        self.first_lists = FirstLists()
        self._hold_timer: Timer | None = None
        self.after_frame = AfterFrame(self.set_timer)  # jobs that wait for a frame written
        self.still_jobs = StillJobs(self.set_timer)  # work that waits for a still screen
        self.idle_collector = IdleCollector(self.still_jobs)  # full collections: pacing.py
        self.dashboard = DashboardScreen(source.info, lang)
        self.dashboard.lab_shown = self.config.lab_pane  # [layout] lab = false: operators

    def get_default_screen(self) -> Screen[Any]:
        return self.dashboard

    def on_mount(self) -> None:
        problems = self.config.problems
        if problems:
            lines = [localize(problem, self.lang) for problem in problems[:SHOWN_PROBLEMS]]
            if len(problems) > SHOWN_PROBLEMS:
                more = len(problems) - SHOWN_PROBLEMS
                lines.append(text(self.lang, "config.more", count=more))
            # markup=False: "[keymap]" and the user's strings are not Rich markup.
            self.notify(
                "\n".join(lines), title="config", severity="warning", timeout=20, markup=False
            )

    @on(DashboardScreen.Ready)
    def _start(self) -> None:
        """Start watching once the panes exist, so the first change can be painted at once."""
        self.gc_hold.hold()  # until the first synced frame (pacing.GcHold), at most a minute
        self.set_timer(GC_HOLD_MAX_S, self.gc_hold.release)
        self.run_worker(
            self._run_source(), name="source", group="source", exclusive=True, exit_on_error=False
        )
        if self.watch_lab_dir:
            self.run_worker(
                self._watch_lab(), name="lab-files", group="lab-files", exit_on_error=False
            )

    # --- the source worker: Store and messages only, never widgets ------------------------

    def _emit(self, change: Change) -> None:
        if self.changes.unseen(change):  # a node's heartbeat, a retry saying the same
            self.dropped_changes += 1
            return
        if change.type == "MARK":  # a replay's scenario step, for the header
            self.dashboard.post_message(ScenarioMarked(change.label))
        if self.store.apply(change):
            self.post_message(StoreChanged())

    async def _run_source(self) -> None:
        attempt = 0
        while True:
            try:
                await self.source.run(self._emit)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a source bug or a bad recording: banner, retry
                delay = self.retry_delays[min(attempt, len(self.retry_delays) - 1)]
                attempt += 1
                message = text(
                    self.lang, "source-failed", message=f"{type(exc).__name__}: {exc}", delay=delay
                )
                self.post_message(SourceProblem(message, delay))
                await asyncio.sleep(delay)
                continue
            self.post_message(SourceFinished())
            return

    async def _watch_lab(self) -> None:
        """Re-check the lab when its files change, also once it is removed and made anew."""
        await watch_lab_dir(self.lab_dir, lambda: self.post_message(LabFilesChanged()))

    # --- handlers on the UI side ------------------------------------------------------------

    def on_store_changed(self, _message: StoreChanged) -> None:
        if self.source_problem:
            self.source_problem = ""  # changes flow again
        if self._holding_for_lists():
            return
        wait = self._last_paint + self.throttle_interval() - time.monotonic()
        if wait <= 0:
            self._repaint()
        elif self._paint_timer is None:
            self.deferred_repaints += 1
            self._paint_timer = self.set_timer(wait, self._repaint)

    def _holding_for_lists(self) -> bool:
        """pacing.FirstLists: True while the panes wait for the first lists."""
        now = time.monotonic()
        loading = self.changes.loading(REQUIRED_KINDS)
        step = self.first_lists.step(loading, self.changes.size, now)
        if step == "hold":
            snapshot = self.store.snapshot()
            self.dashboard.show_watch(snapshot)
            self.builder.parse_ahead(snapshot)  # the kinds listed so far, while the rest come in
            if self._hold_timer is None:  # a kind that never answers: paint the rest anyway
                self._hold_timer = self.set_timer(
                    self.first_lists.left(now), lambda: self.post_message(StoreChanged())
                )
            return True
        if step == "in":  # the lists are in: paint them now, whatever the throttle says
            for timer in (self._hold_timer, self._paint_timer):
                if timer is not None:
                    timer.stop()
            self._paint_timer = None
            self._last_paint = float("-inf")
        return False

    def throttle_interval(self) -> float:
        """Seconds between repaints: the configured interval, or COST_FACTOR × one's cost."""
        return max(self.repaint_interval, COST_FACTOR * self.paint_cost)

    def _repaint(self) -> None:
        if not self.is_running:  # shutting down: the panes are going away
            return
        self._paint_timer = None
        self._last_paint = time.monotonic()
        self._frame_pending = True
        view = self.builder.build(self.store.snapshot())
        self.view = view
        self.painted_revision = view.snapshot.revision
        self.warnings = find_warnings(view)
        self.repaints += 1
        self.dashboard.show(view, self.warnings, self.source_problem, self.source_finished)
        for screen in self.screen_stack:
            if isinstance(screen, SelectorScreen):
                screen.show_view(view)
        # After the frame: the checks' and the CEL library's threads would compete for the
        # GIL while it is composed, and so would the source's first watches. At scale their
        # first runs (a package imported each, ~0.1 s of the GIL) wait for the user's first
        # pause: the first keys after the first frame would wait behind them.
        at_scale = self.changes.size >= HOLD_OBJECTS
        if self._lab_started or not at_scale:
            # Checks of a small cluster's first views do not count: the first view at scale
            # still waits (its verdicts re-lay the screen out, a frame the first keys waited for).
            self.after_frame.add("lab", lambda: self._evaluate_lab(view))
        else:
            self.still_jobs.add("lab", self._first_checks, within=FIRST_WORK_WITHIN_S)
        if not at_scale:
            self.after_frame.add("cel", self._load_cel)
        elif not self._cel_started:
            self.still_jobs.add("cel", self._load_cel, within=FIRST_WORK_WITHIN_S)
        if view.snapshot.synced:  # `:` answers at once (at 10,000 devices: 50 ms, then ~10)
            self.still_jobs.add("jump-index", self.dashboard.jump_index)
        if not self.gc_hold.frozen and view.snapshot.synced:
            self.after_frame.add("gc", self.gc_hold.release)  # see pacing.GcHold
            if self.first_frame is not None:  # e.g. LiveSource.drawn: its first watches wait
                self.after_frame.add("drawn", self.first_frame)

    def on_unmount(self) -> None:
        self.gc_hold.release(freeze=False)  # ended before its lists: the collector back on
        gc_pause.restore_full_collections()

    def on_source_problem(self, message: SourceProblem) -> None:
        if not self.is_running:  # shutting down: the panes are going away
            return
        self.source_problem = message.message
        self.dashboard.show_source_problem(message.message)

    def on_source_finished(self, _message: SourceFinished) -> None:
        if not self.is_running:  # shutting down: the panes are going away
            return
        self.source_finished = True
        if self.view is not None and self._paint_timer is None:
            self._repaint()

    def on_lab_files_changed(self, _message: LabFilesChanged) -> None:
        self._evaluate_lab(self.view)

    # --- frames ----------------------------------------------------------------------------

    # Textual has no public "frame written" event; _display is where a composed frame goes to
    # the driver, so the repaint cost and the frame hook are taken here.
    def _display(self, screen: Screen[Any], renderable: Any) -> None:
        super()._display(screen, renderable)
        if renderable is None or self._batch_count:
            return  # nothing was written
        self.still_jobs.frame_written()
        self.idle_collector.frame_written()
        if self.painted_revision < 0:
            return
        if self._frame_pending:
            self._frame_pending = False
            self.paint_cost = time.monotonic() - self._last_paint
        if self.after_frame.jobs:
            self.call_later(self.after_frame.run)
        if self.frame_hook is not None:
            self.frame_hook(self.painted_revision)

    # --- errors ----------------------------------------------------------------------------

    def _fatal_error(self) -> None:
        """An unhandled exception: one line for the user, the traceback into a log file."""
        error = self._exception
        detail = f"{type(error).__name__}: {error}" if error is not None else "unknown error"
        where = write_crash_log(error)
        self.bell()
        # Printed by run_dashboard after the terminal is restored, as one plain line (Rich
        # would wrap or crop the log path).
        self.crash_line = f"gsb-tui stopped on an internal error ({detail}); details in {where}"
        self._close_messages_no_wait()

    # --- keys ------------------------------------------------------------------------------

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        self.push_screen(HelpScreen(help_rows(self.all_bindings(), self.lang)))

    @property
    def keymap(self) -> dict[str, str]:
        """The keymap in effect (binding id -> keys), as set by set_keymap / update_keymap."""
        # Textual 8.2 has setters but no getter; _keymap is what its screens apply to bindings.
        return dict(self._keymap)

    # The listing is keys.py's; these thin methods stay for callers holding the App.
    @classmethod
    def binding_ids(cls) -> frozenset[str]:
        return keys.binding_ids(cls)

    @classmethod
    def binding_classes(cls) -> tuple[type[Any], ...]:
        return keys.binding_classes(cls)

    def all_bindings(self) -> list[tuple[str, Binding, str]]:
        return keys.all_bindings(self, self.dashboard, self.lang, self.keymap)
