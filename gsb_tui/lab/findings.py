"""Lab-wide findings: the common mistakes as the cluster shows them on any pod of the lab
namespace, not only on the pods a step names (a learner's experiment pod counts too).

They are reported beside the step verdicts, not inside them: a stray pod with the mistake does
not undo a step the learner finished, but it should not go unremarked either.
"""

from __future__ import annotations

from dataclasses import dataclass

from gsb_tui.dra.view import DraView
from gsb_tui.lab.steps import LAB_NAMESPACE
from gsb_tui.snapshot import Kind
from gsb_tui.words import Text, t


@dataclass(frozen=True)
class Finding:
    code: str  # "no-container-claim"
    subject: str  # "dra-lab/no-claim-ref"
    step: int  # the step that teaches the point
    reason: Text
    hint: Text


def findings(view: DraView) -> tuple[Finding, ...]:
    """Common mistake 1 on every pod of the lab namespace (once Pods are synced)."""
    if not view.snapshot.state(Kind.PODS).usable:
        return ()
    out = []
    for (namespace, name), pod in sorted(view.pods.items()):
        if namespace != LAB_NAMESPACE or pod.deleting:
            continue
        for entry in pod.unlisted_entries:  # the mistake as dra/ finds it (Pod.unlisted_entries)
            problem = t("mistake.no_container_claim", pod=pod.name, entry=entry.name)
            hint = t("hint.container_claim_live", pod=name, entry=entry.name)
            out.append(Finding("no-container-claim", f"{namespace}/{name}", 3, problem, hint))
    return tuple(out)
