"""`gsb-tui check`: the checklist once, headless; usable as the lab's verify script.

Exit 0 when every requested step is green, 1 when not, 2 when the cluster cannot be read. An
object with a field of the wrong type is judged with that field absent and named in a finding.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import TYPE_CHECKING

from gsb_tui.kube.config import KubeconfigError, Target
from gsb_tui.kube.oneshot import Unreachable, begin_snapshot, fetch_snapshot
from gsb_tui.snapshot import Kind
from gsb_tui.words import localize, t

if TYPE_CHECKING:
    from gsb_tui.dra.view import DraView
    from gsb_tui.lab.findings import Finding

EXIT_NOT_GREEN = 1
EXIT_UNREACHABLE = 2
# The step that teaches each kind (a malformed object's finding names it; 0: none does).
STEP_OF = {Kind.SLICES: 1, Kind.CLASSES: 2, Kind.TEMPLATES: 3, Kind.PODS: 3, Kind.CLAIMS: 4}


def malformed_findings(view: DraView) -> tuple[Finding, ...]:
    """One finding per object with a field of the wrong type (kept, read with it absent):
    "! ResourceSlice x: malformed: spec.pool.generation: expected an integer, …"."""
    from gsb_tui.dra.model.malformed import words
    from gsb_tui.lab.findings import Finding

    return tuple(
        Finding(
            "malformed",
            f"{m.object_kind} {m.ref}",
            STEP_OF.get(m.kind, 0),
            words(m),
            t("malformed.hint"),
        )
        for m in view.malformed()
    )


def run_check(args: argparse.Namespace, target: Target, lang: str) -> int:
    source = begin_snapshot(target)  # the lists on their way while the judges import
    from gsb_tui.dra.builder import build_view
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
    # lab-wide mistakes and malformed objects: shown, but they do not change the exit code
    found = (*findings(view), *malformed_findings(view))
    ok = bool(verdicts) and all(v.ok for v in verdicts)
    if args.json:
        print(json.dumps(to_json(verdicts, lang, found), ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(to_text(verdicts, lang, findings=found))
    return 0 if ok else EXIT_NOT_GREEN
