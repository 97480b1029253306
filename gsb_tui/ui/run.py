"""The CLI's entry into the dashboard: run it, return an exit code, never show a traceback
(an unhandled error is one line on stderr, its traceback goes to the crash log)."""

from __future__ import annotations

import os
import sys
import time
import traceback
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
    finally:
        from gsb_tui.kube.exec_plugin import reap_all

        reap_all()  # q, Ctrl-C or a crash: no credential plugin is left running
    if app.crash_line:
        print(app.crash_line, file=sys.stderr)
    if app.return_code not in (None, 0):
        return int(app.return_code or 1)
    return int(result or 0)


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
