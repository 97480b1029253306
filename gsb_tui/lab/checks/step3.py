"""Step 3, one.yaml: ResourceClaimTemplate one-gpu (one device) and Pod dra-1 using it."""

from __future__ import annotations

from gsb_tui.dra.view import DraView
from gsb_tui.lab.checks.template_pod import TemplatePod, check_template_pod
from gsb_tui.lab.files import LabFiles
from gsb_tui.lab.verdict import Verdict

ONE_GPU = TemplatePod(step=3, template="one-gpu", pod="dra-1", count=1)


def check_one(view: DraView, files: LabFiles) -> Verdict:
    return check_template_pod(view, files, ONE_GPU)
