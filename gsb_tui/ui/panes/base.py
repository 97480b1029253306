"""What every pane shares: a bordered box that shows either its content or one notice.

The notice is how the waiting states reach the learner ("connecting to …", "forbidden (RBAC):
…", "waiting for a DRA driver to publish devices") instead of an empty table.
"""

from __future__ import annotations

from functools import cached_property

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.geometry import Region
from textual.widgets import Static

from gsb_tui.kube.source import SourceInfo
from gsb_tui.snapshot import Kind, KindState, Snapshot
from gsb_tui.ui.panes.header import phase_text
from gsb_tui.words import text


def kind_notice(
    snapshot: Snapshot | None, kind: Kind, info: SourceInfo, lang: str, has_data: bool
) -> str | None:
    """The waiting-state text a pane fed by `kind` must show, or None to show its data.

    Data that is there is shown even while the watch reconnects (the subtitle says so); a kind
    the user may not read says so plainly, and the other panes go on working.
    """
    state = snapshot.state(kind) if snapshot is not None else KindState()
    if state.phase == "forbidden":
        return text(lang, "forbidden", message=state.message or kind.value)
    if state.phase == "not-served":
        return text(lang, "not-served", message=state.message or kind.value)
    if has_data:
        return None
    if state.phase in ("error", "reconnecting"):
        return failure_text(lang, info, state)
    if state.phase == "connecting":
        return text(lang, "connecting", server=info.server)
    return None


def failure_text(lang: str, info: SourceInfo, state: KindState) -> str:
    """A watch that fails: "reconnecting" retries a server it cannot reach; "error" is a
    problem retrying will not fix by itself (no kubeconfig, bad credentials), said as is."""
    if state.phase == "reconnecting":
        return text(
            lang,
            "unreachable",
            server=info.server,
            message=state.message or state.phase,
            attempts=max(1, state.attempts),
        )
    return text(lang, "error", message=state.message or state.phase)


def stale_note(snapshot: Snapshot | None, kind: Kind, lang: str = "en") -> str:
    """A subtitle for a pane whose data may be out of date while its watch recovers."""
    if snapshot is None or not snapshot.objects.get(kind):
        return ""
    state = snapshot.state(kind)
    if state.phase in ("reconnecting", "error"):
        return text(lang, "last-known", kind=kind.value, phase=phase_text(state, lang))
    return ""


class Pane(Vertical):
    """A titled pane with a notice line that replaces its body while there is nothing to show."""

    title_key = ""

    def __init__(self, info: SourceInfo, lang: str, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="pane")
        self.info = info
        self.lang = lang
        self.border_title = text(lang, self.title_key) if self.title_key else ""
        self._notice: str | None = None  # what set_notice showed last (None: never called)

    def compose_notice(self) -> ComposeResult:
        yield Static("", classes="notice")

    @cached_property
    def notice(self) -> Static:
        """The notice line (looked up once: query_one walks the DOM at every call)."""
        return self.query_one(".notice", Static)

    @property
    def notice_text(self) -> str:
        notice = self.notice
        return str(notice.content) if notice.display else ""

    def set_title(self, title: str) -> None:
        """A new title redraws the top border line only. Textual's `border_title` setter
        refreshes the whole pane, even to the same text: every line of a bordered pane drawn
        again for a title."""
        if self.border_title == title:
            return
        if not self.size:  # not laid out yet: nothing on screen to keep
            self.border_title = title
            return
        # The same conversion as the setter's; stored where the border is drawn from.
        self._border_title = self.render_str(title).expand_tabs(4).split()[0]
        # refresh() regions are in content coordinates: the top border is above them.
        left, top = self.content_offset
        self.refresh(Region(-left, -top, self.outer_size.width, 1))

    def set_subtitle(self, subtitle: str) -> None:
        if (self.border_subtitle or "") != subtitle:
            self.border_subtitle = subtitle

    def set_notice(self, message: str | None) -> None:
        """Show `message` instead of the body (None: show the body)."""
        message = message or ""
        if self._notice == message:
            return  # unchanged: touching display or content would re-layout the pane
        self._notice = message
        notice = self.notice
        notice.update(message)
        notice.display = bool(message)
        for child in self.query_children(".body"):
            child.display = not message
