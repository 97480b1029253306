"""A practice DRA driver for the `binding` profile: it makes devices "ready" after a delay.

Devices published with `bindingConditions` make the scheduler allocate and reserve a claim,
then wait before binding the pod until every condition is True in the claim's
`status.devices[]` (or a `bindingFailureConditions` entry is True, which makes it give up and
try again). A real driver would attach the device first (dra-example-driver's controller has a
BindingConditions plugin for this); this one watches claims and, `delay` seconds after it sees
an allocation with binding conditions for its driver, writes the conditions True — or, told to
fail, the first failure condition. It writes only through the practice cluster's own REST client
(`ControlPlane.rest()`: the cluster's CA and token), so it cannot touch any other cluster.
"""

from __future__ import annotations

import copy
import datetime as dt
import threading
import time
from collections.abc import Callable
from typing import Any

from gsb_tui.cluster.rest import Rest, RestError
from gsb_tui.cluster.seed import DRIVER

CLAIMS = "/apis/resource.k8s.io/v1/resourceclaims"
Log = Callable[[str], None]
Key = tuple[str, str]  # (claim uid, allocation timestamp): one allocation of one claim


def _targets(claim: dict[str, Any], driver: str) -> list[dict[str, Any]]:
    """Allocation results of `driver` that carry binding conditions."""
    allocation = (claim.get("status") or {}).get("allocation") or {}
    results = (allocation.get("devices") or {}).get("results") or []
    return [r for r in results if r.get("driver") == driver and r.get("bindingConditions")]


def _same_device(entry: dict[str, Any], result: dict[str, Any]) -> bool:
    fields = ("driver", "pool", "device", "shareID")
    return all(entry.get(f) == result.get(f) for f in fields)


def _true(entry: dict[str, Any] | None, condition: str) -> bool:
    return any(
        c.get("type") == condition and c.get("status") == "True"
        for c in (entry or {}).get("conditions") or []
    )


def settled(claim: dict[str, Any], driver: str = DRIVER) -> bool:
    """Every result of ours is ready (all conditions True) or failed (a failure condition)."""
    devices = (claim.get("status") or {}).get("devices") or []
    for result in _targets(claim, driver):
        entry = next((d for d in devices if _same_device(d, result)), None)
        ready = all(_true(entry, c) for c in result["bindingConditions"])
        failed = any(_true(entry, c) for c in result.get("bindingFailureConditions") or [])
        if not (ready or failed):
            return False
    return True


def allocation_key(claim: dict[str, Any]) -> Key:
    allocation = (claim.get("status") or {}).get("allocation") or {}
    return (claim["metadata"]["uid"], str(allocation.get("allocationTimestamp", "")))


def status_devices(
    claim: dict[str, Any], now: str, fail: bool = False, driver: str = DRIVER
) -> list[dict[str, Any]]:
    """The claim's `status.devices` with our conditions set on each of our results."""
    devices = copy.deepcopy((claim.get("status") or {}).get("devices") or [])
    for result in _targets(claim, driver):
        entry = next((d for d in devices if _same_device(d, result)), None)
        if entry is None:
            entry = {k: result[k] for k in ("driver", "pool", "device", "shareID") if k in result}
            devices.append(entry)
        types = (result.get("bindingFailureConditions") or [])[:1] if fail else []
        types = types or result["bindingConditions"]
        conditions = [c for c in entry.get("conditions") or [] if c.get("type") not in types]
        for kind in types:
            conditions.append(
                {
                    "type": kind,
                    "status": "True",
                    "reason": "PracticeDriverFailed" if fail else "PracticeDriverReady",
                    "message": "gsb-tui binding-driver: "
                    + ("told to fail (--fail)" if fail else "device attached"),
                    "lastTransitionTime": now,
                }
            )
        entry["conditions"] = conditions
    return devices


