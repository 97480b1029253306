"""One check per lab step: (DraView, LabFiles) -> Verdict.

Sub-checks run file first, cluster second, so the first failing one is the earliest thing the
learner should fix. Expected values are read from the view (driver, device count, node, model,
served selector, generated claim, allocated device, ledger); the lab's object names and namespace
are the only fixed words, as the lab text gives them to the learner.

One module per step (step1 … step8); steps 3 and 7 share template_pod, and common holds what the
answer-file and manifest steps share.
"""

from __future__ import annotations

from collections.abc import Callable

from gsb_tui.dra.view import DraView
from gsb_tui.lab.checks.step1 import check_slices
from gsb_tui.lab.checks.step2 import check_class
from gsb_tui.lab.checks.step3 import check_one
from gsb_tui.lab.checks.step4 import check_claim
from gsb_tui.lab.checks.step5 import check_pick
from gsb_tui.lab.checks.step6 import check_shared
from gsb_tui.lab.checks.step7 import check_two
from gsb_tui.lab.checks.step8 import check_report
from gsb_tui.lab.files import LabFiles
from gsb_tui.lab.verdict import Verdict

CheckFn = Callable[[DraView, LabFiles], Verdict]

CHECKS: dict[int, CheckFn] = {
    1: check_slices,
    2: check_class,
    3: check_one,
    4: check_claim,
    5: check_pick,
    6: check_shared,
    7: check_two,
    8: check_report,
}

__all__ = [
    "CHECKS",
    "CheckFn",
    "check_claim",
    "check_class",
    "check_one",
    "check_pick",
    "check_report",
    "check_shared",
    "check_slices",
    "check_two",
]
