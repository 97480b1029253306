"""What the checks read from the cluster: the lab's driver and class, pods, claims and the
scheduler's own words. Every expected value comes from the DraView, never from a constant."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from gsb_tui.dra.model import Claim, Device, DeviceClass, Pod, PodClaim, Request
from gsb_tui.dra.view import DraView
from gsb_tui.lab.steps import LAB_NAMESPACE
from gsb_tui.lab.verdict import SubCheck, blocked, failed, not_yet, passed
from gsb_tui.snapshot import KINDS, Kind
from gsb_tui.words import Text, t

UNSCHEDULABLE_NO_DEVICE = "cannot allocate all claims"  # the DRA plugin's per-node reason
# Scheduler reasons that clear by themselves on the next attempt (seen in the recordings).
TRANSIENT = ("is in the process of being allocated", "not created yet")


def blocked_reason(view: DraView, kinds: Iterable[Kind]) -> Text | None:
    """Why the step cannot be judged yet: a kind it needs is not synced, forbidden or unserved."""
    for kind in kinds:
        state = view.snapshot.state(kind)
        if state.usable:
            continue
        title = KINDS[kind].title
        message = state.message or state.phase
        if state.phase == "forbidden":
            return t("cluster.forbidden", kind=title, message=message)
        if state.phase == "not-served":
            return t("cluster.not_served", kind=title, message=message)
        if state.phase in ("error", "reconnecting"):
            return t("cluster.unreachable", kind=title, message=message)
        return t("cluster.syncing", kind=title)
    return None


def blocked_all(names: Iterable[str], reason: Text) -> list[SubCheck]:
    return [blocked(n, reason) for n in names]


# ------------------------------------------------------------------ driver, class, devices


def lab_class(view: DraView) -> DeviceClass | None:
    """The DeviceClass the lab uses: the one named after the driver (as the driver installs it)."""
    driver = view.lab_driver()
    if driver in view.classes:
        return view.classes[driver]
    if len(view.classes) == 1:
        return next(iter(view.classes.values()))
    for name in sorted(view.classes):
        cls = view.classes[name]
        if driver and any(driver in sel for sel in cls.selectors):
            return cls
    return None


def driver_devices(view: DraView, driver: str) -> tuple[Device, ...]:
    return tuple(d for s in view.slices if s.driver == driver for d in s.devices)


def device_name_with(view: DraView, driver: str, attribute: str, value: int) -> tuple[str, ...]:
    return tuple(
        d.name
        for d in driver_devices(view, driver)
        if (v := d.attribute(attribute)) == value and not isinstance(v, bool)
    )


def env_var_for(device: str) -> str:
    """The variable dra-example-driver sets for a device: gpu-3 -> GPU_DEVICE_3."""
    ident = device.removeprefix("gpu-").upper().replace("-", "_")
    return f"GPU_DEVICE_{ident}"


# ------------------------------------------------------------------ finding objects


def _table(view: DraView, kind: str) -> Mapping[tuple[str, str], object]:
    tables: dict[str, Mapping[tuple[str, str], object]] = {
        "Pod": view.pods,
        "ResourceClaim": view.claims,
        "ResourceClaimTemplate": view.templates,
    }
    return tables[kind]


def elsewhere(view: DraView, kind: str, name: str) -> tuple[str, ...]:
    """Namespaces other than the lab's holding an object of that kind and name."""
    return tuple(sorted(ns for ns, n in _table(view, kind) if n == name and ns != LAB_NAMESPACE))


def any_exists(view: DraView, objects: Iterable[tuple[str, str]]) -> bool:
    return any(
        (LAB_NAMESPACE, name) in _table(view, kind) or elsewhere(view, kind, name)
        for kind, name in objects
    )


def missing_object(
    view: DraView, label: str, kind: str, name: str, file: str, hint: Text | None = None
) -> SubCheck:
    """The sub-check for an object that is not in the lab namespace."""
    others = elsewhere(view, kind, name)
    if others:
        return failed(
            label,
            t("cluster.wrong_namespace", kind=kind, name=name, ns=others[0], lab=LAB_NAMESPACE),
            t("hint.wrong_namespace", kind=kind.lower(), name=name, ns=others[0], file=file),
        )
    return not_yet(
        label,
        t("cluster.not_applied", kind=kind, name=name, lab=LAB_NAMESPACE),
        hint or t("hint.apply", file=file),
    )


def claim_for_entry(view: DraView, pod: Pod, entry: PodClaim) -> Claim | None:
    """The ResourceClaim one resourceClaims entry of a pod resolves to, if it exists yet."""
    if entry.resolved_claim:
        return view.claims.get((pod.namespace, entry.resolved_claim))
    for claim in view.claims_of_pod(pod):
        if claim.pod_claim_name == entry.name and claim.owner_pod == pod.name:
            return claim
    return None


