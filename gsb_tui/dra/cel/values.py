"""A device's quantities and semantic versions as the interpreter holds them, parsed once per
text (devices repeat "80Gi" and "1.2.3").

A version's build metadata takes no part in precedence and is dropped; a quantity keeps its
exact value and apimachinery's int64Amount form, not its text.
"""

from __future__ import annotations

from functools import lru_cache

from gsb_tui.dra.cel.quantity import Quantity, parse_quantity
from gsb_tui.dra.cel.semver import Semver, parse_semver


@lru_cache(maxsize=4096)
def quantity_value(text: str) -> Quantity:
    """A capacity's CEL value; QuantityError when the text is not a quantity."""
    q = parse_quantity(text)
    return Quantity(q.value, q.scaled)


@lru_cache(maxsize=1024)
def semver_value(text: str) -> Semver:
    """A version attribute's CEL value; SemverError when the text is not a version."""
    v = parse_semver(text)
    return parse_semver(str(Semver(v.major, v.minor, v.patch, v.pre)))
