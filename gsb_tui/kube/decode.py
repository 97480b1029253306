"""JSON from the API server, decoded with orjson (about 3x the standard library's speed on
Kubernetes objects, measured; decoding was 13 % of the first frame at 10,000 devices).

What orjson refuses but the standard library reads (NaN, lone surrogates) goes to the standard
library, so a hostile body gets the same answer as before: a value, or ValueError /
RecursionError for the caller to word. Integers past 64 bits come back as floats; the API
server never sends them (its integers are int64)."""

from __future__ import annotations

import json
from typing import Any

import orjson


def loads(data: bytes | str) -> Any:
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(data)
