"""Claim details: requests, results, reservedFor, owner pod, recent events and warnings of the
claim selected in the Claims pane or the grid."""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from gsb_tui.dra.view import DraView
from gsb_tui.dra.warnings import DraWarning
from gsb_tui.kube.source import SourceInfo
from gsb_tui.snapshot import Kind
from gsb_tui.ui.describe import claim_details
from gsb_tui.ui.panes.base import Pane, kind_notice
from gsb_tui.ui.text import text


class DetailsScroll(VerticalScroll):
    """Focusable, so the arrow keys scroll long event lists."""


class DetailsPane(Pane):
    title_key = "details"

    def __init__(self, info: SourceInfo, lang: str, *, id: str | None = None) -> None:
        super().__init__(info, lang, id=id)
        self.key: tuple[str, str] | None = None

    def compose(self) -> ComposeResult:
        yield from self.compose_notice()
        with DetailsScroll(classes="body"):
            yield Static("", classes="details-text")

    def on_mount(self) -> None:
        self.set_notice(text(self.lang, "connecting", server=self.info.server))

    def show(
        self,
        view: DraView,
        key: tuple[str, str] | None,
        warnings: Sequence[DraWarning] = (),
    ) -> None:
        self.key = key
        notice = kind_notice(
            view.snapshot, Kind.CLAIMS, self.info, self.lang, has_data=bool(view.claims)
        )
        claim = view.claims.get(key) if key is not None else None
        if notice is None and claim is None:
            notice = text(self.lang, "no-selection")
        self.set_notice(notice)
        if claim is not None:
            self.border_title = f"{text(self.lang, 'details')}: {claim.name}"
            self.query_one(".details-text", Static).update(claim_details(view, claim, warnings))
        else:
            self.border_title = text(self.lang, "details")
