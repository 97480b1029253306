"""Slices: what each driver published (pool, generation, devices with attributes and capacity),
beside the node's allocatable, where DRA devices never appear (the point of lab step 2). Where a
driver uses DRA 1.36 fields: the pool's shared counters and their use, each device's
consumesCounters, taints and binding conditions, and where a slice without a node reaches. A
node whose driver published no slices any more while claims hold its devices is said on top."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from gsb_tui.dra.model import Slice
from gsb_tui.dra.model import malformed as bad_fields
from gsb_tui.dra.pool_status import compare
from gsb_tui.dra.view import DraView
from gsb_tui.kube.source import SourceInfo
from gsb_tui.snapshot import Kind
from gsb_tui.ui.panes.base import Pane, kind_notice, stale_note
from gsb_tui.ui.panes.lines import text_segments
from gsb_tui.ui.panes.vanished import VanishedDrivers
from gsb_tui.ui.render.features import counter_lines, device_features, slice_where
from gsb_tui.words import text

SIDE_BY_SIDE_WIDTH = 56  # below this the allocatable table goes under the devices
# Above this many slices each gets one line, not its device tables: 125 nodes' tables are
# 1,700 lines nobody scrolls through, and measuring them was a quarter of the first paint.
DETAILED_SLICES_MAX = 12
# Past this many devices the tables cost seconds to measure (50,000 in one slice froze the UI):
# one line per slice then too (`y` on a device still shows its slice in full).
DETAILED_DEVICES_MAX = 512


def taint_rules_note(view: DraView, lang: str) -> str:
    """What the DeviceTaintRules API says: not served (only slice taints count then), or how
    many rules taint devices and whether one is evicting pods."""
    state = view.snapshot.state(Kind.TAINT_RULES)
    if state.phase == "not-served":
        return text(lang, "rules.not-served")
    if not view.taint_rules:
        return ""
    evicting = sum(1 for r in view.taint_rules if r.eviction_in_progress)
    note = text(lang, "rules.count", n=len(view.taint_rules))
    return note + (" · " + text(lang, "rules.evicting", n=evicting) if evicting else "")


def pool_status_lines(view: DraView, lang: str) -> dict[str, Text]:
    """Slice name → one line on its pool from the newest ResourcePoolStatusRequest answer about
    it (dra/pool_status.py), for the first current slice of each reported pool; {} when no
    request answered (or the API is not served)."""
    found = compare(view).pools
    if not found:
        return {}
    newest = {(p.driver, p.pool): p for p in found}  # sorted by when written: the last wins
    out: dict[str, Text] = {}
    for s in view.slices:
        p = newest.pop((s.driver, s.pool), None)
        if p is None:
            continue
        upstream, own = p.reported.slashed(), p.own.slashed()
        said = text(lang, "poolstatus.pane", request=p.request, upstream=upstream, own=own)
        out[s.name] = line = Text(said, style="magenta", overflow="fold")
        if p.differs:  # the reasons' codes; `gsb-tui devices` says them in words
            line.append(f" ({', '.join(r.code for r in p.reasons)})", style="dim")
    return out


def _facts(out: Text, fields: Sequence[tuple[str, str]]) -> Text:
    """Append "  label value" pairs (labels dim, the device count bold)."""
    for index, (label, value) in enumerate(fields):
        out.append(f"{'  ' if index else ''}{label} ", style="dim")
        out.append(value, style="bold" if label == "devices" else "")
    return out


def slice_title(s: Slice, lang: str = "en") -> Text:
    out = Text(overflow="fold")
    out.append(s.name, style="bold")
    out.append("\n")
    fields = [("driver", s.driver), ("node", slice_where(s, lang)), ("pool", s.pool)]
    fields += [("generation", str(s.generation)), ("devices", str(len(s.devices)))]
    return _facts(out, fields)


def slice_line(view: DraView, s: Slice, lang: str = "en") -> Text:
    """One slice in one line (many slices): where it is, its generation and device count."""
    # The facts first and the (long, generated) name last, so a narrow pane cuts the name.
    out = Text(no_wrap=True, overflow="ellipsis")
    fields = [("node", slice_where(s, lang))] + ([("pool", s.pool)] if s.pool != s.node else [])
    fields += [("gen", str(s.generation)), ("devices", str(len(s.devices)))]
    _facts(out, fields)
    out.append(f"  {s.name}", style="dim")
    if s in view.stale_slices:
        out.append("  older generation: not counted", style="yellow")
    out.append(bad_fields.short(s.problems, lang), style="bold red")  # "" when well-formed
    return out


def slice_lines(view: DraView, slices: Sequence[Slice], lang: str) -> list[Text]:
    """The one-line form: a heading, then one line per slice however narrow the pane (and one
    under a pool's first slice where a ResourcePoolStatusRequest reported on the pool)."""
    heading = Text(text(lang, "slices-compact", count=len(slices)), style="dim italic")
    status = pool_status_lines(view, lang)
    lines = [heading]
    for s in slices:
        lines.append(slice_line(view, s, lang))
        if s.name in status:
            lines.append(Text("  ") + status[s.name])
    return lines


class SliceLines(Widget):
    """The one-line form of many slices, drawn with the Line API: only the lines on screen are
    drawn (1,250 slices as one Static were a quarter of a second of the first frame at 10,000
    devices, every line turned into strips, most of them scrolled away)."""

    DEFAULT_CSS = "SliceLines { height: auto; }"

    def __init__(self, lines: list[Text], *, classes: str) -> None:
        super().__init__(classes=classes)
        self.lines = lines
        self._strips: dict[tuple[int, int], Strip] = {}
        self._base = Style()

    def set_lines(self, lines: list[Text]) -> None:
        grew = len(lines) != len(self.lines)
        self.lines = lines
        self._strips.clear()
        self.refresh(layout=grew)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.lines)

    def render_lines(self, crop: Region) -> list[Strip]:
        self._base = self.rich_style  # walks every ancestor's styles: once per render
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        width = self.content_size.width
        if not 0 <= y < len(self.lines):
            return Strip.blank(width, self._base)
        strip = self._strips.get((y, width))
        if strip is None:
            line = self.lines[y].copy()
            line.truncate(width, overflow="ellipsis")
            segments = text_segments(self.app.console, line, self._base)
            strip = Strip(segments).crop_extend(0, width, self._base)
            self._strips[(y, width)] = strip
        return strip

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()  # a theme change restyles every line


