"""One device's cell in the grid: what its four lines say (device_canvas.py draws them).

╭─ gpu-3 ✚ Unhealthy ╮     the title: the device, the health a real node's kubelet
│ claim gpu-claim    │     reports when it is not Healthy (dra/health.py), the warning
│ pod pod-a, pod-b   │     marker; the body: who holds it, or the key fact of a DRA 1.36
╰──────── reserved ──╯     feature; the bottom word: the state (DraView.state)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import get_args

from rich.cells import cell_len
from rich.text import Text

from gsb_tui.dra.availability import Availability, State, format_quantity
from gsb_tui.dra.health import DeviceHealth
from gsb_tui.dra.model import DeviceId
from gsb_tui.dra.occupancy import GROUP, Occupancy
from gsb_tui.dra.warnings import DraWarning
from gsb_tui.ui.render.features import STATUSES  # said as they are, in both languages
from gsb_tui.ui.render.flags import MARK, short
from gsb_tui.ui.render.node_half import health_badge
from gsb_tui.words import text

# Where a 1.36 feature or a pool decides (dra/availability.py); worded from the catalog.
FEATURE_STATES = get_args(State)[4:]  # after free, allocated, reserved, shared
STATES = (*STATUSES, *FEATURE_STATES)


@dataclass
class Cell:
    """What one cell shows: the device's occupancy (and availability, when the device uses a
    DRA 1.36 feature), its warnings and its marks."""

    occupancy: Occupancy
    warnings: tuple[DraWarning, ...] = ()
    marked: bool = False  # a device of the selected claim
    cursor: bool = False
    availability: Availability | None = None  # DraView.availability's entry, if any
    health: DeviceHealth | None = None  # DraView.health's entry: what the kubelet reports

    @property
    def device_id(self) -> DeviceId:
        return self.occupancy.device.id

    @property
    def status(self) -> str:
        """The state DraView.state gives: availability decides where it has a say."""
        found = self.availability
        return found.state if found is not None else self.occupancy.status

    @property
    def warned(self) -> bool:
        return bool(self.warnings)

    def word(self, lang: str = "en") -> str:
        """The bottom border's word."""
        status = self.status
        return status if status in STATUSES else text(lang, f"feat.state.{status}")

    def body(self, lang: str = "en", width: int = 0) -> tuple[Text, Text]:
        """The two lines inside the border (`width`: the columns they get, 0 for any)."""
        found = self.availability
        if found is not None:
            lines = self._feature_body(found, lang, width)
            if lines is not None:
                return lines
        occ = self.occupancy
        first, second = Text(), Text()
        held = occ.holders
        if not held:
            first.append(text(lang, "cell.free"), style="bold")
            memory = occ.device.capacity.get("memory", "")
            if memory:
                first.append(f" · {memory}", style="dim")
            if occ.admin_claims:
                second.append(text(lang, "cell.admin", claim=occ.admin_claims[0].name), style="dim")
            elif found is not None and found.taints:  # a taint that only informs (effect None)
                second.append(str(found.taints[0]), style="dim")
            elif occ.device.multiple:
                second.append(text(lang, "feat.cell.shareable"), style="dim")
            return first, second
        first.append(text(lang, "cell.claim"), style="dim")
        first.append(", ".join(c.name for c in held), style="bold")
        pods = ", ".join(c.split("/", 1)[-1].replace(GROUP, "podgroup/") for c in occ.consumers)
        if pods:
            second.append(text(lang, "cell.pod"), style="dim")
            second.append(pods)
        else:
            second.append(text(lang, "cell.no-pod"), style="dim italic")
        return first, second

    def _claims(self, lang: str) -> Text:
        line = Text()
        line.append(text(lang, "cell.claim"), style="dim")
        line.append(", ".join(c.name for c in self.occupancy.holders), style="bold")
        return line

    def _feature_body(self, found: Availability, lang: str, width: int) -> tuple[Text, Text] | None:
        """The key fact of a device a 1.36 feature decides about; None: the plain lines."""
        state = found.state
        if state in ("binding", "binding-failed"):
            failed = state == "binding-failed"
            names = ", ".join(found.binding_failed if failed else found.binding_pending)
            words = text(
                lang, "feat.cell.failed" if failed else "feat.cell.waits", conditions=names
            )
            if width and cell_len(words) > width:
                words = names  # the border's word says binding; the names are the fact
            return Text(words, "bold red" if failed else "bold yellow"), self._claims(lang)
        if self.occupancy.device.multiple and self.occupancy.holders:
            return self._shares(found, lang), self._claims(lang)
        if state == "blocked":
            return self._blocked(found, lang)
        if state == "tainted":
            return self._tainted(found, lang, width)
        return None

    def _shares(self, found: Availability, lang: str) -> Text:
        n = len(found.shares)
        policies = self.occupancy.device.policies
        names = list(found.capacity_left)
        name = next((c for c in names if c in policies), names[0] if names else "")
        if not name:  # shared, but with no capacity to count
            return Text(text(lang, "feat.cell.shares.count", n=n), "bold")
        left = format_quantity(found.capacity_left[name])
        key = "feat.cell.shares.one" if n == 1 else "feat.cell.shares"
        return Text(text(lang, key, n=n, left=left), "bold")

    def _blocked(self, found: Availability, lang: str) -> tuple[Text, Text]:
        if found.blocked_by:
            device = found.blocked_by[0].device
            if len(found.blocked_by) > 1:
                device += f" +{len(found.blocked_by) - 1}"
            first = Text(text(lang, "feat.cell.blocked-by", device=device), "bold")
        else:
            first = Text(text(lang, "feat.cell.blocked"), "bold")
        counters = ", ".join(dict.fromkeys(c.rsplit("/", 1)[-1] for c in found.short_counters))
        return first, Text(text(lang, "feat.cell.short", counters=counters), "dim")

    def _tainted(self, found: Availability, lang: str, width: int) -> tuple[Text, Text]:
        taints = found.blocking_taints
        first = taints[0]
        more = f" +{len(taints) - 1}" if len(taints) > 1 else ""
        note = text(lang, "feat.cell.toleration")
        whole = f"{first}{more}"
        if not width or cell_len(whole) <= width:
            return Text(whole, "bold"), Text(note, "dim")
        # Too long for one line: split it where it still reads as one taint, whole.
        value = f"={first.value}" if first.value else ""
        if cell_len(f"{first.key}{value}:") <= width:
            return Text(f"{first.key}{value}:", "bold"), Text(f"{first.effect}{more}", "bold")
        return Text(first.key, "bold"), Text(f"{value}:{first.effect}{more}", "bold")

    @property
    def badge(self) -> str:
        """The health mark the title carries ("" when Healthy or not reported)."""
        return health_badge(self.health.health if self.health is not None else None)

    def title(self, lang: str = "en") -> str:
        badge = f" {self.badge}" if self.badge else ""
        flag = f" {MARK} {short(self.warnings, lang)}" if self.warnings else ""
        return f"{self.occupancy.device.name}{badge}{flag}"
