"""The Claims table's order, k9s habits: shift+letter sorts by that column, the same key again
reverses, and the sorted column's header says so (CLAIM ↑). Unsorted, the rows keep the
namespace/name order the pane patches by key."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gsb_tui.dra.model import Claim
from gsb_tui.dra.natural import natural_key

ClaimKey = tuple[str, str]
Row = tuple[ClaimKey, tuple[str, str, str, str], str]  # key, the row's cells, its flag
SORTS = ("name", "state", "age", "devices", "consumers")
# The column whose header carries the arrow (age has no column: the claim's, with "AGE").
COLUMN_OF = {"name": 0, "state": 1, "age": 0, "devices": 2, "consumers": 3}


@dataclass(frozen=True)
class Sort:
    column: str  # one of SORTS
    reverse: bool = False


def next_sort(current: Sort | None, column: str) -> Sort:
    """The sort after pressing `column`'s key: that column, or the same reversed."""
    if current is None:
        # Unsorted is name ascending already: the first press reverses it.
        return Sort(column, reverse=column == "name")
    if current.column == column:
        return Sort(column, not current.reverse)
    return Sort(column)


def headers(columns: Sequence[str], sort: Sort | None) -> tuple[str, ...]:
    """The column headers with the sort's arrow."""
    out = list(columns)
    if sort is not None:
        arrow = "↓" if sort.reverse else "↑"
        at = COLUMN_OF[sort.column]
        out[at] = f"{out[at]} {arrow}" + ("AGE" if sort.column == "age" else "")
    return tuple(out)


def order(rows: Sequence[Row], sort: Sort, claims: Mapping[ClaimKey, Claim]) -> list[ClaimKey]:
    """The rows' keys in the sort's order (ties by name)."""

    def name(row: Row) -> tuple[object, ...]:
        return natural_key(row[1][0])

    def claim_of(row: Row) -> Claim | None:
        return claims.get(row[0])

    if sort.column == "age":
        # Ascending age is the newest first (the latest creationTimestamp); a claim with no
        # timestamp is last either way.
        stamped = [r for r in rows if (c := claim_of(r)) is not None and c.created]
        unstamped = [r for r in rows if (c := claim_of(r)) is None or not c.created]
        stamped.sort(key=lambda r: (getattr(claim_of(r), "created", ""), name(r)))
        if not sort.reverse:
            stamped.reverse()
        return [r[0] for r in (*stamped, *unstamped)]
    keys: dict[str, Callable[[Row], Any]] = {
        "name": name,
        "state": lambda r: (r[1][1], name(r)),
        "devices": lambda r: (len(getattr(claim_of(r), "devices", ())), name(r)),
        "consumers": lambda r: (not r[1][3], natural_key(r[1][3]), name(r)),
    }
    return [r[0] for r in sorted(rows, key=keys[sort.column], reverse=sort.reverse)]
