"""The dashboard's keys for its layout and the demo: 1..4 the tabs (at 80x24; on a wide screen
the group's first pane), `L` the Lab pane on and off (config.toml's `[layout] lab = false` hides
it from the start, for operators), `p` pauses a demo replay; and `y` on a free device in the
grid, which shows that device's YAML with its whole slice a key (`s`) away. Mixed into
DashboardScreen, whose BINDINGS take LAYOUT_BINDINGS in (so the footer, `?`, the palette and
the keymap see them as the dashboard's)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.binding import Binding
from textual.message import Message
from textual.widgets import Tabs

from gsb_tui.ui.render.describe import to_yaml
from gsb_tui.ui.render.slice_text import device_yaml
from gsb_tui.ui.screens.text_view import TextViewScreen
from gsb_tui.words import text

if TYPE_CHECKING:  # dashboard.py imports this module
    from gsb_tui.ui.screens.dashboard import DashboardScreen

LAYOUT_BINDINGS = [
    Binding("1", "tab('devices')", "Devices tab", show=False, id="gsb.tab.devices"),
    Binding("2", "tab('slices')", "Slices tab", show=False, id="gsb.tab.slices"),
    Binding("3", "tab('claims')", "Claims tab", show=False, id="gsb.tab.claims"),
    Binding("4", "tab('lab')", "Lab tab", show=False, id="gsb.tab.lab"),
    Binding(
        "L",
        "toggle_lab",
        "Lab pane",
        show=False,
        tooltip="Show or hide the Lab checklist ([layout] lab = false in config.toml hides it at"
        " start)",
        id="gsb.lab.toggle",
    ),
    Binding(
        "p",
        "pause_demo",
        "Pause",
        show=False,
        tooltip="Pause the demo replay, or play it on",
        id="gsb.demo.pause",
    ),
]


class ScenarioMarked(Message):
    """A replay played a MARK: the scenario step now on screen (the App posts it)."""

    def __init__(self, label: str) -> None:
        super().__init__()
        self.label = label


class LayoutKeys:
    """DashboardScreen's half of the keys above."""

    lab_shown = True  # the Lab pane (and tab) shown; the App sets it from config.toml

    def _dash(self) -> DashboardScreen:
        return cast("DashboardScreen", self)

    def pane_shown(self, pane: str) -> bool:
        """The pane may be shown (the Lab pane is hidden for operators who ask)."""
        return pane != "checklist" or self.lab_shown

    def action_tab(self, group: str) -> None:
        dash = self._dash()
        from gsb_tui.ui.screens.dashboard import PANES  # here: dashboard.py imports this module

        first = next(name for name, pane_group in PANES if pane_group == group)
        if not self.pane_shown(first):
            dash.app.notify(text(dash.lang, "lab.hidden"), severity="warning")
            return
        dash.focus_pane(first)

    def action_toggle_lab(self) -> None:
        dash = self._dash()
        self.lab_shown = not self.lab_shown
        self.show_lab_tab()
        if not self.lab_shown and dash.current_pane() == "checklist":
            dash.focus_pane("details")
        dash.app.notify(text(dash.lang, "lab.shown" if self.lab_shown else "lab.hidden"))

    def show_lab_tab(self) -> None:
        """The Lab tab and pane as lab_shown says (the group shown stays, or goes back to the
        devices when it was the Lab's)."""
        dash = self._dash()
        tabs = dash.query_one("#narrow-tabs", Tabs)
        if self.lab_shown:
            tabs.show("tab-lab")
        else:
            tabs.hide("tab-lab")
        group = dash.group if self.lab_shown or dash.group != "lab" else "devices"
        dash._show_group(group)

    def action_pause_demo(self) -> None:
        dash = self._dash()
        source = getattr(dash.app, "source", None)  # GsbApp's change source
        pause = getattr(source, "pause", None)
        if source is None or pause is None or source.info.live:
            dash.app.notify(text(dash.lang, "demo.pause-live"), severity="warning")
            return
        pause(not source.paused)
        dash.header.show_replay(getattr(source, "mark", ""), source.paused)

    def on_scenario_marked(self, message: ScenarioMarked) -> None:
        dash = self._dash()
        paused = bool(getattr(getattr(dash.app, "source", None), "paused", False))
        dash.header.show_replay(message.label, paused)

    def yaml_of_device(self) -> bool:
        """`y` in the grid on a device no claim holds: that device's entry, its slice a key
        away (True: shown). A held device's `y` shows the claim holding it, as before."""
        dash = self._dash()
        view, device = dash.view, dash.grid.cursor
        if view is None or device is None or dash.current_pane() != "grid":
            return False
        occ = view.occupancy.get(device)
        if occ is None or occ.holders:
            return False
        slice_ = dash.slices.selected_slice(occ.device.slice_name)
        if slice_ is None:
            return False
        name = f"{device.pool}_{device.device}"
        whole = (f"ResourceSlice {slice_.name}", to_yaml(slice_.raw), f"{slice_.name}.yaml")
        dash.app.push_screen(
            TextViewScreen(
                f"Device {device.driver}/{device.pool}/{device.device}",
                device_yaml(slice_, device.device),
                syntax="yaml",
                copy_name=f"{name}.yaml",
                other=whole,
            )
        )
        return True
