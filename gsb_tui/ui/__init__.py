"""The Textual app: the only layer that imports Textual or Rich."""

import os
from pathlib import Path

# Textual composes a changed screen on a timer of 1/TEXTUAL_FPS seconds, and a change waits
# for the timer's next tick: at its default of 60 that added a wait of up to a tick to every
# event's way to the screen (docs/PERFORMANCE.md). Frames are still composed only when
# something changed, so a faster timer costs nothing while idle; repaints stay throttled by
# the App.
FRAME_RATE = "240"


def ask_frame_rate() -> None:
    """Ask Textual for FRAME_RATE ticks a second (a user's own TEXTUAL_FPS wins). Textual reads
    it once, when textual.constants is first imported: call this before importing Textual
    (run.make_app does, and so do the benchmarks that start the App)."""
    os.environ.setdefault("TEXTUAL_FPS", FRAME_RATE)


def stylesheet_path() -> Path:
    """gsb.tcss shipped in the wheel (gsb_tui/styles) or in a source checkout (styles/)."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "styles" / "gsb.tcss", package.parent / "styles" / "gsb.tcss"):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(
        f"gsb.tcss not found in {package / 'styles'} or {package.parent / 'styles'}"
    )
