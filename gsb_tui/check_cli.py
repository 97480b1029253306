"""`gsb-tui check`: the checklist once, headless; usable as the lab's verify script.

Exit 0 when every requested step is green, 1 when not, 2 when the cluster cannot be read.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from gsb_tui.kube.config import KubeconfigError, Target
from gsb_tui.kube.oneshot import Unreachable, begin_snapshot, fetch_snapshot
from gsb_tui.words import localize

EXIT_NOT_GREEN = 1
EXIT_UNREACHABLE = 2


def run_check(args: argparse.Namespace, target: Target, lang: str) -> int:
    source = begin_snapshot(target)  # the lists on their way while the judges import
    from gsb_tui.dra.view import build_view
    from gsb_tui.lab.findings import findings
    from gsb_tui.lab.report import evaluate, to_json, to_text

    try:
        snapshot = asyncio.run(fetch_snapshot(target, source=source))
    except (KubeconfigError, Unreachable) as exc:
        if args.json:
            print(json.dumps({"ok": False, "error": str(exc), "steps": []}, ensure_ascii=False))
        else:
            print(f"gsb-tui check: {localize(exc.text, lang)}", file=sys.stderr)
        return EXIT_UNREACHABLE

    view = build_view(snapshot)
    verdicts = evaluate(view, args.lab_dir, args.step)
    found = findings(view)  # lab-wide mistakes: shown, but they do not change the exit code
    ok = bool(verdicts) and all(v.ok for v in verdicts)
    if args.json:
        print(json.dumps(to_json(verdicts, lang, found), ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(to_text(verdicts, lang, findings=found))
    return 0 if ok else EXIT_NOT_GREEN