def _names(s: Slice) -> tuple[list[str], list[str]]:
    attrs: list[str] = []
    caps: list[str] = []
    for device in s.devices:
        attrs += [a for a in device.attributes if a not in attrs]
        caps += [c for c in device.capacity if c not in caps]
    return attrs, caps


def common_values(s: Slice) -> Text:
    """Attributes and capacities every device shares, said once instead of per row."""
    attrs, caps = _names(s)
    out = Text(overflow="fold")
    if len(s.devices) < 2:
        return out
    for name in attrs:
        values = {d.attributes.get(name) for d in s.devices}
        if len(values) == 1:
            out.append(f"{name}=", style="dim")
            out.append(f"{values.pop()}  ")
    for name in caps:
        values_c = {d.capacity.get(name) for d in s.devices}
        if len(values_c) == 1:
            out.append(f"{name}=", style="dim")
            out.append(f"{values_c.pop()}  ", style="cyan")
    if out.plain:
        out = Text("every device: ", style="dim") + out
    return out


def device_table(s: Slice) -> Table:
    """One row per device; only attributes that differ between devices get a column."""
    attrs, caps = _names(s)
    if len(s.devices) > 1:
        attrs = [a for a in attrs if len({d.attributes.get(a) for d in s.devices}) > 1]
        caps = [c for c in caps if len({d.capacity.get(c) for d in s.devices}) > 1]
    table = Table(box=None, pad_edge=False, header_style="bold dim", show_edge=False)
    table.add_column("DEVICE", no_wrap=True, min_width=6)
    for name in attrs:
        # uuids are long and the same shape everywhere: keep them short.
        table.add_column(name, no_wrap=True, overflow="ellipsis", max_width=14)
    for name in caps:
        table.add_column(name, no_wrap=True, style="cyan", justify="right")
    for device in s.devices:
        row = [device.name]
        row += [str(device.attributes.get(a, "")) for a in attrs]
        row += [device.capacity.get(c, "") for c in caps]
        table.add_row(*row)
    return table


