"""Claim details, the answer first: why a pending claim waits (the allocator's verdict and its
blockers), then what it holds and for whom, warnings, its requests with the CEL preview of each
(which devices the class and selectors admit, which of those are free: one line a group, its
count first, until `e` lists every device), and recent events of the claim selected in the
Claims pane or the grid. Another claim selected starts at the top. While a result waits on
binding conditions, the pane redraws every second: the scheduler's time runs out. On a large
cluster the verdict is decided in a worker (a pod is judged on every node: ~0.4 s at 10,000
devices) and the pane says "deciding" until it has it: selection keys never wait for it."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property, partial
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.timer import Timer
from textual.widgets import Static

from gsb_tui.dra.alloc.verdicts import AllocatorSession
from gsb_tui.dra.model import Claim
from gsb_tui.dra.model import malformed as bad_fields
from gsb_tui.dra.view import DraView
from gsb_tui.dra.warnings import DraWarning
from gsb_tui.kube.source import SourceInfo
from gsb_tui.snapshot import Kind
from gsb_tui.ui.panes.base import Pane, kind_notice
from gsb_tui.ui.render.describe import POD_WARNINGS, claim_details, pod_warnings_text
from gsb_tui.ui.render.explain import DEFAULT_WIDTH, WORKER_BUDGET_S, ClaimPreview, claim_preview
from gsb_tui.words import text


class DetailsScroll(VerticalScroll):
    """Focusable, so the arrow keys, PageUp/PageDown and Home/End scroll the details (the
    container's own keys; named here so `?` lists them and a keymap can move them)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "e",
            "unfold",
            "Device lists",
            tooltip="List every device of each group, or fold the lists to counts",
            id="gsb.details.unfold",
        ),
        Binding("pageup", "page_up", "Page up", show=False, id="gsb.details.pageup"),
        Binding("pagedown", "page_down", "Page down", show=False, id="gsb.details.pagedown"),
        Binding("home", "scroll_home", "Top", show=False, id="gsb.details.home"),
        Binding("end", "scroll_end", "Bottom", show=False, id="gsb.details.end"),
    ]

    def action_unfold(self) -> None:
        pane = self.parent
        if isinstance(pane, DetailsPane):
            pane.toggle_unfolded()


