"""Reverse indexes kept from build to build: a key → the set of things that read it (the pods
naming a claim, the claims a warning looked up). A set left empty is dropped, so the index
holds only what some reader still reads."""

from __future__ import annotations

from typing import TypeVar

K = TypeVar("K")
R = TypeVar("R")


def note(readers: dict[K, set[R]], key: K, reader: R) -> None:
    readers.setdefault(key, set()).add(reader)


def forget(readers: dict[K, set[R]], key: K, reader: R) -> None:
    found = readers.get(key)
    if found is not None:
        found.discard(reader)
        if not found:
            del readers[key]
