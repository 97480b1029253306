"""The dashboard screen: lays out the panes, keeps their selection in step, and owns the keys
that act on "the selected object" (y, d, /, tab).

Wide terminals show devices and slices on the left, claims over details and the checklist on
the right; narrow ones (below WIDE_MIN_WIDTH x WIDE_MIN_HEIGHT) show one group of panes at a
time under tabs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static, Tab, Tabs

from gsb_tui.dra.model import Claim, DeviceId, Slice
from gsb_tui.dra.view import DraView
from gsb_tui.dra.warnings import DraWarning
from gsb_tui.kube.source import SourceInfo
from gsb_tui.snapshot import REQUIRED_KINDS, Kind, Snapshot
from gsb_tui.ui.footer import LocalFooter
from gsb_tui.ui.messages import ClaimSelected, DeviceSelected
from gsb_tui.ui.panes.base import failure_text
from gsb_tui.ui.panes.checklist import ChecklistPane
from gsb_tui.ui.panes.claim_table import ClaimTable
from gsb_tui.ui.panes.claims import ClaimsPane
from gsb_tui.ui.panes.details import DetailsPane, DetailsScroll
from gsb_tui.ui.panes.grid import DeviceGrid
from gsb_tui.ui.panes.header import StatusHeader
from gsb_tui.ui.panes.slices import SlicesPane, SlicesScroll
from gsb_tui.ui.render.describe import describe_claim, to_yaml
from gsb_tui.ui.render.flags import NO_WARNINGS, WarningIndex, index_warnings
from gsb_tui.ui.render.slice_text import describe_slice
from gsb_tui.ui.screens.jumps import JUMP_BINDINGS, Jumps
from gsb_tui.ui.screens.layout_keys import LAYOUT_BINDINGS, LayoutKeys
from gsb_tui.ui.screens.quiet_focus import QuietFocusScreen
from gsb_tui.ui.screens.text_view import TextViewScreen
from gsb_tui.words import text

WIDE_MIN_WIDTH = 140
WIDE_MIN_HEIGHT = 30

# Pane order for tab / shift+tab, and the group (narrow-mode tab) each pane is shown under.
PANES: tuple[tuple[str, str], ...] = (
    ("grid", "devices"),
    ("slices", "slices"),
    ("claims", "claims"),
    ("details", "claims"),
    ("checklist", "lab"),
)
GROUPS = ("devices", "slices", "claims", "lab")


@dataclass(frozen=True)
class Selected:
    """What `y` and `d` act on."""

    kind: Kind
    title: str
    obj: object


class DashboardScreen(LayoutKeys, Jumps, QuietFocusScreen):
    class Ready(Message):
        """The panes are mounted: the App may start feeding them."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "yaml", "YAML", tooltip="Show the selected object's YAML", id="gsb.yaml"),
        Binding(
            "d",
            "describe",
            "Describe",
            tooltip="Describe the selected object, with its events",
            id="gsb.describe",
        ),
        Binding(
            "slash",
            "filter",
            "Filter",
            key_display="/",
            tooltip="Filter the claims",
            id="gsb.filter",
        ),
        Binding(
            "s",
            "selector",
            "Try selector",
            tooltip="Type a CEL selector and see which devices it matches",
            id="gsb.selector",
        ),
        Binding("tab", "next_pane", "Next pane", show=False, id="gsb.pane.next"),
        Binding("shift+tab", "previous_pane", "Previous pane", show=False, id="gsb.pane.previous"),
        *JUMP_BINDINGS,  # : n g u o (screens/jumps.py)
        *LAYOUT_BINDINGS,  # 1..4 L p (screens/layout_keys.py)
    ]

    def __init__(self, info: SourceInfo, lang: str) -> None:
        super().__init__(id="dashboard")
        self.info = info
        self.lang = lang
        self.view: DraView | None = None
        self.warnings: Sequence[DraWarning] = ()
        self.flags: WarningIndex = NO_WARNINGS  # where each warning is marked
        self.selected_claim: tuple[str, str] | None = None
        self.narrow = False
        self.group = "devices"  # the group of panes shown in narrow mode
        self.active_pane: str | None = None
        self._pending_focus: str | None = None

    def compose(self) -> ComposeResult:
        info, lang = self.info, self.lang
        yield StatusHeader(info, lang=self.lang, id="header")
        yield Static("", id="banner")
        yield Tabs(
            *(Tab(text(lang, f"tab.{group}"), id=f"tab-{group}") for group in GROUPS),
            id="narrow-tabs",
        )
        with Horizontal(id="body"):
            with Vertical(id="col-devices", classes="column"):
                yield DeviceGrid(info, lang, id="grid")
                yield SlicesPane(info, lang, id="slices")
            with Vertical(id="col-claims", classes="column"):
                yield ClaimsPane(info, lang, id="claims")
                with Horizontal(id="lower", classes="row"):
                    yield DetailsPane(info, lang, id="details")
                    yield ChecklistPane(info, lang, id="checklist")
        yield LocalFooter()

    def on_mount(self) -> None:
        self.banner.display = False
        self._apply_layout(self.size.width, self.size.height)
        if not self.lab_shown:  # config.toml's [layout] lab = false
            self.show_lab_tab()
        self.query_one(DeviceGrid).focus()
        self.active_pane = "grid"  # Tab's first stop is the slices, however soon it comes
        if self.start_scope:
            self.set_namespace(self.start_scope)
        self.post_message(self.Ready())

    # --- panes ---------------------------------------------------------------------------
    # Looked up once (cached_property keeps no failed lookup): query_one walks the DOM, and a
    # repaint asked about twenty times. The panes live with the screen.

    @cached_property
    def header(self) -> StatusHeader:
        return self.query_one(StatusHeader)

    @cached_property
    def banner(self) -> Static:
        return self.query_one("#banner", Static)

    @cached_property
    def grid(self) -> DeviceGrid:
        return self.query_one(DeviceGrid)

    @cached_property
    def claims(self) -> ClaimsPane:
        return self.query_one(ClaimsPane)

    @cached_property
    def details(self) -> DetailsPane:
        return self.query_one(DetailsPane)

    @cached_property
    def slices(self) -> SlicesPane:
        return self.query_one(SlicesPane)

    @cached_property
    def checklist(self) -> ChecklistPane:
        return self.query_one(ChecklistPane)

    def show(
        self,
        view: DraView,
        warnings: Sequence[DraWarning] = (),
        source_problem: str = "",
        finished: bool = False,
    ) -> None:
        """Hand a new view to every pane (the App calls this, throttled)."""
        self.view = view
        self.warnings = warnings
        self.flags = index_warnings(warnings)
        self.header.show(view.snapshot, finished)
        self._show_banner(view, source_problem)
        self.grid.show(view, self.flags)
        self.claims.show(view, self.flags)
        self.slices.show(view)
        # Always a row the table shows (a filter or the namespace may hide the last one).
        self.selected_claim = self.claims.select(self.selected_claim)
        self.grid.mark_claim(self._claim(self.selected_claim), move_cursor=self.grid.cursor is None)
        self.details.show(view, self.selected_claim, warnings)

    def show_watch(self, snapshot: Snapshot) -> None:
        """Only the header's watch line: the App holds the panes while the first lists come
        in at scale (ui/pacing.FirstLists)."""
        self.header.show(snapshot)

    def _show_banner(self, view: DraView, source_problem: str) -> None:
        states = [view.snapshot.state(k) for k in REQUIRED_KINDS]
        failing = [s for s in states if s.phase in ("error", "reconnecting")]
        message = source_problem
        if not message and states and len(failing) == len(states):
            # Every watch fails the same way: the cluster is unreachable, not one kind.
            worst = max(failing, key=lambda s: (s.phase == "error", s.attempts))
            message = failure_text(self.lang, self.info, worst)
        self.show_source_problem(message)

    def show_source_problem(self, message: str) -> None:
        banner = self.banner
        if banner.display == bool(message) and str(banner.content) == message:
            return  # the same banner (usually none): no re-layout
        banner.update(message)
        banner.display = bool(message)

    def _claim(self, key: tuple[str, str] | None) -> Claim | None:
        if self.view is None or key is None:
            return None
        return self.view.claims.get(key)

    # --- selection sync --------------------------------------------------------------------

    @on(ClaimSelected)
    def _claim_selected(self, message: ClaimSelected) -> None:
        if message.key == self.selected_claim or self.view is None:
            return
        self.selected_claim = message.key
        self.grid.mark_claim(self._claim(message.key))
        self.details.show(self.view, message.key, self.warnings)

    @on(DeviceSelected)
    def _device_selected(self, message: DeviceSelected) -> None:
        if self.view is None:
            return
        occ = self.view.occupancy.get(message.device)
        held = occ.holders if occ is not None else ()
        # A shared device keeps the selected claim; one the table hides leaves it too (`u`).
        if not held or any(c.key == self.selected_claim for c in held):
            return
        if not self.claims.shows(held[0].key):
            return
        self.selected_claim = self.claims.select(held[0].key)
        self.grid.mark_claim(held[0], move_cursor=False)
        self.details.show(self.view, self.selected_claim, self.warnings)

    # --- layout ----------------------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        self._apply_layout(event.size.width, event.size.height)

    def _apply_layout(self, width: int, height: int) -> None:
        self.narrow = width < WIDE_MIN_WIDTH or height < WIDE_MIN_HEIGHT
        self.set_class(self.narrow, "-narrow")
        self.query_one("#narrow-tabs", Tabs).display = self.narrow
        self._show_group(self.group)

    def _show_group(self, group: str) -> None:
        self.group = group
        for pane, pane_group in PANES:
            shown = (not self.narrow or pane_group == group) and self.pane_shown(pane)
            self.query_one(f"#{pane}").display = shown
        # Containers follow their panes: inner rows first, then the columns holding them.
        for box in [*self.query(".row"), *self.query(".column")]:
            box.display = any(child.display for child in box.children)
        tabs = self.query_one("#narrow-tabs", Tabs)
        if tabs.active != f"tab-{group}":
            tabs.active = f"tab-{group}"

    @on(Tabs.TabActivated, "#narrow-tabs")
    def _tab_activated(self, event: Tabs.TabActivated) -> None:
        # _show_group sets the active tab itself; by the time that activation arrives, a quick
        # second key may have moved on. Acting on the stale one would switch back, whose own
        # activation would switch forth again, forever (a busy loop at 80x24 after tab, tab).
        if event.tab.id != self.query_one("#narrow-tabs", Tabs).active:
            return
        group = (event.tab.id or "tab-devices").removeprefix("tab-")
        if group != self.group:
            self._show_group(group)
            first = next(name for name, pane_group in PANES if pane_group == group)
            self.focus_pane(first)

    def _focus_target(self, pane: str) -> Widget:
        targets: dict[str, Widget] = {
            "grid": self.grid,
            "slices": self.query_one(SlicesScroll),
            "claims": self.query_one(ClaimTable),
            "details": self.query_one(DetailsScroll),
            "checklist": self.checklist,
        }
        return targets[pane]

    def focus_pane(self, pane: str) -> None:
        group = dict(PANES)[pane]
        if self.narrow and group != self.group:
            self._show_group(group)
        self.active_pane = pane
        self._pending_focus = pane
        self._focus_target(pane).focus()

    def _pane_of(self, widget: Widget | None) -> str | None:
        names = {name for name, _ in PANES}
        node: Widget | None = widget
        while node is not None:
            if node.id in names and node.has_class("pane"):
                return node.id
            parent = node.parent
            node = parent if isinstance(parent, Widget) else None
        return None

    def current_pane(self) -> str | None:
        """The pane last moved to (focus lands a moment later, so rapid keys ask this)."""
        return self.active_pane or self._pane_of(self.focused)

    @on(events.DescendantFocus)
    def _descendant_focused(self, event: events.DescendantFocus) -> None:
        pane = self._pane_of(event.widget)
        if pane is not None and self._pending_focus in (None, pane):
            self.active_pane = pane
            self._pending_focus = None

    def _step_pane(self, step: int) -> None:
        names = [name for name, _ in PANES if self.pane_shown(name)]
        current = self.current_pane()
        index = names.index(current) + step if current in names else 0
        self.focus_pane(names[index % len(names)])

    def action_next_pane(self) -> None:
        self._step_pane(1)

    def action_previous_pane(self) -> None:
        self._step_pane(-1)

    # --- y / d / / ----------------------------------------------------------------------

    def _device_slice(self, device: DeviceId | None) -> Slice | None:
        if self.view is None or device is None:
            return None
        occ = self.view.occupancy.get(device)
        name = occ.device.slice_name if occ is not None else None
        return self.slices.selected_slice(name)

    def selected_object(self) -> Selected | None:
        """The object `y`/`d` act on: the grid's free device -> its slice; the slices pane ->
        the cursor's slice; otherwise the selected claim."""
        if self.view is None:
            return None
        pane = self.current_pane()
        cursor = self.grid.cursor
        cursor_occ = self.view.occupancy.get(cursor) if cursor is not None else None
        want_slice = pane == "slices" or (
            pane == "grid" and cursor_occ is not None and not cursor_occ.holders
        )
        if want_slice:
            found = self._device_slice(cursor) or self.slices.selected_slice(None)
            if found is not None:
                return Selected(Kind.SLICES, f"ResourceSlice {found.name}", found)
        claim = self._claim(self.selected_claim)
        held = cursor_occ.holders if pane == "grid" and cursor_occ is not None else ()
        if held and all(c.key != self.selected_claim for c in held):
            claim = held[0]  # the grid's device is held by a claim the table hides
        if claim is not None:
            return Selected(Kind.CLAIMS, f"ResourceClaim {claim.namespace}/{claim.name}", claim)
        return None

    def _nothing(self) -> None:
        self.app.notify(text(self.lang, "nothing-selected"), severity="warning")

    def action_yaml(self) -> None:
        if self.yaml_of_device():  # a free device in the grid: its YAML (screens/layout_keys.py)
            return
        selected = self.selected_object()
        if selected is None or not isinstance(selected.obj, Claim | Slice):
            self._nothing()
            return
        name = selected.title.split(" ", 1)[-1].replace("/", "_")
        self.app.push_screen(
            TextViewScreen(
                selected.title,
                to_yaml(selected.obj.raw),
                syntax="yaml",
                copy_name=f"{name}.yaml",
            )
        )

    def action_describe(self) -> None:
        selected = self.selected_object()
        if selected is None or self.view is None:
            self._nothing()
            return
        obj = selected.obj
        if isinstance(obj, Claim):
            body = describe_claim(self.view, obj, self.warnings, self.lang, self.details.allocator)
        elif isinstance(obj, Slice):
            body = describe_slice(self.view, obj, self.lang)
        else:
            self._nothing()
            return
        name = selected.title.split(" ", 1)[-1].replace("/", "_")
        self.app.push_screen(
            TextViewScreen(f"describe {selected.title}", body, copy_name=f"{name}.describe.txt")
        )

    def action_selector(self) -> None:
        from gsb_tui.ui.screens.selector import SelectorScreen

        step = self.checklist.current_step  # the lab step the checklist is on: its selector
        lab_dir = getattr(self.app, "lab_dir", None)
        self.app.push_screen(SelectorScreen.for_step(self.view, self.lang, step, lab_dir))

    def action_filter(self) -> None:
        if self.narrow:
            self._show_group("claims")
        self.claims.open_filter()
