"""The CLI's entry into the dashboard: run it, return an exit code, never show a traceback."""

from __future__ import annotations

import sys
from pathlib import Path

from gsb_tui.kube.source import ChangeSource


def run_dashboard(source: ChangeSource, lab_dir: Path, lang: str) -> int:
    """Run the dashboard until the user quits. 0 on a normal exit, 1 if it could not run."""
    try:
        from gsb_tui.config import config_path
        from gsb_tui.ui.app import GsbApp

        app = GsbApp(source, lab_dir, lang, config_file=config_path())
    except Exception as exc:  # e.g. the stylesheet missing from a broken install
        print(f"gsb-tui: cannot start the dashboard: {exc}", file=sys.stderr)
        return 1
    try:
        result = app.run()
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        print(f"gsb-tui: the dashboard stopped: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    if app.crash_line:
        print(app.crash_line, file=sys.stderr)
    if app.return_code not in (None, 0):
        return int(app.return_code or 1)
    return int(result or 0)
