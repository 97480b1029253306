"""Text about one ResourceSlice or one of its devices: the `d` describe of a slice and the
`y` YAML of a device (its entry in the slice, under a line naming the slice it is in)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text

from gsb_tui.dra.model import Slice
from gsb_tui.dra.view import DraView
from gsb_tui.ui.render.describe import to_yaml
from gsb_tui.ui.render.features import counter_lines, device_features, slice_where, state_word
from gsb_tui.ui.render.node_half import HEALTH_STYLE, health_badge
from gsb_tui.words import text


def _heading(out: Text, title: str) -> None:
    out.append(f"{title}\n", style="bold underline")


def device_entry(slice_: Slice, device: str) -> Mapping[str, Any] | None:
    """The device's entry in the slice's spec.devices, as the server sent it."""
    spec = slice_.raw.get("spec")
    entries = spec.get("devices") if isinstance(spec, Mapping) else None
    for entry in entries if isinstance(entries, list | tuple) else ():
        if isinstance(entry, Mapping) and entry.get("name") == device:
            return entry
    return None


def device_yaml(slice_: Slice, device: str) -> str:
    """One device's YAML: a comment line saying where it is published, then its entry."""
    entry = device_entry(slice_, device)
    where = f"# ResourceSlice {slice_.name}: driver {slice_.driver}, pool {slice_.pool}"
    if slice_.node:
        where += f", node {slice_.node}"
    return f"{where}\n" + to_yaml(entry if entry is not None else {"name": device})


def describe_slice(view: DraView, slice_: Slice, lang: str = "en") -> Text:
    out = Text()
    out.append("ResourceSlice ", style="bold")
    out.append(f"{slice_.name}\n", style="bold")
    where = text(
        lang,
        "slice.where",
        driver=slice_.driver,
        node=slice_where(slice_, lang),
        pool=slice_.pool,
        generation=slice_.generation,
        count=slice_.slice_count,
    )
    out.append(f"{where}\n")
    spec = slice_.raw.get("spec")
    spec = spec if isinstance(spec, dict) else {}
    for field in ("partitionTypeAttribute", "skipNodeOperations"):  # 1.37, alpha gates
        value = spec.get(field)
        if value:
            shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
            out.append(f"{field} ", style="dim")
            out.append(f"{shown}\n")
    for line in counter_lines(view, slice_, lang):
        out.append(f"{line}\n", style="cyan")
    if slice_.shared_counters and not slice_.devices:
        return out  # a counter-only slice: the lines above are all it publishes
    _heading(out, text(lang, "h.devices"))
    for device in slice_.devices:
        out.append(f"  {device.name} ", style="bold")
        out.append(f"{state_word(view, device, lang)}  ", style="dim")
        found = view.health.devices.get(device.id)
        if found is not None and health_badge(found.health):
            out.append(f"{health_badge(found.health)}  ", style=HEALTH_STYLE[found.health])
        attrs = " ".join(f"{k}={v}" for k, v in device.attributes.items())
        caps = " ".join(f"{k}={v}" for k, v in device.capacity.items())
        out.append(f"{attrs}  {caps}\n")
        for field, value in device_features(device, slice_.per_device_node_selection):
            out.append(f"    {field} ", style="dim")
            out.append(f"{value}\n")
    return out
