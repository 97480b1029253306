"""Names in the order a person counts them: lab-node-2 before lab-node-10, gpu-9 before gpu-10.

Node, pool and device names carry numbers the API server sorts as text ("lab-node-10" before
"lab-node-2"); every pane that lists them by name sorts with `natural_key` so they read alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_RUNS = re.compile(r"(\d+)")

NaturalKey = tuple[tuple[int, int | str, str], ...]


def natural_key(name: str) -> NaturalKey:
    """A sort key splitting `name` into text and number runs; numbers compare by value.

    Each run is tagged (0 a number, 1 text) so a number never meets text in a comparison,
    and numbers come first, as `ls -v` has them; leading zeros break ties in text order
    ("gpu-01", then "gpu-1"); text compares without case, its spelling breaking ties."""
    key: list[tuple[int, int | str, str]] = []
    for index, part in enumerate(_RUNS.split(name)):
        if index % 2:  # split with one group alternates text, number, text, ...
            key.append((0, int(part), part))
        elif part:
            key.append((1, part.casefold(), part))
    return tuple(key)


def natural_sorted(names: Iterable[str]) -> list[str]:
    return sorted(names, key=natural_key)
