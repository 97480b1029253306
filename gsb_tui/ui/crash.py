"""Where an unhandled error's traceback goes: the crash log (the App writes it, run.py prints
the one line that says where)."""

from __future__ import annotations

import os
import time
import traceback
from pathlib import Path


def write_crash_log(error: BaseException | None) -> str:
    """Append the traceback to $XDG_STATE_HOME/gsb-tui/crash.log; return where it went."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    path = Path(base) / "gsb-tui" / "crash.log"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8") as fh:
            fh.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')}\n")
            if error is not None:
                fh.write("".join(traceback.format_exception(error)))
        return str(path)
    except OSError as exc:
        return f"(nowhere: {path} not writable: {exc.strerror})"