def requested_count(view: DraView, pod: Pod) -> tuple[int, bool]:
    """Devices a pod asks for over all its claims (from the claims, else their templates);
    the flag says some request uses allocationMode All (no fixed count)."""
    total, takes_all = 0, False
    for entry in pod.claims:
        claim = claim_for_entry(view, pod, entry)
        requests: tuple[Request, ...] = ()
        if claim is not None:
            requests = claim.requests
        elif entry.template_name:
            template = view.templates.get((pod.namespace, entry.template_name))
            requests = template.requests if template is not None else ()
        for req in requests:
            chosen = req.alternatives[0] if req.alternatives else req
            if chosen.allocation_mode == "All":
                takes_all = True
            else:
                total += chosen.count
    return total, takes_all


# ------------------------------------------------------------------ pods and the scheduler


def _pending_hint(message: str, pod: str) -> Text:
    if UNSCHEDULABLE_NO_DEVICE in message:
        return t("hint.no_device", pod=pod)
    if "not found" in message:
        return t("hint.claim_not_found", pod=pod)
    return t("hint.describe_pod", pod=pod, lab=LAB_NAMESPACE)


def pod_running(view: DraView, label: str, pod: Pod) -> SubCheck:
    """Running, or the plainest reason it is not (quoting the scheduler when it has spoken)."""
    name = pod.name
    if pod.deleting:
        return not_yet(label, t("pod.deleting", pod=name))
    if pod.phase == "Running":
        return passed(label)
    if pod.phase in ("Succeeded", "Failed"):
        return failed(label, t("pod.ended", pod=name, phase=pod.phase), t("hint.keep_running"))
    if not pod.node:
        said = view.scheduler_said(pod)
        message = said.message if said is not None else ""
        if not message:
            return not_yet(label, t("pod.waiting_scheduler", pod=name))
        if "not created yet" in message:
            return not_yet(label, t("pod.waiting_claim", pod=name))
        if any(words in message for words in TRANSIENT):
            return not_yet(label, t("pod.pending_says", pod=name, message=message))
        return failed(
            label, t("pod.unschedulable", pod=name, message=message), _pending_hint(message, name)
        )
    prepare = view.pod_events(pod, "FailedPrepareDynamicResources")
    if prepare:
        return failed(
            label,
            t("pod.prepare_failed", pod=name, node=pod.node, message=prepare[-1].message),
            t("hint.describe_pod", pod=name, lab=LAB_NAMESPACE),
        )
    return not_yet(label, t("pod.starting", pod=name, node=pod.node))


def container_problem(pod: Pod, entry: PodClaim) -> Text | None:
    """Common mistake 1, as the cluster shows it: no container lists the claim entry."""
    if entry not in pod.unlisted_entries:
        return None
    return t("mistake.no_container_claim", pod=pod.name, entry=entry.name)


def live_pod(
    view: DraView,
    label: str,
    name: str,
    file: str,
    *,
    template: str = "",
    claim: str = "",
) -> tuple[SubCheck, Pod | None, PodClaim | None]:
    """The pod in the lab namespace: exists, uses the template/claim asked for, passes its claim
    to a container, and is Running."""
    pod = view.pods.get((LAB_NAMESPACE, name))
    if pod is None:
        return missing_object(view, label, "Pod", name, file), None, None
    wanted = template or claim
    entry = next(
        (e for e in pod.claims if (e.template_name if template else e.claim_name) == wanted), None
    )
    if entry is None:
        other = next(
            (e for e in pod.claims if (e.claim_name if template else e.template_name) == wanted),
            None,
        )
        if other is not None:
            key = "cluster.pod_claim_for_template" if template else "cluster.pod_template_for_claim"
            reason = t(key, pod=name, name=wanted)
        else:
            used = ", ".join(e.template_name or e.claim_name for e in pod.claims) or "-"
            field = "resourceClaimTemplateName" if template else "resourceClaimName"
            reason = t("cluster.pod_uses_other", pod=name, used=used, field=field, name=wanted)
        return failed(label, reason, t("hint.recreate_pod", pod=name, file=file)), pod, None
    mistake = container_problem(pod, entry)
    if mistake is not None:
        return (
            failed(
                label, mistake, t("hint.add_container_claim", pod=name, entry=entry.name, file=file)
            ),
            pod,
            entry,
        )
    return pod_running(view, label, pod), pod, entry


def claim_allocated(view: DraView, label: str, claim: Claim, pods: Iterable[Pod]) -> SubCheck:
    """Allocated, and reserved for each pod that uses it."""
    if claim.deleting:
        return not_yet(label, t("claim.deleting", claim=claim.name))
    if not claim.allocated:
        return not_yet(label, t("claim.pending", claim=claim.name))
    reserved = {(c.name, c.uid) for c in claim.reserved_for if c.resource == "pods"}
    for pod in pods:
        if not any(
            n == pod.name and (not uid or not pod.uid or uid == pod.uid) for n, uid in reserved
        ):
            return not_yet(label, t("claim.not_reserved", claim=claim.name, pod=pod.name))
    return passed(label)
