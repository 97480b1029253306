"""The allocator's verdicts for one DraView: every pane and command asks here, so they give
one answer. Inputs are prepared once per view, each pod judged at most once per view.

`verdicts_of(view)` keeps the last view's Verdicts only, one per budget (a repaint asks many
times for the same view, a worker deciding off the frame asks with the scheduler's budget; a
new view starts afresh), so nothing outlives the view it describes.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from gsb_tui.dra.alloc.explain import Blocker, blockers
from gsb_tui.dra.alloc.from_view import inputs_of
from gsb_tui.dra.alloc.scheduler import BUDGET_S, Inputs, PodJudgement, judge_pod
from gsb_tui.dra.model import Claim, Pod
from gsb_tui.dra.view import DraView

UI_BUDGET_S = 0.3  # what one repaint may spend on a pod; past it the pane says "not decided"


@dataclass(frozen=True)
class PodVerdict:
    judgement: PodJudgement
    blockers: tuple[Blocker, ...]

    @property
    def fits(self) -> bool | None:
        return self.judgement.fits


class Verdicts:
    def __init__(self, view: DraView, budget_s: float = BUDGET_S, now: float | None = None) -> None:
        self.view = view
        self.budget_s = budget_s
        self.now = now  # binding timeouts are timed against it (None: the clock)
        self._inputs: Inputs | None = None
        self._pods: dict[tuple[str, str], PodVerdict] = {}

    @property
    def inputs(self) -> Inputs:
        if self._inputs is None:
            self._inputs = inputs_of(self.view)
        return self._inputs

    def judge(self, pod_obj: Any) -> PodVerdict:
        judgement = judge_pod(pod_obj, self.inputs, self.budget_s, now=self.now)
        found = () if judgement.fits else tuple(blockers(judgement, self.inputs))
        return PodVerdict(judgement, found)

    def pod(self, pod: Pod, decide: bool = True) -> PodVerdict | None:
        """The pod's verdict; None when it is not decided yet and `decide` is False (a
        repaint that must not wait: a worker decides, with `decide` True)."""
        found = self._pods.get(pod.key)
        if found is None and decide:
            found = self._pods[pod.key] = self.judge(pod.raw)
        return found

    def claim_alone(self, claim: Claim, decide: bool = True) -> PodVerdict | None:
        """Where a pod using only this claim would get its devices (a claim no pod uses yet);
        None as `pod` says."""
        key = (claim.namespace, f"\0claim {claim.name}")
        found = self._pods.get(key)
        if found is None and decide:
            probe = {
                "metadata": {"namespace": claim.namespace, "name": f"(pod of {claim.name})"},
                "spec": {"resourceClaims": [{"name": "claim", "resourceClaimName": claim.name}]},
            }
            found = self._pods[key] = self.judge(probe)
        return found

    def of_claim(self, claim: Claim, decide: bool = True) -> list[tuple[str, PodVerdict | None]]:
        """(pod name, verdict) for each pending pod of the claim, or ("", verdict of a pod using
        it alone) when none waits on a claim not allocated yet."""
        pending = [p for p in self.view.pods_of_claim(claim) if p.pending]
        if not pending and not claim.allocated and not claim.deleting:
            return [("", self.claim_alone(claim, decide))]
        return [(p.name, self.pod(p, decide)) for p in pending]


_last: dict[float, Verdicts] = {}  # by budget: the last view's, for a repaint and a worker
_lock = threading.Lock()


def verdicts_of(view: DraView, budget_s: float = UI_BUDGET_S, now: float | None = None) -> Verdicts:
    """The view's Verdicts for this budget (`now` is read when the view is first asked about:
    binding timeouts are minutes long, a view lives for a repaint)."""
    with _lock:
        found = _last.get(budget_s)
        if found is not None and found.view is view:
            return found
        made = _last[budget_s] = Verdicts(view, budget_s, now)
        return made
