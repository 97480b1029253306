"""What evaluating selectors on a device gives (its own module: the per-device cache keeps
outcomes, the runtime makes them)."""

from __future__ import annotations

from dataclasses import dataclass

from gsb_tui.dra.model import DeviceId


@dataclass(frozen=True, slots=True)
class CelOutcome:
    """One device's result for one selector (or for all selectors of a request). Slots: there
    are one per device and selector, and fewer objects keep the collector's walks short."""

    device: DeviceId
    matched: bool
    error: str = ""  # "" unless a runtime error (then matched is False)
    # The time budget ran out before the device was evaluated (error says so): not a verdict.
    unfinished: bool = False
