"""The Claims pane: every ResourceClaim with STATE as kubectl prints it, its devices and the
pods that consume it, filterable with `/`, sortable (claim_sort.py), of one namespace or all.

The selection is always a row the table shows: when a filter or the namespace hides the
selected claim, the first row shown is selected instead (none when no row is left)."""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import cached_property, partial
from operator import itemgetter
from typing import ClassVar

from rich.cells import cell_len
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Input, Static

from gsb_tui.dra.model import Claim
from gsb_tui.dra.view import DraView
from gsb_tui.dra.warnings import DraWarning
from gsb_tui.kube.source import SourceInfo
from gsb_tui.snapshot import Kind
from gsb_tui.ui.messages import ClaimSelected
from gsb_tui.ui.panes.base import Pane, kind_notice, stale_note
from gsb_tui.ui.panes.claim_rows import cells as row_cells
from gsb_tui.ui.panes.claim_rows import claim_row, fit_widths, strip_text
from gsb_tui.ui.panes.claim_sort import Sort, headers, next_sort, order
from gsb_tui.ui.panes.claim_table import CELL_PADDING, ClaimTable, TableRow
from gsb_tui.ui.render.flags import MARK, NO_WARNINGS, WarningIndex, short
from gsb_tui.words import text

ClaimKey = tuple[str, str]
COLUMNS = ("CLAIM", "STATE", "DEVICES", "CONSUMERS")
# Per claim: the row tuple, flag and short_names a table row was made from, its cells, the row.
_Shown = tuple[tuple[str, str, str, str], str, bool, tuple[str, ...], TableRow]
_ROW = itemgetter(4)  # a _Shown's table row
SHORT_NAMES_BELOW = 90  # pane width under which rows drop the (single) namespace