def _now() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class BindingDriver:
    def __init__(
        self,
        rest: Rest,
        delay: float = 2.0,
        fail: bool = False,
        log: Log = print,
        driver: str = DRIVER,
    ) -> None:
        self.rest = rest
        self.delay = delay
        self.fail = fail
        self.log = log
        self.driver = driver
        self._lock = threading.Lock()
        self._due: dict[Key, tuple[float, str, str]] = {}  # key -> (when, namespace, name)
        self._done: set[Key] = set()

    # ---- what the watch sees ---------------------------------------------------------------

    def note(self, claim: dict[str, Any]) -> None:
        if not _targets(claim, self.driver) or settled(claim, self.driver):
            return
        key = allocation_key(claim)
        meta = claim["metadata"]
        with self._lock:
            if key not in self._due and key not in self._done:
                self._due[key] = (time.monotonic() + self.delay, meta["namespace"], meta["name"])
                self.log(
                    f"claim {meta['namespace']}/{meta['name']}: allocated with binding "
                    f"conditions; answering in {self.delay:g} s"
                )

    def forget(self, claim: dict[str, Any]) -> None:
        uid = claim["metadata"].get("uid")
        with self._lock:
            for key in [k for k in self._due if k[0] == uid]:
                del self._due[key]

    def _take_due(self) -> list[tuple[Key, str, str]]:
        now = time.monotonic()
        with self._lock:
            ready = [(k, ns, n) for k, (when, ns, n) in self._due.items() if when <= now]
            for key, _, _ in ready:
                del self._due[key]
        return ready

    # ---- what it writes --------------------------------------------------------------------

    def answer(self, namespace: str, name: str, key: Key) -> None:
        """Write the conditions for one allocation (if it is still the current one)."""
        path = f"/apis/resource.k8s.io/v1/namespaces/{namespace}/resourceclaims/{name}"
        try:
            claim = self.rest.get(path)
        except RestError as exc:
            if exc.status == 404:
                return
            raise
        if allocation_key(claim) != key or settled(claim, self.driver):
            return
        body = {
            "metadata": {"resourceVersion": claim["metadata"]["resourceVersion"]},
            "status": {"devices": status_devices(claim, _now(), self.fail, self.driver)},
        }
        self.rest.request("PATCH", f"{path}/status", body)
        with self._lock:
            self._done.add(key)
        what = "failure condition" if self.fail else "binding conditions"
        self.log(f"claim {namespace}/{name}: {what} set True")

    # ---- loops -----------------------------------------------------------------------------

    def _watch(self, stop: threading.Event) -> None:
        complained = False
        while not stop.is_set():
            try:
                listing = self.rest.get(CLAIMS)
                version = str(listing.get("metadata", {}).get("resourceVersion", ""))
                for item in listing.get("items") or []:
                    self.note(item)
                complained = False
                while not stop.is_set():
                    for event in self.rest.watch(CLAIMS, version, timeout_s=60):
                        obj = event.get("object") or {}
                        if event.get("type") == "ERROR":  # e.g. 410 Gone: list again
                            raise RestError(int(obj.get("code") or 0), str(obj.get("message")))
                        version = str(obj.get("metadata", {}).get("resourceVersion", version))
                        if event.get("type") == "DELETED":
                            self.forget(obj)
                        else:
                            self.note(obj)
            except (RestError, OSError, ValueError, KeyError) as exc:
                if not complained:
                    self.log(f"watching claims failed ({exc}); retrying")
                    complained = True
                stop.wait(1.0)

    def run(self, stop: threading.Event) -> None:
        """Watch and answer until `stop` is set."""
        mode = "failure condition" if self.fail else "binding conditions"
        self.log(f"watching claims of {self.driver}: {mode} True after {self.delay:g} s")
        threading.Thread(target=self._watch, args=(stop,), daemon=True).start()
        while not stop.wait(0.1):
            for key, namespace, name in self._take_due():
                try:
                    self.answer(namespace, name, key)
                except (RestError, OSError, ValueError) as exc:  # conflict, API restart: retry
                    self.log(f"claim {namespace}/{name}: {exc}; trying again")
                    with self._lock:
                        self._due[key] = (time.monotonic() + 0.5, namespace, name)