def feature_table(s: Slice) -> Table | None:
    """The devices' DRA 1.36 fields, one row per field (None: no device uses any)."""
    rows = [
        (device.name, field, value)
        for device in s.devices
        for field, value in device_features(device, s.per_device_node_selection)
    ]
    if not rows:
        return None
    table = Table(box=None, pad_edge=False, show_header=False, show_edge=False)
    table.add_column(no_wrap=True, min_width=6)
    table.add_column(no_wrap=True, style="dim")
    table.add_column(overflow="fold")
    for name, field, value in rows:
        table.add_row(name, field, value)
    return table


def allocatable_table(view: DraView, node: str, lang: str) -> Table:
    table = Table(
        box=None,
        pad_edge=False,
        show_edge=False,
        header_style="bold dim",
        caption=text(lang, "allocatable-note"),
        caption_style="dim italic",
        caption_justify="left",
    )
    table.add_column(f"{node} allocatable", no_wrap=True)
    table.add_column("", justify="right", no_wrap=True)
    allocatable = view.node_allocatable(node)
    for name, value in sorted(allocatable.items()):
        table.add_row(name, value)
    if not allocatable:
        state = view.snapshot.state(Kind.NODES)
        key = "slices.node-forbidden" if state.phase == "forbidden" else "slices.node-not-seen"
        reason = text(lang, key)
        table.add_row(Text(reason, style="dim"), "")
    return table


class SlicesScroll(VerticalScroll):
    """Focusable, so the arrow keys scroll many slices."""


def slice_parts(
    view: DraView, s: Slice, lang: str, wide: bool, status: Text | None = None
) -> list[RenderableType]:
    """What one slice shows: title, its pool's status as a ResourcePoolStatusRequest reported
    it (`status`), shared values, devices (beside the node's allocatable)."""
    parts: list[RenderableType] = [slice_title(s, lang)]
    parts += [Text(x, style="bold red", overflow="fold") for x in bad_fields.said(s, lang)]
    if status is not None:
        parts.append(status)
    if s in view.stale_slices:
        parts.append(Text("older pool generation: not counted", style="yellow"))
    for line in counter_lines(view, s, lang):
        parts.append(Text(line, style="cyan", overflow="fold"))
    shared = common_values(s)
    if shared.plain:
        parts.append(shared)
    devices = device_table(s)
    if s.shared_counters and not s.devices:
        pass  # a counter-only slice: its counter lines above are all it has
    elif s.node and s in view.slices:
        alloc = allocatable_table(view, s.node, lang)
        if wide:
            side = Table.grid(padding=(0, 3))
            side.add_row(devices, alloc)
            parts.append(side)
        else:
            parts.extend([devices, Text(""), alloc])
    else:
        parts.append(devices)
    features = feature_table(s)
    if features is not None:
        parts.append(features)
    parts.append(Text(""))
    return parts


SliceKey = tuple[object, ...]


