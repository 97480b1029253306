"""The allocator's verdicts for one DraView: every pane and command asks here, so they give
one answer. Inputs are prepared once per view, each pod judged at most once per view.

`verdicts_of(view)` keeps the last view's Verdicts only (a repaint asks many times for the
same view; a new view starts afresh), so nothing outlives the view it describes.
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

    def pod(self, pod: Pod) -> PodVerdict:
        found = self._pods.get(pod.key)
        if found is None:
            found = self._pods[pod.key] = self.judge(pod.raw)
        return found

    def claim_alone(self, claim: Claim) -> PodVerdict:
        """Where a pod using only this claim would get its devices (a claim no pod uses yet)."""
        key = (claim.namespace, f"\0claim {claim.name}")
        found = self._pods.get(key)
        if found is None:
            probe = {
                "metadata": {"namespace": claim.namespace, "name": f"(pod of {claim.name})"},
                "spec": {"resourceClaims": [{"name": "claim", "resourceClaimName": claim.name}]},
            }
            found = self._pods[key] = self.judge(probe)
        return found


_last: list[Verdicts] = []
_lock = threading.Lock()


def verdicts_of(view: DraView, budget_s: float = UI_BUDGET_S, now: float | None = None) -> Verdicts:
    """The view's Verdicts (`now` is read when the view is first asked about: binding
    timeouts are minutes long, a view lives for a repaint)."""
    with _lock:
        if _last and _last[0].view is view and _last[0].budget_s == budget_s:
            return _last[0]
        made = Verdicts(view, budget_s, now)
        _last[:] = [made]
        return made
