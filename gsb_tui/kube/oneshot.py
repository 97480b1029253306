"""One consistent snapshot for the headless commands (`check`, `match`, `record`).

A read is done when every kind is synced, forbidden or not served. It is hopeless, and said
at once, when the kubeconfig cannot be used (a CA that is not PEM, an exec plugin that fails)
or a kind reports an error retrying will not mend (credentials refused, not a Kubernetes API
server); and after GIVE_UP_AFTER_S when every kind keeps failing (nothing listening).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Literal

from gsb_tui.kube.config import KubeconfigError, Target
from gsb_tui.kube.live import LiveSource
from gsb_tui.kube.store import Change, Store
from gsb_tui.snapshot import Kind, KindState, Snapshot
from gsb_tui.words import Text, t

SETTLED = frozenset({"synced", "forbidden", "not-served"})
FAILING = frozenset({"reconnecting", "error"})
GIVE_UP_AFTER_S = 3.0  # every kind failing this long: the server is not there

Verdict = Literal["wait", "settled", "fatal", "failing"]


class Unreachable(RuntimeError):
    """The cluster could not be read; `text` says why, in both languages."""

    def __init__(self, message: Text) -> None:
        super().__init__(str(message))
        self.text = message


def join(parts: Sequence[str], sep: str = "; ") -> Text:
    """Texts (or plain strings) joined, keeping both languages."""
    en = sep.join(str(p) for p in parts)
    ko = sep.join(p.ko if isinstance(p, Text) else str(p) for p in parts)
    return Text(en, ko)


class Progress:
    """How a one-shot read of `kinds` stands, from the states they report."""

    def __init__(self, kinds: Sequence[Kind], give_up_after: float | None = None) -> None:
        self.kinds = tuple(kinds)
        self.give_up_after = GIVE_UP_AFTER_S if give_up_after is None else give_up_after
        self._failing_since: float | None = None

    def judge(self, snap: Snapshot, now: float | None = None) -> Verdict:
        phases = [snap.state(k).phase for k in self.kinds]
        if all(p in SETTLED for p in phases):
            return "settled"
        if any(p == "error" for p in phases):
            return "fatal"
        if all(p in FAILING for p in phases):
            now = time.monotonic() if now is None else now
            if self._failing_since is None:
                self._failing_since = now
            if now - self._failing_since >= self.give_up_after:
                return "failing"
        else:
            self._failing_since = None
        return "wait"

    def reason(self, snap: Snapshot) -> Text:
        """The distinct messages of the kinds not settled (errors first); when every kind
        settled without one read, why the first was refused (a 403 says 403); else "no
        answer"."""
        states = [snap.state(k) for k in self.kinds]
        ordered = sorted(states, key=lambda s: (s.phase != "error", str(s.message)))
        messages: list[str] = []
        for state in ordered:
            if state.phase not in SETTLED and state.message and state.message not in messages:
                messages.append(state.message)
        if messages:
            return join(messages)
        refused = [s for s in states if s.phase in ("forbidden", "not-served") and s.message]
        return join([refused_words(refused[0])]) if refused else t("kube.no-answer")

    def nothing_read(self, snap: Snapshot) -> bool:
        """Every kind settled and none was read (all forbidden or not served)."""
        return not any(snap.state(k).phase == "synced" for k in self.kinds)


def begin_snapshot(
    target: Target,
    kinds: Iterable[Kind] = tuple(Kind),
    field_selectors: Mapping[Kind, str] | None = None,
) -> LiveSource:
    """The lists of a one-shot read asked for now (LiveSource.begin_lists), before the caller
    imports what it needs to judge them; fetch_snapshot(source=...) takes the answers."""
    source = LiveSource(target, tuple(kinds), watching=False, field_selectors=field_selectors)
    source.begin_lists()
    return source


async def fetch_snapshot(
    target: Target,
    kinds: Iterable[Kind] = tuple(Kind),
    timeout: float = 8.0,
    source: LiveSource | None = None,
    field_selectors: Mapping[Kind, str] | None = None,
    listed: Callable[[Snapshot], None] | None = None,
) -> Snapshot:
    """List every kind once; return when each is synced, forbidden or not served.
    field_selectors: kinds read in the target's namespace, only what the selector keeps.
    listed: told of the snapshot so far when a kind's list is in and others are still on
    their way (`why` parses it meanwhile)."""
    kinds = tuple(kinds) if source is None else source.kinds
    store = Store(kinds)
    source = source or LiveSource(target, kinds, watching=False, field_selectors=field_selectors)
    if source.config_error:
        raise KubeconfigError(source.config_error)
    progress = Progress(kinds)
    done = asyncio.Event()
    outcome: list[Verdict | Literal["config"]] = []
    answered: list[bool] = []  # the server's version was asked (answered or not)
    settled: list[Verdict] = []

    def emit(change: Change) -> None:
        store.apply(change)
        if change.type == "SERVER":
            answered.append(True)
        if done.is_set():
            return
        if source.config_error:
            outcome.append("config")
            done.set()
            return
        verdict = settled[0] if settled else progress.judge(store.snapshot())
        if verdict == "settled" and not answered:
            settled[:] = [verdict]  # every list is in: the version's answer is what is left
            return
        if verdict != "wait":
            outcome.append(verdict)
            done.set()
        elif listed is not None and change.type == "SYNCED":
            listed(store.snapshot())

    task = asyncio.create_task(source.run(emit))
    task.add_done_callback(lambda _task: done.set())  # run() ended early: a bug, said below
    started = time.monotonic()
    try:
        await asyncio.wait_for(done.wait(), timeout)
    except TimeoutError:
        outcome.append("failing")
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
    if outcome and outcome[0] == "config":
        raise KubeconfigError(source.config_error)
    reason = progress.reason(store.snapshot())
    if outcome and outcome[0] == "settled":
        if progress.nothing_read(store.snapshot()):  # exit 2 for every command, as unusable
            raise Unreachable(t("kube.unusable", server=source.info.server, reason=reason))
        return store.snapshot()
    if outcome and outcome[0] == "fatal":
        raise Unreachable(t("kube.unusable", server=source.info.server, reason=reason))
    seconds = f"{time.monotonic() - started:.0f}"
    raise Unreachable(
        t("kube.unreachable", server=source.info.server, seconds=seconds, reason=reason)
    )


def refused_words(state: KindState) -> str:
    """A settled kind's message as a command says it: a 403 as one (the state holds the
    API server's own words, the phase says forbidden)."""
    if state.phase == "forbidden":
        return t("wire.forbidden", message=state.message)
    return state.message


def unreadable(snapshot: Snapshot, kinds: Iterable[Kind]) -> Text | None:
    """The first of `kinds` the snapshot could not read, worded (None: all were read)."""
    for kind in kinds:
        state = snapshot.state(kind)
        if state.phase != "synced":
            return t("match.cannot-read", kind=kind.value, message=refused_words(state))
    return None
