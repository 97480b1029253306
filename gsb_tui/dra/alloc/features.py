"""The allocator's features (`structured.Features`) and the release whose behaviour it follows.

The scheduler's feature gates give the features; the server's version (`/version`) gives the
release, because patch and minor releases changed what the allocator decides without a gate
(read in k8s.io/dynamic-resource-allocation v0.36.3, v0.36.4, v0.36.5 and v0.37.2):
- v1.36.4: counters are kept per pool *ID* (driver and pool name), no longer per pool name;
- v1.36.5: the per-claim limit of 32 results is checked request by request ("adding N devices
  exceeds the claim limit"), no longer once per claim;
- v1.37: CEL runtime errors name the device; All-mode candidates are screened by static capacity
  only (so a device whose capacity is used up fails the request); a shared device whose shares
  consume no capacity is "in use" (its counters are not charged again); capacity errors stop
  the attempt; slices whose devices declare compatibility groups are ignored while
  DRADeviceCompatibilityGroups is off (their pool is then incomplete); requests with derived
  attributes are refused. DRAFractionalCapacityRange (milli-unit ranges) is beta in 1.37 but
  off by default there: its default-on entry needs compatibility version 1.37, and a 1.37
  binary's is 1.36 (seen on v1.37.2: a share of 600m in 500m/250m steps took 1).
Both minors run the "incubating" allocator with their default gates; gates that select the
"experimental" one (DRAListTypeAttributes, DRADeviceCompatibilityGroups, DRADerivedAttributes,
DRAOptionalNodeOperations) are not mirrored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

Release = tuple[int, int, int]

OLDEST: Release = (1, 36, 0)
DEFAULT_RELEASE: Release = (1, 36, 5)  # the lab's k3s and the practice cluster's default
NEWEST: Release = (1, 37, 2)  # the newest release mirrored; later ones are judged as it


@dataclass(frozen=True)
class Features:
    admin_access: bool = True  # DRAAdminAccess
    prioritized_list: bool = True  # DRAPrioritizedList
    partitionable_devices: bool = True  # DRAPartitionableDevices
    device_taints: bool = True  # DRADeviceTaints
    device_binding_and_status: bool = (
        True  # DRADeviceBindingConditions + DRAResourceClaimDeviceStatus
    )
    consumable_capacity: bool = True  # DRAConsumableCapacity
    extended: bool = True  # DRAExtendedResource (the plugin's, not the allocator's)
    fractional_capacity_range: bool = False  # DRAFractionalCapacityRange (1.37: beta, off)
    compatibility_groups: bool = False  # DRADeviceCompatibilityGroups (1.37: alpha, off)
    derived_attributes: bool = False  # DRADerivedAttributes (1.37: alpha, off)
    release: Release = DEFAULT_RELEASE

    @property
    def counters_by_pool_id(self) -> bool:
        return self.release >= (1, 36, 4)

    @property
    def claim_limit_per_request(self) -> bool:
        return self.release >= (1, 36, 5)

    @property
    def since_137(self) -> bool:
        return self.release >= (1, 37, 0)

    @property
    def name(self) -> str:
        return "v{}.{}.{}".format(*self.release)


DEFAULT_FEATURES = Features()

_VERSION = re.compile(r"v?(\d+)\.(\d+)(?:\.(\d+))?")


def parse_release(version: str | None) -> Release | None:
    """`v1.37.2`, `v1.36.5+k3s1`, `1.38.0-beta.0` → (1, 37, 2) …; None when not a version."""
    found = _VERSION.match((version or "").strip())
    if not found:
        return None
    return (int(found[1]), int(found[2]), int(found[3] or 0))


def features_for(version: str | None) -> Features:
    """The features and behaviour a server of `version` runs with its default gates; the
    default release when the version is unknown, the nearest mirrored one outside the range."""
    release = parse_release(version) or DEFAULT_RELEASE
    release = max(OLDEST, min(release, NEWEST))
    return replace(DEFAULT_FEATURES, release=release)


def mirrored(version: str | None) -> bool:
    """True when `version` is a release whose behaviour is mirrored as it is (not clamped)."""
    release = parse_release(version)
    return release is not None and OLDEST <= release <= NEWEST