class DetailsPane(Pane):
    title_key = "details"
    # Up to this many devices a verdict takes milliseconds: decided while drawing, no flicker.
    inline_devices: ClassVar[int] = 2_000

    def __init__(self, info: SourceInfo, lang: str, *, id: str | None = None) -> None:
        super().__init__(info, lang, id=id)
        self.key: tuple[str, str] | None = None
        self.view: DraView | None = None
        self.warnings: Sequence[DraWarning] = ()
        # The preview of the claim on screen, for (view, claim): recomputed only when either
        # changes (or the CEL library finishes loading), never on a mere repaint or resize.
        self.preview: ClaimPreview | None = None
        self._preview_view: DraView | None = None  # compared by identity
        self._preview_key: tuple[str, str] | None = None
        self._width = 0
        self._shown: tuple[object, ...] = ()  # the body's text and styles, to skip a redraw
        self._body_lines = 0  # lines of the body's text, wrapped
        self._tick: Timer | None = None  # counts a binding's seconds down while one waits
        self.unfolded = False  # every device of each group listed (`e`), not only counts
        self.folded = False  # the claim on screen has device names not shown
        self._deciding: tuple[DraView, tuple[str, str]] | None = None  # a worker's (view, claim)
        # The pane's own allocator state: its verdicts carry over views, its worker fills them.
        self.allocator = AllocatorSession()

    def compose(self) -> ComposeResult:
        yield from self.compose_notice()
        with DetailsScroll(classes="body"):
            yield Static("", classes="details-text")

    def on_mount(self) -> None:
        self.set_notice(text(self.lang, "connecting", server=self.info.server))

    @cached_property
    def body(self) -> Static:
        return self.query_one(".details-text", Static)

    @cached_property
    def scroll(self) -> DetailsScroll:
        return self.query_one(DetailsScroll)

    @property
    def previewed(self) -> bool:
        """The claim on screen has its selector preview (or there is no claim to preview)."""
        if self.view is None or self.key not in self.view.claims:
            return True
        return self.preview is not None and not self.preview.note

    def text_width(self) -> int:
        """Columns the details text may use (the scrollbar and padding kept free)."""
        width = self.content_size.width - 2
        return width if width >= 20 else DEFAULT_WIDTH

    def show(
        self,
        view: DraView,
        key: tuple[str, str] | None,
        warnings: Sequence[DraWarning] = (),
    ) -> None:
        if key != self.key and self.size:
            # Another claim: its answer is at the top, where the eye starts.
            self.scroll.scroll_home(animate=False, immediate=True)
        self.key = key
        self.view = view
        self.warnings = warnings
        self._redraw()

    def toggle_unfolded(self) -> None:
        self.unfolded = not self.unfolded
        self._redraw()

    def refresh_preview(self) -> None:
        """The CEL library is ready: compute what could not be computed before."""
        self._preview_view = None
        self._redraw()

    def on_resize(self) -> None:
        if self.view is not None and self.text_width() != self._width:
            self._redraw()

    def _redraw(self) -> None:
        view, key = self.view, self.key
        if view is None:
            return
        notice = kind_notice(
            view.snapshot, Kind.CLAIMS, self.info, self.lang, has_data=bool(view.claims)
        )
        claim = view.claims.get(key) if key is not None else None
        self._width = self.text_width()
        if claim is not None and key is not None:
            stale = self._preview_view is not view or self._preview_key != key
            if stale and self._preview_key == key and self._preview_view is not None:
                # Another view, the same claim and devices: at 10,000 devices the preview
                # costs more than the rest of the repaint; keep it.
                old = self._preview_view.claims.get(key)
                stale = old is not claim or not same_devices(self._preview_view, view)
                self._preview_view = view if not stale else self._preview_view
            if stale or self.preview is None or self.preview.note:
                self.preview = claim_preview(view, claim, self.lang)
                self._preview_view, self._preview_key = view, key
            self.set_notice(notice)
            self.set_title(f"{text(self.lang, 'details')}: {claim.name}")
            folded: list[bool] = []
            deciding: list[bool] | None = [] if len(view.devices) > self.inline_devices else None
            details = claim_details(
                view,
                claim,
                self.warnings,
                preview=self.preview,
                width=self._width,
                lang=self.lang,
                unfolded=self.unfolded,
                folded=folded,
                deciding=deciding,
                allocator=self.allocator,
            )
            if deciding:
                self._decide(view, claim)
            self.folded = bool(folded)
            self._show_fold_key()
            self._update_body(with_malformed(view, claim, details, self.lang))
            self._count_down(_binding_waits(view, claim))
            return
        self._count_down(False)
        self.folded = False
        self._show_fold_key()
        self.preview = None
        self._preview_view = self._preview_key = None
        self.set_title(text(self.lang, "details"))
        pod_problems = [w for w in self.warnings if w.code in POD_WARNINGS]
        if notice is None and pod_problems:
            # No claim to select, but a pod names a claim or template that does not exist.
            self.set_notice(None)
            self._update_body(pod_warnings_text(pod_problems, self._width, self.lang))
            return
        # "Nothing selected" is said in the body, as a claim's details are: the first claim
        # coming and the last going then change text only, not which widget shows.
        self.set_notice(notice)
        self._update_body(Text(text(self.lang, "no-selection"), style="italic dim"))

    def _decide(self, view: DraView, claim: Claim) -> None:
        """Judge the claim's pending pods off the frame; drawn again when decided."""
        if self._deciding == (view, claim.key):
            return  # already on its way
        self._deciding = (view, claim.key)
        self.run_worker(
            partial(self._decided, view, claim),
            thread=True,
            group="verdict",
            exit_on_error=False,
            description="why pending",
        )

    def _decided(self, view: DraView, claim: Claim) -> None:
        """In the worker: the verdicts are kept by the view's Verdicts, where the next
        repaint of the same view finds them."""
        try:
            self.allocator.verdicts(view, WORKER_BUDGET_S).of_claim(claim)
        finally:
            self.app.call_from_thread(self._redraw_if, view)

    def _redraw_if(self, view: DraView) -> None:
        self._deciding = None
        if self.view is view:
            self._redraw()

    def _show_fold_key(self) -> None:
        """The subtitle says what `e` does, while it would do something."""
        if self.unfolded:
            self.set_subtitle(text(self.lang, "details.fold"))
        else:
            self.set_subtitle(text(self.lang, "details.unfold") if self.folded else "")

    def _count_down(self, waiting: bool) -> None:
        if waiting and self._tick is None:
            self._tick = self.set_interval(1.0, self._redraw)
        elif not waiting and self._tick is not None:
            self._tick.stop()
            self._tick = None

    def _update_body(self, content: Text) -> None:
        """Update only when the text or its styles changed: an update re-renders the pane.
        The body is at least as tall as the pane (styles: min-height), so while the old and
        the new text both fit, its size stays and the screen is not laid out again; one line
        of room is kept for wrapping that differs."""
        shown = (content.plain, tuple(content.spans), content.style)
        if shown == self._shown:
            return
        self._shown = shown
        body = self.body
        width = body.content_region.width or self._width
        lines = len(content.wrap(self.app.console, max(1, width)))
        room = self.scroll.scrollable_content_region.height
        fits = lines < room and self._body_lines < room and body.size.height == room
        self._body_lines = lines
        body.update(content, layout=not fits)


def same_devices(old: DraView, new: DraView) -> bool:
    """What a claim's preview reads of a view besides the claim (its devices, classes,
    occupancy and availability) is the same: unchanged entries are the very same objects
    (dra/view.py reuses them from build to build), so this is mostly identity checks."""
    if old.occupancy is new.occupancy and old.availability is new.availability:
        return old.devices is new.devices and old.classes is new.classes
    if old.devices != new.devices or old.classes != new.classes:
        return False
    if old.availability != new.availability or len(old.occupancy) != len(new.occupancy):
        return False
    before = old.occupancy
    return all(before.get(d) is occ for d, occ in new.occupancy.items())


def with_malformed(view: DraView, claim: Claim, details: Text, lang: str) -> Text:
    """The details under a line for the claim and each of its pods that has a field of the
    wrong type (dra/model/malformed.py): kept, read with the field absent, said first."""
    said = bad_fields.said(claim, lang)
    said += [line for pod in view.pods_of_claim(claim) for line in bad_fields.said(pod, lang)]
    if not said:
        return details
    lines = [Text(line, style="bold red") for line in said]
    lines.append(Text(text(lang, "malformed.read-as"), style="dim italic"))
    return Text("\n").join([*lines, details])


def _binding_waits(view: DraView, claim: Claim) -> bool:
    """A result of the claim waits on binding conditions (dra/availability.py decides)."""
    for result in claim.results:
        found = view.availability.get(result.id) if result.binding_conditions else None
        if found is not None and found.binding_pending:
            return True
    return False
