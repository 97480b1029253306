"""The DRA lab checklist: eight steps as data, one pure check per step, and their rendering.

Pure like dra/: the only I/O is reading the learner's answer files (never writing them).
"""

from gsb_tui.lab.checks import CHECKS
from gsb_tui.lab.files import LabFiles
from gsb_tui.lab.findings import Finding, findings
from gsb_tui.lab.report import evaluate, to_json, to_text
from gsb_tui.lab.steps import STEPS, Step, example_for, example_text, step
from gsb_tui.lab.verdict import STATUSES, Status, SubCheck, Verdict

__all__ = [
    "CHECKS",
    "STATUSES",
    "STEPS",
    "Finding",
    "LabFiles",
    "Status",
    "Step",
    "SubCheck",
    "Verdict",
    "evaluate",
    "example_for",
    "example_text",
    "findings",
    "step",
    "to_json",
    "to_text",
]