class SlicesPane(Pane):
    title_key = "slices"

    def __init__(self, info: SourceInfo, lang: str, *, id: str | None = None) -> None:
        super().__init__(info, lang, id=id)
        self.view: DraView | None = None
        self.selected: str | None = None  # slice name the `y` key shows
        # One Static per slice, and what each shows: claim and pod changes (nearly every
        # repaint) leave every key alone, so nothing is rendered or measured again.
        self._keys: list[Any] = []  # SliceKey per slice, or the compact list's
        self._names: list[str] = []  # the slices the detailed form shows ([] while compact)
        self._widgets: list[Widget] = []
        # The one-line form is composed here, hidden, not mounted at the first large view:
        # a widget mounted during a repaint arrives a frame late, with a layout pass of its
        # own, and at 10,000 devices the first key waited for that frame.
        self._compact = SliceLines([], classes="slice-lines")
        self._compact.display = False

    def compose(self) -> ComposeResult:
        yield from self.compose_notice()
        yield VanishedDrivers()  # a driver gone from a node: shown with the notice too
        yield SlicesScroll(self._compact, classes="body")

    def on_mount(self) -> None:
        self.set_notice(text(self.lang, "connecting", server=self.info.server))

    def show(self, view: DraView) -> None:
        self.view = view
        snap = view.snapshot
        notice = kind_notice(snap, Kind.SLICES, self.info, self.lang, has_data=bool(view.slices))
        if notice is None and not view.slices:
            notice = text(self.lang, "no-slices")
        self.set_notice(notice)
        note = stale_note(snap, Kind.SLICES, self.lang) or taint_rules_note(view, self.lang)
        self.set_subtitle(bad_fields.with_count(note, len(view.malformed()), self.lang))
        self.query_one(VanishedDrivers).show(view, self.lang)
        self._render_slices()

    def on_resize(self, event: events.Resize) -> None:
        self._render_slices()

    def _slice_key(self, view: DraView, s: Slice, wide: bool, status: Text | None) -> SliceKey:
        """Everything a slice's text depends on; the Store never mutates, so `is` works."""
        stale = s in view.stale_slices
        if s.node and not stale:
            alloc = tuple(sorted(view.node_allocatable(s.node).items()))
            nodes = view.snapshot.state(Kind.NODES).phase if not alloc else ""
        else:
            alloc, nodes = (), ""
        counters = tuple(
            (c.name, tuple(found.used.items()) if found is not None else ())
            for c in s.shared_counters
            for found in (view.counters.get((s.driver, s.pool, c.name)),)
        )
        return (s, stale, alloc, nodes, wide, counters, status.plain if status else "")

    def _render_slices(self) -> None:
        view = self.view
        if view is None:
            return
        wide = self.content_size.width >= SIDE_BY_SIDE_WIDTH
        every = (*view.slices, *view.stale_slices)
        box = self.query_one(SlicesScroll)
        devices = sum(len(s.devices) for s in every)
        status = pool_status_lines(view, self.lang)
        if len(every) > DETAILED_SLICES_MAX or devices > DETAILED_DEVICES_MAX:
            # The very same tuples while no slice changed: no walk over thousands of slices.
            keys: list[Any] = [view.slices, view.stale_slices]
            keys.append(tuple(line.plain for line in status.values()))
            if not self._compact.display:
                box.remove_children(self._widgets)
                self._compact.set_lines(slice_lines(view, every, self.lang))
                self._compact.set_classes("slices-text compact")
                self._compact.display = True
                self._widgets = []
            elif keys != self._keys:
                self._compact.set_lines(slice_lines(view, every, self.lang))
            self._keys, self._names = keys, []
            return
        if self._compact.display:
            self._compact.display = False
            self._compact.set_classes("slice-lines")
            self._compact.set_lines([])
        keys = [self._slice_key(view, s, wide, status.get(s.name)) for s in every]
        names = [s.name for s in every]
        if names != self._names:
            # Slices came or went: build the list again (rare: drivers publish, then hold).
            box.remove_children(self._widgets)
            self._widgets = [
                Static(
                    Group(*slice_parts(view, s, self.lang, wide, status.get(s.name))),
                    classes="slices-text",
                )
                for s in every
            ]
            box.mount_all(self._widgets)
        else:
            for widget, s, key, old in zip(self._widgets, every, keys, self._keys, strict=True):
                if key != old and isinstance(widget, Static):
                    parts = slice_parts(view, s, self.lang, wide, status.get(s.name))
                    widget.update(Group(*parts))
        self._keys, self._names = keys, names

    def selected_slice(self, device_slice: str | None) -> Slice | None:
        """The slice `y` shows: the grid cursor's slice, else the first one."""
        if self.view is None or not self.view.slices:
            return None
        for s in self.view.slices:
            if s.name == device_slice:
                return s
        return self.view.slices[0]
