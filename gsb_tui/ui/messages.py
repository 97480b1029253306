"""Messages of the dashboard, in the order they flow.

StoreChanged (worker -> App, coalescing) -> the App rebuilds the DraView and hands it to the
dashboard -> panes post ClaimSelected / DeviceSelected when the user picks something, and the
dashboard keeps the other panes in step; TextWanted / LedgerListWanted when a pane wants a
screen (the dashboard pushes it: panes do not know screens).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.message import Message

from gsb_tui.dra.model import DeviceId
from gsb_tui.dra.node_summary import Category
from gsb_tui.dra.view import DraView

if TYPE_CHECKING:  # the lab is imported on first use, off the path to the first frame
    from gsb_tui.lab.verdict import Verdict


class StoreChanged(Message):
    """The store holds something new. A burst collapses into one queued message."""

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, StoreChanged)


class SourceProblem(Message):
    """The change source stopped with an error (or recovered: message == "")."""

    def __init__(self, message: str, retry_in: float = 0.0) -> None:
        super().__init__()
        self.message = message
        self.retry_in = retry_in

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, SourceProblem)


class SourceFinished(Message):
    """A finite source (a replay) has emitted everything it had."""


class LabFilesChanged(Message):
    """Something under the lab directory changed; the checklist must be evaluated again."""

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, LabFilesChanged)


class VerdictsReady(Message):
    """The lab checks' verdicts for one view (None: the lab package is not ready)."""

    def __init__(
        self, verdicts: list[Verdict] | None, error: str = "", view: DraView | None = None
    ) -> None:
        super().__init__()
        self.verdicts = verdicts
        self.error = error
        self.view = view  # the DraView they judge

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, VerdictsReady)


class ClaimSelected(Message):
    """The user picked a claim (in the Claims table)."""

    def __init__(self, key: tuple[str, str] | None) -> None:
        super().__init__()
        self.key = key


class DeviceSelected(Message):
    """The user picked a device cell in the grid."""

    def __init__(self, device: DeviceId) -> None:
        super().__init__()
        self.device = device


class CelWanted(Message):
    """A screen needs the CEL library (the selector tool opened before the first repaint)."""


class CelReady(Message):
    """The CEL library is loaded (or failed to load): previews can be computed now."""


class TextWanted(Message):
    """A pane wants a text shown in the text viewer (the dashboard pushes the screen)."""

    def __init__(self, title: str, body: str, syntax: str = "", copy_name: str = "") -> None:
        super().__init__()
        self.title, self.body, self.syntax, self.copy_name = title, body, syntax, copy_name


class LedgerListWanted(Message):
    """The grid wants the devices behind a ledger count listed; the device chosen there (or
    None) goes to `chosen`."""

    def __init__(
        self, view: DraView, category: Category, chosen: Callable[[DeviceId | None], None]
    ) -> None:
        super().__init__()
        self.view, self.category, self.chosen = view, category, chosen
