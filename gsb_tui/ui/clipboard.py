"""Copying text out of the dashboard, honestly.

Three channels, each reported as it really went:
- OSC 52 through the terminal (`App.copy_to_clipboard`): always sent, never confirmable (many
  terminals ignore it), so the notification says "sent", not "copied".
- the native clipboard through pyperclip: best effort; it fails without DISPLAY/WAYLAND_DISPLAY
  (SSH, headless lab VMs), and it counts as copied only when reading it back gives the text.
- a file under $XDG_DATA_HOME/gsb-tui/examples (default ~/.local/share/...): always written,
  never into the lab directory, so a learner's answer files are not touched.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def examples_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "gsb-tui" / "examples"


def _safe_name(name: str) -> str:
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")
    return cleaned or "example"


@dataclass(frozen=True)
class CopyReport:
    osc52_sent: bool
    native: str  # "copied" (read back and equal), "unconfirmed", or why it failed
    saved_to: Path | None
    save_error: str = ""

    def summary(self) -> str:
        parts = []
        if self.saved_to is not None:
            parts.append(f"saved to {self.saved_to}")
        else:
            parts.append(f"NOT saved ({self.save_error})")
        if self.native == "copied":
            parts.append("copied to the system clipboard")
        else:
            parts.append(f"system clipboard: {self.native}")
        if self.osc52_sent:
            parts.append("sent to the terminal clipboard (OSC 52; works only if it allows it)")
        else:
            parts.append("OSC 52 not sent (no terminal)")
        return "; ".join(parts)


def _native_copy(text: str) -> str:
    try:
        import pyperclip

        pyperclip.copy(text)
        back: Any = pyperclip.paste()
    except Exception as exc:  # pyperclip raises its own exception types, or OSError
        if type(exc).__name__ == "PyperclipException" and "could not find" in str(exc):
            # The usual case over SSH or in a VM console: no X or Wayland display.
            return "none here (no X or Wayland display)"
        first_line = (str(exc).splitlines() or [""])[0][:80]
        return f"unavailable ({exc.__class__.__name__}: {first_line})"
    return "copied" if back == text else "unconfirmed"


def save_text(text: str, name: str, directory: Path | None = None) -> Path:
    directory = directory or examples_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / _safe_name(name)
    path.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
    return path


def copy_text(app: Any, text: str, name: str, *, notify: bool = True) -> CopyReport:
    """Copy `text` by every channel, save it as `name` under examples_dir(), and tell the user.

    `app` is the running Textual App (typed loosely so this module stays cheap to import).
    """
    osc52 = getattr(app, "_driver", None) is not None
    app.copy_to_clipboard(text)
    native = _native_copy(text)
    saved: Path | None = None
    error = ""
    try:
        saved = save_text(text, name)
    except OSError as exc:
        error = exc.strerror or str(exc)
    report = CopyReport(osc52_sent=osc52, native=native, saved_to=saved, save_error=error)
    if notify:
        app.notify(
            report.summary(),
            title="copy",
            severity="information" if saved is not None else "warning",
            timeout=8,
        )
    return report
