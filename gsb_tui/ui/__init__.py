"""The Textual app: the only layer that imports Textual or Rich."""

import os
from pathlib import Path

# Textual composes a changed screen on a timer of 1/TEXTUAL_FPS seconds, and a change waits
# for the timer's next tick: at its default of 60 that added 0-17 ms (median ~9 ms, measured
# headless at lab size) to every event's way to the screen, more than the repaint itself.
# Frames are still composed only when something changed, so a faster timer costs nothing
# while idle; repaints stay throttled by the App. A user's own TEXTUAL_FPS wins.
os.environ.setdefault("TEXTUAL_FPS", "240")


def stylesheet_path() -> Path:
    """gsb.tcss shipped in the wheel (gsb_tui/styles) or in a source checkout (styles/)."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "styles" / "gsb.tcss", package.parent / "styles" / "gsb.tcss"):
        if candidate.is_file():
            return candidate
    raise FileNotFoundError(
        f"gsb.tcss not found in {package / 'styles'} or {package.parent / 'styles'}"
    )
