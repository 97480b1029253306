"""The allocator's verdicts for one DraView: every pane and command asks here, so they give
one answer. Inputs are prepared once per view, each pod judged at most once per view.

No module state: an AllocatorSession, owned by whoever judges a stream of views (the details
pane), keeps the last view's Verdicts per budget and the slices as the allocator read them;
a one-shot command makes a Verdicts (or a session) of its own and drops it.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

from gsb_tui.dra.alloc.explain import Blocker, blockers
from gsb_tui.dra.alloc.from_view import ReadCache, inputs_of
from gsb_tui.dra.alloc.scheduler import BUDGET_S, Inputs, PodJudgement, judge_pod
from gsb_tui.dra.model import Claim, Pod
from gsb_tui.dra.view import DraView
from gsb_tui.snapshot import Kind

UI_BUDGET_S = 0.3  # what one repaint may spend on a pod; past it the pane says "not decided"


@dataclass(frozen=True)
class PodVerdict:
    judgement: PodJudgement
    blockers: tuple[Blocker, ...]

    @property
    def fits(self) -> bool | None:
        return self.judgement.fits


class Verdicts:
    def __init__(
        self,
        view: DraView,
        budget_s: float = BUDGET_S,
        now: float | None = None,
        session: AllocatorSession | None = None,
    ) -> None:
        self.view = view
        self.session = session  # whose read slices the inputs reuse (None: read afresh)
        self.budget_s = budget_s
        self.now = now  # binding timeouts are timed against it (None: the clock)
        self._inputs: Inputs | None = None
        # by pod key: the pod object judged (another object: judged again) and its verdict
        self._pods: dict[tuple[str, str], tuple[object, PodVerdict]] = {}
        self.parts: tuple[object, ...] = ()  # allocation_parts(view), set by a session
        self.made_at = time.monotonic()

    def rebased(self, view: DraView) -> Verdicts:
        """These verdicts for a newer view whose allocation parts are the same objects."""
        made = Verdicts(view, self.budget_s, self.now, self.session)
        made._inputs, made._pods, made.made_at = self._inputs, self._pods, self.made_at
        made.parts = self.parts
        return made

    @property
    def inputs(self) -> Inputs:
        if self._inputs is None:
            session = self.session
            self._inputs = session.inputs(self.view) if session else inputs_of(self.view)
        return self._inputs

    def judge(self, pod_obj: Any) -> PodVerdict:
        judgement = judge_pod(pod_obj, self.inputs, self.budget_s, now=self.now)
        found = () if judgement.fits else tuple(blockers(judgement, self.inputs))
        return PodVerdict(judgement, found)

    def pod(self, pod: Pod, decide: bool = True) -> PodVerdict | None:
        """The pod's verdict; None when it is not decided yet and `decide` is False (a
        repaint that must not wait: a worker decides, with `decide` True)."""
        kept = self._pods.get(pod.key)
        if kept is not None and kept[0] is pod.raw:
            return kept[1]
        if not decide:
            return None
        found = self.judge(pod.raw)
        self._pods[pod.key] = (pod.raw, found)
        return found

    def claim_alone(self, claim: Claim, decide: bool = True) -> PodVerdict | None:
        """Where a pod using only this claim would get its devices (a claim no pod uses yet);
        None as `pod` says."""
        key = (claim.namespace, f"\0claim {claim.name}")
        kept = self._pods.get(key)
        if kept is not None and kept[0] is claim.raw:
            return kept[1]
        if not decide:
            return None
        probe = {
            "metadata": {"namespace": claim.namespace, "name": f"(pod of {claim.name})"},
            "spec": {"resourceClaims": [{"name": "claim", "resourceClaimName": claim.name}]},
        }
        found = self.judge(probe)
        self._pods[key] = (claim.raw, found)
        return found

    def of_claim(self, claim: Claim, decide: bool = True) -> list[tuple[str, PodVerdict | None]]:
        """(pod name, verdict) for each pending pod of the claim, or ("", verdict of a pod using
        it alone) when none waits on a claim not allocated yet."""
        pending = [p for p in self.view.pods_of_claim(claim) if p.pending]
        if not pending and not claim.allocated and not claim.deleting:
            return [("", self.claim_alone(claim, decide))]
        return [(p.name, self.pod(p, decide)) for p in pending]


# How long verdicts carry over to newer views with the same allocation parts: binding
# conditions are timed against `now`, which must not age past a repaint or two.
CARRY_S = 10.0


def allocation_parts(view: DraView) -> tuple[object, ...]:
    """What the allocator's inputs are made of, by identity: the parsed slices (kept from view
    to view while unchanged), the taint rules, the claims', classes' and nodes' objects and the
    server's version. Events and pods are not among them (a pod is judged on its own)."""
    snap = view.snapshot
    return (
        tuple(map(id, view.slices)),
        tuple(map(id, view.stale_slices)),
        tuple(map(id, view.taint_rules)),
        *(tuple(map(id, snap.items(kind))) for kind in (Kind.CLAIMS, Kind.CLASSES, Kind.NODES)),
        snap.server_version,
    )


class AllocatorSession:
    """The allocator's state over a stream of views, owned by whoever judges them (the
    dashboard; a one-shot command makes one, or none): the slices as the allocator read them
    (kept while the view hands out the same parsed Slice) and the last view's Verdicts per
    budget (a repaint asks many times for one view; a worker deciding off the frame asks with
    the scheduler's budget). Nothing in it outlives the session."""

    def __init__(self) -> None:
        self.read: ReadCache = {}
        self._read_lock = threading.Lock()  # a worker reads slices; a repaint must not wait
        self._last: dict[float, Verdicts] = {}
        self._lock = threading.Lock()

    def inputs(self, view: DraView) -> Inputs:
        return inputs_of(view, self.read, self._read_lock)

    def verdicts(
        self, view: DraView, budget_s: float = UI_BUDGET_S, now: float | None = None
    ) -> Verdicts:
        """The view's Verdicts for this budget (`now` is read when the view is first asked
        about: binding timeouts are minutes long, a view lives for a repaint). A newer view
        whose allocation parts are the very objects of the last one's gets its verdicts for
        CARRY_S: at scale an event a second would otherwise re-judge a pending pod each time.
        The last Verdicts keeps its view, so no compared id can belong to
        a new object."""
        with self._lock:
            found = self._last.get(budget_s)
            if found is not None and found.view is view:
                return found
            parts = allocation_parts(view)
            if (
                found is not None
                and time.monotonic() - found.made_at < CARRY_S
                and found.parts == parts
            ):
                made = found.rebased(view)
            else:
                made = Verdicts(view, budget_s, now, session=self)
                made.parts = parts
            self._last[budget_s] = made
            return made
