"""Step 7, two.yaml: ResourceClaimTemplate two-gpus (ExactCount, count: 2 written out) and Pod
dra-2x using it; the generated claim must hold two distinct devices."""

from __future__ import annotations

from gsb_tui.dra.view import DraView
from gsb_tui.lab.checks.template_pod import TemplatePod, check_template_pod
from gsb_tui.lab.files import LabFiles
from gsb_tui.lab.verdict import Verdict

TWO_GPUS = TemplatePod(
    step=7,
    template="two-gpus",
    pod="dra-2x",
    count=2,
    explicit=True,
    template_hint="hint.s7_count",
    results_key="s7.results",
)


def check_two(view: DraView, files: LabFiles) -> Verdict:
    return check_template_pod(view, files, TWO_GPUS)