class ClaimFilter(Input):
    """The `/` filter; Esc clears it and hands focus back to the table."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "clear_filter", "Clear filter", id="gsb.claims.clear-filter")
    ]

    def action_clear_filter(self) -> None:
        self.value = ""
        self.display = False
        self.screen.query_one(ClaimTable).focus()


class ClaimsPane(Pane):
    title_key = "claims"

    def __init__(self, info: SourceInfo, lang: str, *, id: str | None = None) -> None:
        super().__init__(info, lang, id=id)
        self.view: DraView | None = None
        self.selected: ClaimKey | None = None
        self.filter = ""
        self.rows: list[tuple[ClaimKey, tuple[str, str, str, str], str]] = []  # key, row, flag
        self.flags: WarningIndex = NO_WARNINGS
        self.short_names = False
        # What each table row shows, by row key: an unchanged claim keeps its row (and its line).
        self._shown: dict[ClaimKey, _Shown] = {}
        self._rows_by_claim: dict[ClaimKey, tuple[Claim, bool, tuple[str, str, str, str]]] = {}
        self._keys: list[ClaimKey] = []  # the rows' keys, in order (for bisect)
        # What the rows were filled from: view, show_pool, short_names, warnings, filter, scope.
        self._filled: (
            tuple[DraView, bool, bool, Mapping[ClaimKey, object], str, str | None] | None
        ) = None
        # Per column, how many rows have each width: a row coming or going moves the natural
        # width without measuring every row again.
        self._widths: list[Counter[int]] = [Counter() for _ in COLUMNS]
        self.scope: str | None = None  # the namespace shown (None: all)
        self.sort: Sort | None = None  # None: by namespace/name, as self._keys are
        self._order: list[ClaimKey] = []  # the rows' keys as the table shows them
        self._position: dict[ClaimKey, int] = {}

    def compose(self) -> ComposeResult:
        yield from self.compose_notice()
        # Pods whose claim or template does not exist: no row can carry their marker.
        yield Static("", classes="warn-strip")
        yield ClaimFilter(placeholder=text(self.lang, "filter"), classes="body filter")
        yield ClaimTable(COLUMNS, classes="body")

    def on_mount(self) -> None:
        self.filter_box.display = False
        self.set_notice(text(self.lang, "connecting", server=self.info.server))

    @cached_property
    def table(self) -> ClaimTable:
        return self.query_one(ClaimTable)

    @cached_property
    def filter_box(self) -> ClaimFilter:
        return self.query_one(ClaimFilter)

    def visible_keys(self) -> list[ClaimKey]:
        """The claims the table shows, top to bottom."""
        return list(self._order)

    def shows(self, key: ClaimKey | None) -> bool:
        return key in self._position

    def flag_of(self, key: ClaimKey) -> str:
        """The warning marker shown on a claim's row ("" when none)."""
        return next((flag for k, _, flag in self.rows if k == key), "")

    def show(self, view: DraView, flags: WarningIndex = NO_WARNINGS) -> None:
        self.view = view
        self.flags = flags
        self._show_strip(flags)
        snap = view.snapshot
        notice = kind_notice(snap, Kind.CLAIMS, self.info, self.lang, has_data=bool(view.claims))
        self.set_notice(notice)
        if self.scope is not None and not any(ns == self.scope for ns, _ in view.claims):
            self.table.set_empty(text(self.lang, "ns.empty", ns=self.scope))
        else:
            self.table.set_empty("" if view.claims else text(self.lang, "no-claims"))
        filter_box = self.filter_box
        if notice is None and not filter_box.value:
            filter_box.display = False
        self.set_subtitle(stale_note(snap, Kind.CLAIMS, self.lang))
        self._fill()

    def _show_strip(self, flags: WarningIndex) -> None:
        strip = self.query_one(".warn-strip", Static)
        line = strip_text(flags.unattached, self.lang)
        # An empty hidden strip, or the same text again, is left alone (no re-layout).
        if (strip.display or flags.unattached) and (
            str(strip.content) != line.plain or not flags.unattached
        ):
            strip.update(line)
            strip.display = bool(flags.unattached)

    def on_resize(self) -> None:
        self._fill(force=True)

    def _fill(self, force: bool = False) -> None:
        view = self.view
        if view is None:
            return
        show_pool = view.several_pools()
        scope = self.scope
        namespaces = view.claim_namespaces() if scope is None else frozenset({scope})
        # Narrow and one namespace: say the namespace once, in the title, not on every row.
        self.short_names = self.size.width < SHORT_NAMES_BELOW and len(namespaces) == 1
        base = text(self.lang, "claims")
        one = scope if scope is not None else next(iter(namespaces), "")
        self.set_title(f"{base} · ns {one}" if self.short_names or scope else base)
        needle = self.filter.lower()
        by_claim = self.flags.by_claim
        changed = None if force or needle else self._changed_claims(view, show_pool, by_claim)
        self._filled = (view, show_pool, self.short_names, by_claim, needle, scope)
        if changed is not None:
            if changed:
                self._patch_rows(view, changed, show_pool, by_claim)
            return
        rows = []
        for key in sorted(view.claims):
            if scope is not None and key[0] != scope:
                continue
            row = self._claim_row(view, view.claims[key], show_pool)
            warned = by_claim.get(key)
            flag = short(warned, self.lang) if warned else ""
            if needle and not any(needle in cell.lower() for cell in (*row, flag)):
                continue
            rows.append((key, row, flag))
        if len(self._rows_by_claim) > len(view.claims):  # forget deleted claims
            self._rows_by_claim = {k: v for k, v in self._rows_by_claim.items() if k in view.claims}
        if rows == self.rows and self.table.row_count == len(rows) and not force:
            return
        self.rows = rows
        self._keys = [key for key, _, _ in rows]
        self._widths = [Counter() for _ in COLUMNS]
        self._count_widths(rows, 1)
        self._fit_columns()
        self._update_rows(rows)
        if not rows and needle:
            self.set_subtitle(text(self.lang, "no-match", filter=self.filter))
        self._place_cursor()

    def _changed_claims(
        self, view: DraView, show_pool: bool, by_claim: Mapping[ClaimKey, object]
    ) -> frozenset[ClaimKey] | None:
        """The claims whose rows may differ from the last fill's, when only they can (None:
        fill every row). Rows of pending claims name the pods waiting, so those must be the
        same; the warnings, the pool column and the short names too."""
        last = self._filled
        if last is None or self.table.row_count != len(self.rows):
            return None
        before, pool_before, short_before, warned_before, needle_before, scope_before = last
        now = (show_pool, self.short_names, "", self.scope)
        if (pool_before, short_before, needle_before, scope_before) != now:
            return None
        if view._pods_by_claim is not before._pods_by_claim or by_claim != warned_before:
            return None
        return view.changed_keys(Kind.CLAIMS, before)

    def _patch_rows(
        self,
        view: DraView,
        changed: frozenset[ClaimKey],
        show_pool: bool,
        by_claim: Mapping[ClaimKey, Sequence[DraWarning]],
    ) -> None:
        """Only the changed claims' rows made again, put in place by key."""
        rows, keys = list(self.rows), list(self._keys)
        for key in sorted(changed):
            i = bisect_left(keys, key)
            if i < len(keys) and keys[i] == key:
                self._count_widths([rows[i]], -1)
                del rows[i], keys[i]
            claim = view.claims.get(key)
            if claim is None:
                self._rows_by_claim.pop(key, None)
                self._shown.pop(key, None)
                continue
            if self.scope is not None and key[0] != self.scope:
                continue
            warned = by_claim.get(key)
            entry = (
                key,
                self._claim_row(view, claim, show_pool),
                short(warned, self.lang) if warned else "",
            )
            rows.insert(i, entry)
            keys.insert(i, key)
            self._count_widths([entry], 1)
        if rows == self.rows:
            return
        self.rows, self._keys = rows, keys
        self._fit_columns()
        self._update_rows(rows, changed)
        self._place_cursor()

    def _count_widths(
        self, rows: Sequence[tuple[ClaimKey, tuple[str, str, str, str], str]], step: int
    ) -> None:
        """Add (step 1) or take away (step -1) these rows' widths from the column counts."""
        counts = self._widths
        for key, (name, state, devices, consumers), flag in rows:
            shown = len(key[1] if self.short_names else name) + (len(MARK) + 1 if flag else 0)
            # Terminal cells, not characters: "(기다리는 중)" is 11 cells, 6 characters.
            cells = (shown, cell_len(state), cell_len(devices), cell_len(consumers))
            for count, width in zip(counts, cells, strict=True):
                count[width] += step
                if count[width] <= 0:
                    del count[width]

    def _claim_row(self, view: DraView, claim: Claim, show_pool: bool) -> tuple[str, str, str, str]:
        """claim_row, kept while the claim is the same object (parsed objects are reused while
        the server's copy is unchanged): at 1,000 claims most of a repaint was rebuilding rows.
        A pending claim's row names the pods waiting for it, so it is always rebuilt."""
        kept = self._rows_by_claim.get(claim.key)
        if kept is not None and kept[0] is claim and kept[1] == show_pool and claim.reserved_for:
            return kept[2]
        row = claim_row(view, claim, show_pool, self.lang)
        self._rows_by_claim[claim.key] = (claim, show_pool, row)
        return row

    def _update_rows(
        self,
        rows: list[tuple[ClaimKey, tuple[str, str, str, str], str]],
        changed: frozenset[ClaimKey] | None = None,
    ) -> None:
        """Hand the table its rows, reusing the row of every claim whose line is unchanged
        (`changed`: only those claims' rows can differ from the last time)."""
        old_rows, short_names = self._shown, self.short_names
        shown_rows: dict[ClaimKey, _Shown] = old_rows if changed is not None else {}
        for key, cells, flag in rows if changed is None else self._rows_of(changed):
            old = old_rows.get(key)
            # The same row tuple (_claim_row keeps it while the claim is unchanged): no compare.
            if old is not None and old[0] is cells and old[1] == flag and old[2] == short_names:
                shown_rows[key] = old
                continue
            name, state, devices, consumers = cells
            shown = (key[1] if short_names else name, flag, state, devices, consumers)
            if old is not None and old[3] == shown:
                row = old[4]
            else:
                row = self._row(f"{key[0]}/{key[1]}", shown)
            shown_rows[key] = (cells, flag, short_names, shown, row)
        self._shown = shown_rows
        view = self.view
        if self.sort is None or view is None:
            self._order = self._keys
        else:
            self._order = order(self.rows, self.sort, view.claims)
        # In C (map, zip): at 25,000 claims these two walks were a third of the pane's repaint.
        self._position = dict(zip(self._order, range(len(self._order)), strict=True))
        self.table.set_rows(list(map(_ROW, map(shown_rows.__getitem__, self._order))))

    def _rows_of(
        self, keys: frozenset[ClaimKey]
    ) -> list[tuple[ClaimKey, tuple[str, str, str, str], str]]:
        out = []
        for key in keys:
            i = bisect_left(self._keys, key)
            if i < len(self._keys) and self._keys[i] == key:
                out.append(self.rows[i])
        return out

    def _fit_columns(self) -> None:
        """Size the columns to their text within the pane's width, on every fill and resize.

        DataTable's own auto widths are measured later (on idle) and its rendered cells are
        cached without them, so after a resize claim names stayed cut at the old width."""
        room = max(0, self.content_size.width - 2) - 2 * CELL_PADDING * len(COLUMNS)  # scrollbar
        if not self._keys and sum(self.table.widths) <= room:
            # No rows: the columns stay as the last rows had them, so the last claim going
            # and the next coming redraw two lines, not the whole table with its header.
            return
        self.table.set_widths(fit_widths(headers(COLUMNS, self.sort), self._widths, room))

    @staticmethod
    def _row(row_key: str, shown: tuple[str, ...]) -> TableRow:
        return TableRow(row_key, partial(row_cells, shown))

    def _place_cursor(self, announce: bool = True) -> None:
        """The cursor on the selected claim; when the table does not show it, on the first
        row shown, selected (and said with ClaimSelected when `announce`)."""
        at = self._position.get(self.selected) if self.selected is not None else None
        if at is None:
            first = self._order[0] if self._order else None
            if first == self.selected:
                return
            self.selected = first
            if announce:
                self.post_message(ClaimSelected(first))
            at = 0
        self.table.move_cursor(at)

    def select(self, key: ClaimKey | None) -> ClaimKey | None:
        """Select a claim from elsewhere (a device cell); the table follows without echoing.
        The claim selected is returned: the first row shown when this one is not."""
        self.selected = key
        self._place_cursor(announce=False)
        return self.selected

    def reveal(self, key: ClaimKey) -> bool:
        """Make the table show this claim: the `/` filter is cleared when it hides it. False
        when the namespace in effect hides it (the caller decides whether to switch)."""
        if self.shows(key):
            return True
        if self.scope is not None and key[0] != self.scope:
            return False
        if self.filter:
            self.filter = ""
            self.filter_box.value = ""
            self.filter_box.display = False
            self.set_subtitle("")
            self._fill()
        return self.shows(key)

    def set_scope(self, namespace: str | None) -> None:
        """Show only this namespace's claims (None: every namespace)."""
        if namespace != self.scope:
            self.scope = namespace
            self.set_subtitle("")
            if self.view is not None:
                self.show(self.view, self.flags)

    @on(ClaimTable.SortAsked)
    def _sort_asked(self, event: ClaimTable.SortAsked) -> None:
        event.stop()
        self.sort = next_sort(self.sort, event.column)
        self.table.set_headers(headers(COLUMNS, self.sort))
        self._fill(force=True)

    @on(ClaimTable.Highlighted)
    def _row_highlighted(self, event: ClaimTable.Highlighted) -> None:
        event.stop()
        namespace, _, name = event.key.partition("/")
        key = (namespace, name)
        if key != self.selected:
            self.selected = key
            self.post_message(ClaimSelected(key))

    # --- filter ----------------------------------------------------------------------

    def open_filter(self) -> None:
        box = self.filter_box
        box.display = True
        box.focus()

    @on(Input.Changed, "ClaimFilter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.filter = event.value.strip()
        self.set_subtitle("")
        self._fill()

    @on(Input.Submitted, "ClaimFilter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if not event.value.strip():
            self.filter_box.display = False
        # Enter picks the row under the cursor (the only one, with a single match).
        key = self.table.cursor_key
        if key is not None:
            namespace, _, name = key.partition("/")
            if (namespace, name) != self.selected:
                self.selected = (namespace, name)
                self.post_message(ClaimSelected(self.selected))
        self.table.focus()
