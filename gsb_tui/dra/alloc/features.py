"""The allocator's features (`structured.Features`), from the scheduler's feature gates.

Kubernetes 1.36 turns all six on by default (pkg/features/kube_features.go at v1.36.3), so
kube-scheduler runs the "incubating" allocator; DRAListTypeAttributes (alpha, off) would
select "experimental", which this package does not mirror.
"""

from __future__ import annotations

from dataclasses import dataclass


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


DEFAULT_FEATURES = Features()
