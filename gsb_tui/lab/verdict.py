"""What a step check returns: sub-checks, each ok / failed / not yet, and the step's verdict."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from gsb_tui.words import EMPTY, Text

# "cannot-judge": a kind the step needs is not synced (or forbidden), so red would be a lie.
Status = Literal["not-started", "in-progress", "green", "broken", "cannot-judge"]
STATUSES: tuple[Status, ...] = ("not-started", "in-progress", "green", "broken", "cannot-judge")


@dataclass(frozen=True)
class SubCheck:
    name: str  # short and stable: "slices.txt", "driver", "cluster: dra-1"
    ok: bool | None  # None = not yet (nothing wrong, just not done or not judgeable)
    reason: Text = EMPTY  # empty when ok
    hint: Text = EMPTY  # what to do about it
    blocked: bool = False  # not judged because the cluster data is not there (sync, RBAC)


def passed(name: str) -> SubCheck:
    return SubCheck(name, True)


def failed(name: str, reason: Text, hint: Text = EMPTY) -> SubCheck:
    return SubCheck(name, False, reason, hint)


def not_yet(name: str, reason: Text, hint: Text = EMPTY) -> SubCheck:
    return SubCheck(name, None, reason, hint)


def blocked(name: str, reason: Text) -> SubCheck:
    return SubCheck(name, None, reason, EMPTY, blocked=True)


@dataclass(frozen=True)
class Verdict:
    step: int
    ok: bool
    status: Status
    subchecks: tuple[SubCheck, ...]
    reason: Text  # the first failing (else first not-yet) sub-check's reason; empty when ok
    hint: Text  # what to do next


def verdict(
    step: int, subchecks: Iterable[SubCheck], started: bool, done_hint: Text = EMPTY
) -> Verdict:
    subs = tuple(subchecks)
    failing = next((s for s in subs if s.ok is False), None)
    waiting = next((s for s in subs if s.ok is None), None)
    if failing is not None:
        status: Status = "broken"
    elif any(s.blocked for s in subs):
        status = "cannot-judge"
        waiting = next(s for s in subs if s.blocked)
    elif waiting is None:
        status = "green"
    elif not started:
        status = "not-started"
    else:
        status = "in-progress"
    first = failing or waiting
    if first is None:
        return Verdict(step, True, "green", subs, EMPTY, done_hint)
    return Verdict(step, False, status, subs, first.reason, first.hint)
